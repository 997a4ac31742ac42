#include "dynamics/penalty_contact.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dynamics/cvode_integrator.hpp"
#include "dynamics/friction_loop.hpp"
#include "dynamics/rk4.hpp"

namespace stickslip::dynamics {

namespace {

Eigen::Vector3d bodyPose(const Eigen::Ref<const Eigen::VectorXd>& x, BodyIndex b) {
  if (b == kGround) return Eigen::Vector3d::Zero();
  return x.segment<3>(PlanarModel::coordinate(b, 0));
}

void checkContactBody(const PlanarModel& model, BodyIndex b, const std::string& who) {
  if (b != kGround && (b < 0 || b >= model.bodyCount()))
    throw std::invalid_argument(who + ": expected a body index in [0, " +
                                std::to_string(model.bodyCount()) + ") or kGround, got " +
                                std::to_string(b));
}

}  // namespace

PenaltyContact PenaltyContact::journalBearing(BodyIndex journal, BodyIndex bearing,
                                              const JournalBearingJoint& joint, NormalLaw normal,
                                              std::shared_ptr<const FrictionLaw> friction,
                                              std::string name) {
  PenaltyContact c;
  c.kind = Kind::kJournalBearing;
  c.name = std::move(name);
  c.body_i = journal;
  c.body_j = bearing;
  c.journal_bearing = joint;
  c.normal = std::move(normal);
  c.friction = std::move(friction);
  return c;
}

PenaltyContact PenaltyContact::pointOnLine(BodyIndex point_body, BodyIndex line_body,
                                           const PointLineContact& geometry, NormalLaw normal,
                                           std::shared_ptr<const FrictionLaw> friction,
                                           std::string name) {
  PenaltyContact c;
  c.kind = Kind::kPointOnLine;
  c.name = std::move(name);
  c.body_i = point_body;
  c.body_j = line_body;
  c.point_line = geometry;
  c.normal = std::move(normal);
  c.friction = std::move(friction);
  return c;
}

void PenaltyContact::validate(const PlanarModel& model) const {
  const std::string who = "dynamics::PenaltyContact '" + name + "'";
  checkContactBody(model, body_i, who);
  checkContactBody(model, body_j, who);
  if (body_i == body_j)
    throw std::invalid_argument(who + ": expected two different bodies, got " +
                                std::to_string(body_i) + " twice");
  if (kind == Kind::kJournalBearing)
    journal_bearing.validate(who);
  else
    point_line.validate(who);
  if (!(radius >= 0.0) || !std::isfinite(radius))
    throw std::invalid_argument(who + ": expected a disk radius >= 0, got " + std::to_string(radius));
  std::visit([&](const auto& l) { l.validate(who); }, normal);
}

PenaltySystem::PenaltySystem(const PlanarModel& model, std::vector<PenaltyContact> contacts,
                             EomMethod method, EomOptions options,
                             std::vector<PenaltyJointFriction> joint_friction)
    : ForwardedSystem<MultibodySystem>(model),
      model_(model),
      contacts_(std::move(contacts)),
      joint_friction_(std::move(joint_friction)),
      status_(contacts_.size()),
      solver_(*this, method, options),
      last_(contacts_.size()),
      reaction_(joint_friction_.size(), 0.0),
      joint_torque_(joint_friction_.size(), 0.0),
      probe_force_(joint_friction_.size(), std::numeric_limits<double>::quiet_NaN()),
      guide_normal_(joint_friction_.size(), std::numeric_limits<double>::quiet_NaN()) {
  for (const PenaltyContact& c : contacts_) {
    c.validate(model_);
    z_offset_.push_back(nz_);
    nz_ += c.frictionStateSize();
  }
  for (const PenaltyJointFriction& f : joint_friction_) {
    const std::string& who = f.name();
    if (f.law && f.law->usesAppliedForce())
      throw std::invalid_argument(who + ": friction law '" + std::string(f.law->name()) +
                                  "' holds with the applied force, which the penalty route supplies "
                                  "at contacts only; a joint or guide takes a law of v and |R| alone");
    if (f.joint.joint < 0 || std::size_t(f.joint.joint) >= model_.joints().size())
      throw std::invalid_argument(who + ": expected a joint of the model, got index " + std::to_string(f.joint.joint));
    const PlanarJoint& joint = model_.joints()[std::size_t(f.joint.joint)];
    if (f.guide) {
      f.guide->validate(model_);
      if (f.guide->normal != RigidContact::Normal::kBilateral || f.guide->shape != RigidContact::Shape::kDiskLine)
        throw std::invalid_argument(who + ": expected a bilateral disk-line contact as the guide");
      if (joint.type != JointType::kPointOnLine)
        throw std::invalid_argument(who + ": expected the point-on-line joint that keeps the guide closed");
      guide_index_.push_back(int(guides_.size()));
      guides_.push_back(*f.guide);
    } else {
      if (!f.law) throw std::invalid_argument(who + ": expected a friction law, got none");
      if (joint.type != JointType::kRevolute)
        throw std::invalid_argument(who + ": expected a revolute joint");
      if (!(f.joint.radius > 0.0) || !std::isfinite(f.joint.radius))
        throw std::invalid_argument(who + ": expected a pin radius > 0, got " + std::to_string(f.joint.radius));
      guide_index_.push_back(-1);
    }
    joint_z_offset_.push_back(nz_);
    nz_ += f.frictionStateSize();
  }
  z_ = Eigen::VectorXd::Zero(nz_);
  applied_.assign(contacts_.size(), 0.0);
  for (std::size_t k = 0; k < contacts_.size(); ++k)
    if (contacts_[k].friction && contacts_[k].friction->usesAppliedForce()) held_.push_back(int(k));
  vdot_free_.resize(model_.velocitySize());
  vdot_probe_.resize(model_.velocitySize());
  guide_kin_.resize(Eigen::Index(guides_.size()), model_.velocitySize());
  lambda0_.resize(model_.constraintCount());
  lambda1_.resize(model_.constraintCount());
}

double PenaltySystem::elementReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda) const {
  const PenaltyJointFriction& f = joint_friction_[e];
  return f.guide ? std::abs(lambda(model_.joints()[std::size_t(f.joint.joint)].row)) : f.joint.reaction(model_, lambda);
}

