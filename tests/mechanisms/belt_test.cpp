// The belt benchmark: closed form against DESIGN.md §7 and the thesis, and the penalty route
// against the closed form.
#include <catch2/catch.hpp>

#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/belt.hpp"

using namespace stickslip;

TEST_CASE("belt closed form matches the reference values of DESIGN.md §7", "[mechanisms][belt]") {
  const mechanisms::BeltCycle c = mechanisms::beltClosedForm({});
  // Values printed to 4–5 significant digits in DESIGN.md §7.
  CHECK(c.x_breakaway == Approx(0.73575).epsilon(1e-12));
  CHECK(c.first_breakaway == Approx(7.3575).epsilon(1e-12));
  CHECK(c.slip_duration == Approx(2.6185).margin(1e-4));
  CHECK(c.x_stick == Approx(0.24525).epsilon(1e-12));
  CHECK(c.stick_duration == Approx(4.905).epsilon(1e-12));
  CHECK(c.period == Approx(7.5234).margin(1e-4));
  const auto ev = c.events(20.0);
  REQUIRE(ev.size() == 4);  // slip 7.36, stick 9.98, slip 14.88, stick 17.50
  CHECK(ev[0].second == "slip");
  CHECK(ev[1].first == Approx(c.first_breakaway + c.slip_duration));
  CHECK(ev[2].first == Approx(c.first_breakaway + c.period));
}

TEST_CASE("belt closed form: slip ends where the block moves with the belt again",
          "[mechanisms][belt]") {
  // Independent check of the slip duration: integrate the harmonic slip phase by the exact
  // solution and verify ẋ = v_b and x = x_stick at its end.
  const mechanisms::Belt b;
  const auto c = mechanisms::beltClosedForm(b);
  const double w = std::sqrt(b.stiffness / b.mass), xc = b.mu_kinetic * b.mass * b.gravity / b.stiffness;
  const double A = c.x_breakaway - xc, tau = c.slip_duration;
  const double x = xc + A * std::cos(w * tau) + b.belt_speed / w * std::sin(w * tau);
  const double v = -A * w * std::sin(w * tau) + b.belt_speed * std::cos(w * tau);
  CHECK(v == Approx(b.belt_speed).margin(1e-12));
  CHECK(x == Approx(c.x_stick).margin(1e-12));
}

TEST_CASE("belt, penalty route: a law with stiction reproduces the stick-slip cycle",
          "[mechanisms][belt]") {
  const auto c = mechanisms::beltClosedForm({});
  for (const char* name : {"switch", "karnopp"}) {
    const auto law = dynamics::makeFrictionLaw(name);
    mechanisms::PenaltyOptions o;
    const mechanisms::PenaltyRun r = mechanisms::simulateBeltPenalty({}, *law, o);
    INFO(name << ": " << r.message);
    REQUIRE(r.ok);
    // First break-away and the following stick, within 2 % of the period (issue 3).
    REQUIRE(r.mode_changes.size() >= 2);
    CHECK(r.mode_changes[0].second == "slip");
    CHECK(std::abs(r.mode_changes[0].first - c.first_breakaway) < 0.02 * c.period);
    CHECK(std::abs(r.mode_changes[1].first - (c.first_breakaway + c.slip_duration)) <
          0.02 * c.period);
    CHECK(r.stick_fraction > 0.5);  // sticks 7.36 + 4.9 s of the first 20 s
  }
}

TEST_CASE("belt, penalty route: RK4 and BDF agree, and bad options are refused",
          "[mechanisms][belt]") {
  const auto law = dynamics::makeFrictionLaw("tanh");
  mechanisms::PenaltyOptions o;
  o.t_end = 2.0;
  o.integrator = mechanisms::PenaltyOptions::Integrator::kBdf;
  const auto bdf = mechanisms::simulateBeltPenalty({}, *law, o);
  o.integrator = mechanisms::PenaltyOptions::Integrator::kRk4;
  o.dt = 1e-4;
  const auto rk4 = mechanisms::simulateBeltPenalty({}, *law, o);
  REQUIRE(bdf.ok);
  REQUIRE(rk4.ok);
  REQUIRE(bdf.history.rows() == rk4.history.rows());
  CHECK((bdf.history.col(1) - rk4.history.col(1)).cwiseAbs().maxCoeff() < 1e-6);
  o.t_end = -1.0;
  CHECK_THROWS_AS(mechanisms::simulateBeltPenalty({}, *law, o), std::invalid_argument);
  mechanisms::Belt bad;
  bad.mu_static = 0.05;  // below μk
  CHECK_THROWS_AS(mechanisms::beltClosedForm(bad), std::invalid_argument);
}
