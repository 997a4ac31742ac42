#include "dynamics/routes/penalty/penalty_system.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <span>
#include <sstream>
#include <utility>
#include <stdexcept>
#include <string>

#include "dynamics/integrators/cvode_integrator.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/friction/friction_loop.hpp"
#include "dynamics/integrators/rk4.hpp"

namespace stickslip::dynamics {

PenaltySystem::PenaltySystem(const Mechanism& mechanism, std::vector<std::shared_ptr<const FrictionLaw>> contact_friction,
                             EomMethod method, EomOptions options, std::vector<PenaltyJointFriction> joint_friction)
    : ForwardedSystem<MultibodySystem>(mechanism),
      mechanism_(mechanism),
      contact_friction_(std::move(contact_friction)),
      joint_friction_(std::move(joint_friction)),
      status_(mechanism.contacts().size()),
      solver_(*this, method, options),
      last_(mechanism.contacts().size()),
      reaction_(joint_friction_.size(), 0.0),
      joint_torque_(joint_friction_.size(), 0.0),
      probe_force_(joint_friction_.size(), std::numeric_limits<double>::quiet_NaN()),
      guide_normal_(joint_friction_.size(), std::numeric_limits<double>::quiet_NaN()) {
  const std::vector<RigidContact>& contacts = mechanism.contacts();
  if (contact_friction_.size() != contacts.size())
    throw std::invalid_argument("PenaltySystem: expected a friction law (or none) per contact, " +
                                std::to_string(contacts.size()) + ", got " + std::to_string(contact_friction_.size()));
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const RigidContact& c = contacts[k];
    if (c.normal == RigidContact::Normal::kUnilateral)
      throw std::invalid_argument(c.name + ": expected a compliant contact or a guide for the penalty route, got a "
                                           "rigid unilateral one");
    kind_.push_back(c.normal == RigidContact::Normal::kCompliant ? Kind::kOneSided
                    : c.compliant_law                            ? Kind::kTwoSided
                                                                 : Kind::kGuide);
    if (kind_.back() == Kind::kGuide && contact_friction_[k])
      throw std::invalid_argument(c.name + ": a guide's friction is its element's, not the contact's");
    plane_friction_.push_back(planeForm(c, contact_friction_[k]));
    linear_.push_back(contact_friction_[k] && TangentPlaneFriction::lifts(*contact_friction_[k]));
    bristles_ = bristles_ || linear_.back();
    z_offset_.push_back(nz_);
    nz_ += contactFrictionStateSize(Eigen::Index(k));
  }
  for (const PenaltyJointFriction& f : joint_friction_) {
    const bool guide = f.kind == PenaltyJointFriction::Kind::kGuide;
    if (guide ? f.index >= contacts.size() || kind_[f.index] != Kind::kGuide
              : f.index >= mechanism.jointFriction().size())
      throw std::invalid_argument("PenaltySystem: expected " +
                                  std::string(guide ? "a guide contact" : "a joint friction") + " of the mechanism, got index " +
                                  std::to_string(f.index));
    const std::string& who = guide ? contacts[f.index].name : mechanism.jointFriction()[f.index].name;
    if (guide && !(f.row >= 0 && f.row < mechanism.constraintCount()))
      throw std::invalid_argument(who + ": expected its closing joint's row in [0, " +
                                  std::to_string(mechanism.constraintCount()) + "), got " + std::to_string(f.row));
    if (!guide && !f.law) throw std::invalid_argument(who + ": expected a friction law, got none");
    if (f.law && f.law->usesAppliedForce())
      throw std::invalid_argument(who + ": friction law '" + std::string(f.law->name()) +
                                  "' holds with the applied force, which the penalty route supplies "
                                  "at contacts only; a joint or guide takes a law of v and |R| alone");
    joint_z_offset_.push_back(nz_);
    nz_ += f.frictionStateSize();
  }
  for (const auto& law : contact_friction_)
    if (!settling_ && law && law->settlesBetweenSteps()) settling_ = law.get();
  for (const PenaltyJointFriction& f : joint_friction_)
    if (f.law && f.law->settlesBetweenSteps()) {
      settling_ = settling_ ? settling_ : f.law.get();
      settle_rate_.resize(stateSize());  // an element's load needs the whole evaluation
    }
  z_ = zrate_ = Eigen::VectorXd::Zero(nz_);
  impulse_ = vdot_impulse_ = Eigen::VectorXd::Zero(mechanism.velocitySize());
  rated_.assign(contacts.size(), 0);
  guide_element_.assign(contacts.size(), -1);
  for (std::size_t e = 0; e < joint_friction_.size(); ++e)
    if (joint_friction_[e].kind == PenaltyJointFriction::Kind::kGuide) guide_element_[joint_friction_[e].index] = int(e);
  for (const JointFriction& f : mechanism.jointFriction()) {
    const int slot = f.load_contact;
    pins_ = pins_ || slot >= 0;
    if (slot >= 0 && kind_[std::size_t(slot)] == Kind::kGuide && guide_element_[std::size_t(slot)] < 0)
      throw std::invalid_argument(f.name + ": expected an element for its slot '" + contacts[std::size_t(slot)].name +
                                  "', a guide, whose normal force is its pin's load");
  }
  contact_forces_ = Eigen::VectorXd::Zero(2 * Eigen::Index(contacts.size()));
  applied_.assign(contacts.size(), 0.0);
  for (std::size_t k = 0; k < contacts.size(); ++k)
    if (contact_friction_[k] && contact_friction_[k]->usesAppliedForce()) held_.push_back(int(k));
  const Eigen::Index nv = mechanism.velocitySize();
  vdot_free_.resize(nv);
  vdot_probe_.resize(nv);
  momentum_rate_.resize(nv);
  mechanism.resizeContacts(kin_);
  const Eigen::Index nl = mechanism.constraintCount();
  for (std::size_t e = 0; e < joint_friction_.size(); ++e)
    if (joint_friction_[e].law) laws_.push_back(e);
  const auto n = Eigen::Index(laws_.size());
  lambda0_.resize(nl);
  lambda_free_.resize(nl);
  lambda_units_.resize(nl, n);
  vdot_units_.resize(nv, n);
  loop_force_.assign(laws_.size(), 0.0);
  newton_loads_.resize(n);
  newton_h_.resize(n);
  newton_trial_.resize(n);
  newton_h_trial_.resize(n);
  newton_step_.resize(n);
  newton_jacobian_.resize(n, n);
  newton_lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n);
  multipliers_.resize(nl);
}

int PenaltySystem::contactFrictionStateSize(Eigen::Index k) const {
  if (const TangentPlaneFriction* plane = planeFriction(k)) return plane->stateSize();
  const auto& law = contact_friction_[std::size_t(k)];
  return law ? law->stateSize() : 0;
}

std::unique_ptr<const TangentPlaneFriction> PenaltySystem::planeForm(const RigidContact& c,
                                                                     const std::shared_ptr<const FrictionLaw>& law) {
  // A static law has no memory of the direction: its scalar force along t is the plane's.
  if (!law || law->stateSize() == 0 || !c.spatial()) return nullptr;
  if (TangentPlaneFriction::lifts(*law)) return std::make_unique<const TangentPlaneFriction>(law);
  std::string liftable;
  for (const std::string_view name : frictionLawNames()) {
    try {
      const std::unique_ptr<FrictionLaw> l = makeFrictionLaw(name);
      if (l->stateSize() > 0 && TangentPlaneFriction::lifts(*l)) liftable += (liftable.empty() ? "" : ", ") + std::string(name);
    } catch (const std::invalid_argument&) {
    }
  }
  throw std::invalid_argument("contact '" + c.name + "': friction law '" + std::string(law->name()) +
                              "' cannot act on this spatial contact: it keeps its state" + (law->stateSize() > 1 ? "s" : "") +
                              " along one sliding direction, the contact slides in a plane, and the law has no "
                              "isotropic (vector) form there; the laws with states that have one: " +
                              liftable + " (static laws need none)");
}

