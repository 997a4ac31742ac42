// Moreau–Jean with NSGS and with Newton on the sparse W (moreau_jean.hpp, Solvers) against the
// same scheme with Lemke's exact LCP, on blocks that rest on a moving belt by two corner points each: contacts
// coupled through their block (rotation and the shared tangent), not through the springs. Also
// the choice "auto" makes, the refusals, and the allocation-free step.
#include <catch2/catch.hpp>

#include "allocation_counter.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "same_run.hpp"

using namespace stickslip::dynamics;
using Eigen::VectorXd;

namespace {

/// n blocks (0.4 m × 0.2 m, 1 kg + 0.1 kg per index) on a belt at 0.3 m/s, each held by its
/// own spring k = 50 N/m to an anchor it starts 0.1 (i mod 3) m away from; two contacts per
/// block at its lower corners (±0.2 m), μs = 0.4, μk = 0.3.
RigidScenario blocksOnBelt(int n) {
  RigidScenario s;
  s.name = "blocks-on-belt";
  s.model.setGravity({0.0, -9.81});
  s.q0 = VectorXd::Zero(3 * n);
  s.v0 = VectorXd::Zero(3 * n);
  for (int i = 0; i < n; ++i) {
    const double m = 1.0 + 0.1 * i;
    const BodyIndex b = s.model.addBody("block-" + std::to_string(i), m, m * (0.16 + 0.04) / 12.0);
    for (const double x : {-0.2, 0.2}) {
      RigidContact c;
      c.name = "block-" + std::to_string(i) + (x < 0 ? "-back" : "-front");
      c.body_i = b;
      c.body_j = kGround;
      c.geometry.point_on_i = {x, -0.1};
      c.mu_static = 0.4;
      c.mu_kinetic = 0.3;
      c.surface_speed = [](double) { return 0.3; };
      c.surface_acceleration = [](double) { return 0.0; };
      s.contacts.push_back(std::move(c));
    }
    s.q0(3 * i) = 0.1 * (i % 3);
    s.q0(3 * i + 1) = 0.1;
    s.v0(3 * i) = 0.3;
  }
  s.model.addGeneralizedForce([n](double, const Eigen::Ref<const VectorXd>& q, const Eigen::Ref<const VectorXd>&,
                                  Eigen::Ref<VectorXd> f) {
    for (int i = 0; i < n; ++i) f(3 * i) -= 50.0 * q(3 * i);
  });
  return s;
}

/// Heap allocations over 500 steps of `stepper` after 2000 (every active-set size met), from
/// s's initial state; q and v end at the last state. REQUIREs that every step succeeds.
long allocationsAfterWarmUp(const RigidScenario& s, MoreauJeanStepper& stepper, double h, VectorXd& q, VectorXd& v) {
  q = s.q0;
  v = s.v0;
  double t = 0.0;
  for (int k = 0; k < 2000; ++k, t += h) REQUIRE(stepper.step(t, h, q, v));
  bool ok = false;
  const long allocations = allocationsOver(500, [&] { return stepper.step((t += h) - h, h, q, v); }, ok);
  REQUIRE(ok);
  return allocations;
}

RunResult run(const RigidScenario& s, const std::string& solver, double t_end) {
  MoreauJeanOptions o;
  o.h = 1e-3;
  o.t_end = t_end;
  o.solver = solver;
  return simulateMoreauJean(s, o);
}

}  // namespace

TEST_CASE("moreau-jean nsgs: the states and events of Lemke's exact LCP, contacts coupled through their block",
          "[moreau-jean][nsgs]") {
  const RigidScenario s = blocksOnBelt(5);
  const RunResult lemke = run(s, "lemke", 3.0);
  const RunResult nsgs = run(s, "nsgs", 3.0);
  REQUIRE(lemke.ok());
  REQUIRE(nsgs.ok());
  CHECK(lemke.contact_solver == "lemke");
  CHECK(nsgs.contact_solver == "nsgs");
  // The blocks break away from the belt and stick again: both contacts of a block switch.
  REQUIRE(lemke.events.size() >= 10);
  stickslip::test::checkSameRun(lemke, nsgs, 1e-9, 1e-9, 1e-8);
  CHECK(nsgs.friction_work == Approx(lemke.friction_work).epsilon(1e-8));
  const RunResult newton = run(s, "newton", 3.0);
  REQUIRE(newton.ok());
  CHECK(newton.contact_solver == "newton");
  stickslip::test::checkSameRun(lemke, newton, 1e-9, 1e-9, 1e-8);
  CHECK(newton.friction_work == Approx(lemke.friction_work).epsilon(1e-8));
}

TEST_CASE("moreau-jean auto: NSGS for many contacts coupled in pairs, Lemke for few, and with a bilateral contact",
          "[moreau-jean][nsgs]") {
  CHECK(run(blocksOnBelt(3), "auto", 0.01).contact_solver == "lemke");  // 6 contacts
  CHECK(run(blocksOnBelt(9), "auto", 0.01).contact_solver == "nsgs");   // 18
  RigidScenario s = blocksOnBelt(3);
  s.contacts[1].normal = RigidContact::Normal::kBilateral;
  CHECK(run(s, "auto", 0.01).contact_solver == "lemke");
  CHECK_THROWS_WITH(run(s, "nsgs", 0.01), Catch::Contains("block-0-front") && Catch::Contains("bilateral"));
  CHECK_THROWS_WITH(run(s, "newton", 0.01), Catch::Contains("block-0-front") && Catch::Contains("bilateral"));
}

TEST_CASE("moreau-jean nsgs and newton steps allocate nothing", "[moreau-jean][nsgs][newton][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  const RigidScenario s = blocksOnBelt(8);
  MoreauJeanOptions o;
  o.h = 1e-3;
  o.solver = GENERATE(as<std::string>{}, "nsgs", "newton");
  CAPTURE(o.solver);
  const PlanarMechanism mechanism(s.model, s.contacts);
  MoreauJeanStepper stepper(mechanism, o);
  VectorXd q, v;
  CHECK(allocationsAfterWarmUp(s, stepper, o.h, q, v) == 0);
}

TEST_CASE("moreau-jean newton with the joints in its problem: a train of blocks steps without allocating",
          "[moreau-jean][newton][sparse-joints][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  // 17 blocks on the belt, each one's centre held on a vertical line of the one before (16
  // joint rows, handled sparse): the 34 contacts couple through the joints, which join
  // Newton's problem as bilateral blocks.
  RigidScenario s = blocksOnBelt(17);
  for (int i = 0; i + 1 < 17; ++i)
    s.model.addPointOnLine(i, {s.q0(3 * (i + 1)) - s.q0(3 * i), 0.0}, {0.0, 1.0}, i + 1, {0.0, 0.0},
                           "line-" + std::to_string(i));
  REQUIRE(s.model.constraintCount() == 16);
  MoreauJeanOptions o;
  o.h = 1e-3;
  const PlanarMechanism mechanism(s.model, s.contacts);
  MoreauJeanStepper stepper(mechanism, o);
  CHECK(stepper.contactSolver() == "newton");
  VectorXd q, v;
  CHECK(allocationsAfterWarmUp(s, stepper, o.h, q, v) == 0);
  // The train moves as one in x: the joints hold.
  for (int i = 0; i + 1 < 17; ++i) CHECK(v(3 * (i + 1)) == Approx(v(3 * i)).margin(1e-9));
}
