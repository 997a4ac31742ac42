#include "dynamics/mechanism/spatial_mechanism.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>
#include <variant>

namespace stickslip::dynamics {

SpatialMechanism::SpatialMechanism(const SpatialModel& model,
                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                   std::vector<SpatialJointFriction> friction,
                                   std::vector<SpatialClearance> clearances,
                                   std::vector<SpatialPlaneContact> planes)
    : ForwardedSystem<Mechanism>(model), model_(model), friction_(std::move(friction)),
      clearances_(std::move(clearances)), planes_(std::move(planes)) {
  if (q.size() != model.positionSize())
    throw std::invalid_argument("SpatialMechanism: q has the wrong size");
  rows_ = Eigen::MatrixXd::Zero(Eigen::Index(friction_.size()), model.velocitySize());
  for (std::size_t e = 0; e < friction_.size(); ++e) {
    const SpatialJointFriction& f = friction_[e];
    const std::string who = "joint friction '" + f.name + "': ";
    if (f.joint < 0 || f.joint >= int(model.joints().size()))
      throw std::invalid_argument(who + "no joint " + std::to_string(f.joint));
    if (!(f.mu_kinetic >= 0.0) || !(f.mu_static >= f.mu_kinetic) || !std::isfinite(f.mu_static))
      throw std::invalid_argument(who + "expected mu_static >= mu_kinetic >= 0, got " +
                                  std::to_string(f.mu_static) + " and " +
                                  std::to_string(f.mu_kinetic));
    const SpatialJoint& jt = model.joints()[std::size_t(f.joint)];
    auto row = rows_.row(Eigen::Index(e));
    double lever = 1.0;
    if (jt.type == SpatialJointType::kRevolute) {
      if (!(f.radius > 0.0) || !std::isfinite(f.radius))
        throw std::invalid_argument(who + "a revolute joint's pin radius must be > 0, got " +
                                    std::to_string(f.radius));
      lever = f.radius;
      if (jt.body_j != kGround) row.segment<3>(6 * jt.body_j + 3) += jt.frame_j.col(2).transpose();
      if (jt.body_i != kGround) row.segment<3>(6 * jt.body_i + 3) -= jt.frame_i.col(2).transpose();
    } else if (jt.type == SpatialJointType::kTranslational) {
      if (jt.body_i != kGround && jt.body_j != kGround)
        throw std::invalid_argument(
            who + "friction in a translational joint needs the ground as its guide (joint '" +
            jt.name + "' joins two moving bodies)");
      if (!(f.slider_length >= 0.0) || !std::isfinite(f.slider_length))
        throw std::invalid_argument(who + "the slider length must be >= 0, got " +
                                    std::to_string(f.slider_length));
      // ṡ = a_iᵀ (v_Pj − v_Pi), the joint points' velocities ṙ − A s̃′ ω′.
      const Eigen::Vector3d a = model.rotation(q, jt.body_i) * jt.frame_i.col(2);
      if (jt.body_j != kGround) {
        row.segment<3>(6 * jt.body_j) += a.transpose();
        row.segment<3>(6 * jt.body_j + 3) -=
            a.transpose() * model.rotation(q, jt.body_j) * skewMatrix(jt.s_j);
      }
      if (jt.body_i != kGround) {
        row.segment<3>(6 * jt.body_i) -= a.transpose();
        row.segment<3>(6 * jt.body_i + 3) +=
            a.transpose() * model.rotation(q, jt.body_i) * skewMatrix(jt.s_i);
      }
    } else {
      throw std::invalid_argument(
          who + "friction is modelled in revolute and translational joints; joint '" + jt.name +
          "' is neither");
    }
    levers_.push_back({f.name, f.mu_static, f.mu_kinetic, lever});
  }
  for (SpatialClearance& c : clearances_) {
    const std::string who = "clearance joint '" + c.name + "'";
    for (const BodyIndex b : {c.journal_body, c.bearing_body})
      if (b != kGround && (b < 0 || b >= model.bodyCount()))
        throw std::invalid_argument(who + ": no body " + std::to_string(b));
    if (c.journal_body == c.bearing_body)
      throw std::invalid_argument(who + ": the journal and the bearing must be on different bodies");
    c.joint.validate(who);
    std::visit([&](const auto& law) { law.validate(who); }, c.law);
    if (!(c.mu_kinetic >= 0.0) || !(c.mu_static >= c.mu_kinetic) || !std::isfinite(c.mu_static))
      throw std::invalid_argument(who + ": expected mu_static >= mu_kinetic >= 0, got " +
                                  std::to_string(c.mu_static) + " and " + std::to_string(c.mu_kinetic));
    if (c.rigid_restitution && !(*c.rigid_restitution >= 0.0 && *c.rigid_restitution <= 1.0))
      throw std::invalid_argument(who + ": expected rigid_restitution in [0, 1], got " +
                                  std::to_string(*c.rigid_restitution));
    if (c.rigid && !c.rigid_restitution)
      throw std::invalid_argument(who + ": a rigid clearance joint needs its rigid_restitution (Newton's e)");
    for (const char* which : {"radial-A", "radial-B", "axial-A", "axial-B"}) {
      RigidContact rc;
      rc.name = c.name + "." + which;
      rc.normal = c.rigid ? RigidContact::Normal::kUnilateral : RigidContact::Normal::kCompliant;
      rc.rigid_restitution = c.rigid_restitution;
      if (c.rigid) rc.restitution = *c.rigid_restitution;
      rc.shape = RigidContact::Shape::kSpatialClearance;
      rc.body_i = c.journal_body;
      rc.body_j = c.bearing_body;
      rc.compliant_law = c.law;
      rc.mu_static = c.mu_static;
      rc.mu_kinetic = c.mu_kinetic;
      contacts_.push_back(std::move(rc));
    }
  }
  for (SpatialPlaneContact& c : planes_) {
    const std::string who = "contact '" + c.name + "'";
    for (const BodyIndex b : {c.body_i, c.body_j})
      if (b != kGround && (b < 0 || b >= model.bodyCount()))
        throw std::invalid_argument(who + ": no body " + std::to_string(b));
    if (c.body_i == c.body_j) throw std::invalid_argument(who + ": the sphere and the plane must be on different bodies");
    c.geometry.validate(who);
    if (c.law) std::visit([&](const auto& law) { law.validate(who); }, *c.law);
    if (!(c.mu_kinetic >= 0.0) || !(c.mu_static >= c.mu_kinetic) || !std::isfinite(c.mu_static))
      throw std::invalid_argument(who + ": expected mu_static >= mu_kinetic >= 0, got " +
                                  std::to_string(c.mu_static) + " and " + std::to_string(c.mu_kinetic));
    if (!(c.restitution >= 0.0 && c.restitution <= 1.0))
      throw std::invalid_argument(who + ": expected restitution in [0, 1], got " + std::to_string(c.restitution));
    if (!c.rigid && !c.law) throw std::invalid_argument(who + ": a compliant contact needs its compliant law");
    RigidContact rc;
    rc.name = c.name;
    rc.normal = c.rigid ? RigidContact::Normal::kUnilateral : RigidContact::Normal::kCompliant;
    if (!c.rigid) rc.rigid_restitution = c.restitution;
    rc.shape = RigidContact::Shape::kSpatialPlane;
    rc.body_i = c.body_i;
    rc.body_j = c.body_j;
    rc.restitution = c.restitution;
    rc.compliant_law = c.law;
    rc.radius = c.geometry.radius;
    rc.mu_static = c.mu_static;
    rc.mu_kinetic = c.mu_kinetic;
    contacts_.push_back(std::move(rc));
  }
}

SpatialPose bodyPose(const SpatialModel& model, const Eigen::Ref<const Eigen::VectorXd>& q, BodyIndex b) {
  if (b == kGround) return {};
  return {q.segment<3>(SpatialModel::positionIndex(b, 0)), model.rotation(q, b)};
}

namespace {

/// The pose after τ of rigid motion at constant (ṙ, ω′): r + τ ṙ, A exp(τ [ω′]×) (Ȧ = A [ω′]×).
SpatialPose advanced(const SpatialPose& p, const Eigen::Ref<const Eigen::Matrix<double, 6, 1>>& velocity, double tau) {
  const Eigen::Vector3d turn = tau * velocity.tail<3>();
  const double angle = turn.norm();
  SpatialPose out{p.r + tau * velocity.head<3>(), p.A};
  if (angle > 0.0) out.A = p.A * Eigen::AngleAxisd(angle, turn / angle).toRotationMatrix();
  return out;
}

/// The central difference's half step τ for the drift terms (see the header): the fastest point
/// of the joint moves 1e-5 R_J in τ, so the truncation error is ~1e-10 of b and the round-off
/// ~1e-11 of it; 0 when nothing moves (b = 0: it is quadratic in the velocities).
double driftStep(const SpatialClearanceJoint& joint, const Eigen::Matrix<double, 12, 1>& velocities) {
  const double reach = std::max(joint.journal_centre.norm(), joint.bearing_centre.norm()) + joint.bearing_radius +
                       0.5 * joint.bearing_length;
  const double speed = velocities.segment<3>(0).norm() + velocities.segment<3>(6).norm() +
                       reach * (velocities.segment<3>(3).norm() + velocities.segment<3>(9).norm());
  return speed > 0.0 ? 1e-5 * joint.journal_radius / speed : 0.0;
}

}  // namespace

void SpatialMechanism::writeContact(Eigen::Index k, BodyIndex bi, BodyIndex bj, const Candidate& now,
                                    const Candidate& ahead, const Candidate& behind, double tau,
                                    const Eigen::Matrix<double, 12, 1>& velocities, bool drift,
                                    ContactKinematics& out) const {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  // Writes into the fixed pattern (no insertion), where body b's six columns are consecutive:
  // one search per block. `part` is 0 for body i, 1 for body j.
  const auto put = [&](ContactJacobian& rows, Eigen::Index row, BodyIndex b, const Eigen::Matrix<double, 1, 12>& values,
                       int part) {
    if (b == kGround) return;
    const auto* columns = rows.innerIndexPtr();
    const auto* first = std::lower_bound(columns + rows.outerIndexPtr()[row], columns + rows.outerIndexPtr()[row + 1],
                                         6 * b);
    std::copy_n(values.data() + 6 * part, 6, rows.valuePtr() + (first - columns));
  };
  const SpatialClearanceContact& ct = now.contact;
  const Eigen::Vector3d v_rel = relativeVelocity(ct, now.i, now.j, velocities);
  const double rate = ct.normal.dot(v_rel);
  const Eigen::Vector3d sliding = v_rel - rate * ct.normal;  // v_T
  const double speed = sliding.norm();
  const Eigen::Vector3d t = speed > 0.0 ? Eigen::Vector3d(sliding / speed) : frameFromAxis(ct.normal).col(0);
  const Eigen::Matrix<double, 1, 12> normal_row = velocityRow(ct, ct.normal, now.i, now.j);
  const Eigen::Matrix<double, 1, 12> tangent_row = velocityRow(ct, t, now.i, now.j);
  const Eigen::Vector3d binormal = ct.normal.cross(t);
  const Eigen::Matrix<double, 1, 12> second_row = velocityRow(ct, binormal, now.i, now.j);
  for (int part = 0; part < 2; ++part) {
    const BodyIndex b = part == 0 ? bi : bj;
    put(out.jacobian, 2 * k, b, -normal_row, part);
    put(out.jacobian, 2 * k + 1, b, tangent_row, part);
    put(out.second_tangent, k, b, second_row, part);
  }
  out.gap(k) = -ct.penetration;
  out.normal_velocity(k) = -rate;
  out.sliding_velocity(k) = speed;
  out.frame[std::size_t(k)] << ct.normal, t, binormal;
  if (!drift) {
    out.normal_drift(k) = out.tangential_drift(k) = out.second_drift(k) = kNaN;
  } else if (tau == 0.0) {
    out.normal_drift(k) = out.tangential_drift(k) = out.second_drift(k) = 0.0;
  } else {
    const SpatialClearanceContact &a = ahead.contact, &b = behind.contact;
    const auto change = [&](const Eigen::Matrix<double, 1, 12>& row_ahead, const Eigen::Matrix<double, 1, 12>& row_behind) {
      return ((row_ahead - row_behind) * velocities).value() / (2.0 * tau);
    };
    out.normal_drift(k) = -change(velocityRow(a, a.normal, ahead.i, ahead.j), velocityRow(b, b.normal, behind.i, behind.j));
    out.tangential_drift(k) = change(velocityRow(a, t, ahead.i, ahead.j), velocityRow(b, t, behind.i, behind.j));
    out.second_drift(k) = change(velocityRow(a, binormal, ahead.i, ahead.j), velocityRow(b, binormal, behind.i, behind.j));
  }
  out.normal[std::size_t(k)].setConstant(kNaN);  // planar fields: not for a spatial contact
  out.point[std::size_t(k)].setConstant(kNaN);
}

void SpatialMechanism::evaluateContacts(double, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                                        bool drift) const {
  const auto nc = Eigen::Index(contacts_.size());
  if (out.gap.size() != nc || out.jacobian.cols() != model_.velocitySize())
    resizeContacts(out);
  Eigen::Matrix<double, 12, 1> velocities;
  const auto bodyVelocities = [&](BodyIndex bi, BodyIndex bj) {
    velocities.setZero();
    if (bi != kGround) velocities.head<6>() = v.segment<6>(6 * bi);
    if (bj != kGround) velocities.tail<6>() = v.segment<6>(6 * bj);
  };
  for (std::size_t c = 0; c < clearances_.size(); ++c) {
    const SpatialClearance& cl = clearances_[c];
    const SpatialPose pi = bodyPose(model_, q, cl.journal_body), pj = bodyPose(model_, q, cl.bearing_body);
    const SpatialClearanceGeometry g = spatialClearanceGeometry(cl.joint, pi, pj);
    bodyVelocities(cl.journal_body, cl.bearing_body);
    // The drift terms: the rows' rate along the present motion, by a central difference over ±τ.
    const double tau = drift ? driftStep(cl.joint, velocities) : 0.0;
    SpatialPose pi_ahead = pi, pj_ahead = pj, pi_behind = pi, pj_behind = pj;
    SpatialClearanceGeometry ahead = g, behind = g;
    if (tau > 0.0) {
      pi_ahead = advanced(pi, velocities.head<6>(), tau), pi_behind = advanced(pi, velocities.head<6>(), -tau);
      pj_ahead = advanced(pj, velocities.tail<6>(), tau), pj_behind = advanced(pj, velocities.tail<6>(), -tau);
      ahead = spatialClearanceGeometry(cl.joint, pi_ahead, pj_ahead);
      behind = spatialClearanceGeometry(cl.joint, pi_behind, pj_behind);
    }
    for (std::size_t w = 0; w < 4; ++w)
      writeContact(Eigen::Index(4 * c + w), cl.journal_body, cl.bearing_body, {g.contacts[w], pi, pj},
                   {ahead.contacts[w], pi_ahead, pj_ahead}, {behind.contacts[w], pi_behind, pj_behind}, tau,
                   velocities, drift, out);
  }
  for (std::size_t c = 0; c < planes_.size(); ++c) {
    const SpatialPlaneContact& pc = planes_[c];
    const SpatialPose pi = bodyPose(model_, q, pc.body_i), pj = bodyPose(model_, q, pc.body_j);
    bodyVelocities(pc.body_i, pc.body_j);
    const Candidate now{spherePlaneContact(pc.geometry, pi, pj), pi, pj};
    double tau = 0.0;
    if (drift) {  // as driftStep: the fastest point moves 1e-5 of the contact's length in τ
      const double length = std::max({pc.geometry.radius, pc.geometry.centre.norm(), 1e-3});
      const double reach_j = (now.contact.bearing_point - pj.r).norm();
      const double speed = velocities.segment<3>(0).norm() + velocities.segment<3>(6).norm() +
                           (length + pc.geometry.radius) * velocities.segment<3>(3).norm() +
                           reach_j * velocities.segment<3>(9).norm();
      tau = speed > 0.0 ? 1e-5 * length / speed : 0.0;
    }
    Candidate ahead = now, behind = now;
    if (tau > 0.0) {
      ahead.i = advanced(pi, velocities.head<6>(), tau), behind.i = advanced(pi, velocities.head<6>(), -tau);
      ahead.j = advanced(pj, velocities.tail<6>(), tau), behind.j = advanced(pj, velocities.tail<6>(), -tau);
      ahead.contact = spherePlaneContact(pc.geometry, ahead.i, ahead.j);
      behind.contact = spherePlaneContact(pc.geometry, behind.i, behind.j);
    }
    writeContact(Eigen::Index(4 * clearances_.size() + c), pc.body_i, pc.body_j, now, ahead, behind, tau, velocities,
                 drift, out);
  }
}

double SpatialMechanism::jointFrictionRate(std::size_t e,
                                           const Eigen::Ref<const Eigen::VectorXd>& v) const {
  return rows_.row(Eigen::Index(e)).dot(v);
}

double SpatialMechanism::jointFrictionReaction(std::size_t e,
                                               const Eigen::Ref<const Eigen::VectorXd>& lambda,
                                               const Eigen::Ref<const Eigen::VectorXd>&) const {
  const SpatialJointFriction& f = friction_[e];
  const SpatialJoint& jt = model_.joints()[std::size_t(f.joint)];
  if (jt.type == SpatialJointType::kRevolute) return lambda.segment<3>(jt.row).norm();
  const Eigen::Vector2d n = lambda.segment<2>(jt.row + 2);
  if (f.slider_length == 0.0) return n.norm();
  const Eigen::Vector2d m = (2.0 / f.slider_length) * lambda.segment<2>(jt.row);
  return 0.5 * ((n - m).norm() + (n + m).norm());
}

std::vector<JointLoadTerm> SpatialMechanism::jointFrictionLoad(std::size_t e) const {
  const SpatialJointFriction& f = friction_[e];
  const SpatialJoint& jt = model_.joints()[std::size_t(f.joint)];
  const Eigen::Index m = model_.constraintCount(), nf = 2 * Eigen::Index(contacts_.size());
  auto term = [&](double weight, Eigen::Index rows) {
    return JointLoadTerm{weight, Eigen::MatrixXd::Zero(rows, m), Eigen::MatrixXd::Zero(rows, nf)};
  };
  if (jt.type == SpatialJointType::kRevolute) {  // ‖(λ1, λ2, λ3)‖
    JointLoadTerm r = term(1.0, 3);
    r.lambda.block(0, jt.row, 3, 3).setIdentity();
    return {r};
  }
  if (f.slider_length == 0.0) {  // ‖n‖
    JointLoadTerm r = term(1.0, 2);
    r.lambda.block(0, jt.row + 2, 2, 2).setIdentity();
    return {r};
  }
  std::vector<JointLoadTerm> ends;  // ½ ‖n ∓ (2/ℓ) m‖
  for (double side : {-1.0, 1.0}) {
    JointLoadTerm r = term(0.5, 2);
    r.lambda.block(0, jt.row + 2, 2, 2).setIdentity();
    r.lambda.block(0, jt.row, 2, 2).diagonal().setConstant(side * 2.0 / f.slider_length);
    ends.push_back(r);
  }
  return ends;
}

void SpatialMechanism::addJointFrictionRow(std::size_t e, double s,
                                           Eigen::Ref<Eigen::VectorXd> row) const {
  row += s * rows_.row(Eigen::Index(e)).transpose();
}

}  // namespace stickslip::dynamics