void PenaltySystem::evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                     const Eigen::Ref<const Eigen::VectorXd>& v,
                                     const Eigen::Ref<const Eigen::VectorXd>& z, std::vector<ContactForce>& out) const {
  const std::vector<RigidContact>& contacts = mechanism_.contacts();
  out.resize(contacts.size());
  if (contacts.empty()) return;
  if (!kinematics_current_) mechanism_.evaluateContacts(t, q, v, kin_, false);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const auto i = Eigen::Index(k);
    ContactForce& e = out[k];
    e.penetration = -kin_.gap(i);
    e.penetration_rate = -kin_.normal_velocity(i);
    e.tangential_velocity = frictionLawVelocity(contacts[k], kin_, i);
    e.normal_force = e.friction_force = e.second_tangent_force = 0.0;
    const RigidContact& c = contacts[k];
    if (kind_[k] == Kind::kGuide) continue;  // its joint's reaction, the element's friction
    if (kind_[k] == Kind::kTwoSided) {
      const double side = e.penetration >= 0.0 ? 1.0 : -1.0;
      e.normal_force = side * normalForce(*c.compliant_law, side * e.penetration, side * e.penetration_rate, 0.0);
    } else if (e.penetration > 0.0) {
      const ContactStatus& s = status_[k];
      // Not yet recorded closed: the contact began within the current step, so δ̇ is δ̇⁽⁻⁾ to
      // first order in δ.
      const double impact = s.closed ? s.impact_velocity : std::max(e.penetration_rate, 0.0);
      e.normal_force = normalForce(*c.compliant_law, e.penetration, e.penetration_rate, impact);
    }
    const FrictionLaw* law = contact_friction_[k].get();
    // No load, no friction: the laws' viscous terms (σ2 v) would otherwise drag an open contact.
    const bool held = pass_ != Pass::kFull && law && law->usesAppliedForce();
    if (held) {
      e.friction_force = pass_ == Pass::kProbe && int(k) == probe_ ? 1.0 : 0.0;
    } else if (rating_ && rated_[k] && e.normal_force != 0.0) {
      ratedFriction(k, e);
    } else if (const TangentPlaneFriction* plane = planeFriction(i); plane && e.normal_force != 0.0) {
      // The vector law's F_T, by its components along t and b = n × t.
      const Eigen::Matrix3d& frame = kin_.frame[k];
      const Eigen::Vector3d f =
          plane->force(planeInput(k, e), std::span<const double>(z.data() + z_offset_[k], std::size_t(plane->stateSize())));
      e.friction_force = frame.col(1).dot(f);
      e.second_tangent_force = frame.col(2).dot(f);
    } else if (law && e.normal_force != 0.0) {
      const FrictionInput in{e.tangential_velocity, std::abs(e.normal_force), applied_[k]};
      e.friction_force = law->force(in, std::span<const double>(z.data() + z_offset_[k],
                                                                std::size_t(contactFrictionStateSize(i))));
    }
  }
}

void PenaltySystem::generalizedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v,
                                      Eigen::Ref<Eigen::VectorXd> forces) const {
  mechanism_.generalizedForces(t, q, v, forces);
  if (impulsive_) forces += impulse_;
  evaluateContacts(t, q, v, z_, last_);
  for (std::size_t k = 0; k < last_.size(); ++k) {
    const auto i = Eigen::Index(k);
    if (last_[k].normal_force != 0.0) forces += last_[k].normal_force * kin_.jacobian.row(2 * i).transpose();
    if (last_[k].friction_force != 0.0) forces += last_[k].friction_force * kin_.jacobian.row(2 * i + 1).transpose();
    if (last_[k].second_tangent_force != 0.0) forces += last_[k].second_tangent_force * kin_.second_tangent.row(i).transpose();
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
    if (f.kind == PenaltyJointFriction::Kind::kGuide) {
      joint_torque_[e] = force;
      forces += force * kin_.jacobian.row(2 * Eigen::Index(f.index) + 1).transpose();
    } else {
      joint_torque_[e] = mechanism_.jointFriction()[f.index].lever * force;
      mechanism_.addJointFrictionRow(f.index, joint_torque_[e], forces);
    }
  }
}

double PenaltySystem::elementReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda) const {
  const PenaltyJointFriction& f = joint_friction_[e];
  return f.kind == PenaltyJointFriction::Kind::kGuide ? std::abs(lambda(f.row))
                                                      : mechanism_.jointFrictionReaction(f.index, lambda, contactForces(lambda));
}

const Eigen::VectorXd& PenaltySystem::contactForces(const Eigen::Ref<const Eigen::VectorXd>& lambda) const {
  if (!pins_) return contact_forces_;  // only a pin reads them
  for (std::size_t k = 0; k < last_.size(); ++k) {
    const auto i = 2 * Eigen::Index(k);
    const int g = guide_element_[k];
    contact_forces_(i) = g < 0 ? last_[k].normal_force : -lambda(joint_friction_[std::size_t(g)].row);
    contact_forces_(i + 1) = g < 0 ? last_[k].friction_force : joint_torque_[std::size_t(g)];
  }
  return contact_forces_;
}

double PenaltySystem::elementVelocity(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const {
  const PenaltyJointFriction& f = joint_friction_[e];
  return f.kind == PenaltyJointFriction::Kind::kGuide
             ? kin_.sliding_velocity(Eigen::Index(f.index))
             : mechanism_.jointFriction()[f.index].lever * mechanism_.jointFrictionRate(f.index, v);
}

EomStatus PenaltySystem::derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                    Eigen::Ref<Eigen::VectorXd> ydot) {
  return evaluate(t, y, ydot, nullptr, nullptr, nullptr);
}

EomStatus PenaltySystem::derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                    const Rk4::RelaxedStage& stage, Eigen::Ref<Eigen::VectorXd> ydot,
                                    Eigen::Ref<Eigen::VectorXd> drive, Eigen::Ref<Eigen::VectorXd> decay) {
  if (drive.size() != stateSize() || decay.size() != stateSize())
    throw std::invalid_argument("PenaltySystem::derivative: expected drives and decays of size " +
                                std::to_string(stateSize()));
  drive.setZero();
  decay.setZero();
  return evaluate(t, y, ydot, &stage, drive.data(), decay.data());
}

void PenaltySystem::relaxBristles(const Rk4::RelaxedStage& stage, double* drive, double* decay) {
  const Eigen::Index zs = mechanism_.positionSize() + mechanism_.velocitySize();
  TangentPlaneFriction::Coefficients b;
  for (std::size_t k = 0; k < last_.size(); ++k) {
    rated_[k] = 0;
    if (!linear_[k]) continue;
    const ContactForce& e = last_[k];
    const bool plane = planeFriction(Eigen::Index(k)) != nullptr;
    if (plane && e.normal_force == 0.0) continue;  // unloaded: held still
    const FrictionLaw& law = *contact_friction_[k];
    TangentPlaneFriction::coefficients(law, std::abs(e.tangential_velocity), std::abs(e.normal_force), b);
    // The sliding velocity: v_T = v_t t in world axes on a spatial contact, v_t on a planar one.
    const Eigen::Vector3d velocity = plane ? Eigen::Vector3d(e.tangential_velocity * kin_.frame[k].col(1))
                                           : Eigen::Vector3d(e.tangential_velocity, 0.0, 0.0);
    const int dims = plane ? 3 : 1;
    for (int i = 0; i < law.stateSize(); ++i)
      for (int c = 0; c < dims; ++c) {
        const Eigen::Index j = z_offset_[k] + dims * i + c;
        const double a = drive[zs + j] = b[std::size_t(i)].drive * velocity(c);
        const double d = decay[zs + j] = b[std::size_t(i)].decay;
        if (!stage.relaxes(zs + j)) continue;
        rated_[k] = 1;
        zrate_(j) = Rk4::meanRate(z_(j), a, d, stage.step);  // from the step's start value
        z_(j) = Rk4::relaxed(z_(j), a, d, stage.offset);
      }
  }
}

