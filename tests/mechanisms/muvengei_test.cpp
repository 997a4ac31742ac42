// Muvengei, Kihiu & Ikua's slider-crank (Table I) at 2500 rpm with a 0.5 mm revolute
// clearance at the crank-rod joint and LuGre friction, on the regularized route; the ideal
// joint against the closed form of the slider-crank; the steady cycle (the second) as the
// paper reports it.
#include "mechanisms/muvengei.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/muvengei_analysis.hpp"

using namespace stickslip;

namespace {

/// muvengei-lugre by the penalty route: the built-in's settings (BDF, every µs) unless told.
mechanisms::ScenarioRun run(mechanisms::RunSettings s) {
  s.route = mechanisms::Route::kPenalty;
  return mechanisms::runScenario(mechanisms::loadScenario("muvengei-lugre"), s);
}

// The default scenario, two revolutions, shared by the cases that read its steady cycle.
const mechanisms::MuvengeiTable& lugreRun() {
  static const mechanisms::MuvengeiTable r = [] {
    const mechanisms::ScenarioRun lugre = run({});
    REQUIRE(lugre.result.ok());
    return mechanisms::muvengeiTable({}, lugre);
  }();
  return r;
}

// max |x_a − x_b| over the samples of two runs with t ≤ t_max.
double maxPositionDifference(const mechanisms::MuvengeiTable& a, const mechanisms::MuvengeiTable& b, double t_max) {
  double m = 0.0;
  for (Eigen::Index i = 0; i < std::min(a.table.rows(), b.table.rows()); ++i) {
    if (a.table(i, mechanisms::kTime) > t_max) break;
    m = std::max(m, std::abs(a.table(i, mechanisms::kSliderX) - b.table(i, mechanisms::kSliderX)));
  }
  return m;
}

}  // namespace

TEST_CASE("muvengei: Table I data, Hertz stiffness and the Stribeck velocity",
          "[mechanisms][muvengei]") {
  const mechanisms::MuvengeiSliderCrank d;
  CHECK(d.journalRadius() == Approx(4.5e-3));
  CHECK(d.period() == Approx(0.024));  // 2500 rpm
  const double sigma = (1.0 - 0.09) / 207e9;
  CHECK(d.contactStiffness() ==
        Approx(4.0 / (3.0 * 2.0 * sigma) * std::sqrt(5e-3 * 4.5e-3 / 0.5e-3)));
  // The largest spin term is at θ = 0, where ω_rod = −ω r/l: v = ω (R_J + R_B r/l).
  CHECK(d.idealMaxTangentialVelocity() == Approx(d.crank_speed * (4.5e-3 + 5e-3 * 0.05 / 0.3)));
  CHECK(d.stribeckVelocity() == Approx(0.01 * d.idealMaxTangentialVelocity()));
  const dynamics::FrictionParameters p = mechanisms::muvengeiFrictionParameters(d);
  CHECK(p.reference_normal_force == 1.0);
  CHECK(p.sigma1 == 400.0);
  CHECK(p.stribeck_velocity == Approx(d.stribeckVelocity()));

  mechanisms::MuvengeiSliderCrank bad;
  bad.clearance = 6e-3;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("clearance"));
  bad = {};
  bad.mu_s = 0.05;
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("mu_s"));
  bad = {};
  bad.rod_length = 0.04;
  CHECK_THROWS_AS(mechanisms::muvengeiRigid(bad), std::invalid_argument);
}

