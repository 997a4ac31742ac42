#pragma once
/// \file Point-on-line contact between planar rigid bodies in absolute coordinates
/// q_k = (x_k, y_k, θ_k): a point P fixed in body i against a straight line fixed in body j
/// (or in the ground). Used for slider corners against guide walls (translational clearance
/// joints) and for blocks on belts or inclines.
///
/// With r_P = R_i + A_i s′_P the point, r_Q = R_j + A_j s′_Q a point of the line and
/// n = A_j n′ its unit normal (pointing to the free side), t = S n (n turned by +90°):
///   gap                 g = nᵀ (r_P − r_Q)         (> 0 apart, < 0 penetration δ = −g)
///   tangential position s = tᵀ (r_P − r_Q)
///   relative velocity   v = ṙ_P − v_j(P),  v_j(P) = Ṙ_j + θ̇_j S (r_P − R_j), the velocity of
///                       the material point of body j under P
///   normal, tangential  ġ = nᵀ v,  v_t = tᵀ v = ṡ
/// (ṅ = θ̇_j t and ṫ = −θ̇_j n make the rotation terms of ġ and ṡ equal those of nᵀv and tᵀv.)
/// Jacobian rows, q = (q_i, q_j) and ρ_k = r_P − R_k:
///   J_n = ∂g/∂q = [nᵀ, ρ_i × n, −nᵀ, −ρ_j × n],   J_t = ∂s/∂q = [tᵀ, ρ_i × t, −tᵀ, −ρ_j × t]
/// so ġ = J_n q̇, v_t = J_t q̇, and a contact force f = Fₙ n + Fₜ t on body i at P, with −f on
/// body j at the same point, has the generalized forces Jᵀ (Fₙ, Fₜ) (virtual power
/// fᵀ v = Fₙ ġ + Fₜ v_t). A repulsive normal force is Fₙ ≥ 0.
/// For acceleration-level formulations (event-driven LCP, Baumgarte) the kinematics also give
/// J̇ q̇, so that g̈ = J_n q̈ + (J̇ q̇)₀ and v̇_t = J_t q̈ + (J̇ q̇)₁.

#include <Eigen/Core>
#include <string_view>

namespace stickslip::dynamics {

/// The fixed description: a point of body i and a line of body j, in body coordinates.
struct PointLineContact {
  Eigen::Vector2d point_on_i = Eigen::Vector2d::Zero();       ///< s′_P [m], in body i
  Eigen::Vector2d line_point_on_j = Eigen::Vector2d::Zero();  ///< s′_Q [m], in body j
  /// n′, unit normal of the line in body j, pointing to the side where the point is free.
  Eigen::Vector2d line_normal_on_j = Eigen::Vector2d::UnitY();

  /// Throws std::invalid_argument for a non-finite entry or |n′| not 1 within 1e-9.
  void validate(std::string_view who = "dynamics::PointLineContact") const;
};

/// Gap, directions, relative velocities and Jacobian of a PointLineContact at (q, q̇).
template <int kCols>
struct PointLineKinematicsT {
  double gap = 0.0;                  ///< g [m]: > 0 apart, < 0 penetrating
  double gap_rate = 0.0;             ///< ġ = J_n q̇ [m/s]: normal relative velocity
  double tangential_velocity = 0.0;  ///< v_t = J_t q̇ [m/s]
  Eigen::Vector2d normal = Eigen::Vector2d::Zero();   ///< n, world frame
  Eigen::Vector2d tangent = Eigen::Vector2d::Zero();  ///< t = S n, world frame
  Eigen::Vector2d point = Eigen::Vector2d::Zero();    ///< r_P [m], world frame
  /// Row 0: J_n, row 1: J_t; columns (x_i, y_i, θ_i[, x_j, y_j, θ_j]).
  Eigen::Matrix<double, 2, kCols> jacobian = Eigen::Matrix<double, 2, kCols>::Zero();
  /// J̇ q̇ [m/s²], the rows' time derivatives along the motion applied to q̇.
  Eigen::Vector2d jdot_qdot = Eigen::Vector2d::Zero();

  double penetration() const { return -gap; }           ///< δ = −g [m]
  double penetrationRate() const { return -gap_rate; }  ///< δ̇ = −ġ [m/s]
  /// World force on body i at P for normal and tangential components (Fₙ, Fₜ) [N].
  Eigen::Vector2d forceOnI(double fn, double ft) const { return fn * normal + ft * tangent; }
};
using PointLineKinematics = PointLineKinematicsT<6>;        ///< line on a moving body j
using PointGroundLineKinematics = PointLineKinematicsT<3>;  ///< line fixed in the ground

/// A body's pose q = (x, y, θ), velocity q̇ and rotation A(θ) as (cos θ, sin θ): computed once
/// per body when several contacts share it (a slider's corners), not once per contact.
struct PlanarBodyState {
  Eigen::Vector3d q = Eigen::Vector3d::Zero(), qdot = Eigen::Vector3d::Zero();
  double cos = 1.0, sin = 0.0;

  static PlanarBodyState at(const Eigen::Vector3d& q, const Eigen::Vector3d& qdot);
  /// A(θ) s′.
  Eigen::Vector2d rotate(const Eigen::Vector2d& local) const {
    return {cos * local.x() - sin * local.y(), sin * local.x() + cos * local.y()};
  }
};

/// Point of body i (pose q_i, velocity q̇_i) against the line of body j (q_j, q̇_j).
/// With drift = false J̇ q̇ is not computed (left NaN): velocity-level schemes never need it.
/// Throws std::invalid_argument if `c` is invalid.
PointLineKinematics pointLineKinematics(const PointLineContact& c, const Eigen::Vector3d& q_i,
                                        const Eigen::Vector3d& qdot_i, const Eigen::Vector3d& q_j,
                                        const Eigen::Vector3d& qdot_j, bool drift = true);

/// The same from the bodies' states, without validating `c`: for callers that validated it
/// once and evaluate it every time step.
PointLineKinematics pointLineKinematics(const PointLineContact& c, const PlanarBodyState& i,
                                        const PlanarBodyState& j, bool drift);

/// Point of body i against a line fixed in the ground: the line's data are world
/// coordinates (q_j = 0, q̇_j = 0) and the Jacobian keeps body i's three columns.
PointGroundLineKinematics pointGroundLineKinematics(const PointLineContact& c,
                                                    const Eigen::Vector3d& q_i,
                                                    const Eigen::Vector3d& qdot_i);

}  // namespace stickslip::dynamics