void PenaltySystem::ratedFriction(std::size_t k, ContactForce& e) const {
  const FrictionLaw& law = *contact_friction_[k];
  TangentPlaneFriction::Coefficients b;
  const double viscous =
      TangentPlaneFriction::coefficients(law, std::abs(e.tangential_velocity), std::abs(e.normal_force), b);
  const Eigen::Index o = z_offset_[k];
  if (!planeFriction(Eigen::Index(k))) {
    double r = viscous * e.tangential_velocity;  // R = −F
    for (int i = 0; i < law.stateSize(); ++i) r += b[std::size_t(i)].stiffness * z_(o + i) + b[std::size_t(i)].damping * zrate_(o + i);
    e.friction_force = -r;
    return;
  }
  // The vector form's R = Σ (a_i Π z_i + b_i Π ż_i) + c v_T (tangent_plane_friction.hpp).
  const Eigen::Matrix3d& frame = kin_.frame[k];
  const Eigen::Vector3d n = frame.col(0);
  const auto tangential = [&](const Eigen::Vector3d& x) { return Eigen::Vector3d(x - n.dot(x) * n); };
  Eigen::Vector3d r = viscous * e.tangential_velocity * frame.col(1);
  for (int i = 0; i < law.stateSize(); ++i)
    r += b[std::size_t(i)].stiffness * tangential(z_.segment<3>(o + 3 * i)) +
         b[std::size_t(i)].damping * tangential(zrate_.segment<3>(o + 3 * i));
  e.friction_force = -frame.col(1).dot(r);
  e.second_tangent_force = -frame.col(2).dot(r);
}

EomStatus PenaltySystem::evaluate(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                  Eigen::Ref<Eigen::VectorXd> ydot, const Rk4::RelaxedStage* stage, double* drive,
                                  double* decay) {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize(), zs = nq + nv;
  if (y.size() != stateSize() || ydot.size() != stateSize())
    throw std::invalid_argument("PenaltySystem::derivative: expected y and ẏ of size " +
                                std::to_string(stateSize()) + ", got " +
                                std::to_string(y.size()) + " and " + std::to_string(ydot.size()));
  z_ = y.segment(zs, nz_);
  const auto q = y.head(nq), v = y.segment(nq, nv);
  mechanism_.positionRate(q, v, ydot.head(nq));
  // The contacts at this state (their kinematics feed the guides' velocities and Fₑ).
  rating_ = false;
  evaluateContacts(t, q, v, z_, last_);
  kinematics_current_ = true;
  struct Reset {  // when evaluate() returns or throws
    PenaltySystem& s;
    ~Reset() { s.kinematics_current_ = s.solved_at_state_ = false; }
  } reset{*this};
  // Relaxed bristles change the friction forces only, which the solve below computes again.
  if (stage) relaxBristles(*stage, drive, decay);
  rating_ = stage != nullptr;
  if (!held_.empty()) computeAppliedForces(t, q, v);
  const EomStatus st = solveJointFriction(t, q, v, ydot.segment(nq, nv));
  double dissipation = 0.0;  // −Σ F v of every friction
  for (std::size_t k = 0; k < last_.size(); ++k) {
    // −F_T · v_T: a spatial contact's v_T = v_t t, so its force along b does no work. The
    // surfaces' slip v_t, also where the law reads the centres' velocity (centres_slip).
    dissipation -= last_[k].friction_force * kin_.sliding_velocity(Eigen::Index(k));
    const int nzk = contactFrictionStateSize(Eigen::Index(k));
    if (nzk == 0) continue;
    if (rating_ && rated_[k]) {
      ydot.segment(zs + z_offset_[k], nzk) = zrate_.segment(z_offset_[k], nzk);
      continue;
    }
    if (const TangentPlaneFriction* plane = planeFriction(Eigen::Index(k))) {
      // Unloaded: no junctions to deflect; the bristles hold still until they restart.
      if (last_[k].normal_force == 0.0)
        ydot.segment(zs + z_offset_[k], nzk).setZero();
      else
        plane->stateRate(planeInput(k, last_[k]), std::span<const double>(z_.data() + z_offset_[k], std::size_t(nzk)),
                         std::span<double>(ydot.data() + zs + z_offset_[k], std::size_t(nzk)));
      continue;
    }
    const FrictionInput in{last_[k].tangential_velocity, std::abs(last_[k].normal_force), 0.0};
    contact_friction_[k]->stateRate(in, std::span<const double>(z_.data() + z_offset_[k], std::size_t(nzk)),
                                    std::span<double>(ydot.data() + zs + z_offset_[k], std::size_t(nzk)));
  }
  for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
    const PenaltyJointFriction& f = joint_friction_[e];
    const double u = elementVelocity(e, v);
    // The law's force times its velocity: T ṡ for a joint (T = r F, u = r ṡ), F v_t for a guide.
    const double force = f.kind == PenaltyJointFriction::Kind::kGuide
                             ? joint_torque_[e]
                             : joint_torque_[e] / mechanism_.jointFriction()[f.index].lever;
    dissipation -= force * u;
    const int nze = f.frictionStateSize();
    if (nze == 0) continue;
    const FrictionInput in{u, reaction_[e], 0.0};
    f.law->stateRate(in, std::span<const double>(y.data() + zs + joint_z_offset_[e], std::size_t(nze)),
                     std::span<double>(ydot.data() + zs + joint_z_offset_[e], std::size_t(nze)));
  }
  ydot(workIndex()) = dissipation;
  rating_ = false;
  return st;
}

EomStatus PenaltySystem::solveAtState(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                      const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot) {
  if (solved_at_state_) return solver_.accelerationsUnderNewForces(t, q, v, vdot);
  solved_at_state_ = kinematics_current_;
  return solver_.accelerations(t, q, v, vdot);
}

void PenaltySystem::computeAppliedForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                         const Eigen::Ref<const Eigen::VectorXd>& v) {
  // J_t of contact k times an acceleration (the rows of the evaluation at this state).
  auto tangential = [&](int k, const Eigen::VectorXd& vdot) { return kin_.jacobian.row(2 * k + 1).dot(vdot); };
  pass_ = Pass::kHeldOff;
  const bool free_ok = solveAtState(t, q, v, vdot_free_) == EomStatus::kSuccess;
  for (int k : held_) {
    applied_[std::size_t(k)] = 0.0;
    if (!free_ok || last_[std::size_t(k)].normal_force == 0.0) continue;
    pass_ = Pass::kProbe;
    probe_ = k;
    if (solveAtState(t, q, v, vdot_probe_) != EomStatus::kSuccess) continue;
    const double a_t = tangential(k, vdot_free_), w = tangential(k, vdot_probe_) - a_t;
    if (w > 0.0) applied_[std::size_t(k)] = a_t / w;
  }
  pass_ = Pass::kFull;
  probe_ = -1;
}