double PenaltySystem::elementVelocity(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const PenaltyJointFriction& f = joint_friction_[e];
  // A guide's v_t, from its kinematics at the state of the present derivative() call.
  return f.guide ? guide_kin_.sliding_velocity(guide_index_[e]) : f.joint.radius * f.joint.rate(model_, v);
}

ContactEvaluation PenaltySystem::evaluateContact(int k, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                                 const Eigen::Ref<const Eigen::VectorXd>& v,
                                                 const Eigen::Ref<const Eigen::VectorXd>& z) const {
  const PenaltyContact& c = contacts_.at(std::size_t(k));
  const Eigen::Vector3d qi = bodyPose(q, c.body_i), vi = bodyPose(v, c.body_i);
  const Eigen::Vector3d qj = bodyPose(q, c.body_j), vj = bodyPose(v, c.body_j);
  ContactEvaluation e;
  double sign = 1.0;  // force on i = sign·Fₙ n + Fₜ t
  if (c.kind == PenaltyContact::Kind::kJournalBearing) {
    const JournalBearingKinematics kin = journalBearingKinematics(c.journal_bearing, qi, vi, qj, vj);
    e.penetration = kin.penetration;
    e.penetration_rate = kin.penetration_rate;
    e.tangential_velocity = kin.tangential_velocity;
    e.normal = kin.normal;
    e.tangent = kin.tangent;
    e.point_on_i = kin.journal_contact_point;
    e.point_on_j = kin.bearing_contact_point;
    e.jacobian = kin.jacobian;
    sign = -1.0;
  } else {
    const PointLineKinematics kin = pointLineKinematics(c.point_line, qi, vi, qj, vj);
    // A disk: its material point P − ρ n slides, at v_t(P) = v_t(P') − ρ (ω_i − ω_j).
    e.penetration = kin.penetration() + c.radius;
    e.penetration_rate = kin.penetrationRate();
    e.tangential_velocity = kin.tangential_velocity - c.radius * (vi(2) - vj(2)) -
                            (c.surface_speed ? c.surface_speed(t) : 0.0);
    e.normal = kin.normal;
    e.tangent = kin.tangent;
    e.point_on_i = e.point_on_j = kin.point - c.radius * kin.normal;
    e.jacobian = kin.jacobian;
    e.jacobian(1, 2) -= c.radius;
    e.jacobian(1, 5) += c.radius;
  }
  // A ground body has no coordinates: its columns stay out of Jᵀ(Fₙ, Fₜ).
  if (c.body_i == kGround) e.jacobian.leftCols<3>().setZero();
  if (c.body_j == kGround) e.jacobian.rightCols<3>().setZero();
  if (c.two_sided) {
    const double side = e.penetration >= 0.0 ? 1.0 : -1.0;
    e.normal_force = side * normalForce(c.normal, side * e.penetration, side * e.penetration_rate, 0.0);
  } else if (e.penetration > 0.0) {
    const ContactStatus& s = status_[std::size_t(k)];
    // Not yet recorded closed: the contact began within the current step, so δ̇ is δ̇⁽⁻⁾ to
    // first order in δ.
    const double impact = s.closed ? s.impact_velocity : std::max(e.penetration_rate, 0.0);
    e.normal_force = normalForce(c.normal, e.penetration, e.penetration_rate, impact);
  }
  // No load, no friction: the laws' viscous terms (σ2 v) would otherwise drag an open contact.
  const bool held = pass_ != Pass::kFull && c.friction && c.friction->usesAppliedForce();
  if (held) {
    e.friction_force = pass_ == Pass::kProbe && k == probe_ ? 1.0 : 0.0;
  } else if (c.friction && e.normal_force != 0.0) {
    const FrictionInput in{e.tangential_velocity, std::abs(e.normal_force), applied_[std::size_t(k)]};
    e.friction_force =
        c.friction->force(in, std::span<const double>(z.data(), std::size_t(z.size())));
  }
  e.force_on_i = sign * e.normal_force * e.normal + e.friction_force * e.tangent;
  e.generalized_force = e.jacobian.transpose() * Eigen::Vector2d(e.normal_force, e.friction_force);
  return e;
}

