#include "dynamics/contact/rigid_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "dynamics/friction/friction_law.hpp"

namespace stickslip::dynamics {

std::vector<std::string> historyColumns(const MultibodySystem& model, const std::vector<RigidContact>& contacts,
                                        const std::vector<JointFriction>& joint_friction) {
  std::vector<std::string> c{"t"};
  for (Eigen::Index i = 0; i < model.positionSize(); ++i) c.push_back(model.positionName(i));
  for (Eigen::Index i = 0; i < model.velocitySize(); ++i) c.push_back(model.velocityName(i));
  for (const RigidContact& k : contacts) {
    c.push_back(k.name + ".N");
    c.push_back(k.name + ".F");
  }
  for (const JointFriction& j : joint_friction) {
    c.push_back(j.name + ".reaction");
    c.push_back(j.name + ".F");
  }
  return c;
}
namespace {

Eigen::Vector3d pose(const Eigen::Ref<const Eigen::VectorXd>& x, BodyIndex b) {
  if (b == kGround) return Eigen::Vector3d::Zero();
  return x.segment<3>(PlanarModel::coordinate(b, 0));
}

}  // namespace

void RigidContact::validate(const PlanarModel& model) const {
  std::ostringstream os;
  auto bodyOk = [&](BodyIndex b) { return b == kGround || (b >= 0 && b < model.bodyCount()); };
  if (!bodyOk(body_i) || !bodyOk(body_j) || body_i == body_j)
    os << "expected two different existing bodies (or the ground), got " << body_i << " and "
       << body_j;
  else if (!(radius >= 0.0) || !std::isfinite(radius))
    os << "expected a disk radius >= 0, got " << radius;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic) || !std::isfinite(mu_static))
    os << "expected 0 <= mu_kinetic <= mu_static, got mu_kinetic = " << mu_kinetic
       << ", mu_static = " << mu_static;
  else if (!(restitution >= 0.0 && restitution <= 1.0))
    os << "expected a restitution coefficient in [0, 1], got " << restitution;
  else if (static_cast<bool>(surface_speed) != static_cast<bool>(surface_acceleration))
    os << "expected both the surface speed and its rate, or neither";
  else if (normal == Normal::kCompliant && !compliant_law)
    os << "expected a compliant contact's normal law, got none";
  else if (normal == Normal::kCompliant && !(impact_velocity > 0.0))
    os << "expected a compliant contact's impact velocity > 0, got " << impact_velocity;
  else if (smooth_friction && normal != Normal::kCompliant)
    os << "expected a regularized friction law on a compliant contact only (a rigid contact's "
          "friction is set-valued)";
  else if (smooth_friction && smooth_friction->stateSize() != 0)
    os << "expected a static regularized friction law, got '" << smooth_friction->name()
       << "' with internal states";
  else if (smooth_friction && frictional())
    os << "expected mu_static = mu_kinetic = 0 with the regularized friction law '"
       << smooth_friction->name() << "' (its parameters carry the coefficient)";
  else if (preloaded && shape != Shape::kJournalBearing)
    os << "expected a journal-bearing contact to start preloaded, got a disk-line one";
  else if (centres_slip && shape != Shape::kJournalBearing)
    os << "expected centres_slip on a journal-bearing contact only (its centres' velocity)";
  if (!os.str().empty()) throw std::invalid_argument(name + ": " + os.str());
  if (shape == Shape::kJournalBearing) journal_bearing.validate(name);
  else geometry.validate(name);
  if (compliant_law) std::visit([&](const auto& l) { l.validate(name); }, *compliant_law);
}

void ContactKinematics::resize(const std::vector<RigidContact>& list, Eigen::Index velocities,
                               Eigen::Index body_velocities) {
  const auto contacts = static_cast<Eigen::Index>(list.size());
  gap.resize(contacts);
  normal_velocity.resize(contacts);
  sliding_velocity.resize(contacts);
  normal_drift.resize(contacts);
  tangential_drift.resize(contacts);
  // Rows (2k, 2k + 1) of the Jacobian, and row k of the second tangent for a spatial contact.
  std::vector<Eigen::Triplet<double>> pattern, second;
  pattern.reserve(static_cast<std::size_t>(4 * body_velocities * contacts));
  for (Eigen::Index k = 0; k < contacts; ++k) {
    const RigidContact& c = list[std::size_t(k)];
    for (const BodyIndex b : {c.body_i, c.body_j})
      if (b != kGround)
        for (Eigen::Index col = b * body_velocities; col < (b + 1) * body_velocities; ++col) {
          pattern.emplace_back(2 * k, col, 0.0);
          pattern.emplace_back(2 * k + 1, col, 0.0);
          if (c.spatial()) second.emplace_back(k, col, 0.0);
        }
  }
  jacobian.resize(2 * contacts, velocities);
  jacobian.setFromTriplets(pattern.begin(), pattern.end());
  jacobian.makeCompressed();
  second_tangent.resize(contacts, velocities);
  second_tangent.setFromTriplets(second.begin(), second.end());
  second_tangent.makeCompressed();
  second_drift.setConstant(contacts, std::numeric_limits<double>::quiet_NaN());
  centres_sliding_velocity.setConstant(contacts, std::numeric_limits<double>::quiet_NaN());
  frame.assign(static_cast<std::size_t>(contacts), Eigen::Matrix3d::Constant(std::numeric_limits<double>::quiet_NaN()));
  normal.resize(static_cast<std::size_t>(contacts));
  point.resize(static_cast<std::size_t>(contacts));
  bodies.assign(static_cast<std::size_t>(velocities / 3 + 1), PlanarBodyState{});
  body_ready.assign(bodies.size(), 0);
}