EomStatus PenaltySystem::solveJointFriction(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                            const Eigen::Ref<const Eigen::VectorXd>& v,
                                            Eigen::Ref<Eigen::VectorXd> vdot) {
  if (!failure_.empty()) failure_.clear();
  if (laws_.empty()) {
    const EomStatus st = solveAtState(t, q, v, vdot);
    multipliers_ = solver_.multipliers();
    if (st == EomStatus::kSuccess) recordReactions(false);
    return st;
  }
  const std::size_t n = laws_.size();
  EomStatus st = EomStatus::kSuccess;
  if (n > 1 && iterateReactions(t, q, v, vdot, st)) return st;
  st = probeFrictions(t, q, v, vdot);
  if (st != EomStatus::kSuccess) return st;
  if (n == 1) {
    lambda0_ = lambda_free_;
    if (!settleElement(0, t, v)) return EomStatus::kNotConverged;
    multipliers_ = lambda0_ + loop_force_[0] * lambda_units_.col(0);
  } else {
    if (!settleElements(t, v)) return EomStatus::kNotConverged;
    multipliers_ = lambda_free_;
    for (std::size_t i = 0; i < n; ++i) multipliers_ += loop_force_[i] * lambda_units_.col(Eigen::Index(i));
  }
  // The solution at the forces found, from the n + 1 solves (no further one).
  for (std::size_t i = 0; i < n; ++i) vdot += loop_force_[i] * vdot_units_.col(Eigen::Index(i));
  recordReactions(true);
  return st;
}

bool PenaltySystem::iterateReactions(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                     const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot,
                                     EomStatus& st) {
  constexpr int kMaxSolves = 20;
  for (int solve = 1;; ++solve) {
    st = solveAtState(t, q, v, vdot);
    multipliers_ = solver_.multipliers();
    if (st != EomStatus::kSuccess) return true;
    double change = 0.0;
    for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
      const double r = elementReaction(e, multipliers_);
      change = std::max(change, std::abs(r - reaction_[e]) / (1.0 + r));
      reaction_[e] = r;
      if (joint_friction_[e].kind == PenaltyJointFriction::Kind::kGuide)
        guide_normal_[e] = -multipliers_(joint_friction_[e].row);
    }
    if (change <= 1e-12) return true;
    if (solve == kMaxSolves) return false;
  }
}

EomStatus PenaltySystem::probeFrictions(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        Eigen::Ref<Eigen::VectorXd> vdot) {
  for (const std::size_t e : laws_) probe_force_[e] = 0.0;
  EomStatus st = solveAtState(t, q, v, vdot);
  lambda_free_ = solver_.multipliers();
  for (std::size_t i = 0; i < laws_.size() && st == EomStatus::kSuccess; ++i) {
    const auto col = Eigen::Index(i);
    probe_force_[laws_[i]] = 1.0;
    st = solveAtState(t, q, v, vdot_units_.col(col));
    probe_force_[laws_[i]] = 0.0;
    lambda_units_.col(col) = solver_.multipliers() - lambda_free_;
    vdot_units_.col(col) -= vdot;
  }
  for (const std::size_t e : laws_) probe_force_[e] = std::numeric_limits<double>::quiet_NaN();
  if (st != EomStatus::kSuccess) multipliers_ = solver_.multipliers();
  return st;
}

bool PenaltySystem::settleElement(std::size_t i, double t, const Eigen::Ref<const Eigen::VectorXd>& v) {
  const std::size_t e = laws_[i];
  const PenaltyJointFriction& f = joint_friction_[e];
  const bool guide = f.kind == PenaltyJointFriction::Kind::kGuide;
  const auto unit = lambda_units_.col(Eigen::Index(i));  // λ₁: λ per unit force of the element
  const auto reaction = [&](double force) {
    if (guide) return std::abs(lambda0_(f.row) + force * unit(f.row));
    lambda0_ += force * unit;  // R at λ₀ + F λ₁, without a temporary
    const double r = mechanism_.jointFrictionReaction(f.index, lambda0_, contactForces(lambda0_));
    lambda0_ -= force * unit;
    return r;
  };
  // Several elements start each loop from the element's last |R|, to stay on its branch.
  const FrictionLoopSolution loop = dynamics::solveFrictionLoop(
      reaction, [&](double n) { return elementForce(e, v, n); }, laws_.size() > 1 ? reaction_[e] : 0.0);
  setLoopForce(i, loop.force);
  reaction_[e] = loop.normal_magnitude;
  if (loop.converged) return true;
  std::ostringstream os;
  os << "friction of '" << elementName(e) << "' at t = " << t << " s: the loop F = law(|R(F)|) did not converge ("
     << loop.iterations << " law evaluations, residual " << loop.residual << " N)";
  failure_ = os.str();
  return false;
}

bool PenaltySystem::settleElements(double t, const Eigen::Ref<const Eigen::VectorXd>& v) {
  constexpr int kMaxSweeps = 10;
  const std::size_t n = laws_.size();
  // Start from the forces at the present |R|, the iteration's last.
  for (std::size_t i = 0; i < n; ++i) setLoopForce(i, elementForce(laws_[i], v, reaction_[laws_[i]]));
  double previous = 0.0, change = 0.0;
  std::size_t worst = 0;
  for (int sweep = 1;; ++sweep) {
    change = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      // Element i's own loop, exact, under the others' present forces.
      lambda0_ = lambda_free_;
      for (std::size_t j = 0; j < n; ++j)
        if (j != i) lambda0_ += loop_force_[j] * lambda_units_.col(Eigen::Index(j));
      const double before = reaction_[laws_[i]];
      if (!settleElement(i, t, v)) return false;
      const double r = reaction_[laws_[i]], d = std::abs(r - before) / (1.0 + r);
      if (d >= change) change = d, worst = laws_[i];
    }
    if (change <= 1e-12) return true;
    if (sweep == kMaxSweeps) break;
    previous = change;
  }
  // Slow sweeps: Newton's method on the coupled loop, from where they reached.
  double residual = 0.0, rcond = 0.0;
  if (newtonReactions(v, residual, rcond)) return true;
  // Where the sweeps' change shrinks by a ratio near 1 and Newton's method stalls at a singular
  // Jacobian, the solution the loop followed has ended (a fold: |H| has a positive minimum).
  std::ostringstream os;
  os << "friction of '" << elementName(worst) << "' at t = " << t << " s: the reactions |R| of the " << n
     << " elements did not settle (" << kMaxSweeps << " sweeps: last relative change " << change << ", "
     << change / previous << " times the one before; Newton's method: |R| − |R(F(|R|))| stays at " << residual
     << " N, its last Jacobian's reciprocal condition " << rcond << ")";
  if (rcond < 1e-4) os << ": the solution it followed ends here, where the Jacobian turns singular (a fold)";
  failure_ = os.str();
  return false;
}

void PenaltySystem::loopResidual(const Eigen::VectorXd& loads, Eigen::VectorXd& h,
                                 const Eigen::Ref<const Eigen::VectorXd>& v) {
  lambda0_ = lambda_free_;
  for (std::size_t i = 0; i < laws_.size(); ++i) {
    setLoopForce(i, elementForce(laws_[i], v, loads(Eigen::Index(i))));
    lambda0_ += loop_force_[i] * lambda_units_.col(Eigen::Index(i));
  }
  for (std::size_t i = 0; i < laws_.size(); ++i)
    h(Eigen::Index(i)) = loads(Eigen::Index(i)) - elementReaction(laws_[i], lambda0_);
}