void PenaltySystem::generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v,
                                      Eigen::Ref<Eigen::VectorXd> forces) const {
  model_.generalizedForces(t, q, v, forces);
  for (std::size_t k = 0; k < contacts_.size(); ++k) {
    const PenaltyContact& c = contacts_[k];
    const ContactEvaluation& e = last_[k] =
        evaluateContact(int(k), t, q, v, z_.segment(z_offset_[k], c.frictionStateSize()));
    if (c.body_i != kGround)
      forces.segment<3>(PlanarModel::coordinate(c.body_i, 0)) += e.generalized_force.head<3>();
    if (c.body_j != kGround)
      forces.segment<3>(PlanarModel::coordinate(c.body_j, 0)) += e.generalized_force.tail<3>();
  }
  for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
    const PenaltyJointFriction& f = joint_friction_[e];
    // The law's force at the iterate's |R| (none without a load), or the loop's probe.
    double force = probe_force_[e];
    if (std::isnan(force)) {
      const FrictionInput in{elementVelocity(e, v), reaction_[e], 0.0};
      force = f.law && reaction_[e] > 0.0
                  ? f.law->force(in, std::span<const double>(z_.data() + joint_z_offset_[e],
                                                             std::size_t(f.frictionStateSize())))
                  : 0.0;
    }
    if (f.guide) {
      joint_torque_[e] = force;
      forces += force * guide_kin_.jacobian.row(2 * guide_index_[e] + 1).transpose();
    } else {
      joint_torque_[e] = f.joint.radius * force;
      f.joint.addRow(model_, joint_torque_[e], forces);
    }
  }
}

