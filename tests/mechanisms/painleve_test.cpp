// Painlevé's rod: a uniform rod (half-length L, J = m L²/3) leaning at 45° with its lower end
// sliding on the floor. With the end sliding towards the rod's foot side, the normal
// acceleration of the end is ÿ = A N + b with A = (1 + 3 cos²θ − 3 μ sinθ cosθ)/m and b = −g
// (no rotation yet): for μ > (1 + 3 cos²θ)/(3 sinθ cosθ) = 5/3 at 45°, A < 0 and b < 0, and no
// N ≥ 0 keeps the contact closed — the event LCP has no solution. The run must stop saying
// so, naming the contact and the time, not continue with a wrong force.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "dynamics/nonsmooth/event_driven.hpp"

using namespace stickslip;

namespace {

dynamics::NonsmoothRun rod(double mu, double end_velocity) {
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
  s.v0 = Eigen::Vector3d(end_velocity, 0.0, 0.0);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.2;
  return dynamics::simulateEventDriven(s.model, s.contacts, s.q0, s.v0, o);
}

}  // namespace

TEST_CASE("Painleve's rod: mu above 5/3 makes the sliding contact inconsistent, and it is reported",
          "[painleve][event-driven]") {
  const dynamics::NonsmoothRun bad = rod(5.0, -1.0);
  CHECK_FALSE(bad.ok);
  CHECK_THAT(bad.message, Catch::Contains("Painlev") && Catch::Contains("rod-end") &&
                              Catch::Contains("t = 0 s") && Catch::Contains("sliding"));
  CHECK(bad.final_q(2) == Approx(std::numbers::pi / 4));  // the state reached is kept

  // Below the threshold, or sliding the other way (friction then helps A), the rod slides.
  for (const auto& [mu, v] : {std::pair{1.0, -1.0}, std::pair{5.0, 1.0}}) {
    const dynamics::NonsmoothRun fine = rod(mu, v);
    INFO("mu " << mu << " v " << v << ": " << fine.message);
    CHECK(fine.ok);
  }
}