bool PenaltySystem::newtonReactions(const Eigen::Ref<const Eigen::VectorXd>& v, double& residual, double& rcond) {
  constexpr int kMaxSteps = 20;
  const auto n = Eigen::Index(laws_.size());
  Eigen::VectorXd &loads = newton_loads_, &h = newton_h_, &trial = newton_trial_, &h_trial = newton_h_trial_;
  for (Eigen::Index i = 0; i < n; ++i) loads(i) = reaction_[laws_[std::size_t(i)]];
  loopResidual(loads, h, v);
  bool settled = false;
  for (int k = 0; k < kMaxSteps && !settled; ++k) {
    // The Jacobian of H(N) = N − |R(F(N))| by forward differences.
    for (Eigen::Index j = 0; j < n; ++j) {
      trial = loads;
      const double delta = 1e-7 * (1.0 + std::abs(loads(j)));
      trial(j) += delta;
      loopResidual(trial, h_trial, v);
      newton_jacobian_.col(j) = (h_trial - h) / delta;
    }
    newton_lu_.compute(newton_jacobian_);
    newton_step_ = newton_lu_.solve(h);
    // Halve the step until |H| decreases.
    const double before = h.lpNorm<Eigen::Infinity>();
    double scale = 1.0;
    bool decreased = false;
    for (int halving = 0; halving < 30 && !decreased; ++halving, scale *= 0.5) {
      trial = loads - scale * newton_step_;
      loopResidual(trial, h_trial, v);
      decreased = h_trial.lpNorm<Eigen::Infinity>() < before;
    }
    if (!decreased) break;
    settled = true;
    for (Eigen::Index i = 0; i < n; ++i)
      settled = settled && std::abs(trial(i) - loads(i)) <= 1e-12 * (1.0 + std::abs(trial(i)));
    loads = trial;
    h = h_trial;
  }
  loopResidual(loads, h, v);  // the forces at the loads kept
  for (Eigen::Index i = 0; i < n; ++i) reaction_[laws_[std::size_t(i)]] = loads(i);
  residual = h.lpNorm<Eigen::Infinity>();
  if (settled || residual <= 1e-12 * (1.0 + loads.lpNorm<Eigen::Infinity>())) return true;
  rcond = newton_lu_.rcond();  // the last Jacobian's (the estimate allocates: on failure only)
  return false;
}

void PenaltySystem::setLoopForce(std::size_t i, double force) {
  const PenaltyJointFriction& f = joint_friction_[laws_[i]];
  loop_force_[i] = force;
  joint_torque_[laws_[i]] =
      f.kind == PenaltyJointFriction::Kind::kGuide ? force : mechanism_.jointFriction()[f.index].lever * force;
}

double PenaltySystem::elementForce(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v, double n) const {
  if (!(n > 0.0)) return 0.0;
  const PenaltyJointFriction& f = joint_friction_[e];
  const FrictionInput in{elementVelocity(e, v), n, 0.0};
  return f.law->force(in, std::span<const double>(z_.data() + joint_z_offset_[e], std::size_t(f.frictionStateSize())));
}

void PenaltySystem::recordReactions(bool skip_laws) {
  for (std::size_t k = 0; k < joint_friction_.size(); ++k) {
    if (!(skip_laws && joint_friction_[k].law)) reaction_[k] = elementReaction(k, multipliers_);
    if (joint_friction_[k].kind == PenaltyJointFriction::Kind::kGuide)
      guide_normal_[k] = -multipliers_(joint_friction_[k].row);
  }
}

const std::string& PenaltySystem::elementName(std::size_t e) const {
  const PenaltyJointFriction& f = joint_friction_[e];
  return f.kind == PenaltyJointFriction::Kind::kGuide ? mechanism_.contacts()[f.index].name
                                                      : mechanism_.jointFriction()[f.index].name;
}

Eigen::VectorXd PenaltySystem::initialState(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize(), zs = nq + nv;
  if (q.size() != nq || v.size() != nv)
    throw std::invalid_argument("PenaltySystem::initialState: expected q of size " + std::to_string(nq) +
                                " and v of size " + std::to_string(nv) + ", got " + std::to_string(q.size()) +
                                " and " + std::to_string(v.size()));
  Eigen::VectorXd y = Eigen::VectorXd::Zero(stateSize());
  y.head(nq) = q;
  y.segment(nq, nv) = v;
  std::fill(status_.begin(), status_.end(), ContactStatus{});
  evaluateContacts(t, q, v, y.segment(zs, nz_), last_);
  for (std::size_t k = 0; k < last_.size(); ++k) {
    status_[k] = {last_[k].penetration > 0.0, std::max(last_[k].penetration_rate, 0.0)};
    const int nzk = contactFrictionStateSize(Eigen::Index(k));
    if (nzk == 0) continue;
    if (const TangentPlaneFriction* plane = planeFriction(Eigen::Index(k))) {
      plane->initialState(std::span<double>(y.data() + zs + z_offset_[k], std::size_t(nzk)));
      continue;
    }
    const FrictionInput in{last_[k].tangential_velocity, std::abs(last_[k].normal_force), 0.0};
    contact_friction_[k]->initialState(in, std::span<double>(y.data() + zs + z_offset_[k], std::size_t(nzk)));
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
      f.law->initialState(in, std::span<double>(y.data() + zs + joint_z_offset_[e], std::size_t(f.frictionStateSize())));
    }
  }
  return y;
}

void PenaltySystem::setContactStatus(int k, bool closed, double impact_velocity) {
  status_.at(std::size_t(k)) = {closed, impact_velocity};
}

void PenaltySystem::settleFriction(double t, Eigen::Ref<Eigen::VectorXd> y) {
  if (!settling_) return;
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize(), zs = nq + nv;
  // The velocities and loads the laws read: a contact's from its kinematics alone, an element's
  // reaction from a whole evaluation (a failed one fails the next step instead).
  if (settle_rate_.size() == 0)
    evaluateContacts(t, y.head(nq), y.segment(nq, nv), y.segment(zs, nz_), last_);
  else if (evaluate(t, y, settle_rate_, nullptr, nullptr, nullptr) != EomStatus::kSuccess)
    return;
  for (std::size_t k = 0; k < contact_friction_.size(); ++k) {
    const FrictionLaw* law = contact_friction_[k].get();
    if (!law || !law->settlesBetweenSteps()) continue;
    law->settle({last_[k].tangential_velocity, std::abs(last_[k].normal_force), 0.0},
                std::span<double>(y.data() + zs + z_offset_[k], std::size_t(law->stateSize())));
  }
  for (std::size_t e = 0; e < joint_friction_.size(); ++e) {
    const FrictionLaw* law = joint_friction_[e].law.get();
    if (!law || !law->settlesBetweenSteps()) continue;
    law->settle({elementVelocity(e, y.segment(nq, nv)), reaction_[e], 0.0},
                std::span<double>(y.data() + zs + joint_z_offset_[e], std::size_t(law->stateSize())));
  }
}

void PenaltySystem::restartBristles(int k, double t, Eigen::Ref<Eigen::VectorXd> y) const {
  const TangentPlaneFriction* plane = planeFriction(k);
  if (!plane) return;
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize();
  evaluateContacts(t, y.head(nq), y.segment(nq, nv), y.segment(nq + nv, nz_), last_);
  plane->steadyState(planeInput(std::size_t(k), last_[std::size_t(k)]),
                     std::span<double>(y.data() + nq + nv + z_offset_[std::size_t(k)], std::size_t(plane->stateSize())));
}

double PenaltySystem::addDampingImpulse(std::size_t k, double speed, double load, const double* dz) {
  const FrictionLaw& law = *contact_friction_[k];
  TangentPlaneFriction::Coefficients b;
  TangentPlaneFriction::coefficients(law, speed, load, b);
  // I = −Σ b_i Π Δz_i along the contact's tangent rows (planar: its one tangent).
  const bool plane = planeFriction(Eigen::Index(k)) != nullptr;
  const Eigen::Matrix3d& frame = kin_.frame[k];
  Eigen::Vector3d impulse = Eigen::Vector3d::Zero();
  for (int i = 0; i < law.stateSize(); ++i) {
    const double damping = b[std::size_t(i)].damping;
    if (plane) {
      const Eigen::Vector3d d = Eigen::Map<const Eigen::Vector3d>(dz + 3 * i);
      impulse -= damping * (d - frame.col(0).dot(d) * frame.col(0));
    } else {
      impulse(0) -= damping * dz[i];
    }
  }
  const auto row = Eigen::Index(k);
  impulse_ += (plane ? frame.col(1).dot(impulse) : impulse(0)) * kin_.jacobian.row(2 * row + 1).transpose();
  if (plane) impulse_ += frame.col(2).dot(impulse) * kin_.second_tangent.row(row).transpose();
  return impulse.norm();
}