EomStatus PenaltySystem::derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                    Eigen::Ref<Eigen::VectorXd> ydot) {
  const Eigen::Index n = model_.velocitySize();
  if (y.size() != stateSize() || ydot.size() != stateSize())
    throw std::invalid_argument("PenaltySystem::derivative: expected y and ẏ of size " +
                                std::to_string(stateSize()) + ", got " +
                                std::to_string(y.size()) + " and " + std::to_string(ydot.size()));
  z_ = y.segment(2 * n, nz_);
  const auto q = y.head(n), v = y.segment(n, n);
  model_.positionRate(q, v, ydot.head(n));
  if (!guides_.empty()) evaluateContacts(model_, guides_, t, q, v, guide_kin_, false);
  if (!held_.empty()) computeAppliedForces(t, q, v);
  const EomStatus st = solveJointFriction(t, q, v, ydot.segment(n, n));
  double dissipation = 0.0;  // −Σ F v of every friction
  for (std::size_t k = 0; k < contacts_.size(); ++k) {
    const PenaltyContact& c = contacts_[k];
    dissipation -= last_[k].friction_force * last_[k].tangential_velocity;
    const int nzk = c.frictionStateSize();
    if (nzk == 0) continue;
    const FrictionInput in{last_[k].tangential_velocity, std::abs(last_[k].normal_force), 0.0};
    c.friction->stateRate(
        in, std::span<const double>(y.data() + 2 * n + z_offset_[k], std::size_t(nzk)),
        std::span<double>(ydot.data() + 2 * n + z_offset_[k], std::size_t(nzk)));
  }
  for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
    const PenaltyJointFriction& f = joint_friction_[e];
    const double u = elementVelocity(e, v);
    // The law's force times its velocity: T ṡ for a joint (T = r F, u = r ṡ), F v_t for a guide.
    dissipation -= (f.guide ? joint_torque_[e] : joint_torque_[e] / f.joint.radius) * u;
    const int nze = f.frictionStateSize();
    if (nze == 0) continue;
    const FrictionInput in{u, reaction_[e], 0.0};
    f.law->stateRate(in, std::span<const double>(y.data() + 2 * n + joint_z_offset_[e], std::size_t(nze)),
                     std::span<double>(ydot.data() + 2 * n + joint_z_offset_[e], std::size_t(nze)));
  }
  ydot(workIndex()) = dissipation;
  return st;
}

void PenaltySystem::computeAppliedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& v) {
  // J_t of contact k times an acceleration of the model: its rows act on (q_i, q_j).
  auto tangential = [&](int k, const Eigen::VectorXd& vdot) {
    const PenaltyContact& c = contacts_[std::size_t(k)];
    const auto& jt = last_[std::size_t(k)].jacobian.row(1);
    double a = 0.0;
    if (c.body_i != kGround) a += jt.head<3>().dot(vdot.segment<3>(PlanarModel::coordinate(c.body_i, 0)));
    if (c.body_j != kGround) a += jt.tail<3>().dot(vdot.segment<3>(PlanarModel::coordinate(c.body_j, 0)));
    return a;
  };
  pass_ = Pass::kHeldOff;
  const bool free_ok = solver_.accelerations(t, q, v, vdot_free_) == EomStatus::kSuccess;
  for (int k : held_) {
    applied_[std::size_t(k)] = 0.0;
    if (!free_ok || last_[std::size_t(k)].normal_force == 0.0) continue;
    pass_ = Pass::kProbe;
    probe_ = k;
    if (solver_.accelerations(t, q, v, vdot_probe_) != EomStatus::kSuccess) continue;
    const double a_t = tangential(k, vdot_free_), w = tangential(k, vdot_probe_) - a_t;
    if (w > 0.0) applied_[std::size_t(k)] = a_t / w;
  }
  pass_ = Pass::kFull;
  probe_ = -1;
}

EomStatus PenaltySystem::solveJointFriction(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            Eigen::Ref<Eigen::VectorXd> vdot) {
  constexpr int kMaxSolves = 50;
  if (!failure_.empty()) failure_.clear();
  std::size_t with_law = 0, last = 0;
  for (std::size_t e = 0; e < joint_friction_.size(); ++e)
    if (joint_friction_[e].law) ++with_law, last = e;
  if (with_law == 1) return solveFrictionLoop(last, t, q, v, vdot);
  for (int solve = 1;; ++solve) {
    const EomStatus st = solver_.accelerations(t, q, v, vdot);
    if (st != EomStatus::kSuccess || joint_friction_.empty()) return st;
    double change = 0.0;
    std::size_t worst = 0;
    for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
      const double r = elementReaction(e, solver_.multipliers());
      const double d = std::abs(r - reaction_[e]) / (1.0 + r);
      if (d >= change) { change = d; worst = e; }
      reaction_[e] = r;
      if (joint_friction_[e].guide)
        guide_normal_[e] = -solver_.multipliers()(model_.joints()[std::size_t(joint_friction_[e].joint.joint)].row);
    }
    if (change <= 1e-12 || with_law == 0) return st;
    if (solve == kMaxSolves) {
      std::ostringstream os;
      os << "joint friction '" << joint_friction_[worst].name() << "' at t = " << t
         << " s: the reaction |R| did not settle in " << kMaxSolves
         << " solves (last relative change " << change << ")";
      failure_ = os.str();
      return EomStatus::kNotConverged;
    }
  }
}

