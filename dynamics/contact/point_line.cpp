#include "dynamics/contact/point_line.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dynamics/contact/planar_frame.hpp"

namespace stickslip::dynamics {

using contact_detail::directionRow;
using contact_detail::directionRowRate;
using contact_detail::perp;

void PointLineContact::validate(std::string_view who) const {
  const bool finite =
      point_on_i.allFinite() && line_point_on_j.allFinite() && line_normal_on_j.allFinite();
  // Called on every kinematics evaluation: no square root, and the message stream is built
  // only when failing. |n|² within 2e-9 of 1 is |n| within 1e-9 to first order.
  if (finite && std::abs(line_normal_on_j.squaredNorm() - 1.0) <= 2e-9) return;
  std::ostringstream os;
  if (!finite) {
    os << "expected finite point and line data, got s'_P = (" << point_on_i.transpose()
       << "), s'_Q = (" << line_point_on_j.transpose() << "), n' = ("
       << line_normal_on_j.transpose() << ")";
  } else if (std::abs(line_normal_on_j.norm() - 1.0) > 1e-9) {
    os << "expected a unit line normal n', got |n'| = " << line_normal_on_j.norm();
  }
  if (!os.str().empty()) throw std::invalid_argument(std::string(who) + ": " + os.str());
}

PlanarBodyState PlanarBodyState::at(const Eigen::Vector3d& q, const Eigen::Vector3d& qdot) {
  PlanarBodyState b;
  b.q = q;
  b.qdot = qdot;
  if (q.z() != 0.0) {  // θ = 0 (the ground, most often): exact without the sine and cosine
    b.cos = std::cos(q.z());
    b.sin = std::sin(q.z());
  }
  return b;
}

PointLineKinematics pointLineKinematics(const PointLineContact& c, const Eigen::Vector3d& q_i,
                                        const Eigen::Vector3d& qdot_i, const Eigen::Vector3d& q_j,
                                        const Eigen::Vector3d& qdot_j, bool drift) {
  c.validate("dynamics::pointLineKinematics");
  return pointLineKinematics(c, PlanarBodyState::at(q_i, qdot_i), PlanarBodyState::at(q_j, qdot_j),
                             drift);
}

PointLineKinematics pointLineKinematics(const PointLineContact& c, const PlanarBodyState& i,
                                        const PlanarBodyState& j, bool drift) {
  PointLineKinematics k;
  const Eigen::Vector2d rho_i = i.rotate(c.point_on_i);
  k.point = i.q.head<2>() + rho_i;
  const Eigen::Vector2d r_q = j.q.head<2>() + j.rotate(c.line_point_on_j);
  k.normal = j.rotate(c.line_normal_on_j);
  k.tangent = perp(k.normal);
  const Eigen::Vector2d d = k.point - r_q;
  k.gap = k.normal.dot(d);
  const Eigen::Vector2d rho_j = k.point - j.q.head<2>();
  k.jacobian.row(0) << directionRow(k.normal, rho_i), -directionRow(k.normal, rho_j);
  k.jacobian.row(1) << directionRow(k.tangent, rho_i), -directionRow(k.tangent, rho_j);
  Eigen::Matrix<double, 6, 1> qdot;
  qdot << i.qdot, j.qdot;
  const Eigen::Vector2d v = k.jacobian * qdot;
  k.gap_rate = v(0);
  k.tangential_velocity = v(1);
  if (!drift) {
    k.jdot_qdot.setConstant(std::numeric_limits<double>::quiet_NaN());
    return k;
  }
  // J̇ q̇: ṅ = θ̇_j t, ṫ = −θ̇_j n, ρ̇_i = θ̇_i S ρ_i, ρ̇_j = ṙ_P − Ṙ_j.
  const Eigen::Vector2d ndot = j.qdot.z() * k.tangent, tdot = -j.qdot.z() * k.normal;
  const Eigen::Vector2d rhodot_i = i.qdot.z() * perp(rho_i);
  const Eigen::Vector2d rhodot_j = i.qdot.head<2>() + rhodot_i - j.qdot.head<2>();
  k.jdot_qdot << directionRowRate(k.normal, ndot, rho_i, rhodot_i, i.qdot) -
                     directionRowRate(k.normal, ndot, rho_j, rhodot_j, j.qdot),
      directionRowRate(k.tangent, tdot, rho_i, rhodot_i, i.qdot) -
          directionRowRate(k.tangent, tdot, rho_j, rhodot_j, j.qdot);
  return k;
}

PointGroundLineKinematics pointGroundLineKinematics(const PointLineContact& c,
                                                    const Eigen::Vector3d& q_i,
                                                    const Eigen::Vector3d& qdot_i) {
  const PointLineKinematics full =
      pointLineKinematics(c, q_i, qdot_i, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero());
  PointGroundLineKinematics k;
  k.gap = full.gap;
  k.gap_rate = full.gap_rate;
  k.tangential_velocity = full.tangential_velocity;
  k.jdot_qdot = full.jdot_qdot;
  k.normal = full.normal;
  k.tangent = full.tangent;
  k.point = full.point;
  k.jacobian = full.jacobian.leftCols<3>();
  return k;
}

}  // namespace stickslip::dynamics