void PenaltySystem::applyImpulse(double t, Eigen::Ref<Eigen::VectorXd> y) {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize();
  const auto q = y.head(nq), v = y.segment(nq, nv);
  // The jump Δv: the constrained response to the impulse, as to a force over unit time.
  bool solved = solver_.accelerations(t, q, v, vdot_free_) == EomStatus::kSuccess;
  impulsive_ = true;
  solved = solved && solver_.accelerationsUnderNewForces(t, q, v, vdot_impulse_) == EomStatus::kSuccess;
  impulsive_ = false;
  if (solved) {
    vdot_impulse_ -= vdot_free_;  // Δv
    // Its work p·(v⁻ + v⁺)/2 is done by the friction: the dissipated work W falls by it.
    y(workIndex()) -= impulse_.dot(v + 0.5 * vdot_impulse_);
    y.segment(nq, nv) += vdot_impulse_;
  }
  impulse_.setZero();
}

double PenaltySystem::releaseBristles(int k, double t, Eigen::Ref<Eigen::VectorXd> y) {
  const auto c = std::size_t(k);
  if (!linear_[c]) return 0.0;
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize(), zs = nq + nv;
  const FrictionLaw& law = *contact_friction_[c];
  TangentPlaneFriction::Coefficients b;
  TangentPlaneFriction::coefficients(law, 0.0, 0.0, b);
  if (std::all_of(b.begin(), b.begin() + law.stateSize(), [](const BristleCoefficients& x) { return x.damping == 0.0; }))
    return 0.0;
  z_ = y.segment(zs, nz_);
  evaluateContacts(t, y.head(nq), y.segment(nq, nv), z_, last_);
  auto states = y.segment(zs + z_offset_[c], contactFrictionStateSize(k));
  std::array<double, 3 * TangentPlaneFriction::kMaxBristles> dz{};
  Eigen::Map<Eigen::VectorXd>(dz.data(), states.size()) = -states;  // relaxed to nothing
  const double size = addDampingImpulse(c, 0.0, 0.0, dz.data());
  states.setZero();
  applyImpulse(t, y);
  return size;
}

void PenaltySystem::correctRelaxedDamping(double t, Eigen::Ref<Eigen::VectorXd> y,
                                          const Eigen::Ref<const Eigen::VectorXd>& mismatch) {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize(), zs = nq + nv;
  if (mismatch.segment(zs, nz_).isZero()) return;
  z_ = y.segment(zs, nz_);
  evaluateContacts(t, y.head(nq), y.segment(nq, nv), z_, last_);
  for (std::size_t k = 0; k < last_.size(); ++k) {
    const int n = contactFrictionStateSize(Eigen::Index(k));
    if (linear_[k] && !mismatch.segment(zs + z_offset_[k], n).isZero())
      addDampingImpulse(k, std::abs(last_[k].tangential_velocity), std::abs(last_[k].normal_force),
                        mismatch.data() + zs + z_offset_[k]);
  }
  if (!impulse_.isZero()) applyImpulse(t, y);
}

double PenaltySystem::totalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize();
  double e = mechanism_.kineticEnergy(y.segment(nq, nv)) + mechanism_.potentialEnergy(y.head(nq));
  mechanism_.evaluateContacts(0.0, y.head(nq), y.segment(nq, nv), kin_, false);  // δ does not depend on t
  for (std::size_t k = 0; k < kind_.size(); ++k) {
    if (kind_[k] == Kind::kGuide) continue;
    const double delta = -kin_.gap(Eigen::Index(k));
    e += normalLawPotential(*mechanism_.contacts()[k].compliant_law, kind_[k] == Kind::kTwoSided ? std::abs(delta) : delta);
  }
  return e;
}

double PenaltySystem::energyRate(const Eigen::Ref<const Eigen::VectorXd>& y,
                                 const Eigen::Ref<const Eigen::VectorXd>& ydot) {
  const Eigen::Index nq = mechanism_.positionSize(), nv = mechanism_.velocitySize();
  const auto v = y.segment(nq, nv);
  momentum_rate_ = ydot.segment(nq, nv);
  mechanism_.applyMass(momentum_rate_);
  double rate = v.dot(momentum_rate_) + mechanism_.potentialRate(y.head(nq), v) + ydot(workIndex());
  for (std::size_t k = 0; k < kind_.size(); ++k) {
    if (kind_[k] == Kind::kGuide) continue;
    // The elastic part K δⁿ of the normal force times δ̇ (|δ| on a two-sided contact).
    const ContactForce& e = last_[k];
    const double side = kind_[k] == Kind::kTwoSided && e.penetration < 0.0 ? -1.0 : 1.0;
    rate += normalLawElasticForce(*mechanism_.contacts()[k].compliant_law, side * e.penetration) * side *
            e.penetration_rate;
  }
  return rate;
}

std::string_view toString(PenaltyStatus s) {
  switch (s) {
    case PenaltyStatus::kSuccess: return "success";
    case PenaltyStatus::kEomFailure: return "eom-failure";
    case PenaltyStatus::kIntegratorFailure: return "integrator-failure";
    case PenaltyStatus::kEnergyIncrease: return "energy-increase";
    case PenaltyStatus::kLimitReached: return "limit-reached";
  }
  return "unknown";
}

namespace {

/// Appends one history row: t, y, per contact (δ, v_t, Fₙ, Fₜ), energy, then from the equations
/// of motion at the sample v̇, λ and per reaction-dependent friction (|R|, friction, a guide's N).
void record(PenaltySystem& sys, double t, const Eigen::VectorXd& y, Eigen::VectorXd& ydot,
            std::vector<ContactForce>& contacts, std::vector<double>& rows) {
  const Eigen::Index nq = sys.positionSize(), nv = sys.velocitySize();
  rows.push_back(t);
  rows.insert(rows.end(), y.data(), y.data() + y.size());
  sys.evaluateContacts(t, y.head(nq), y.segment(nq, nv), y.segment(nq + nv, sys.frictionStateSize()), contacts);
  for (const ContactForce& e : contacts)
    rows.insert(rows.end(), {e.penetration, e.tangential_velocity, e.normal_force, e.friction_force});
  rows.push_back(sys.totalEnergy(y));
  const bool solved = sys.derivative(t, y, ydot) == EomStatus::kSuccess;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Eigen::Index i = 0; i < nv; ++i) rows.push_back(solved ? ydot(nq + i) : nan);
  for (Eigen::Index i = 0; i < sys.constraintCount(); ++i)
    rows.push_back(solved ? sys.multipliers()(i) : nan);
  for (int e = 0; e < int(sys.jointFriction().size()); ++e)
    rows.insert(rows.end(), {sys.jointReaction(e), sys.jointFrictionTorque(e), sys.guideNormal(e)});
}

/// One integration of simulatePenalty: the state, the history's rows, the contact events, and
/// the energy check after each sample; by BDF or by RK4.
class PenaltyIntegration {
 public:
  PenaltyIntegration(PenaltySystem& sys, const Eigen::VectorXd& y0, const PenaltyIntegrationOptions& o)
      : sys_(sys), o_(o), y_(y0), nq_(sys.positionSize()), nv_(sys.velocitySize()), nc_(int(sys.contactCount())),
        cols_(1 + y0.size() + 4 * nc_ + 1 + nv_ + sys.constraintCount() + 3 * Eigen::Index(sys.jointFriction().size())),
        ydot_sample_(y0.size()), t0_(threadCpuSeconds()), pen_(nc_), rate_(nc_) {
    record(sys_, 0.0, y_, ydot_sample_, forces_, rows_);
    next_output_ += o_.output_dt;
    energy_offset_ = std::size_t(1 + y_.size() + 4 * nc_);  // in a row
    initial_energy_ = energyOfLastRow();
  }