TEST_CASE("muvengei: the ideal joint's slider follows the closed-form slider-crank",
          "[mechanisms][muvengei]") {
  mechanisms::MuvengeiSliderCrank d;
  d.ideal = true;
  mechanisms::RunSettings s;
  s.ideal = true;
  s.output_dt = 1e-5;
  const mechanisms::ScenarioRun ideal = run(s);
  REQUIRE(ideal.result.ok());
  const mechanisms::MuvengeiCycle cy = mechanisms::analyseMuvengeiCycle(d, mechanisms::muvengeiTable(d, ideal), d.period());
  CHECK(cy.samples == 2401);
  // r ω² (1 + r/l) at the dead centres: 3998.1 m/s².
  CHECK(cy.max_ideal_acceleration ==
        Approx(0.05 * d.crank_speed * d.crank_speed * (1.0 + 0.05 / 0.3)));
  CHECK(cy.max_ideal_acceleration_error < 1e-6 * cy.max_ideal_acceleration);
  CHECK(cy.max_position_deviation < 1e-8);
  CHECK(cy.contact_samples == 0);
  // Steady cycle: the driver's work over a revolution restores the same state (ΔE = 0).
  CHECK(std::abs(cy.driver_work) < 1e-6);
  CHECK(cy.energy_residual < 1e-6);
}

TEST_CASE(
    "muvengei: with clearance the slider acceleration has impact spikes, the position "
    "stays within the clearance of the ideal one",
    "[mechanisms][muvengei]") {
  const mechanisms::MuvengeiSliderCrank d;
  const mechanisms::MuvengeiTable& r = lugreRun();
  const mechanisms::MuvengeiCycle cy = mechanisms::analyseMuvengeiCycle(d, r, d.period());
  CHECK(cy.samples == 24001);
  // Paper Figs. 7a vs 8: impacts lift the acceleration peaks far above the ideal ones
  // (measured 8468 against 3998 m/s²).
  CHECK(cy.max_acceleration > 1.5 * cy.max_ideal_acceleration);
  // The slider moves away from the ideal by the eccentricity projected on the rod:
  // |Δx| ≤ |e| l/√(l² − r²) to first order, |e| ≤ c + δmax (measured 0.567 mm).
  const double r_ = d.crank_length, l = d.rod_length;
  CHECK(cy.max_position_deviation > 0.5 * d.clearance);
  CHECK(cy.max_position_deviation <=
        (d.clearance + cy.max_penetration) * l / std::sqrt(l * l - r_ * r_) * (1.0 + 1e-3));
  // The journal mostly follows the bearing wall (continuous contact), with free flights.
  CHECK(cy.contact_samples > cy.samples / 2);
  CHECK(cy.contact_samples < cy.samples);
  // vs from the ideal mechanism is of the order of the clearance run's own maximum.
  CHECK(cy.max_tangential_velocity > 0.5 * d.idealMaxTangentialVelocity());
  CHECK(cy.max_tangential_velocity < 3.0 * d.idealMaxTangentialVelocity());
}

TEST_CASE(
    "muvengei: LuGre friction in the clearance joint stays bounded and slides at the "
    "kinetic level",
    "[mechanisms][muvengei]") {
  const mechanisms::MuvengeiSliderCrank d;
  const mechanisms::MuvengeiTable& r = lugreRun();
  const mechanisms::MuvengeiCycle cy = mechanisms::analyseMuvengeiCycle(d, r, d.period());
  // Guaranteed by the law: the bristle coefficient |σ0 z| ≤ μs, and the force with its
  // damping term ≤ (μs + (1 + μs/μk) σ1 |v_t|) N.
  CHECK(cy.max_bristle_ratio <= 1.0 + 1e-9);
  CHECK(cy.max_damped_bound_ratio <= 1.0 + 1e-9);
  // Measured: the journal always slides (v_t in contact keeps the sign of the spin term
  // R_J ω − R_B ω_rod ≥ 0.96 m/s), so LuGre gives the kinetic level μk N = μs N / 2.
  CHECK(cy.max_friction_ratio > 0.49);
  CHECK(cy.max_friction_ratio < 0.55);
  CHECK(cy.min_tangential_velocity > r.stribeck_velocity);
  CHECK(cy.stick_samples == 0);
  // The contact takes energy out (hysteresis and friction), and the work balance closes:
  // ΔE = W_driver + W_contact over the cycle, by the trapezoid rule at 1 µs.
  CHECK(cy.contact_work < 0.0);
  CHECK(cy.energy_residual < 1e-5);
  CHECK(cy.energy_change == Approx(cy.driver_work + cy.contact_work).margin(1e-3));
}

