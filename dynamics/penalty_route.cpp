#include "dynamics/penalty_route.hpp"

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

/// rigid_contact.hpp turns a line's normal by −90° for its tangent, point_line.hpp by +90°:
/// a disk–line contact's v_t and F change sign between the two; a journal's do not.
double tangentSign(const RigidContact& c) {
  return c.shape == RigidContact::Shape::kDiskLine ? -1.0 : 1.0;
}

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

PenaltyContact compliantContact(const RigidContact& c, const PenaltyRouteOptions& o) {
  PenaltyContact p;
  p.name = c.name;
  p.body_i = c.body_i;
  p.body_j = c.body_j;
  p.normal = c.compliant_law ? *c.compliant_law : defaultCompliantLaw(c);
  // The event-driven route holds a compliant contact's δ̇⁻ at impact_velocity; here the
  // measured δ̇⁻ is floored there, so that a contact resting from the start has that damping.
  if (c.normal == RigidContact::Normal::kCompliant)
    std::visit(
        [&](auto& law) {
          if constexpr (requires { law.min_impact_velocity; })
            law.min_impact_velocity = std::max(law.min_impact_velocity, c.impact_velocity);
        },
        p.normal);
  p.two_sided = c.normal == RigidContact::Normal::kBilateral;
  if (c.smooth_friction) p.friction = c.smooth_friction;
  else if (c.frictional()) p.friction = regularized(o, c.mu_static, c.mu_kinetic, "contact '" + c.name + "'");
  if (c.shape == RigidContact::Shape::kJournalBearing) {
    p.kind = PenaltyContact::Kind::kJournalBearing;
    p.journal_bearing = c.journal_bearing;
  } else {
    p.kind = PenaltyContact::Kind::kPointOnLine;
    p.point_line = c.geometry;
    p.radius = c.radius;
    if (c.surface_speed) p.surface_speed = [speed = c.surface_speed](double t) { return -speed(t); };
  }
  return p;
}

