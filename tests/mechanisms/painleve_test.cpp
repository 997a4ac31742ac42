// Painlevé's rod: a uniform rod (half-length L, J = m L²/3) leaning at 45° with its lower end
// sliding on the floor. With the end sliding towards the rod's foot side, the normal
// acceleration of the end is ÿ = A N + b with A = (1 + 3 cos²θ − 3 μ sinθ cosθ)/m and b = −g
// (no rotation yet): for μ > (1 + 3 cos²θ)/(3 sinθ cosθ) = 5/3 at 45°, A < 0 and b < 0, and no
// N ≥ 0 keeps the contact closed — the event LCP has no solution. The run must stop saying
// so, naming the contact and the time, not continue with a wrong force. Spinning, b > 0: then
// N = 0 and N = b/|A| both solve it (indeterminate), which must be reported as well.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "dynamics/routes/event_driven/event_driven.hpp"

using namespace stickslip;

namespace {

// ω [rad/s] spins the rod about its centre with the end's normal velocity kept at 0; the
// end's normal acceleration without a contact force is then b = −g + ω² L sinθ.
dynamics::RunResult rod(double mu, double end_velocity, double omega = 0.0) {
  const double L = 0.5, m = 1.0, th = std::numbers::pi / 4;
  dynamics::RigidScenario s;
  const auto body = s.model.addBody("rod", m, m * L * L / 3.0);
  s.model.setGravity({0.0, -9.81});
  dynamics::RigidContact c;
  c.name = "rod-end";
  c.body_i = body;
  c.geometry.point_on_i = {-L, 0.0};  // the lower end, on the floor y = 0
  c.mu_static = c.mu_kinetic = mu;
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(L * std::cos(th), L * std::sin(th), th);
  s.v0 = Eigen::Vector3d(end_velocity - omega * L * std::sin(th), omega * L * std::cos(th), omega);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.2;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

}  // namespace

TEST_CASE("Painleve's rod: mu above 5/3 makes the sliding contact inconsistent, and it is reported",
          "[painleve][event-driven]") {
  const dynamics::RunResult bad = rod(5.0, -1.0);
  CHECK_FALSE(bad.ok());
  CHECK_THAT(bad.message, Catch::Contains("Painlev") && Catch::Contains("rod-end") &&
                              Catch::Contains("t = 0 s") && Catch::Contains("sliding"));
  CHECK(bad.final_q(2) == Approx(std::numbers::pi / 4));  // the state reached is kept

  // Below the threshold, or sliding the other way (friction then helps A), the rod slides.
  for (const auto& [mu, v] : {std::pair{1.0, -1.0}, std::pair{5.0, 1.0}}) {
    const dynamics::RunResult fine = rod(mu, v);
    INFO("mu " << mu << " v " << v << ": " << fine.message);
    CHECK(fine.ok());
  }
}

TEST_CASE("Painleve's rod: spinning fast enough to lift off, the sliding contact is indeterminate",
          "[painleve][event-driven]") {
  // μ = 5, sliding towards the foot: A = (1 + 3 cos²θ − 3 μ sinθ cosθ)/m = −5 kg⁻¹ < 0. With
  // ω = 8 rad/s, b = −9.81 + 64 · 0.5 sin 45° = 12.817 m/s² > 0: N = 0 (lift-off) and
  // N = b / |A| = 2.563 N (staying closed) both solve the contact problem.
  const dynamics::RunResult two = rod(5.0, -1.0, 8.0);
  CHECK_FALSE(two.ok());
  CHECK_THAT(two.message, Catch::Contains("indeterminate (Painlevé-type)") &&
                              Catch::Contains("'rod-end' (sliding)") && Catch::Contains("t = 0 s") &&
                              Catch::Contains("12.81") && Catch::Contains("N = 2.56"));
  // Below the friction threshold (A > 0) the same spin just lifts the end off the floor:
  // no normal force, and the end above the floor 10 ms later.
  const dynamics::RunResult lifts = rod(1.0, -1.0, 8.0);
  INFO(lifts.message);
  CHECK(lifts.ok());
  REQUIRE(lifts.history.rows() > 10);
  CHECK(lifts.history(0, 7) == 0.0);  // columns t, q (3), v (3), N, F
  const auto& row = lifts.history.row(10);
  CHECK(row(0) == Approx(0.01));
  CHECK(row(2) - 0.5 * std::sin(row(3)) > 1e-4);
}
