// Moreau–Jean with Coulomb friction in revolute joints (moreau_jean.hpp): a wheel on a fixed
// axle (reaction m g: closed-form stick, slip and break-away), a pendulum whose pivot reaction
// depends on its motion (against the event-driven route at two step sizes, O(h)), the energy
// balance with the friction work, a frictional pendulum coming to rest on a floor (contact and
// joint friction in one LCP, no allocation per step), and the contract.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "allocation_counter.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "standard_gravity.hpp"

using namespace stickslip::dynamics;
using Eigen::Vector2d;
using Eigen::VectorXd;

namespace {

using stickslip::test::kG;

/// One body pivoted at the ground origin by a frictional revolute joint, at its local point
/// −centre (the body frame starts at angle 0 with its centroid at `centre`), at rest.
RigidScenario pivoted(double mass, double inertia, const Vector2d& centre, double mu_s,
                      double mu_k, double radius) {
  RigidScenario s;
  const BodyIndex body = s.model.addBody("body", mass, inertia);
  s.model.setGravity(Vector2d(0.0, -kG));
  const int pin = s.model.addRevolute(kGround, Vector2d::Zero(), body, -centre, "pivot");
  s.joint_friction.push_back({"pivot friction", pin, radius, mu_s, mu_k});
  s.q0 = Eigen::Vector3d(centre.x(), centre.y(), 0.0);
  s.v0 = VectorXd::Zero(3);
  return s;
}

RunResult runMJ(const RigidScenario& s, const MoreauJeanOptions& o) {
  return simulateMoreauJean(PlanarMechanism(s.model, s.contacts, s.joint_friction), s.q0, s.v0, o);
}

// Wheel: uniform disk m = 2 kg, radius 0.2 m, on an axle r = 0.05 m, μs = 0.5, μk = 0.3.
constexpr double kWheelMass = 2.0, kWheelRadius = 0.2, kAxle = 0.05, kMuS = 0.5, kMuK = 0.3;
constexpr double kWheelJ = kWheelMass * kWheelRadius * kWheelRadius / 2.0;

RigidScenario wheel(std::function<double(double)> torque) {
  RigidScenario s = pivoted(kWheelMass, kWheelJ, Vector2d::Zero(), kMuS, kMuK, kAxle);
  s.model.addAppliedTorque(0, std::move(torque));
  return s;
}

/// The MJ joint mode changes with the one-step stick of a velocity reversal (moreau_jean.hpp)
/// merged into a slip at the stick's time, and a break-away in the first step left out (the
/// event-driven route does not report its initial mode).
std::vector<ModeChange> reversalsMerged(const RunResult& run, double h) {
  const std::vector<ModeChange> raw = modeChanges(run);
  std::vector<ModeChange> out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if (raw[i].first < 1.5 * h && raw[i].second != "stick") continue;
    const bool reversal = raw[i].second == "stick" && i + 1 < raw.size() &&
                          raw[i + 1].first <= raw[i].first + 5.5 * h;
    if (reversal) {
      out.emplace_back(raw[i].first, raw[i + 1].second);
      ++i;
      continue;
    }
    out.push_back(raw[i]);
  }
  return out;
}

}  // namespace