EomStatus PenaltySystem::solveFrictionLoop(std::size_t e, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                           const Eigen::Ref<const Eigen::VectorXd>& v,
                                           Eigen::Ref<Eigen::VectorXd> vdot) {
  const PenaltyJointFriction& f = joint_friction_[e];
  const PlanarJoint& joint = model_.joints()[std::size_t(f.joint.joint)];
  // The reaction under a friction force F is λ₀ + F λ₁ (the equations are linear in F).
  EomStatus st = EomStatus::kSuccess;
  for (const double force : {0.0, 1.0}) {
    probe_force_[e] = force;
    st = solver_.accelerations(t, q, v, vdot);
    if (st != EomStatus::kSuccess) {
      probe_force_[e] = std::numeric_limits<double>::quiet_NaN();
      return st;
    }
    (force == 0.0 ? lambda0_ : lambda1_) = solver_.multipliers();
  }
  lambda1_ -= lambda0_;
  const Eigen::Index row = joint.row, rows = f.guide ? 1 : 2;
  const auto reaction = [&](double force) {
    return (lambda0_.segment(row, rows) + force * lambda1_.segment(row, rows)).norm();
  };
  const FrictionInput base{elementVelocity(e, v), 0.0, 0.0};
  const std::span<const double> z(z_.data() + joint_z_offset_[e], std::size_t(f.frictionStateSize()));
  const auto law = [&](double n) {
    if (!(n > 0.0)) return 0.0;
    FrictionInput in = base;
    in.normal_force = n;
    return f.law->force(in, z);
  };
  const FrictionLoopSolution loop = dynamics::solveFrictionLoop(reaction, law);
  probe_force_[e] = loop.force;
  st = solver_.accelerations(t, q, v, vdot);
  probe_force_[e] = std::numeric_limits<double>::quiet_NaN();
  reaction_[e] = loop.normal_magnitude;
  for (std::size_t k = 0; k < joint_friction_.size(); ++k) {
    if (k != e) reaction_[k] = elementReaction(k, solver_.multipliers());
    if (joint_friction_[k].guide)
      guide_normal_[k] = -solver_.multipliers()(model_.joints()[std::size_t(joint_friction_[k].joint.joint)].row);
  }
  if (st == EomStatus::kSuccess && !loop.converged) {
    std::ostringstream os;
    os << "friction of '" << f.name() << "' at t = " << t << " s: the loop F = law(|R(F)|) did not converge ("
       << loop.iterations << " law evaluations, residual " << loop.residual << " N)";
    failure_ = os.str();
    return EomStatus::kNotConverged;
  }
  return st;
}

