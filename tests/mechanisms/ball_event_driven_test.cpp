// A disk bouncing and rolling on the floor, event-driven: Newton's restitution at each impact
// and Coulomb friction bringing a spinning disk to rolling without slipping; the same run on
// the sparse path.
#include <catch2/catch.hpp>
#include <cmath>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "mechanisms/bouncing_ball.hpp"
#include "same_run.hpp"

using namespace stickslip;
using dynamics::EventKind;

TEST_CASE("ball: every impact multiplies the normal velocity by -e, then it comes to rest",
          "[ball][event-driven]") {
  mechanisms::BouncingBall b;
  b.restitution = 0.5;
  b.height = 1.0;
  const dynamics::RigidScenario s = mechanisms::bouncingBall(b);
  dynamics::EventDrivenOptions o;
  o.t_end = 3.0;
  const dynamics::RunResult r = dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
  INFO(r.message);
  REQUIRE(r.ok());
  std::vector<double> impacts;
  for (const auto& e : r.events)
    if (e.kind == EventKind::kImpact) impacts.push_back(e.t);
  REQUIRE(impacts.size() >= 8);
  const double g = b.gravity;
  CHECK(impacts[0] == Approx(std::sqrt(2.0 * (b.height - b.radius) / g)).epsilon(1e-9));
  // Flight time between impacts is 2 v⁺/g, so successive flights shrink by e (energy by e²).
  for (std::size_t k = 2; k < 8; ++k)
    CHECK((impacts[k] - impacts[k - 1]) / (impacts[k - 1] - impacts[k - 2]) == Approx(b.restitution).epsilon(1e-6));
  // The impacts accumulate at t∞ = t₁ + 2 v₁ e / (g (1 − e)); slower than the plastic
  // threshold, the last one closes the contact and the disk rests on the floor.
  const double v1 = g * impacts[0];
  CHECK(impacts.back() <= impacts[0] + 2.0 * v1 * b.restitution / (g * (1.0 - b.restitution)) + 1e-6);
  CHECK(r.final_q(1) == Approx(b.radius).margin(1e-9));
  CHECK(std::abs(r.final_v(1)) < 1e-9);
}

TEST_CASE("ball: a sliding disk reaches rolling without slipping at (2 v0 - r w0) / 3",
          "[ball][event-driven]") {
  for (const double spin : {0.0, 10.0, -30.0}) {
    mechanisms::BouncingBall b;
    b.height = b.radius;
    b.velocity_x = 2.0;
    b.spin = spin;
    b.mu_static = b.mu_kinetic = 0.3;
    const dynamics::RigidScenario s = mechanisms::bouncingBall(b);
    dynamics::EventDrivenOptions o;
    o.t_end = 3.0;
    const dynamics::RunResult r = dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
    INFO("spin " << spin << ": " << r.message);
    REQUIRE(r.ok());
    const double v_roll = (2.0 * b.velocity_x - b.radius * spin) / 3.0;
    // Friction μ m g changes ẋ at rate ∓μ g until ẋ reaches v_roll.
    const double t_roll = std::abs(b.velocity_x - v_roll) / (b.mu_kinetic * b.gravity);
    REQUIRE(r.events.size() == 1);
    CHECK(r.events[0].kind == EventKind::kStick);
    CHECK(r.events[0].t == Approx(t_roll).epsilon(1e-8));
    CHECK(r.final_v(0) == Approx(v_roll).epsilon(1e-9));
    CHECK(r.final_v(0) + b.radius * r.final_v(2) == Approx(0.0).margin(1e-9));
    CHECK(r.mode_mismatches == 0);
  }
}

TEST_CASE("ball: on the sparse path (nsgs) the impacts, slip and roll repeat the dense Lemke run",
          "[ball][event-driven][nsgs]") {
  const dynamics::RigidScenario s = mechanisms::bouncingBall();  // bounces with friction, then rolls
  dynamics::EventDrivenOptions o;
  o.t_end = 3.0;
  const dynamics::PlanarMechanism mechanism(s.model, s.contacts);
  const dynamics::RunResult dense = dynamics::simulateEventDriven(mechanism, s.q0, s.v0, o);
  o.solver = "nsgs";
  const dynamics::RunResult sparse = dynamics::simulateEventDriven(mechanism, s.q0, s.v0, o);
  INFO(dense.message << " / " << sparse.message);
  REQUIRE(dense.ok());
  REQUIRE(sparse.ok());
  CHECK(sparse.contact_solver == "nsgs");
  std::size_t impacts = 0;
  for (const auto& e : dense.events) impacts += e.kind == EventKind::kImpact;
  REQUIRE(impacts >= 5);
  test::checkSameRun(dense, sparse, 1e-9, 1e-9, 1e-8);
}