TEST_CASE("moreau-jean joint friction: a wheel under a constant torque sticks or slips as the "
          "closed form", "[moreau-jean][joint-friction]") {
  const double hold = kMuS * kAxle * kWheelMass * kG;  // 0.4905 N m
  const double drag = kMuK * kAxle * kWheelMass * kG;  // 0.2943 N m
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-3;
  // Columns: t, q (3), v (3), |R|, T.
  SECTION("tau0 = 0.4 N m < mu_s r m g: stuck, T = -tau0, |R| = m g") {
    const auto r = runMJ(wheel([](double) { return 0.4; }), o);
    INFO(r.message);
    REQUIRE(r.ok());
    CHECK(r.events.empty());
    CHECK(r.final_v.norm() < 1e-13);
    CHECK(r.final_q.norm() < 1e-13);
    CHECK(r.friction_work == Approx(0.0).margin(1e-15));
    const auto last = r.history.row(r.history.rows() - 1);
    REQUIRE(r.history.cols() == 9);
    CHECK(last(7) == Approx(kWheelMass * kG).epsilon(1e-12));
    CHECK(last(8) == Approx(-0.4).epsilon(1e-12));
  }
  SECTION("tau0 = 0.6 N m > mu_s r m g: slips at (tau0 - mu_k r m g) / J from the first step") {
    const double tau0 = 0.6;
    const auto r = runMJ(wheel([=](double) { return tau0; }), o);
    INFO(r.message);
    REQUIRE(r.ok());
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].contact == 0);  // no contacts: joint friction 0 is index 0
    CHECK(r.events[0].kind == EventKind::kSlipPositive);
    CHECK(r.events[0].t == Approx(0.5 * o.h));  // in the first step, timed at its middle
    const double alpha = (tau0 - drag) / kWheelJ;
    // Constant acceleration: exact in v, and in q for θ = ½.
    CHECK(r.final_v(2) == Approx(alpha * o.t_end).epsilon(1e-12));
    CHECK(r.final_q(2) == Approx(0.5 * alpha * o.t_end * o.t_end).epsilon(1e-12));
    CHECK(r.final_v.head<2>().norm() < 1e-12);
    const auto last = r.history.row(r.history.rows() - 1);
    CHECK(last(7) == Approx(kWheelMass * kG).epsilon(1e-12));
    CHECK(last(8) == Approx(-drag).epsilon(1e-12));
    // Friction work = drag × angle turned (ṡ⁺ sums to the angle up to the θ-rule's h/2).
    CHECK(r.friction_work == Approx(drag * 0.5 * alpha * o.t_end * (o.t_end + o.h)).epsilon(1e-9));
    // Joints imposed through a₀ only (no velocity projection): the same reaction impulse.
    MoreauJeanOptions baumgarte = o;
    baumgarte.joint_velocity_projection = false;
    const auto b = runMJ(wheel([=](double) { return tau0; }), baumgarte);
    REQUIRE(b.ok());
    CHECK(b.final_v(2) == Approx(alpha * o.t_end).epsilon(1e-12));
  }
  SECTION("tau = 3 sin 2t: break-away and reversal at the closed-form instants to O(h)") {
    // Break-away when 3 sin 2t = μs r m g; then J ω = 1.5 (cos 2t* − cos 2t) − drag (t − t*)
    // until ω = 0 (bisection on that closed form), where the torque (−2.6 N m) exceeds the
    // hold: a reversal, slip− (MJ: one step of stick first, merged).
    const double t_break = 0.5 * std::asin(hold / 3.0);
    auto omega = [&](double t) {
      return 1.5 * (std::cos(2.0 * t_break) - std::cos(2.0 * t)) - drag * (t - t_break);
    };
    double lo = M_PI / 4.0, hi = M_PI;  // ω > 0 past the torque's peak, < 0 at π
    REQUIRE(omega(lo) > 0.0);
    REQUIRE(omega(hi) < 0.0);
    while (hi - lo > 1e-14) (omega(0.5 * (lo + hi)) > 0.0 ? lo : hi) = 0.5 * (lo + hi);
    const double t_reverse = lo;
    REQUIRE(std::abs(3.0 * std::sin(2.0 * t_reverse)) > hold);
    double previous = 0.0;
    for (const double h : {1e-3, 1e-4}) {
      o.h = h;
      o.t_end = 3.0;
      const auto r = runMJ(wheel([](double t) { return 3.0 * std::sin(2.0 * t); }), o);
      INFO(r.message);
      REQUIRE(r.ok());
      const std::vector<ModeChange> changes = reversalsMerged(r, h);
      REQUIRE(changes.size() >= 2);
      CHECK(changes[0].second == "slip+");
      CHECK(changes[1].second == "slip-");
      // Each event is reported at the middle of the step containing it: within h/2 of its
      // instant, the reversal (its velocity crossing zero inside a step) within a step.
      const double e0 = changes[0].first - t_break, e1 = changes[1].first - t_reverse;
      INFO("h = " << h << ": break-away error " << e0 << " s, reversal error " << e1 << " s");
      CHECK(std::abs(e0) <= 0.5 * h * (1.0 + 1e-9));
      CHECK(std::abs(e1) <= h);
      if (previous > 0.0) CHECK(std::abs(e0) + std::abs(e1) < previous / 5.0);
      previous = std::abs(e0) + std::abs(e1);
    }
  }
}

