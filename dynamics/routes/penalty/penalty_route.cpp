#include "dynamics/routes/penalty/penalty_route.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dynamics/friction/make_friction_law.hpp"

namespace stickslip::dynamics {
namespace {

std::shared_ptr<const FrictionLaw> regularized(const PenaltyRouteOptions& o, double mu_static,
                                               double mu_kinetic, const std::string& who) {
  if (o.friction_law == "none") return nullptr;
  FrictionParameters p = o.friction_parameters;
  p.mu_s = mu_static;
  p.mu_k = mu_kinetic;
  try {
    return makeFrictionLaw(o.friction_law, p);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(who + ": friction law '" + o.friction_law + "': " + e.what());
  }
}

/// A guide: a bilateral disk–line contact without a compliant law of its own, which the route
/// keeps closed by an ideal joint (penalty_route.hpp).
bool isGuide(const RigidContact& c) {
  return c.normal == RigidContact::Normal::kBilateral && c.shape == RigidContact::Shape::kDiskLine &&
         !c.compliant_law;
}

/// The contact as the penalty route takes it (penalty_route.hpp): compliant with its own law or
/// the default (two-sided for a bilateral contact given a law), a guide as it is.
RigidContact compliantContact(const RigidContact& c) {
  if (isGuide(c)) return c;
  RigidContact p = c;
  NormalLaw law = c.compliant_law ? *c.compliant_law : defaultCompliantLaw(c);
  // The event-driven route holds a compliant contact's δ̇⁻ at impact_velocity; here the
  // measured δ̇⁻ is floored there, so that a contact resting from the start has that damping.
  if (c.normal == RigidContact::Normal::kCompliant)
    std::visit(
        [&](auto& l) {
          if constexpr (requires { l.min_impact_velocity; })
            l.min_impact_velocity = std::max(l.min_impact_velocity, c.impact_velocity);
        },
        law);
  p.compliant_law = law;
  if (c.normal == RigidContact::Normal::kUnilateral) p.normal = RigidContact::Normal::kCompliant;
  p.smooth_friction = nullptr;  // the penalty system's laws are given beside the contacts
  p.mu_static = p.mu_kinetic = 0.0;
  return p;
}

/// The stick/slip modes estimated from the samples (penalty_route.hpp): the initial modes and
/// an approximate event at every change, merged into the run's events in time order. A contact
/// is loaded while closed (δ ≥ 0; a guide or two-sided contact always), a joint friction always.
void addSampledModes(const Mechanism& mechanism, const std::vector<bool>& always_closed,
                     const std::vector<bool>& frictional, double stick_velocity, RunResult& r) {
  const Eigen::Index n = mechanism.velocitySize(), nq = mechanism.positionSize(), rows = r.history.rows();
  const auto nc = Eigen::Index(mechanism.contacts().size()), nj = Eigen::Index(mechanism.jointFriction().size());
  if (rows == 0) return;
  // Per row and element: its mode.
  std::vector<ContactMode> modes(std::size_t(rows * (nc + nj)));
  ContactKinematics kin;
  Eigen::VectorXd q(nq), v(n);
  for (Eigen::Index i = 0; i < rows; ++i) {
    q = r.history.row(i).segment(1, nq).transpose();
    v = r.history.row(i).segment(1 + nq, n).transpose();
    if (nc > 0) mechanism.evaluateContacts(r.history(i, 0), q, v, kin, false);
    for (Eigen::Index k = 0; k < nc + nj; ++k) {
      const bool contact = k < nc;
      const double v_t = contact ? frictionLawVelocity(mechanism.contacts()[std::size_t(k)], kin, k)
                                 : mechanism.jointFrictionRate(std::size_t(k - nc), v);
      // Closed (δ ≥ 0): a contact just touching at t = 0 carries no force yet but sticks if it
      // does not slide.
      const bool loaded = !contact || always_closed[std::size_t(k)] || kin.gap(k) <= 0.0;
      ContactMode m = v_t > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
      if (!loaded) m = ContactMode::kOpen;
      else if (frictional[std::size_t(k)] && std::abs(v_t) < stick_velocity) m = ContactMode::kStick;
      modes[std::size_t(i * (nc + nj) + k)] = m;
    }
  }
  std::vector<ContactEvent> changes;
  for (Eigen::Index k = 0; k < nc + nj; ++k) {
    ContactMode before = modes[std::size_t(k)];
    r.initial_modes.push_back(before);
    for (Eigen::Index i = 1; i < rows; ++i) {
      const ContactMode now = modes[std::size_t(i * (nc + nj) + k)];
      // Into or out of stick; openings, closings and reversals in slip are not mode changes
      // of the friction (the crossings report the first two).
      if ((now == ContactMode::kStick) != (before == ContactMode::kStick) && now != ContactMode::kOpen)
        changes.push_back({r.history(i, 0), int(k),
                           now == ContactMode::kStick          ? EventKind::kStick
                           : now == ContactMode::kSlipPositive ? EventKind::kSlipPositive
                                                               : EventKind::kSlipNegative,
                           true});
      before = now;
    }
  }
  r.events.insert(r.events.end(), changes.begin(), changes.end());
  std::stable_sort(r.events.begin(), r.events.end(),
                   [](const ContactEvent& a, const ContactEvent& b) { return a.t < b.t; });
}

/// "C.z" (a law with one state) or "C.z0", "C.z1", … for each state of a friction law; a law
/// lifted to a spatial contact's plane has a vector per state, "C.zx", "C.zy", "C.zz" (or
/// "C.z0x", … for several).
void addStateColumns(const std::string& name, int states, bool vectors, std::vector<std::string>& columns) {
  const int per_state = vectors ? 3 : 1, count = states / per_state;
  for (int i = 0; i < count; ++i)
    for (int d = 0; d < per_state; ++d)
      columns.push_back(name + ".z" + (count > 1 ? std::to_string(i) : "") + (vectors ? std::string(1, "xyz"[d]) : ""));
}

}  // namespace

NormalLaw defaultCompliantLaw(const RigidContact& c) {
  const ContactMaterial steel;
  double radius = 0.01;  // a point: a 10 mm steel cylinder
  if (c.shape == RigidContact::Shape::kJournalBearing)
    radius = effectiveRadiusInternal(c.journal_bearing.bearing_radius, c.journal_bearing.journal_radius);
  else if (c.radius > 0.0)
    radius = c.radius;
  FloresLaw law;
  law.stiffness = hertzStiffness(steel, steel, radius);
  law.exponent = 1.5;
  law.restitution = std::max(c.restitution, 0.01);
  law.min_impact_velocity = 0.1;
  return law;
}

/// Throws unless the options are valid.
static void checkOptions(const PenaltyRouteOptions& o) {
  if (!(o.stick_velocity > 0.0))
    throw std::invalid_argument("PenaltyRouteOptions: expected stick_velocity > 0, got " +
                                std::to_string(o.stick_velocity));
}

PenaltyRoute::PenaltyRoute(const RigidScenario& s, PenaltyRouteOptions o)
    : options_(std::move(o)), q0_(s.q0), v0_(s.v0), model_(std::make_unique<PlanarModel>(s.model)) {
  const PenaltyRouteOptions& opt = options_;
  checkOptions(opt);
  // The model with a closing joint per guide; the other contacts made compliant, in the
  // scenario's order; a law per contact and per reaction-dependent friction.
  const std::size_t nc = s.contacts.size();
  std::vector<RigidContact> contacts;
  std::vector<std::shared_ptr<const FrictionLaw>> contact_friction(nc);
  std::vector<PenaltyJointFriction> elements;
  element_of_.assign(nc, -1);
  always_closed_.assign(nc, false);
  frictional_.assign(nc, false);
  for (std::size_t k = 0; k < nc; ++k) {
    const RigidContact& c = s.contacts[k];
    c.validate(s.model);
    contacts.push_back(compliantContact(c));
    always_closed_[k] = c.normal == RigidContact::Normal::kBilateral;
    std::shared_ptr<const FrictionLaw> law =
        c.smooth_friction ? c.smooth_friction
        : c.frictional()  ? regularized(opt, c.mu_static, c.mu_kinetic, "contact '" + c.name + "'")
                          : nullptr;
    frictional_[k] = law != nullptr;
    if (isGuide(c)) {
      const int joint = addClosingJoint(*model_, c);
      element_of_[k] = int(elements.size());
      elements.push_back({PenaltyJointFriction::Kind::kGuide, k, model_->joints()[std::size_t(joint)].row, std::move(law)});
    } else {
      contact_friction[k] = std::move(law);
    }
  }
  planar_ = std::make_unique<PlanarMechanism>(*model_, std::move(contacts), s.joint_friction);
  mechanism_ = planar_.get();
  build(std::move(contact_friction), std::move(elements), s.baumgarte_alpha, s.baumgarte_beta);
}

PenaltyRoute::PenaltyRoute(const Mechanism& mechanism, Eigen::VectorXd q0, Eigen::VectorXd v0, double baumgarte_alpha,
                           double baumgarte_beta, PenaltyRouteOptions o)
    : options_(std::move(o)), q0_(std::move(q0)), v0_(std::move(v0)), mechanism_(&mechanism) {
  checkOptions(options_);
  if (q0_.size() != mechanism.positionSize() || v0_.size() != mechanism.velocitySize())
    throw std::invalid_argument("PenaltyRoute: the initial state has " + std::to_string(q0_.size()) + " positions and " +
                                std::to_string(v0_.size()) + " velocities, the mechanism " +
                                std::to_string(mechanism.positionSize()) + " and " +
                                std::to_string(mechanism.velocitySize()));
  const std::vector<RigidContact>& contacts = mechanism.contacts();
  std::vector<std::shared_ptr<const FrictionLaw>> contact_friction(contacts.size());
  element_of_.assign(contacts.size(), -1);
  always_closed_.assign(contacts.size(), false);
  frictional_.assign(contacts.size(), false);
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const RigidContact& c = contacts[k];
    const bool two_sided = c.normal == RigidContact::Normal::kBilateral && c.compliant_law;
    if (c.normal != RigidContact::Normal::kCompliant && !two_sided)
      throw std::invalid_argument("contact '" + c.name + "': the penalty route over a mechanism takes compliant "
                                  "contacts only (a rigid one needs its compliant law and a guide its closing "
                                  "joint: the planar route does both)");
    always_closed_[k] = two_sided;
    contact_friction[k] = c.smooth_friction ? c.smooth_friction
                          : c.frictional()  ? regularized(options_, c.mu_static, c.mu_kinetic, "contact '" + c.name + "'")
                                            : nullptr;
    frictional_[k] = contact_friction[k] != nullptr;
  }
  build(std::move(contact_friction), {}, baumgarte_alpha, baumgarte_beta);
}