  /// Runs once; the integration is spent afterwards.
  PenaltyRun run() {
    if (o_.integrator == PenaltyIntegrationOptions::Integrator::kRk4)
      integrateRk4();
    else
      integrateCvode();
    run_.cpu_seconds = threadCpuSeconds() - t0_;
    run_.t = t_;
    run_.final_state = y_;
    run_.history = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        rows_.data(), Eigen::Index(rows_.size()) / cols_, cols_);
    return std::move(run_);  // the history is not copied
  }

 private:
  /// δ and δ̇ of every contact at `state` (friction plays no part in them).
  void kinematics(double tt, const Eigen::VectorXd& state, Eigen::VectorXd& d, Eigen::VectorXd& dd) {
    sys_.evaluateContacts(tt, state.head(nq_), state.segment(nq_, nv_),
                          state.segment(nq_ + nv_, sys_.frictionStateSize()), forces_);
    for (int k = 0; k < nc_; ++k) {
      d(k) = forces_[std::size_t(k)].penetration;
      dd(k) = forces_[std::size_t(k)].penetration_rate;
    }
  }
  /// The one-sided contacts' crossings are the events.
  bool crossing(int k) const { return sys_.compliant(k) && !sys_.twoSided(k); }
  void addEvent(double t, int k, bool closing, double delta_rate) {
    sys_.setContactStatus(k, closing, closing ? delta_rate : sys_.contactStatus()[std::size_t(k)].impact_velocity);
    if (closing)
      sys_.restartBristles(k, t, y_);
    else
      sys_.releaseBristles(k, t, y_);
    run_.events.push_back({t, k, closing, delta_rate});
  }
  bool rhs(double t, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> dydt) {
    ++run_.rhs_evaluations;
    if (sys_.derivative(t, yy, dydt) != EomStatus::kSuccess) {
      eom_ok_ = false;
      return false;
    }
    return dydt.allFinite();
  }
  // The sampled total energy E and friction work W of history row i, and the last row.
  double energyOfRow(std::size_t i) const { return rows_[i * std::size_t(cols_) + energy_offset_]; }
  double workOfRow(std::size_t i) const { return rows_[i * std::size_t(cols_) + 1 + std::size_t(sys_.workIndex())]; }
  std::size_t lastRow() const { return rows_.size() / std::size_t(cols_) - 1; }
  double workOfLastRow() const { return workOfRow(lastRow()); }
  // E, plus W dissipated so far when W > 0: neither can rise in a passive system. E rises with
  // a law that is not dissipative (W < 0), E + W only by numerical error (the equations
  // conserve it; contact damping dissipates outside W).
  double energyOfLastRow() const { return energyOfRow(lastRow()) + std::max(workOfLastRow(), 0.0); }
  /// After each sample: false (and the run marked) when the energy rose beyond the limit.
  bool energyHolds() {
    if (!(energyOfLastRow() > initial_energy_ + o_.max_energy_gain)) return true;
    std::ostringstream os;
    os << "the total energy" << (workOfLastRow() > 0.0 ? " plus the friction work" : "") << " rose from "
       << initial_energy_ << " J to " << energyOfLastRow() << " J by t = " << t_ << " s, more than the "
       << o_.max_energy_gain
       << " J allowed for this passive system (a numerical instability, or a friction law "
          "that is not dissipative under a varying load)";
    run_.status = PenaltyStatus::kEnergyIncrease;
    run_.message = os.str();
    return false;
  }

  // RK4's energy account. Along the equations, E + W changes by the integral of its rate P
  // (energyRate: the work of the forces without a potential, less the friction's dissipation),
  // whether the system is driven or not. Integrated with the steps' own stages, ∫ P dt must
  // match the sampled change of E + W up to RK4's error (the impulses keep E + W); a step too
  // large for the contacts' stiffness creates energy instead.
  void recordStagePower(double tt, const Eigen::Ref<const Eigen::VectorXd>& yy,
                        const Eigen::Ref<const Eigen::VectorXd>& dydt) {
    if (tt == step_start_) stage_ = 0;  // a step's first stage, or one the step evaluates again
    stage_power_[std::size_t(std::min(stage_++, 3))] = sys_.energyRate(yy, dydt);
  }
  void addStepWork(double h) {
    const std::array<double, 4>& p = stage_power_;
    work_ += h / 6.0 * (p[0] + 2.0 * p[1] + 2.0 * p[2] + p[3]);
    work_size_ += h / 6.0 * (std::abs(p[0]) + 2.0 * std::abs(p[1]) + 2.0 * std::abs(p[2]) + std::abs(p[3]));
  }
  /// At the end of an RK4 run: the energy account, and kEnergyIncrease when the steps created more
  /// than max_created_energy of the energy that flowed. Judged over the whole run: at its start
  /// everything is small, and contacts that chatter at a coarse step create energy that their
  /// damping takes back at once.
  void accountEnergy() {
    const auto energyAndWork = [&](std::size_t i) { return energyOfRow(i) + workOfRow(i); };
    double peak = 0.0;  // the largest |E + W| and the largest kinetic energy sampled
    for (std::size_t i = 0; i <= lastRow(); ++i) {
      const Eigen::Map<const Eigen::VectorXd> v(rows_.data() + i * std::size_t(cols_) + 1 + nq_, nv_);
      peak = std::max(peak, std::abs(energyAndWork(i)) + sys_.mechanism().kineticEnergy(v));
    }
    const double initial = energyAndWork(0), total = energyAndWork(lastRow());
    const double created = run_.energy_created = total - initial - work_;
    const double flowed = run_.energy_flowed = peak + work_size_;
    if (!(created > o_.max_created_energy * flowed + 1e-12)) return;
    std::ostringstream os;
    os << "RK4 created " << created << " J of energy by t = " << t_ << " s, more than " << o_.max_created_energy
       << " of the " << flowed << " J that flowed (the largest |E + W| plus kinetic energy, " << peak
       << " J, and the forces' work in and out): E + W went from " << initial << " J to " << total
       << " J while the forces did " << work_ << " J. The step dt = " << o_.dt
       << " s is too large for this system (try a smaller --dt, or --integrator bdf with a smooth law)";
    run_.status = PenaltyStatus::kEnergyIncrease;
    run_.message = os.str();
  }

  /// Records a history row at t and tells the progress; false when the energy check stops the run.
  bool sample() {
    record(sys_, t_, y_, ydot_sample_, forces_, rows_);
    if (o_.progress) o_.progress(t_);
    next_output_ += o_.output_dt;
    return energyHolds();
  }

  /// CVODE (BDF or Adams) with root functions on the one-sided contacts' δ.
  void integrateCvode() {
    PenaltySystem& sys = sys_;
    const PenaltyIntegrationOptions& o = o_;
    PenaltyRun& run = run_;
    Eigen::VectorXd& y = y_;
    double& t = t_;
    const Eigen::Index nq = nq_, nv = nv_;
    const int nc = nc_;
    Eigen::VectorXd& pen = pen_;
    Eigen::VectorXd& rate = rate_;
    std::vector<ContactForce>& forces = forces_;
    bool& eom_ok = eom_ok_;
    double& next_output = next_output_;
    const OdeRhs rhs = [this](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> dydt) {
      return this->rhs(tt, yy, dydt);
    };
    CvodeOptions co;
    const bool adams = o.integrator == PenaltyIntegrationOptions::Integrator::kAdams;
    co.method = adams ? OdeMethod::kAdams : OdeMethod::kBdf;
    co.relative_tolerance = o.relative_tolerance;
    co.absolute_tolerance = o.absolute_tolerance;
    co.max_step = o.max_step;
    co.max_steps = std::min({o.max_steps, o.max_total_steps, o.max_run_steps});
    const OdeRoots roots = [&](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy, Eigen::Ref<Eigen::VectorXd> g) {
      sys.evaluateContacts(tt, yy.head(nq), yy.segment(nq, nv), yy.segment(nq + nv, sys.frictionStateSize()), forces);
      for (int k = 0; k < nc; ++k) g(k) = crossing(k) ? forces[std::size_t(k)].penetration : 1.0;  // no events
    };
    CvodeIntegrator cv(int(y.size()), rhs, co, nc, roots);
    cv.reset(0.0, y);
    int stalled = 0;  // consecutive roots without progress in t
    while (t < o.t_end) {
      const double target = std::min(next_output, o.t_end);
      const OdeStep s = cv.advance(target, y);
      stalled = s.status == OdeStatus::kRoot && s.t - t <= 1e-12 * std::max(1.0, t) ? stalled + 1 : 0;
      t = s.t;
      const long taken = run.steps + cv.statistics().steps;
      if (taken > o.max_run_steps || (s.status == OdeStatus::kFailure && taken >= o.max_run_steps)) {
        run.status = PenaltyStatus::kLimitReached;
        run.message = "more than max_steps = " + std::to_string(o.max_run_steps) + " integrator steps by t = " +
                      std::to_string(t) + " s";
        break;
      }
      if (taken > o.max_total_steps || stalled > o.max_stalled_events) {
        run.status = PenaltyStatus::kIntegratorFailure;
        run.message = (stalled > o.max_stalled_events
                           ? "contact events chatter without progress at t = "
                           : "more than " + std::to_string(o.max_total_steps) +
                                 " integrator steps by t = ") +
                      std::to_string(t) + (adams ? " s (too stiff for Adams here: try --integrator bdf or rk4)"
                                                 : " s (too stiff for BDF here: try --integrator rk4)");
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
      if (t >= target && !sample()) break;
    }
    run.steps += cv.statistics().steps;
  }

  /// RK4 with the crossings interpolated inside each step and the positions normalized after it.
  void integrateRk4() {
    PenaltySystem& sys = sys_;
    const PenaltyIntegrationOptions& o = o_;
    PenaltyRun& run = run_;
    Eigen::VectorXd& y = y_;
    double& t = t_;
    const int nc = nc_;
    Eigen::VectorXd& pen = pen_;
    Eigen::VectorXd& rate = rate_;
    bool& eom_ok = eom_ok_;
    Rk4 rk4(y.size());
    const Rk4::Derivative f = [&](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy,
                                  Eigen::Ref<Eigen::VectorXd> dydt) {
      if (!this->rhs(tt, yy, dydt)) return false;
      recordStagePower(tt, yy, dydt);
      return true;
    };
    // Bristles whose relaxation outruns the step are integrated exactly over it (rk4.hpp).
    const Rk4::RelaxingDerivative relaxing =
        [&](double tt, const Eigen::Ref<const Eigen::VectorXd>& yy, const Rk4::RelaxedStage& stage,
            Eigen::Ref<Eigen::VectorXd> dydt, Eigen::Ref<Eigen::VectorXd> drive, Eigen::Ref<Eigen::VectorXd> decay) {
          ++run.rhs_evaluations;
          if (sys.derivative(tt, yy, stage, dydt, drive, decay) != EomStatus::kSuccess) {
            eom_ok = false;
            return false;
          }
          if (!dydt.allFinite()) return false;
          recordStagePower(tt, yy, dydt);
          return true;
        };
    Eigen::VectorXd pen1(nc), rate1(nc);
    kinematics(0.0, y, pen, rate);
    const double needed = std::ceil(o.t_end / o.dt - 1e-9);  // may exceed any integer
    const bool within = needed <= double(o.max_rk4_steps);
    if (!within) {
      std::ostringstream os;
      os << "t_end / dt needs " << needed << " RK4 steps, more than max_rk4_steps = " << o.max_rk4_steps;
      run.status = PenaltyStatus::kLimitReached;
      run.message = os.str();
    }
    const long n_steps = within ? std::max(1L, long(needed)) : 0;
    for (long i = 0; i < n_steps; ++i) {
      const double h = std::min(o.dt, o.t_end - t);
      step_start_ = t;
      if (!(sys.hasBristles() ? rk4.step(relaxing, t, h, y) : rk4.step(f, t, h, y))) {
        run.status = eom_ok ? PenaltyStatus::kIntegratorFailure : PenaltyStatus::kEomFailure;
        run.message = eom_ok ? "non-finite derivative at t = " + std::to_string(t) + " s" : sys.eomFailure();
        break;
      }
      ++run.steps;
      addStepWork(h);
      if (sys.hasBristles()) sys.correctRelaxedDamping(t + h, y, rk4.relaxedMismatch());
      sys.mechanism().normalizePositions(y.head(sys.mechanism().positionSize()));  // Euler parameters' unit norm
      sys.settleFriction(t + h, y);
      kinematics(t + h, y, pen1, rate1);
      for (int k = 0; k < nc; ++k) {
        if (crossing(k) && (pen(k) <= 0.0) != (pen1(k) <= 0.0)) {
          // Linear interpolation of δ for the crossing instant, and of δ̇ at it; the
          // direction from the crossing itself (δ̇ at a contact starting at δ = 0 may be 0).
          const double a = pen(k) / (pen(k) - pen1(k));
          addEvent(t + a * h, k, pen1(k) > 0.0, rate(k) + a * (rate1(k) - rate(k)));
        }
      }
      pen = pen1;
      rate = rate1;
      t += h;
      if ((t >= next_output_ - 1e-9 * o.dt || i + 1 == n_steps) && !sample()) break;
    }
    run.relaxed_steps = rk4.relaxedSteps();
    if (run.status == PenaltyStatus::kSuccess) accountEnergy();
  }

  PenaltySystem& sys_;
  const PenaltyIntegrationOptions& o_;
  PenaltyRun run_;
  Eigen::VectorXd y_;
  const Eigen::Index nq_, nv_;
  const int nc_;
  const Eigen::Index cols_;
  std::vector<double> rows_;
  Eigen::VectorXd ydot_sample_;
  std::vector<ContactForce> forces_;
  const double t0_;  ///< threadCpuSeconds() at construction
  Eigen::VectorXd pen_, rate_;
  bool eom_ok_ = true;
  double next_output_ = 0.0;
  double t_ = 0.0;
  std::size_t energy_offset_ = 0;
  double initial_energy_ = 0.0;
  // RK4's energy account (accountEnergy): the stages' P, the step's start, ∫ P dt and ∫ |P| dt.
  std::array<double, 4> stage_power_{};
  int stage_ = 0;
  double step_start_ = 0.0, work_ = 0.0, work_size_ = 0.0;
};

}  // namespace

PenaltyRun simulatePenalty(PenaltySystem& sys, const Eigen::VectorXd& y0, const PenaltyIntegrationOptions& o) {
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
  if (o.integrator != PenaltyIntegrationOptions::Integrator::kRk4 && sys.settlingLaw())
    throw std::invalid_argument("simulatePenalty: " + variableStepRefusal(*sys.settlingLaw()) +
                                ": expected the RK4 integrator");
  if (y0.size() != sys.stateSize())
    throw std::invalid_argument("simulatePenalty: expected y0 of size " +
                                std::to_string(sys.stateSize()) + ", got " +
                                std::to_string(y0.size()));
  return PenaltyIntegration(sys, y0, o).run();
}

}  // namespace stickslip::dynamics