TEST_CASE("muvengei: presliding samples are counted where |v_t| < vs with friction",
          "[mechanisms][muvengei]") {
  const mechanisms::MuvengeiSliderCrank d;
  mechanisms::MuvengeiTable r;
  r.stribeck_velocity = 0.01;
  // Six samples in one revolution: slide, stick, stick, slide, stick, open.
  const double vt[] = {1.0, 0.005, -0.002, 0.5, 0.001, 0.0};
  const double fn[] = {100.0, 100.0, 100.0, 100.0, 100.0, 0.0};
  r.table = Eigen::MatrixXd::Zero(6, mechanisms::kColumnCount);
  for (int i = 0; i < 6; ++i) {
    r.table(i, mechanisms::kTime) = i * d.period() / 5.0;
    r.table(i, mechanisms::kSliderX) = mechanisms::idealSlider(d, r.table(i, 0)).x;
    r.table(i, mechanisms::kTangentialVelocity) = vt[i];
    r.table(i, mechanisms::kNormalForce) = fn[i];
    r.table(i, mechanisms::kFrictionForce) = -0.1 * fn[i] * (vt[i] > 0 ? 1.0 : -1.0);
  }
  const mechanisms::MuvengeiCycle cy = mechanisms::analyseMuvengeiCycle(d, r, 0.0);
  CHECK(cy.samples == 6);
  CHECK(cy.contact_samples == 5);
  CHECK(cy.stick_samples == 3);
  CHECK(cy.stick_intervals == 2);
  CHECK(cy.min_tangential_velocity == Approx(0.001));
  CHECK(cy.max_friction_ratio == Approx(0.5));
}

TEST_CASE("muvengei: the paper's coefficient form by two catalogue laws, and BDF against RK4",
          "[mechanisms][muvengei]") {
  const mechanisms::MuvengeiSliderCrank d;
  // lugre-wojtyra and lugre-nondimensional with N_E = 1 N are the same equations (paper
  // eqs. 27-28) in different states; the runs agree until impacts amplify round-off.
  const double t_max = 0.005;  // ten impacts
  mechanisms::RunSettings s;
  s.friction = "lugre-wojtyra";
  s.t_end = t_max;
  const mechanisms::ScenarioRun woj = run(s);
  REQUIRE(woj.result.ok());
  CHECK(maxPositionDifference(lugreRun(), mechanisms::muvengeiTable(d, woj), t_max) < 1e-7);
  // RK4 at 50 ns (the LuGre damping σ1 N makes larger steps unstable) against BDF.
  mechanisms::RunSettings rk;
  rk.t_end = 0.002;
  rk.integrator = "rk4";
  rk.dt = 5e-8;
  const mechanisms::ScenarioRun rk4 = run(rk);
  REQUIRE(rk4.result.ok());
  CHECK(rk4.result.events.size() >= 3);  // close, open, close
  CHECK(maxPositionDifference(lugreRun(), mechanisms::muvengeiTable(d, rk4), 0.002) < 1e-6);
}

