#include "dynamics/contact/journal_bearing.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dynamics/contact/planar_frame.hpp"

namespace stickslip::dynamics {

using contact_detail::directionRow;
using contact_detail::directionRowRate;
using contact_detail::perp;
using contact_detail::rotate;

void JournalBearingJoint::validate(std::string_view who) const {
  const bool finite = journal_centre_on_i.allFinite() && bearing_centre_on_j.allFinite() &&
                      std::isfinite(journal_radius) && std::isfinite(bearing_radius);
  // Called on every kinematics evaluation: the message stream is built only when failing.
  if (finite && journal_radius > 0.0 && bearing_radius > journal_radius) return;
  std::ostringstream os;
  if (!finite) {
    os << "expected finite centres and radii, got s'_J = (" << journal_centre_on_i.transpose()
       << "), s'_B = (" << bearing_centre_on_j.transpose() << "), R_J = " << journal_radius
       << ", R_B = " << bearing_radius;
  } else if (!(journal_radius > 0.0)) {
    os << "expected journal radius R_J > 0, got " << journal_radius;
  } else if (!(bearing_radius > journal_radius)) {
    os << "expected bearing radius R_B > journal radius R_J, got R_B = " << bearing_radius
       << ", R_J = " << journal_radius;
  }
  if (!os.str().empty()) throw std::invalid_argument(std::string(who) + ": " + os.str());
}

JournalBearingKinematics journalBearingKinematics(const JournalBearingJoint& joint,
                                                  const Eigen::Vector3d& q_i,
                                                  const Eigen::Vector3d& qdot_i,
                                                  const Eigen::Vector3d& q_j,
                                                  const Eigen::Vector3d& qdot_j) {
  joint.validate("dynamics::journalBearingKinematics");
  const double c = joint.clearance();
  JournalBearingKinematics k;
  const Eigen::Vector2d r_journal = q_i.head<2>() + rotate(q_i.z(), joint.journal_centre_on_i);
  const Eigen::Vector2d r_bearing = q_j.head<2>() + rotate(q_j.z(), joint.bearing_centre_on_j);
  k.eccentricity = r_journal - r_bearing;
  k.eccentricity_norm = k.eccentricity.norm();
  k.penetration = k.eccentricity_norm - c;
  k.centred = !(k.eccentricity_norm > 1e-12 * c);
  k.normal = k.centred ? rotate(q_j.z(), Eigen::Vector2d::UnitX())
                       : Eigen::Vector2d(k.eccentricity / k.eccentricity_norm);
  k.tangent = perp(k.normal);
  k.journal_contact_point = r_journal + joint.journal_radius * k.normal;
  k.bearing_contact_point = r_bearing + joint.bearing_radius * k.normal;
  // Lever arms of the two material contact points about the body reference points; the
  // R_J and R_B terms of J_t come from them (n × t = 1), those of J_n vanish (n × n = 0).
  const Eigen::Vector2d rho_i = k.journal_contact_point - q_i.head<2>();
  const Eigen::Vector2d rho_j = k.bearing_contact_point - q_j.head<2>();
  k.jacobian.row(0) << -directionRow(k.normal, rho_i), directionRow(k.normal, rho_j);
  k.jacobian.row(1) << directionRow(k.tangent, rho_i), -directionRow(k.tangent, rho_j);
  Eigen::Matrix<double, 6, 1> qdot;
  qdot << qdot_i, qdot_j;
  const Eigen::Vector2d v = k.jacobian * qdot;
  k.penetration_rate = -v(0);
  k.tangential_velocity = v(1);
  // J̇ q̇: n turns at ω_n = tᵀė/|e| (ṅ = ω_n t, ṫ = −ω_n n; when centred, n is the bearing
  // body's x-axis and turns with it, ω_n = θ̇_j), and the lever arms
  // ρ_i = A_i s′_J + R_J n, ρ_j = A_j s′_B + R_B n move with their bodies and with n.
  const Eigen::Vector2d arm_i = r_journal - q_i.head<2>(), arm_j = r_bearing - q_j.head<2>();
  const Eigen::Vector2d edot =
      qdot_i.head<2>() + qdot_i.z() * perp(arm_i) - qdot_j.head<2>() - qdot_j.z() * perp(arm_j);
  k.centres_sliding_velocity = k.tangent.dot(edot);
  const double omega_n = k.centred ? qdot_j.z() : k.tangent.dot(edot) / k.eccentricity_norm;
  const Eigen::Vector2d ndot = omega_n * k.tangent, tdot = -omega_n * k.normal;
  const Eigen::Vector2d rhodot_i = qdot_i.z() * perp(arm_i) + joint.journal_radius * ndot;
  const Eigen::Vector2d rhodot_j = qdot_j.z() * perp(arm_j) + joint.bearing_radius * ndot;
  k.jdot_qdot << -directionRowRate(k.normal, ndot, rho_i, rhodot_i, qdot_i) +
                     directionRowRate(k.normal, ndot, rho_j, rhodot_j, qdot_j),
      directionRowRate(k.tangent, tdot, rho_i, rhodot_i, qdot_i) -
          directionRowRate(k.tangent, tdot, rho_j, rhodot_j, qdot_j);
  return k;
}

}  // namespace stickslip::dynamics
