// `hold` (dynamics/statics/hold.hpp) on the seeds' mechanisms: Zheng's Example III against its
// simulation-bisected threshold and the event-driven reactions at t = 0; Blajer's Examples 1
// and 2 at rest, their critical load factors against simulations started at rest.
#include "dynamics/statics/hold.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/zheng.hpp"

using namespace stickslip;

namespace {

/// Whether an event-driven run from rest stays at rest over `t_end`: no stick/slip change and
/// every velocity of the history below 1e-9.
bool staysAtRest(const dynamics::RigidScenario& s, double t_end = 0.3) {
  dynamics::EventDrivenOptions o;
  o.t_end = t_end;
  const dynamics::RunResult r = dynamics::simulateEventDriven(s, o);
  REQUIRE(r.ok());
  const Eigen::Index n = s.model.velocitySize();
  const double v = r.history.middleCols(1 + n, n).cwiseAbs().maxCoeff();
  return dynamics::modeChanges(r).empty() && v < 1e-9;
}

}  // namespace

TEST_CASE("hold: Zheng's Example III — the critical mu_s is the bisected threshold, the reactions are the "
          "event-driven run's at t = 0",
          "[hold][zheng]") {
  const dynamics::RigidScenario s = mechanisms::buildRigidScenario("zheng-equilibrium");
  const dynamics::HoldResult r = dynamics::analyseHold(s, s.q0);
  CAPTURE(r.cross_check);
  REQUIRE(r.holds);
  CHECK(r.exact);
  CHECK(r.cross_check_ok);
  REQUIRE(r.elements.size() == 1);
  const dynamics::HoldElement& joint = r.elements[0];
  // docs/guide/hold.md: a sweep of simulations finds "held flips between 0.11335 and 0.11336".
  CHECK(joint.critical_mu > 0.11335);
  CHECK(joint.critical_mu < 0.11336);
  CHECK(joint.critical_mu == Approx(std::abs(joint.friction) / joint.normal).epsilon(1e-10));
  CHECK(joint.critical_mu == Approx(0.113354).margin(1e-5));

  dynamics::EventDrivenOptions o;
  o.t_end = 0.01;
  o.integrator = dynamics::OdeMethod::kBdf;
  o.relative_tolerance = 1e-8;
  o.absolute_tolerance = 1e-10;
  const dynamics::RunResult run = dynamics::simulateEventDriven(s, o);
  REQUIRE(run.ok());
  const Eigen::Index n = s.model.velocitySize();
  CHECK(run.history(0, 1 + 2 * n) == Approx(joint.normal).margin(1e-9));
  CHECK(run.history(0, 2 + 2 * n) == Approx(joint.friction).margin(1e-9));

  // Either side of the threshold, the verdict flips as the simulations' does.
  for (double mu : {0.11335, 0.11336}) {
    mechanisms::ZhengSliderCrank z = mechanisms::zhengExample("equilibrium");
    z.mu_kinetic = 0.1;  // ≤ μs
    z.mu_static = mu;
    const dynamics::RigidScenario at = mechanisms::zhengRigid(z);
    CHECK(dynamics::analyseHold(at, at.q0).holds == (mu > 0.11335));
  }
}

TEST_CASE("hold: Blajer's Example 2 at rest — the critical load factor of a crank torque against simulations "
          "from rest",
          "[hold][blajer]") {
  // The slider-crank hanging along gravity (its unforced equilibrium) with a constant torque
  // τ on the crank instead of τ0 sin Ωt; B Blajer's pin in its slot (the pin's friction bounded
  // by the slot's force, unknowns of the program) or a slider body.
  const bool pin = GENERATE(true, false);
  CAPTURE(pin);
  auto build = [pin](double torque) {
    mechanisms::Blajer2 b;
    b.pin_in_slot = pin;
    b.torque_amplitude = 0.0;
    dynamics::RigidScenario s = mechanisms::blajer2Rigid(b);
    s.model.addAppliedTorque(0, [torque](double) { return torque; });
    return s;
  };
  const double unit = 0.5;  // [N m]: held by both
  const dynamics::RigidScenario s = build(unit);
  const dynamics::HoldResult r = dynamics::analyseHold(s, s.q0);
  CAPTURE(r.cross_check, r.load_factor.low, r.load_factor.high);
  REQUIRE(r.holds);
  CHECK(r.cross_check_ok);
  REQUIRE(r.load_factor.loads);
  REQUIRE(std::isfinite(r.load_factor.high));
  REQUIRE(std::isfinite(r.load_factor.low));
  CHECK(r.load_factor.high > 0.0);
  CHECK(r.load_factor.low == Approx(-r.load_factor.high).epsilon(1e-9));  // mirror-symmetric about the guide
  CHECK_FALSE(r.load_factor.first_high.empty());
  for (double end : {r.load_factor.low, r.load_factor.high}) {
    CAPTURE(end);
    CHECK(staysAtRest(build(0.99 * unit * end)));
    CHECK_FALSE(staysAtRest(build(1.01 * unit * end)));
  }
  // The same limit torque from a torque 10 times larger, which breaks it away (the ascent on
  // the joints' reaction directions starts elsewhere and ends at the same optimum).
  const dynamics::RigidScenario big = build(10.0 * unit);
  const dynamics::HoldResult b = dynamics::analyseHold(big, big.q0);
  CHECK_FALSE(b.holds);
  CHECK(b.exact);  // the branch and bound over the joints' reaction directions proves it
  CHECK(10.0 * b.load_factor.high == Approx(r.load_factor.high).epsilon(1e-9));
  CHECK(10.0 * b.load_factor.low == Approx(r.load_factor.low).epsilon(1e-9));
}