void PenaltyRoute::build(std::vector<std::shared_ptr<const FrictionLaw>> contact_friction,
                         std::vector<PenaltyJointFriction> elements, double baumgarte_alpha, double baumgarte_beta) {
  const Mechanism& m = *mechanism_;
  const std::size_t nc = m.contacts().size();
  for (std::size_t e = 0; e < m.jointFriction().size(); ++e) {
    const JointFriction& f = m.jointFriction()[e];
    std::shared_ptr<const FrictionLaw> law =
        regularized(options_, f.mu_static, f.mu_kinetic, "joint friction '" + f.name + "'");
    frictional_.push_back(law != nullptr);
    element_of_.push_back(law ? int(elements.size()) : -1);
    if (law) elements.push_back({PenaltyJointFriction::Kind::kJoint, e, 0, std::move(law)});
  }
  EomOptions eom;
  eom.baumgarte_alpha = baumgarte_alpha;
  eom.baumgarte_beta = baumgarte_beta;
  system_ = std::make_unique<PenaltySystem>(m, std::move(contact_friction), EomMethod::kBaumgarte, eom,
                                            std::move(elements));

  // Every route's columns, then the route's own: accelerations, multipliers, friction states
  // and the dissipated work.
  columns_ = historyColumns(m, m.contacts(), m.jointFriction());
  for (Eigen::Index i = 0; i < m.velocitySize(); ++i) columns_.push_back(m.accelerationName(i));
  for (Eigen::Index row = 0; row < m.constraintCount(); ++row) columns_.push_back(m.multiplierName(row));
  for (std::size_t k = 0; k < element_of_.size(); ++k)
    addStateColumns(k < nc ? m.contacts()[k].name : m.jointFriction()[k - nc].name, stateCount(k),
                    k < nc && system_->planeFriction(Eigen::Index(k)) != nullptr, columns_);
  columns_.push_back("friction_work");
}