TEST_CASE("moreau-jean joint friction: a pendulum at rest where l sin phi = mu_s r stays, whatever its mass",
          "[moreau-jean][joint-friction]") {
  // At rest the pin carries R = m g and the torque m g l sin φ, exactly μs r R: a stick at its
  // limit. The first step has no reaction of a previous one to bound the friction with.
  for (const double mass : {1e-3, 1.0, 50.0})
    for (const double phi : {0.05, 0.3, 1.2})
      for (const double h : {1e-3, 1e-4}) {
        const double l = 0.25, r = 0.05, mu_s = l * std::sin(phi) / r;
        const RigidScenario s =
            pivoted(mass, mass * l * l / 3.0, l * Vector2d(std::sin(phi), -std::cos(phi)), mu_s, 0.5 * mu_s, r);
        MoreauJeanOptions o;
        o.t_end = 5.0;
        o.h = h;
        const RunResult run = runMJ(s, o);
        INFO("m = " << mass << " kg, phi = " << phi << " rad, h = " << h << ": " << run.message);
        REQUIRE(run.ok());
        CHECK(run.events.empty());
        CHECK(std::abs(run.final_q(2)) < 1e-12);
        CHECK(run.final_v.norm() < 1e-12);
        const auto last = run.history.row(run.history.rows() - 1);  // t, q (3), v (3), |R|, T
        CHECK(last(7) == Approx(mass * kG).epsilon(1e-12));
        CHECK(last(8) == Approx(mu_s * r * mass * kG).epsilon(1e-12));  // against gravity's torque
      }
}

TEST_CASE("moreau-jean joint friction: a pendulum swinging to a stop agrees with the "
          "event-driven route to O(h)", "[moreau-jean][joint-friction][event-driven]") {
  // Uniform bar m = 1 kg, L = 0.5 m, pivoted at one end, released at rest 1 rad from the
  // downward vertical (outside the static range): the pivot reaction changes with the swing.
  const double m = 1.0, L = 0.5, phi0 = -M_PI / 2 + 1.0;
  const Vector2d centre = 0.5 * L * Vector2d(std::cos(phi0), std::sin(phi0));
  const RigidScenario s = pivoted(m, m * L * L / 12.0, centre, 0.5, 0.4, 0.05);
  EventDrivenOptions eo;
  eo.t_end = 4.0;
  const RunResult ed =
      simulateEventDriven(PlanarMechanism(s.model, s.contacts, s.joint_friction), s.q0, s.v0, eo);
  INFO(ed.message);
  REQUIRE(ed.ok());
  const std::vector<ModeChange> reference = modeChanges(ed);
  REQUIRE(reference.size() >= 4);
  REQUIRE(reference.back().second == "stick");
  std::vector<double> errors, final_errors;
  for (const double h : {1e-4, 1e-5}) {
    MoreauJeanOptions o;
    o.t_end = eo.t_end;
    o.h = h;
    o.output_dt = 1e-2;
    const RunResult mj = runMJ(s, o);
    INFO("h = " << h << ": " << mj.message);
    REQUIRE(mj.ok());
    const std::vector<ModeChange> merged = reversalsMerged(mj, h);
    const double error = maxModeTimeError(merged, reference);
    errors.push_back(error);
    final_errors.push_back((mj.final_q - ed.final_q).lpNorm<Eigen::Infinity>());
    INFO("event time error " << error << " s, final state error " << final_errors.back());
    CHECK(std::isfinite(error));
    CHECK(mj.final_v.norm() < 1e-12);  // at rest where it stopped
    // The bounds' fixed point: one LCP per stuck step, ~3 per slipping one (measured 2.95 and
    // 2.66 per step over the run at h = 1e-4, 1e-5).
    CHECK(mj.lcp_solves < 4 * mj.steps);
  }
  INFO("event time errors " << errors[0] << ", " << errors[1] << "; final q errors "
                            << final_errors[0] << ", " << final_errors[1]);
  // Measured: event times 1.1e-4 s (h = 1e-4), 9.3e-6 s (h = 1e-5); final q 9.5e-8, 9.3e-10
  // (the bar at rest: the O(h) error of the stop instant costs O(h²) in position).
  CHECK(errors[0] < 3.0 * 1e-4 * 1.2);
  CHECK(errors[1] < errors[0] / 5.0);
  CHECK(final_errors[0] < 3e-7);
  CHECK(final_errors[1] < final_errors[0] / 20.0);
}

