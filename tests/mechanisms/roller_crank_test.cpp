// The roller–crank of Marques, Flores, Claro & Lankarani 2018 (review §4, Tables 1–3): the
// initial state against Table 2, closed forms without friction, the energy balance with
// friction, the exact F ↔ N loop against an independent EOM solve, and the review's
// observations on its six friction models.
#include <catch2/catch.hpp>

#include <cmath>

#include "dynamics/allocation_counter.hpp"  // defines malloc & co. for this executable
#include "dynamics/eom_solver.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/roller_crank_simulation.hpp"
#include "mechanisms/roller_crank_verification.hpp"

using namespace stickslip;
using mechanisms::RollerCrankOptions;
using mechanisms::RollerCrankSystem;
using T = mechanisms::RollerCrankThresholds;

namespace {

std::shared_ptr<const dynamics::FrictionLaw> law(const char* name) {
  return dynamics::makeFrictionLaw(name, mechanisms::rollerCrankFrictionParameters());
}

RollerCrankOptions options(RollerCrankOptions::Integrator i, double t_end) {
  RollerCrankOptions o;
  o.integrator = i;
  o.t_end = t_end;
  return o;
}

}  // namespace

TEST_CASE("roller-crank: the initial state is review Table 2", "[mechanisms][roller-crank]") {
  const mechanisms::RollerCrank rc;
  const RollerCrankSystem sys(rc, nullptr);
  const Eigen::VectorXd y = sys.initialState();
  Eigen::VectorXd q(9), v(9);  // Table 2: (x, y, θ) and (vx, vy, ω) of crank, rod, roller
  q << 0.0, 0.05, M_PI / 2, 0.15, 0.10, 0.0, 0.30, 0.10, 0.0;
  v << -0.2, 0.0, 4.0, -0.4, 0.0, 0.0, -0.4, 0.0, 8.0;
  CHECK((y.head(9) - q).lpNorm<Eigen::Infinity>() < 1e-14);
  CHECK((y.segment(9, 9) - v).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(sys.constraintResidual(y) < 1e-15);
  CHECK(sys.velocityResidual(y) < 1e-13);
  CHECK(y.size() == 19);  // no friction states, then W_f = 0
  CHECK(y(18) == 0.0);
}

TEST_CASE("roller-crank: invalid data and options name the field", "[mechanisms][roller-crank]") {
  mechanisms::RollerCrank rc;
  rc.roller_radius = -0.05;
  CHECK_THROWS_WITH(rc.validate(), Catch::Contains("roller_radius > 0"));
  rc = {};
  rc.roller_height = 0.04;  // below the radius: the roller would be in the ground
  CHECK_THROWS_WITH(RollerCrankSystem(rc, nullptr), Catch::Contains("roller_height"));
  rc = {};
  rc.rod_length = 0.05;  // cannot reach the roller's line from the crank pin at its lowest
  rc.crank_angle = -M_PI / 2;
  CHECK_THROWS_AS(rc.validate(), std::invalid_argument);
  RollerCrankOptions o;
  o.dt = 0.0;
  CHECK_THROWS_WITH(mechanisms::simulateRollerCrank({}, nullptr, o), Catch::Contains("dt > 0"));
}

TEST_CASE("roller-crank without friction: constant spin, energy conserved",
          "[mechanisms][roller-crank]") {
  // The rod's pin is at the roller's centre and the ground pushes through it: nothing turns
  // the roller, θ̇_r = 8 rad/s for ever; T + V is conserved (ideal constraints do no work).
  for (const auto integrator : {RollerCrankOptions::Integrator::kBdf, RollerCrankOptions::Integrator::kRk4}) {
    RollerCrankOptions o = options(integrator, 2.0);
    o.relative_tolerance = 1e-10;
    o.dt = 1e-4;  // RK4: smooth frictionless motion
    const auto r = mechanisms::simulateRollerCrank({}, nullptr, o);
    REQUIRE(r.ok);
    CHECK(r.history.col(mechanisms::RollerCrankColumn::kRollerRate).array().abs().maxCoeff() == Approx(8.0).epsilon(1e-12));
    CHECK((r.history.col(mechanisms::RollerCrankColumn::kRollerRate).array() - 8.0).abs().maxCoeff() < 1e-9);
    CHECK(r.max_energy_balance_error < 1e-7);  // |E − E(0)|, W_f ≡ 0
    CHECK(r.max_constraint_residual < 1e-8);
    CHECK(r.history(r.history.rows() - 1, mechanisms::RollerCrankColumn::kTime) == Approx(2.0));
    // The crank turns: more than a quarter turn in 2 s from 4 rad/s.
    CHECK(std::abs(r.history(r.history.rows() - 1, mechanisms::RollerCrankColumn::kCrankAngle) - M_PI / 2) > 0.5);
  }
}

TEST_CASE("roller-crank: the F-N loop agrees with an independent EOM solve",
          "[mechanisms][roller-crank]") {
  // With the converged F applied as a known force, the project's EomSolver (Baumgarte,
  // same α, β) must give the same accelerations and the normal reaction N = −λ_y, and F must
  // be the law's value at |N|. Checked at the start and at a sliding state.
  for (const char* name : {"stribeck", "brown-mcphee", "lugre"}) {
    RollerCrankSystem sys({}, law(name));
    RollerCrankOptions o = options(RollerCrankOptions::Integrator::kRk4, 0.4);
    const auto run = mechanisms::simulateRollerCrank({}, law(name), o);
    REQUIRE(run.ok);
    for (const Eigen::VectorXd& y : {sys.initialState(), Eigen::VectorXd(run.final_state)}) {
      Eigen::VectorXd ydot(y.size());
      REQUIRE(sys.derivative(0.0, y, ydot));
      const mechanisms::RollerContact c = sys.lastContact();
      INFO(name << ": v_s " << c.sliding_velocity << ", N " << c.normal_force << ", F " << c.friction_force);
      CHECK(c.loop_residual <= 1e-12 * std::max(1.0, std::abs(c.normal_force)));
      const Eigen::VectorXd z = y.segment(18, sys.frictionStateSize());
      CHECK(c.friction_force == Approx(sys.friction()->force(
                                            {c.sliding_velocity, std::abs(c.normal_force), 0.0},
                                            std::span<const double>(z.data(), std::size_t(z.size()))))
                                    .margin(1e-12));

      dynamics::PlanarModel model = mechanisms::RollerCrankSystem({}, nullptr).model();
      const double f = c.friction_force, r = mechanisms::RollerCrank{}.roller_radius;
      model.addGeneralizedForce([f, r](double, const auto&, const auto&, Eigen::Ref<Eigen::VectorXd> q) {
        q(6) += f;      // along x on the roller
        q(8) += r * f;  // its moment about the centre, at the contact point below it
      });
      dynamics::EomOptions eo;
      eo.baumgarte_alpha = eo.baumgarte_beta = 5.0;
      dynamics::EomSolver eom(model, dynamics::EomMethod::kBaumgarte, eo);
      Eigen::VectorXd vdot(9);
      REQUIRE(eom.accelerations(0.0, y.head(9), y.segment(9, 9), vdot) == dynamics::EomStatus::kSuccess);
      CHECK((vdot - ydot.segment(9, 9)).lpNorm<Eigen::Infinity>() < 1e-9 * std::max(1.0, vdot.lpNorm<Eigen::Infinity>()));
      CHECK(-eom.multipliers()(6) == Approx(c.normal_force).epsilon(1e-10));  // row 6: roller height
    }
  }
}

TEST_CASE("roller-crank with friction: dissipated energy is the friction work",
          "[mechanisms][roller-crank]") {
  // E(t) − E(0) = ∫ F v_s dt, with tighter tolerances than the review's to show the balance
  // is limited by the integration only.
  struct Case { const char* law; RollerCrankOptions::Integrator integrator; double tol; };
  for (const Case& c : {Case{"coulomb", RollerCrankOptions::Integrator::kRk4, 1e-7},
                        Case{"tanh", RollerCrankOptions::Integrator::kBdf, 1e-7},
                        Case{"brown-mcphee", RollerCrankOptions::Integrator::kBdf, 1e-7},
                        Case{"dahl", RollerCrankOptions::Integrator::kBdf, 1e-7}}) {
    RollerCrankOptions o = options(c.integrator, 2.0);
    o.relative_tolerance = 1e-9;
    const auto r = mechanisms::simulateRollerCrank({}, law(c.law), o);
    INFO(c.law << ": " << r.message);
    REQUIRE(r.ok);
    const double dissipated = -r.final_state(r.final_state.size() - 1);
    CHECK(dissipated > 1e-3);  // friction takes a measurable share of ≈ 0.08 J
    CHECK(r.max_energy_balance_error < c.tol);
    CHECK(r.max_constraint_residual < T::kConstraint);
  }
}

TEST_CASE("roller-crank: the review's observations on its six models (Table 4 analogue)",
          "[mechanisms][roller-crank]") {
  const auto rows = mechanisms::rollerCrankTable({}, RollerCrankOptions{});
  REQUIRE(rows.size() == 6);
  // The laws without static friction (Coulomb, regularized Coulomb, Dahl) leave the initial
  // stick earlier than those with it (Stribeck, Brown–McPhee, LuGre), which hold for the
  // first 0.2 s (review Figs. 5–6).
  double latest_without = 0.0, earliest_with = 1e300;
  for (const auto& row : rows) {
    const bool stiction = row.model.law == "stribeck" || row.model.law == "brown-mcphee" ||
                          row.model.law == "lugre";
    INFO(row.model.law << " leaves the stick at " << row.run.breakaway_time << " s");
    CHECK(row.run.breakaway_time > 0.05);
    if (stiction) earliest_with = std::min(earliest_with, row.run.breakaway_time);
    else latest_without = std::max(latest_without, row.run.breakaway_time);
  }
  CHECK(latest_without < earliest_with);
  CHECK(earliest_with > 0.2);
  for (const auto& row : rows) {
    INFO(row.model.label << " (" << row.model.law << ", " << row.integrator << "): "
                         << row.run.message << "; chatter " << row.run.sliding_sign_changes
                         << ", max F/N " << row.run.max_friction_ratio);
    REQUIRE(row.run.ok);
    CHECK(row.run.t == Approx(2.0));
    CHECK(row.relative_cpu >= 1.0);
    if (row.model.integrator == RollerCrankOptions::Integrator::kRk4) {
      // Discontinuous laws chatter in the initial stick phase…
      CHECK(row.run.sliding_sign_changes >= T::kDiscontinuousChatter);
      CHECK(row.run.friction_sign_changes >= T::kDiscontinuousChatter);
    } else {
      // …the smooth and dynamic ones roll through it.
      CHECK(row.run.sliding_sign_changes <= T::kSmoothChatter);
      CHECK(row.run.max_window_sliding < 1e-3);  // below Table 3's v_S
    }
    if (row.model.law == "brown-mcphee") CHECK(row.run.max_friction_ratio <= 0.15 + T::kRatioTolerance);
    if (row.model.law == "lugre") {
      CHECK(row.run.max_friction_ratio > 0.15);  // review Fig. 7f
      CHECK(row.run.first_ratio_exceedance > 0.2);  // after the initial stick phase
      CHECK(row.integrator == "rk4");  // BDF stops after the fold, reported in bdf_failure
      CHECK_FALSE(row.bdf_failure.empty());
    }
    // No stiction: μk bounds F/N for the static laws. (Dahl's σ0 z lags a falling load, so its
    // ratio is not bounded by μk.)
    if (row.model.law == "coulomb" || row.model.law == "tanh")
      CHECK(row.run.max_friction_ratio <= 0.1 + 1e-9);
  }
}

TEST_CASE("roller-crank: stickslip verify case passes", "[mechanisms][roller-crank][verify]") {
  for (const auto& row : mechanisms::rollerCrankVerification()) {
    INFO(row.method << ": " << row.quantity << " = " << row.obtained << " " << row.note);
    CHECK(row.pass);
  }
}

TEST_CASE("roller-crank: an evaluation of the equations of motion allocates nothing",
          "[mechanisms][roller-crank][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  g_allocations = 0;  // the counter works in this executable
  g_armed = true;
  const Eigen::VectorXd probe = Eigen::VectorXd::Ones(64);
  g_armed = false;
  REQUIRE(g_allocations.load() > 0);
  CHECK(probe.sum() == 64.0);
  for (const char* name : {"coulomb", "brown-mcphee", "lugre"}) {
    RollerCrankSystem sys({}, law(name));
    Eigen::VectorXd y = sys.initialState(), ydot(y.size());
    y(9 + 6) += 1e-3;  // sliding: every branch of the loop solver is reached
    REQUIRE(sys.derivative(0.0, y, ydot));
    g_allocations = 0;
    g_armed = true;
    for (int i = 0; i < 10; ++i) sys.derivative(0.0, y, ydot);
    g_armed = false;
    INFO(name);
    CHECK(g_allocations.load() == 0);
  }
}