PenaltyRoute::~PenaltyRoute() = default;

int PenaltyRoute::stateCount(std::size_t k) const {
  if (element_of_[k] >= 0) return system_->jointFriction()[std::size_t(element_of_[k])].frictionStateSize();
  return k < mechanism_->contacts().size() ? system_->contactFrictionStateSize(Eigen::Index(k)) : 0;
}

Eigen::Index PenaltyRoute::stateOffset(std::size_t k) const {
  return element_of_[k] >= 0 ? system_->jointFrictionStateOffset(element_of_[k])
                             : system_->frictionStateOffset(Eigen::Index(k));
}

RunResult PenaltyRoute::run(const PenaltyIntegrationOptions& options) {
  const Mechanism& mech = *mechanism_;
  PenaltySystem& system = *system_;
  const Eigen::VectorXd y0 = system.initialState(0.0, q0_, v0_);
  PenaltyIntegrationOptions integration = options;
  if (options_.passive)
    integration.max_energy_gain =
        std::min(integration.max_energy_gain, 1e-2 * std::abs(system.totalEnergy(y0)) + 1e-12);
  const PenaltyRun p = simulatePenalty(system, y0, integration);

  RunResult r;
  switch (p.status) {
    case PenaltyStatus::kSuccess: break;
    case PenaltyStatus::kEnergyIncrease: r.fail(RunStatus::kEnergyIncrease, p.message); break;
    case PenaltyStatus::kLimitReached: r.fail(RunStatus::kLimitReached, p.message); break;
    case PenaltyStatus::kEomFailure:
    case PenaltyStatus::kIntegratorFailure: r.fail(RunStatus::kIntegratorFailure, p.message); break;
  }
  r.steps = p.steps;
  r.relaxed_steps = p.relaxed_steps;
  r.energy_created = p.energy_created;
  r.energy_flowed = p.energy_flowed;
  r.cpu_seconds = p.cpu_seconds;
  r.t_end = p.t;
  const std::size_t nc = mech.contacts().size(), nj = mech.jointFriction().size();
  for (const ContactCrossing& c : p.events)
    r.events.push_back({c.t, c.contact, c.closing ? EventKind::kClose : EventKind::kOpen, false, c.penetration_rate});

  // Where the penalty history has each quantity (penalty_system.hpp: t, y, per contact
  // δ, v_t, Fₙ, Fₜ, the energy, v̇, λ, per element |R|, friction, N).
  const Eigen::Index n = mech.velocitySize(), nq = mech.positionSize(), ny = system.stateSize(),
                     m = mech.constraintCount();
  const Eigen::Index contact_block = 1 + ny, extras = contact_block + 4 * Eigen::Index(nc) + 1;  // after the energy
  const Eigen::Index element_block = extras + n + m;
  r.columns = columns_;
  const auto common = Eigen::Index(historyColumns(mech, mech.contacts(), mech.jointFriction()).size());
  r.history.resize(p.history.rows(), Eigen::Index(r.columns.size()));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (Eigen::Index i = 0; i < p.history.rows(); ++i) {
    auto row = r.history.row(i);
    const auto sample = p.history.row(i);
    row.head(1 + nq + n) = sample.head(1 + nq + n);
    Eigen::Index c = 1 + nq + n;
    for (std::size_t k = 0; k < nc; ++k, c += 2) {
      if (element_of_[k] < 0) {
        const Eigen::Index at = contact_block + 4 * Eigen::Index(k);  // δ, v_t, Fₙ, Fₜ
        row(c) = sample(at + 2);
        row(c + 1) = sample(at + 3);
      } else {
        const Eigen::Index at = element_block + 3 * element_of_[k];  // |N|, F, N
        row(c) = sample(at + 2);
        row(c + 1) = sample(at + 1);
      }
    }
    for (std::size_t e = 0; e < nj; ++e, c += 2) {
      const int el = element_of_[nc + e];
      row(c) = el >= 0 ? sample(element_block + 3 * el) : nan;
      row(c + 1) = el >= 0 ? sample(element_block + 3 * el + 1) : nan;
    }
    row.segment(common, n + m) = sample.segment(extras, n + m);
    c = common + n + m;
    for (std::size_t k = 0; k < nc + nj; ++k)
      for (int z = 0; z < stateCount(k); ++z) row(c++) = sample(1 + nq + n + stateOffset(k) + z);
    row(c) = sample(1 + system.workIndex());
  }
  addSampledModes(mech, always_closed_, frictional_, options_.stick_velocity, r);
  r.friction_work = p.final_state(system.workIndex());
  r.final_q = p.final_state.head(nq);
  r.final_v = p.final_state.segment(nq, n);
  return r;
}

RunResult simulatePenaltyRoute(const RigidScenario& s, const PenaltyRouteOptions& o) {
  return PenaltyRoute(s, o).run(o.integration);
}

}  // namespace stickslip::dynamics