TEST_CASE("muvengei rigid: the ideal joint follows the closed form — the rigid clearance stays within its play and penetration of it",
          "[muvengei][event-driven][moreau-jean]") {
  mechanisms::MuvengeiSliderCrank d;
  const double t_end = 2.0 * d.period();
  d.ideal = true;
  dynamics::EventDrivenOptions eo;
  eo.t_end = t_end;
  const dynamics::RunResult ideal = dynamics::simulateEventDriven(mechanisms::muvengeiRigid(d), eo);
  REQUIRE(ideal.ok());
  const double x_slider = ideal.final_q(6);
  CHECK(x_slider == Approx(mechanisms::idealSlider(d, t_end).x).margin(1e-9));

  d.ideal = false;
  const dynamics::RigidScenario s = mechanisms::muvengeiRigid(d);
  dynamics::MoreauJeanOptions mo;
  mo.t_end = t_end;
  mo.h = 1e-6;
  mo.output_dt = 1e-4;
  const dynamics::RunResult mj = dynamics::simulateMoreauJean(dynamics::PlanarMechanism(s.model, s.contacts), s.q0, s.v0, mo);
  REQUIRE(mj.ok());
  CHECK(!mj.events.empty());  // the journal hits the bearing
  // The joint's play c, and what the velocity-level contact lets the journal sink into the
  // bearing (Moreau–Jean's drift), shift the slider by at most their sum times l/√(l² − r²).
  double worst = 0.0, penetration = 0.0;
  dynamics::ContactKinematics kin;
  for (Eigen::Index i = 0; i < mj.history.rows(); ++i) {
    worst = std::max(worst, std::abs(mj.history(i, 7) - mechanisms::idealSlider(d, mj.history(i, 0)).x));
    dynamics::evaluateContacts(s.model, s.contacts, mj.history(i, 0), mj.history.row(i).segment(1, 9).transpose(),
                               mj.history.row(i).segment(10, 9).transpose(), kin, false);
    penetration = std::max(penetration, -kin.gap(0));
  }
  const double lever = d.rod_length / std::sqrt(d.rod_length * d.rod_length - d.crank_length * d.crank_length);
  INFO("max |x - x_ideal| " << worst << " m, max penetration " << penetration << " m");
  CHECK(penetration < 0.2 * d.clearance);
  CHECK(worst <= (d.clearance + penetration) * lever * (1 + 1e-6));
  CHECK(worst > 0.1 * d.clearance);

  // At e = 0.9 the first frictional impacts would add energy: the event-driven route says so.
  eo.t_end = 0.01;
  const dynamics::RunResult ed = dynamics::simulateEventDriven(s, eo);
  CHECK_FALSE(ed.ok());
  CHECK_THAT(ed.message, Catch::Contains("Kane's paradox"));
}

TEST_CASE("muvengei: centres_slip feeds LuGre the paper's v_T that crosses zero in contact and the "
          "nonsmooth routes refuse it", "[mechanisms][muvengei]") {
  mechanisms::RunSettings settings;
  settings.t_end = 0.05;
  settings.output_dt = 1e-6;
  auto zeroCrossingsInContact = [](const dynamics::RunResult& r, double from, double to) {
    const Eigen::Index vt = r.column("c-cr.v_t"), n = r.column("c-cr.N");
    std::vector<double> out;
    for (Eigen::Index i = 1; i < r.history.rows(); ++i)
      if (r.history(i, 0) > from && r.history(i, 0) < to && r.history(i, n) > 0.0 && r.history(i - 1, n) > 0.0 &&
          (r.history(i - 1, vt) < 0.0) != (r.history(i, vt) < 0.0))
        out.push_back(r.history(i, 0));
    return out;
  };
  const mechanisms::ScenarioRun material = run(settings);
  REQUIRE(material.result.ok());
  CHECK(zeroCrossingsInContact(material.result, 0.024, 0.048).empty());  // the surfaces always slide
  const mechanisms::Scenario s =
      mechanisms::loadScenarioText("scenario: muvengei-lugre\nparameters: {centres_slip: true}\n", "centres_slip");
  settings.route = mechanisms::Route::kPenalty;
  const mechanisms::ScenarioRun centres = mechanisms::runScenario(s, settings);
  REQUIRE(centres.result.ok());
  const std::vector<double> crossings = zeroCrossingsInContact(centres.result, 0.024, 0.048);
  REQUIRE_FALSE(crossings.empty());
  double nearest = crossings.front();
  for (const double t : crossings)
    if (std::abs(t - 0.0321) < std::abs(nearest - 0.0321)) nearest = t;
  CHECK(nearest == Approx(0.0321).margin(1e-4));  // the paper's stick instant (its Fig. 9)
  CHECK(mechanisms::routeRefusal(s, mechanisms::Route::kEventDriven).find("centres_slip") != std::string::npos);
}