Eigen::VectorXd PenaltySystem::initialState(double t, const Eigen::VectorXd& q,
                                            const Eigen::VectorXd& v) {
  const Eigen::Index n = model_.velocitySize();
  if (q.size() != n || v.size() != n)
    throw std::invalid_argument("PenaltySystem::initialState: expected q and v of size " +
                                std::to_string(n) + ", got " + std::to_string(q.size()) +
                                " and " + std::to_string(v.size()));
  Eigen::VectorXd y = Eigen::VectorXd::Zero(stateSize());
  y.head(n) = q;
  y.segment(n, n) = v;
  for (std::size_t k = 0; k < contacts_.size(); ++k) {
    status_[k] = {};
    const Eigen::VectorXd zk = Eigen::VectorXd::Zero(contacts_[k].frictionStateSize());
    const ContactEvaluation e = evaluateContact(int(k), t, q, v, zk);
    status_[k] = {e.penetration > 0.0, std::max(e.penetration_rate, 0.0)};
    if (contacts_[k].friction && zk.size() > 0) {
      const FrictionInput in{e.tangential_velocity, std::abs(e.normal_force), 0.0};
      contacts_[k].friction->initialState(
          in, std::span<double>(y.data() + 2 * n + z_offset_[k], std::size_t(zk.size())));
    }
  }
  if (!joint_friction_.empty()) {
    // The reactions at the start (the fixed point from |R| = 0), then the laws' states.
    std::fill(reaction_.begin(), reaction_.end(), 0.0);
    Eigen::VectorXd ydot(stateSize());
    static_cast<void>(derivative(t, y, ydot));  // a failure shows again in the first step
    for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
      const PenaltyJointFriction& f = joint_friction_[e];
      if (f.frictionStateSize() == 0) continue;
      const FrictionInput in{elementVelocity(e, v), reaction_[e], 0.0};
      f.law->initialState(in, std::span<double>(y.data() + 2 * n + joint_z_offset_[e],
                                                std::size_t(f.frictionStateSize())));
    }
  }
  return y;
}

void PenaltySystem::setContactStatus(int k, bool closed, double impact_velocity) {
  status_.at(std::size_t(k)) = {closed, impact_velocity};
}

double PenaltySystem::totalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const {
  const Eigen::Index n = model_.velocitySize();
  double e = model_.kineticEnergy(y.segment(n, n)) + model_.potentialEnergy(y.head(n));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nz_);
  for (std::size_t k = 0; k < contacts_.size(); ++k) {
    const ContactEvaluation c = evaluateContact(  // δ does not depend on t
        int(k), 0.0, y.head(n), y.segment(n, n),
        zero.segment(z_offset_[k], contacts_[k].frictionStateSize()));
    e += normalLawPotential(contacts_[k].normal,
                            contacts_[k].two_sided ? std::abs(c.penetration) : c.penetration);
  }
  return e;
}

std::string_view toString(PenaltyStatus s) {
  switch (s) {
    case PenaltyStatus::kSuccess: return "success";
    case PenaltyStatus::kEomFailure: return "eom-failure";
    case PenaltyStatus::kIntegratorFailure: return "integrator-failure";
    case PenaltyStatus::kEnergyIncrease: return "energy-increase";
  }
  return "unknown";
}

namespace {

/// Appends one history row: t, y, per contact (δ, v_t, Fₙ, Fₜ), energy, then from the equations
/// of motion at the sample v̇, λ and per reaction-dependent friction (|R|, friction, a guide's N).
void record(PenaltySystem& sys, double t, const Eigen::VectorXd& y, Eigen::VectorXd& ydot,
            std::vector<double>& rows) {
  const Eigen::Index n = sys.model().velocitySize();
  rows.push_back(t);
  rows.insert(rows.end(), y.data(), y.data() + y.size());
  for (int k = 0; k < int(sys.contacts().size()); ++k) {
    const ContactEvaluation e = sys.evaluateContact(
        k, t, y.head(n), y.segment(n, n),
        y.segment(2 * n + sys.frictionStateOffset(k), sys.contacts()[std::size_t(k)].frictionStateSize()));
    rows.insert(rows.end(), {e.penetration, e.tangential_velocity, e.normal_force, e.friction_force});
  }
  rows.push_back(sys.totalEnergy(y));
  const bool solved = sys.derivative(t, y, ydot) == EomStatus::kSuccess;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Eigen::Index i = 0; i < n; ++i) rows.push_back(solved ? ydot(n + i) : nan);
  for (Eigen::Index i = 0; i < sys.constraintCount(); ++i)
    rows.push_back(solved ? sys.eomSolver().multipliers()(i) : nan);
  for (int e = 0; e < int(sys.jointFriction().size()); ++e)
    rows.insert(rows.end(), {sys.jointReaction(e), sys.jointFrictionTorque(e), sys.guideNormal(e)});
}

}  // namespace

