#pragma once
/// \file Small planar-kinematics helpers shared by the contact geometry (internal).
///
/// A planar body has absolute coordinates q = (x, y, θ) [m, m, rad] (Nikravesh): a point with
/// body-fixed coordinates s′ sits at r = (x, y) + A(θ) s′, A(θ) = [[cos θ, −sin θ], [sin θ,
/// cos θ]], and moves with ṙ = (ẋ, ẏ) + θ̇ S A(θ) s′, where S = [[0, −1], [1, 0]] turns a
/// vector by +90°. Hence ∂r/∂q = [I₂, S ρ] with ρ = r − (x, y).

#include <Eigen/Core>
#include <cmath>

namespace stickslip::dynamics::contact_detail {

/// S v: v turned by +90°.
inline Eigen::Vector2d perp(const Eigen::Vector2d& v) { return {-v.y(), v.x()}; }

/// a × b (z-component): a_x b_y − a_y b_x = (S a)ᵀ b.
inline double cross(const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
  return a.x() * b.y() - a.y() * b.x();
}

/// A(θ) s′. θ = 0 (the ground, most often) skips the sine and cosine: exact, and these run
/// several times per contact and time step.
inline Eigen::Vector2d rotate(double theta, const Eigen::Vector2d& local) {
  if (theta == 0.0) return local;
  const double c = std::cos(theta), s = std::sin(theta);
  return {c * local.x() - s * local.y(), s * local.x() + c * local.y()};
}

/// 1×3 row d(uᵀ ṙ)/d q̇ of a point of a body at offset ρ = r − (x, y), for a direction u held
/// fixed: (u_x, u_y, uᵀ S ρ) = (u_x, u_y, ρ × u).
inline Eigen::RowVector3d directionRow(const Eigen::Vector2d& u, const Eigen::Vector2d& rho) {
  return {u.x(), u.y(), cross(rho, u)};
}

/// d/dt (directionRow(u, ρ)) · q̇_k for a body moving with q̇_k = (ẋ, ẏ, θ̇), given u̇ and ρ̇:
/// u̇ᵀ (ẋ, ẏ) + (ρ̇ × u + ρ × u̇) θ̇.
inline double directionRowRate(const Eigen::Vector2d& u, const Eigen::Vector2d& udot,
                               const Eigen::Vector2d& rho, const Eigen::Vector2d& rhodot,
                               const Eigen::Vector3d& qdot) {
  return udot.dot(qdot.head<2>()) + (cross(rhodot, u) + cross(rho, udot)) * qdot.z();
}

}  // namespace stickslip::dynamics::contact_detail