TEST_CASE("hold: blajer-2 as built, hanging at its dead centre with no load at t = 0, holds with no friction "
          "needed — at t = 0.1 s its torque breaks it away, as the simulations show",
          "[hold][blajer]") {
  // Degenerate programs (a reaction pinned to a thin slab by sign rows) stopped Lemke here:
  // vertex enumeration solves them.
  const bool pin = GENERATE(true, false);
  CAPTURE(pin);
  mechanisms::Blajer2 b;
  b.pin_in_slot = pin;
  const dynamics::RigidScenario s = mechanisms::blajer2Rigid(b);
  const dynamics::HoldResult at0 = dynamics::analyseHold(s, s.q0);
  CHECK(at0.holds);
  CHECK(at0.cross_check_ok);
  for (const dynamics::HoldElement& e : at0.elements) CHECK(e.critical_mu == 0.0);
  // The same with every mass scaled: a joint friction row the joints take whole is zero in the
  // balance, or round-off of 1e-17 as the masses go, which must not pass for a reaction.
  for (double k : {0.5, 2.0, 1e3, 1e-3}) {
    CAPTURE(k);
    mechanisms::Blajer2 scaled = b;
    scaled.m1 *= k;
    scaled.m2 *= k;
    scaled.m3 *= k;  // the slider's (pin = false)
    const dynamics::RigidScenario sk = mechanisms::blajer2Rigid(scaled);
    const dynamics::HoldResult rk = dynamics::analyseHold(sk, sk.q0);
    CHECK(rk.holds);
    CHECK(rk.margin == Approx(k * at0.margin).epsilon(1e-6));
    for (const dynamics::HoldElement& e : rk.elements) CHECK(e.critical_mu == 0.0);
  }
  dynamics::HoldOptions o;
  o.t = 0.1;  // τ = 6 sin 0.3 = 1.77 N m, beyond both limits of the test above
  const dynamics::HoldResult at01 = dynamics::analyseHold(s, s.q0, o);
  CHECK_FALSE(at01.holds);
  CHECK(at01.exact);
}

TEST_CASE("hold: Blajer's Example 1 at rest — gravity alone breaks it away — a crank torque holds it within its "
          "load factors, as simulations from rest show",
          "[hold][blajer]") {
  auto build = [](double torque) {
    mechanisms::Blajer1 b;
    if (torque != 0.0) b.torque = [torque](double) { return torque; };
    return mechanisms::blajer1Rigid(b);
  };
  const dynamics::RigidScenario free = build(0.0);
  const dynamics::HoldResult f = dynamics::analyseHold(free, free.q0);
  CHECK_FALSE(f.holds);
  CHECK(f.exact);
  CHECK_FALSE(staysAtRest(free));

  const dynamics::RigidScenario s = build(1.0);
  const dynamics::HoldResult r = dynamics::analyseHold(s, s.q0);
  CAPTURE(r.cross_check, r.load_factor.low, r.load_factor.high, r.margin);
  CHECK(r.cross_check_ok);
  REQUIRE(r.load_factor.loads);
  REQUIRE(std::isfinite(r.load_factor.low));
  REQUIRE(std::isfinite(r.load_factor.high));
  REQUIRE(r.load_factor.low < r.load_factor.high);
  for (double end : {r.load_factor.low, r.load_factor.high}) {
    CAPTURE(end);
    const double inside = end == r.load_factor.low ? 1.01 : 0.99;
    CHECK(staysAtRest(build(inside * end)));
    CHECK_FALSE(staysAtRest(build((2.0 - inside) * end)));
    const dynamics::RigidScenario outside = build((2.0 - inside) * end);
    const dynamics::HoldResult o = dynamics::analyseHold(outside, outside.q0, {.margins = false});
    CHECK_FALSE(o.holds);
    CHECK(o.exact);
  }
  const double middle = 0.5 * (r.load_factor.low + r.load_factor.high);
  CHECK(dynamics::analyseHold(build(middle), s.q0).holds);
}
