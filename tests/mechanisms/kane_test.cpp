// Kane's paradox: a rod whose lower end strikes a rough floor. With Newton's law on the normal
// velocity alone, a sticking impact's tangential impulse couples with the normal one, and some
// impacts come out with more kinetic energy than they went in with; the event-driven route
// stops there, saying so. The impact law newton-tangential restitutes the tangential velocity
// with the same e (ξ = u⁺ + e u⁻ on the cone), and a single contact's impact then changes T by
// Pᵀξ/(1 + e) − ½ (1 − e)/(1 + e) PᵀWP ≤ 0: the energy never rises, whatever the state.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <string>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "standard_gravity.hpp"

using namespace stickslip;

namespace {

constexpr double kL = 0.5, kM = 1.0;  // half-length [m], mass [kg]
using stickslip::test::kG;

// The rod at angle th, its lower end 1 mm above the floor, falling at 2 m/s with spin ω and
// the end's horizontal velocity vt, by event-driven with `law`.
dynamics::RunResult strike(double th, double vt, double omega, double e, const std::string& law) {
  dynamics::RigidScenario s;
  const auto body = s.model.addBody("rod", kM, kM * kL * kL / 3.0);
  s.model.setGravity({0.0, -kG});
  dynamics::RigidContact c;
  c.name = "rod-end";
  c.body_i = body;
  c.geometry.point_on_i = {-kL, 0.0};
  c.mu_static = c.mu_kinetic = 0.9;
  c.restitution = e;
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(kL * std::cos(th), kL * std::sin(th) + 1e-3, th);
  // End velocity = centre's − ω × (the arm to the end): v_end = v_c + ω L (sin θ, −cos θ).
  s.v0 = Eigen::Vector3d(vt - omega * kL * std::sin(th), -2.0 + omega * kL * std::cos(th), omega);
  dynamics::EventDrivenOptions o;
  o.t_end = 0.05;
  o.output_dt = 1e-3;
  o.impact_law = law;
  return dynamics::simulateEventDriven(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, o);
}

// The largest rise of T + V from one history row to the next [J].
double largestRise(const dynamics::RunResult& r) {
  double rise = -INFINITY, previous = NAN;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    const auto row = r.history.row(i);
    const double energy = 0.5 * kM * (row(4) * row(4) + row(5) * row(5)) +
                          0.5 * kM * kL * kL / 3.0 * row(6) * row(6) + kM * kG * row(2);
    if (i > 0) rise = std::max(rise, energy - previous);
    previous = energy;
  }
  return rise;
}

}  // namespace

TEST_CASE("Kane's paradox: Newton's law adds energy at some sticking impacts of a rod, newton-tangential at none",
          "[kane][event-driven]") {
  int newton_paradoxes = 0, runs = 0;
  for (const double deg : {20.0, 45.0, 70.0})
    for (const double vt : {-1.0, 0.0, 1.0})
      for (const double omega : {-4.0, 0.0, 4.0})
        for (const double e : {0.5, 0.9}) {
          const double th = deg * std::numbers::pi / 180.0;
          INFO("theta " << deg << " deg, v_t " << vt << ", omega " << omega << ", e " << e);
          const dynamics::RunResult newton = strike(th, vt, omega, e, "newton");
          if (!newton.ok()) {
            CHECK(newton.status == dynamics::RunStatus::kNoConsistentMode);
            CHECK_THAT(newton.message, Catch::Contains("Kane's paradox") && Catch::Contains("newton-tangential"));
            ++newton_paradoxes;
          }
          const dynamics::RunResult tangential = strike(th, vt, omega, e, "newton-tangential");
          INFO(tangential.message);
          REQUIRE(tangential.ok());
          CHECK(largestRise(tangential) <= 1e-9);
          ++runs;
        }
  CHECK(runs == 54);
  CHECK(newton_paradoxes > 0);  // the law makes a difference here (3 of the 54)
}