void evaluateContacts(const PlanarModel& model, const std::vector<RigidContact>& contacts,
                      double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                      const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                      bool drift) {
  const auto nc = static_cast<Eigen::Index>(contacts.size());
  if (out.gap.size() != nc || out.jacobian.cols() != model.velocitySize())
    out.resize(contacts, model.velocitySize());
  // Writes into the fixed pattern (a binary search among a row's ≤ 6 entries; no insertion).
  auto put = [&](Eigen::Index row, BodyIndex b, const Eigen::Ref<const Eigen::RowVector3d>& values) {
    if (b == kGround) return;
    const Eigen::Index c = PlanarModel::coordinate(b, 0);
    for (Eigen::Index d = 0; d < 3; ++d) out.jacobian.coeffRef(row, c + d) = values(d);
  };
  std::fill(out.body_ready.begin() + 1, out.body_ready.end(), 0);  // the ground stays at rest
  out.body_ready[0] = 1;
  auto body = [&](BodyIndex b) -> const PlanarBodyState& {
    const auto slot = static_cast<std::size_t>(b + 1);
    if (!out.body_ready[slot]) {
      out.bodies[slot] = PlanarBodyState::at(pose(q, b), pose(v, b));
      out.body_ready[slot] = 1;
    }
    return out.bodies[slot];
  };
  for (Eigen::Index k = 0; k < nc; ++k) {
    const RigidContact& c = contacts[static_cast<std::size_t>(k)];
    if (c.shape == RigidContact::Shape::kJournalBearing) {
      const JournalBearingKinematics jb = journalBearingKinematics(
          c.journal_bearing, pose(q, c.body_i), pose(v, c.body_i), pose(q, c.body_j), pose(v, c.body_j));
      for (Eigen::Index r = 0; r < 2; ++r) {
        put(2 * k + r, c.body_i, jb.jacobian.block<1, 3>(r, 0));
        put(2 * k + r, c.body_j, jb.jacobian.block<1, 3>(r, 3));
      }
      out.gap(k) = jb.gap();
      out.normal_velocity(k) = jb.gapRate();
      out.sliding_velocity(k) = jb.tangential_velocity;
      out.centres_sliding_velocity(k) = jb.centres_sliding_velocity;
      out.normal_drift(k) = jb.jdot_qdot(0);
      out.tangential_drift(k) = jb.jdot_qdot(1);
      out.normal[static_cast<std::size_t>(k)] = -jb.normal;  // the push on the journal
      out.point[static_cast<std::size_t>(k)] = jb.journal_contact_point;
      continue;
    }
    // c.geometry was validated with the contact (RigidContact::validate).
    const PointLineKinematics pl =
        pointLineKinematics(c.geometry, body(c.body_i), body(c.body_j), drift);
    // The tangent of the contact is minus the point–line one; the disk's rim moves with the
    // bodies' rotation at ±ρ.
    const Eigen::RowVector3d ti = -pl.jacobian.block<1, 3>(1, 0) + Eigen::RowVector3d(0.0, 0.0, c.radius);
    const Eigen::RowVector3d tj = -pl.jacobian.block<1, 3>(1, 3) - Eigen::RowVector3d(0.0, 0.0, c.radius);
    put(2 * k, c.body_i, pl.jacobian.block<1, 3>(0, 0));
    put(2 * k, c.body_j, pl.jacobian.block<1, 3>(0, 3));
    put(2 * k + 1, c.body_i, ti);
    put(2 * k + 1, c.body_j, tj);
    const double vs = c.surface_speed ? c.surface_speed(t) : 0.0;
    const double as = c.surface_acceleration ? c.surface_acceleration(t) : 0.0;
    out.gap(k) = pl.gap - c.radius;
    out.normal_velocity(k) = pl.gap_rate;
    out.sliding_velocity(k) = out.jacobian.row(2 * k + 1).dot(v) - vs;
    out.normal_drift(k) = pl.jdot_qdot(0);
    out.tangential_drift(k) = -pl.jdot_qdot(1) - as;  // NaN without drift  // t = −(point-line tangent)
    out.normal[static_cast<std::size_t>(k)] = pl.normal;
    out.point[static_cast<std::size_t>(k)] = pl.point - c.radius * pl.normal;
  }
}

int addClosingJoint(PlanarModel& model, const RigidContact& c) {
  if (c.normal != RigidContact::Normal::kBilateral || c.shape != RigidContact::Shape::kDiskLine)
    throw std::invalid_argument("addClosingJoint: contact '" + c.name + "' is not a bilateral disk-line contact");
  const PointLineContact& g = c.geometry;
  const Eigen::Vector2d tangent(g.line_normal_on_j.y(), -g.line_normal_on_j.x());
  return model.addPointOnLine(c.body_j, g.line_point_on_j + c.radius * g.line_normal_on_j, tangent, c.body_i,
                              g.point_on_i, c.name);
}

PlanarModel withClosingJoints(const PlanarModel& model, const std::vector<RigidContact>& contacts) {
  PlanarModel closed = model;
  for (const RigidContact& c : contacts)
    if (c.normal == RigidContact::Normal::kBilateral && c.shape == RigidContact::Shape::kDiskLine)
      addClosingJoint(closed, c);
  return closed;
}

}  // namespace stickslip::dynamics