TEST_CASE("moreau-jean joint friction: energy T + V + friction work is conserved to O(h)",
          "[moreau-jean][joint-friction][energy]") {
  // The bar of the previous case, released horizontal with lighter friction: it swings many
  // times before it stops.
  const double m = 1.0, L = 0.5;
  const RigidScenario s = pivoted(m, m * L * L / 12.0, Vector2d(0.5 * L, 0.0), 0.15, 0.1, 0.05);
  const double e0 = s.model.kineticEnergy(s.v0) + s.model.potentialEnergy(s.q0);
  std::vector<double> imbalance;
  for (const double h : {1e-4, 1e-5}) {
    MoreauJeanOptions o;
    o.t_end = 2.0;
    o.h = h;
    o.output_dt = 1e-2;
    const RunResult r = runMJ(s, o);
    INFO(r.message);
    REQUIRE(r.ok());
    CHECK(r.friction_work > 0.0);
    CHECK(modeChanges(r).size() >= 3);
    // Friction work per step is ≥ 0 by construction (maximal dissipation); check the sums too.
    const double e1 = s.model.kineticEnergy(r.final_v) + s.model.potentialEnergy(r.final_q);
    imbalance.push_back(std::abs(e1 + r.friction_work - e0));
    INFO("h = " << h << ": dissipated " << r.friction_work << " J of " << e0 - e1
                << " J lost, imbalance " << imbalance.back() << " J");
    // Measured 3.2e-6 J (h = 1e-4) and 2.6e-7 J (h = 1e-5) of 0.65 J dissipated.
    CHECK(imbalance.back() < 0.1 * h);
  }
  INFO("imbalance " << imbalance[0] << " J, " << imbalance[1] << " J");
  CHECK(imbalance[1] < imbalance[0] / 5.0);
}

namespace {

/// The pendulum of nonsmooth_moreau_jean_test with a frictional pivot: a bar (1 kg, 1 m)
/// pivoted at one end, released horizontal, striking the floor y = −½ with e = 0.5.
RigidScenario floorPendulum() {
  RigidScenario s = pivoted(1.0, 1.0 / 12.0, Vector2d(0.5, 0.0), 0.3, 0.2, 0.02);
  RigidContact c;
  c.name = "tip-floor";
  c.body_i = 0;
  c.geometry.point_on_i = Vector2d(0.5, 0.0);
  c.geometry.line_point_on_j = Vector2d(0.0, -0.5);
  c.restitution = 0.5;
  c.mu_static = 0.2;
  c.mu_kinetic = 0.2;
  s.contacts.push_back(c);
  return s;
}

}  // namespace