PenaltyRun simulatePenalty(PenaltySystem& sys, const Eigen::VectorXd& y0,
                           const PenaltyIntegrationOptions& o) {
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(o.t_end) || !positive(o.dt) || !positive(o.output_dt) ||
      !positive(o.relative_tolerance) || !positive(o.absolute_tolerance) ||
      !(std::isfinite(o.max_step) && o.max_step >= 0.0))
    throw std::invalid_argument(
        "simulatePenalty: expected finite t_end, dt, output_dt and tolerances > 0 and "
        "max_step ≥ 0, got t_end " + std::to_string(o.t_end) + ", dt " + std::to_string(o.dt) +
        ", output_dt " + std::to_string(o.output_dt) + ", rtol " +
        std::to_string(o.relative_tolerance) + ", atol " + std::to_string(o.absolute_tolerance) +
        ", max_step " + std::to_string(o.max_step));
  if (y0.size() != sys.stateSize())
    throw std::invalid_argument("simulatePenalty: expected y0 of size " +
                                std::to_string(sys.stateSize()) + ", got " +
                                std::to_string(y0.size()));
  const Eigen::Index n = sys.model().velocitySize();
  const int nc = int(sys.contacts().size());
  PenaltyRun run;
  Eigen::VectorXd y = y0;
  std::vector<double> rows;
  const Eigen::Index cols = 1 + y.size() + 4 * nc + 1 + n + sys.constraintCount() +
                            3 * Eigen::Index(sys.jointFriction().size());
  Eigen::VectorXd ydot_sample(y.size());
  const auto t0 = std::chrono::steady_clock::now();

  // δ and δ̇ of every contact at y (friction plays no part in them).
  Eigen::VectorXd pen(nc), rate(nc);
  const auto kinematics = [&](double tt, const Eigen::VectorXd& state, Eigen::VectorXd& d,
                              Eigen::VectorXd& dd) {
    for (int k = 0; k < nc; ++k) {
      const ContactEvaluation e = sys.evaluateContact(
          k, tt, state.head(n), state.segment(n, n),
          state.segment(2 * n + sys.frictionStateOffset(k),
                        sys.contacts()[std::size_t(k)].frictionStateSize()));
      d(k) = e.penetration;
      dd(k) = e.penetration_rate;
    }
  };
  const auto addEvent = [&](double t, int k, bool closing, double delta_rate) {
    sys.setContactStatus(k, closing,
                         closing ? delta_rate : sys.contactStatus()[std::size_t(k)].impact_velocity);
    run.events.push_back({t, k, closing, delta_rate});
  };

  bool eom_ok = true;
  const OdeRhs rhs = [&](double t, const Eigen::Ref<const Eigen::VectorXd>& yy,
                         Eigen::Ref<Eigen::VectorXd> dydt) {
    ++run.rhs_evaluations;
    if (sys.derivative(t, yy, dydt) != EomStatus::kSuccess) {
      eom_ok = false;
      return false;
    }
    return dydt.allFinite();
  };

  double next_output = 0.0;
  record(sys, 0.0, y, ydot_sample, rows);
  next_output += o.output_dt;
  double t = 0.0;
  const std::size_t energy_offset = std::size_t(1 + y.size() + 4 * nc);  // in a row
  const auto energyOfLastRow = [&] { return rows[rows.size() - std::size_t(cols) + energy_offset]; };
  const double initial_energy = energyOfLastRow();
  // After each sample: false (and the run marked) when the energy rose beyond the limit.
  const auto energyHolds = [&] {
    if (!(energyOfLastRow() > initial_energy + o.max_energy_gain)) return true;
    std::ostringstream os;
    os << "the total energy rose from " << initial_energy << " J to " << energyOfLastRow()
       << " J by t = " << t << " s, more than the " << o.max_energy_gain
       << " J allowed for this passive system (a numerical instability, or a friction law "
          "that is not dissipative under a varying load)";
    run.status = PenaltyStatus::kEnergyIncrease;
    run.message = os.str();
    return false;
  };

  if (o.integrator == PenaltyIntegrationOptions::Integrator::kBdf) {
    CvodeOptions co;
    co.method = OdeMethod::kBdf;
    co.relative_tolerance = o.relative_tolerance;
    co.absolute_tolerance = o.absolute_tolerance;
    co.max_step = o.max_step;
    co.max_steps = o.max_steps;
    const OdeRoots roots = [&](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy,
                               Eigen::Ref<Eigen::VectorXd> g) {
      for (int k = 0; k < nc; ++k) {
        const ContactEvaluation e = sys.evaluateContact(
            k, tt, yy.head(n), yy.segment(n, n),
            yy.segment(2 * n + sys.frictionStateOffset(k),
                       sys.contacts()[std::size_t(k)].frictionStateSize()));
        g(k) = sys.contacts()[std::size_t(k)].two_sided ? 1.0 : e.penetration;  // no events
      }
    };
    CvodeIntegrator cv(int(y.size()), rhs, co, nc, roots);
    cv.reset(0.0, y);
    int stalled = 0;  // consecutive roots without progress in t
    while (t < o.t_end) {
      const double target = std::min(next_output, o.t_end);
      const OdeStep s = cv.advance(target, y);
      stalled = s.status == OdeStatus::kRoot && s.t - t <= 1e-12 * std::max(1.0, t) ? stalled + 1 : 0;
      t = s.t;
      if (run.steps + cv.statistics().steps > o.max_total_steps || stalled > o.max_stalled_events) {
        run.status = PenaltyStatus::kIntegratorFailure;
        run.message = (stalled > o.max_stalled_events
                           ? "contact events chatter without progress at t = "
                           : "more than " + std::to_string(o.max_total_steps) +
                                 " integrator steps by t = ") +
                      std::to_string(t) + " s (too stiff for BDF here: try --integrator rk4)";
        break;
      }
      if (s.status == OdeStatus::kFailure) {
        run.status = eom_ok ? PenaltyStatus::kIntegratorFailure : PenaltyStatus::kEomFailure;
        run.message = eom_ok ? s.message : sys.eomFailure();
        break;
      }
      if (s.status == OdeStatus::kRoot) {
        run.steps += cv.statistics().steps;
        kinematics(t, y, pen, rate);
        for (int k = 0; k < nc; ++k)
          if (s.roots[std::size_t(k)] != 0) addEvent(t, k, rate(k) > 0.0, rate(k));
        cv.reset(t, y);
        continue;
      }
      if (t >= target) {
        record(sys, t, y, ydot_sample, rows);
        if (o.progress) o.progress(t);
        next_output += o.output_dt;
        if (!energyHolds()) break;
      }
    }
    run.steps += cv.statistics().steps;
  } else {
    Rk4 rk4(y.size());
    const Rk4::Derivative f = [&](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy,
                                  Eigen::Ref<Eigen::VectorXd> dydt) { return rhs(tt, yy, dydt); };
    Eigen::VectorXd pen1(nc), rate1(nc);
    kinematics(0.0, y, pen, rate);
    const long n_steps = long(std::ceil(o.t_end / o.dt - 1e-9));
    for (long i = 0; i < n_steps; ++i) {
      const double h = std::min(o.dt, o.t_end - t);
      if (!rk4.step(f, t, h, y)) {
        run.status = eom_ok ? PenaltyStatus::kIntegratorFailure : PenaltyStatus::kEomFailure;
        run.message = eom_ok ? "non-finite derivative at t = " + std::to_string(t) + " s"
                             : sys.eomFailure();
        break;
      }
      ++run.steps;
      kinematics(t + h, y, pen1, rate1);
      for (int k = 0; k < nc; ++k) {
        if ((pen(k) <= 0.0) != (pen1(k) <= 0.0) && !sys.contacts()[std::size_t(k)].two_sided) {
          // Linear interpolation of δ for the crossing instant, and of δ̇ at it; the
          // direction from the crossing itself (δ̇ at a contact starting at δ = 0 may be 0).
          const double a = pen(k) / (pen(k) - pen1(k));
          addEvent(t + a * h, k, pen1(k) > 0.0, rate(k) + a * (rate1(k) - rate(k)));
        }
      }
      pen = pen1;
      rate = rate1;
      t += h;
      if (t >= next_output - 1e-9 * o.dt || i + 1 == n_steps) {
        record(sys, t, y, ydot_sample, rows);
        if (o.progress) o.progress(t);
        next_output += o.output_dt;
        if (!energyHolds()) break;
      }
    }
  }
  run.cpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  run.t = t;
  run.final_state = y;
  run.history = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      rows.data(), Eigen::Index(rows.size()) / cols, cols);
  return run;
}

}  // namespace stickslip::dynamics