/// The stick/slip modes estimated from the samples (penalty_route.hpp): the initial modes and
/// an approximate event at every change, merged into the run's events in time order. `p` is
/// the penalty run (its history has each contact's v_t and Fₙ), `r` the route's result.
void addSampledModes(const RigidScenario& s, const PenaltySystem& system, const PenaltyRun& p,
                     double stick_velocity, RunResult& r) {
  const Eigen::Index n = s.model.velocitySize(), ny = system.stateSize();
  const auto nc = Eigen::Index(s.contacts.size()), nj = Eigen::Index(s.joint_friction.size());
  const bool joint_laws = !system.jointFriction().empty();
  Eigen::VectorXd v(n);
  auto mode = [&](Eigen::Index i, Eigen::Index k) {
    double v_t = 0.0;
    bool loaded = true, frictional = joint_laws;
    if (k < nc) {
      const Eigen::Index at = 1 + ny + 4 * k;  // δ, v_t, Fₙ, Fₜ
      // Closed (δ ≥ 0, or a two-sided contact): a contact just touching at t = 0 carries
      // no force yet but sticks if it does not slide.
      loaded = system.contacts()[std::size_t(k)].two_sided || p.history(i, at) >= 0.0;
      frictional = system.contacts()[std::size_t(k)].friction != nullptr;
      v_t = tangentSign(s.contacts[std::size_t(k)]) * p.history(i, at + 1);
    } else {
      v = r.history.row(i).segment(1 + n, n).transpose();
      v_t = s.joint_friction[std::size_t(k - nc)].rate(s.model, v);
    }
    if (!loaded) return ContactMode::kOpen;
    if (frictional && std::abs(v_t) < stick_velocity) return ContactMode::kStick;
    return v_t > 0.0 ? ContactMode::kSlipPositive : ContactMode::kSlipNegative;
  };
  if (p.history.rows() == 0) return;
  std::vector<ContactEvent> changes;
  for (Eigen::Index k = 0; k < nc + nj; ++k) {
    ContactMode before = mode(0, k);
    r.initial_modes.push_back(before);
    for (Eigen::Index i = 1; i < p.history.rows(); ++i) {
      const ContactMode now = mode(i, k);
      // Into or out of stick; openings, closings and reversals in slip are not mode changes
      // of the friction (the crossings report the first two).
      if ((now == ContactMode::kStick) != (before == ContactMode::kStick) && now != ContactMode::kOpen)
        changes.push_back({p.history(i, 0), int(k),
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

RunResult simulatePenaltyRoute(const RigidScenario& s, const PenaltyRouteOptions& o) {
  if (!(o.stick_velocity > 0.0))
    throw std::invalid_argument("PenaltyRouteOptions: expected stick_velocity > 0, got " +
                                std::to_string(o.stick_velocity));
  std::vector<PenaltyContact> contacts;
  for (const RigidContact& c : s.contacts) {
    c.validate(s.model);
    contacts.push_back(compliantContact(c, o));
  }
  std::vector<PenaltyJointFriction> joints;
  for (const RevoluteFriction& f : s.joint_friction) {
    f.validate(s.model);
    if (auto law = regularized(o, f.mu_static, f.mu_kinetic, "joint friction '" + f.name + "'"))
      joints.push_back({f, std::move(law)});
  }
  EomOptions eom;
  eom.baumgarte_alpha = o.baumgarte_alpha;
  eom.baumgarte_beta = o.baumgarte_beta;
  PenaltySystem system(s.model, std::move(contacts), EomMethod::kBaumgarte, eom, std::move(joints));
  const Eigen::VectorXd y0 = system.initialState(0.0, s.q0, s.v0);
  PenaltyIntegrationOptions integration = o.integration;
  if (o.passive)
    integration.max_energy_gain =
        std::min(integration.max_energy_gain, 1e-2 * std::abs(system.totalEnergy(y0)) + 1e-12);
  const PenaltyRun p = simulatePenalty(system, y0, integration);

  RunResult r;
  switch (p.status) {
    case PenaltyStatus::kSuccess: break;
    case PenaltyStatus::kEnergyIncrease: r.fail(RunStatus::kEnergyIncrease, p.message); break;
    case PenaltyStatus::kEomFailure:
    case PenaltyStatus::kIntegratorFailure: r.fail(RunStatus::kIntegratorFailure, p.message); break;
  }
  r.steps = p.steps;
  r.cpu_seconds = p.cpu_seconds;
  r.t_end = p.t;
  for (const ContactCrossing& c : p.events)
    r.events.push_back({c.t, c.contact, c.closing ? EventKind::kClose : EventKind::kOpen, false, c.penetration_rate});
  // The history as the nonsmooth routes write it. The joint reactions are not in the
  // penalty history: each row's are recomputed from its state (one derivative() a row).
  const Eigen::Index n = s.model.velocitySize(), ny = system.stateSize();
  const auto nc = Eigen::Index(s.contacts.size()), nj = Eigen::Index(s.joint_friction.size());
  const bool joint_laws = !system.jointFriction().empty();  // none with friction_law "none"
  r.columns = historyColumns(s.model, s.contacts, s.joint_friction);
  r.history.resize(p.history.rows(), Eigen::Index(r.columns.size()));
  Eigen::VectorXd ydot(ny);
  for (Eigen::Index i = 0; i < p.history.rows(); ++i) {
    r.history.row(i).head(1 + 2 * n) = p.history.row(i).head(1 + 2 * n);
    for (Eigen::Index k = 0; k < nc; ++k) {
      const Eigen::Index at = 1 + ny + 4 * k;  // δ, v_t, Fₙ, Fₜ
      r.history(i, 1 + 2 * n + 2 * k) = p.history(i, at + 2);
      r.history(i, 2 + 2 * n + 2 * k) = tangentSign(s.contacts[std::size_t(k)]) * p.history(i, at + 3);
    }
    r.history.row(i).tail(2 * nj).setConstant(std::numeric_limits<double>::quiet_NaN());
    if (!joint_laws) continue;
    static_cast<void>(system.derivative(p.history(i, 0), p.history.row(i).segment(1, ny).transpose(), ydot));
    for (Eigen::Index e = 0; e < nj; ++e) {
      r.history(i, 1 + 2 * n + 2 * nc + 2 * e) = system.jointReaction(int(e));
      r.history(i, 2 + 2 * n + 2 * nc + 2 * e) = system.jointFrictionTorque(int(e));
    }
  }
  addSampledModes(s, system, p, o.stick_velocity, r);
  r.final_q = p.final_state.head(n);
  r.final_v = p.final_state.segment(n, n);
  return r;
}

}  // namespace stickslip::dynamics