TEST_CASE("moreau-jean joint friction with a contact: comes to rest on the floor, allocation-free",
          "[moreau-jean][joint-friction][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  const RigidScenario s = floorPendulum();
  MoreauJeanOptions o;
  o.h = 1e-4;
  const PlanarMechanism stepper_mechanism(s.model, s.contacts, s.joint_friction);
  MoreauJeanStepper stepper(stepper_mechanism, o);
  VectorXd q = s.q0, v = s.v0;
  double t = 0.0;
  for (int k = 0; k < 30000; ++k, t += o.h) REQUIRE(stepper.step(t, o.h, q, v));
  REQUIRE(stepper.closed(0));
  bool ok = false;
  const long allocations = allocationsOver(1000, [&] { return stepper.step((t += o.h) - o.h, o.h, q, v); }, ok);
  CHECK(ok);
  CHECK(stepper.closed(0));
  CHECK(allocations == 0);
  // At rest on the floor at θ = −30°: the pivot and the tip share the weight; the joint is
  // stuck and carries no torque (the floor alone holds the bar), |τ| ≤ μs r |Λ|.
  CHECK(v.norm() < 1e-10);
  CHECK(q(2) == Approx(-M_PI / 6.0).margin(1e-6));
  CHECK(std::abs(stepper.jointRates()(0)) < 1e-10);
  CHECK(std::abs(stepper.jointTorqueImpulses()(0)) <=
        0.3 * 0.02 * stepper.jointReactionImpulses()(0) * (1.0 + 1e-9));
  CHECK(stepper.jointReactionImpulses()(0) > 0.0);

  // A slipping joint (the bounds' fixed point iterates) allocates nothing either: the
  // pendulum of the O(h) case swinging.
  const RigidScenario swing = pivoted(1.0, 0.25 / 12.0, Vector2d(0.25, 0.0), 0.15, 0.1, 0.05);
  const PlanarMechanism swinging_mechanism(swing.model, swing.contacts, swing.joint_friction);
  MoreauJeanStepper swinging(swinging_mechanism, o);
  q = swing.q0;
  v = swing.v0;
  t = 0.0;
  for (int k = 0; k < 100; ++k, t += o.h) REQUIRE(swinging.step(t, o.h, q, v));
  const long solves = swinging.lcpSolves();
  const long swinging_allocations =
      allocationsOver(1000, [&] { return swinging.step((t += o.h) - o.h, o.h, q, v); }, ok);
  CHECK(ok);
  CHECK(std::abs(swinging.jointRates()(0)) > 0.1);
  CHECK(swinging.lcpSolves() - solves > 2000);  // more than one LCP per step
  CHECK(swinging_allocations == 0);
}

TEST_CASE("moreau-jean joint friction: history columns, events and the contract",
          "[moreau-jean][joint-friction]") {
  const RigidScenario s = floorPendulum();
  MoreauJeanOptions o;
  o.t_end = 1.0;
  o.h = 1e-4;
  const RunResult r = runMJ(s, o);
  INFO(r.message);
  REQUIRE(r.ok());
  // t, q (3), v (3), contact (N, F), joint (|R|, T).
  CHECK(r.history.cols() == 1 + 3 + 3 + 2 + 2);
  bool joint_event = false;
  for (const ContactEvent& e : r.events) {
    CHECK((e.contact == 0 || e.contact == 1));
    if (e.contact == 1) {
      joint_event = true;
      CHECK((e.kind == EventKind::kStick || e.kind == EventKind::kSlipPositive ||
             e.kind == EventKind::kSlipNegative));
    }
  }
  CHECK(joint_event);
  CHECK(r.friction_work > 0.0);
  for (Eigen::Index i = 1; i < r.history.rows(); ++i) {
    const double R = r.history(i, 9), T = r.history(i, 10);
    CHECK(std::abs(T) <= 0.3 * 0.02 * R * (1.0 + 1e-6) + 1e-12);
  }

  std::vector<RevoluteFriction> bad = s.joint_friction;
  bad[0].radius = -1.0;
  CHECK_THROWS_WITH(simulateMoreauJean(PlanarMechanism(s.model, s.contacts, bad), s.q0, s.v0, o),
                    Catch::Contains("pivot friction: expected a journal radius > 0"));
  MoreauJeanOptions siconos = o;
  siconos.solver = "siconos-enum";
  CHECK_THROWS_WITH(MoreauJeanStepper(PlanarMechanism(s), siconos),
                    Catch::Contains("needs the Moreau–Jean solver 'lemke'"));
}
