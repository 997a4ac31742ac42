// The roller–crank of Marques, Flores, Claro & Lankarani 2018 (review §4, Tables 1–3): the
// initial state against Table 2, closed forms without friction, the energy balance with
// friction, the exact F ↔ N loop of the penalty route's guide against an independent EOM solve,
// and the review's observations on its six friction models.
#include <catch2/catch.hpp>

#include <cmath>

#include "allocation_counter.hpp"
#include "dynamics/model/eom_solver.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/routes/penalty/penalty_system.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "mechanisms/roller_crank_analysis.hpp"
#include "mechanisms/roller_crank_verification.hpp"

using namespace stickslip;
using T = mechanisms::RollerCrankThresholds;

namespace {

std::shared_ptr<const dynamics::FrictionLaw> law(const char* name) {
  return dynamics::makeFrictionLaw(name, mechanisms::rollerCrankFrictionParameters());
}

mechanisms::ScenarioRun run(const char* friction, double t_end, std::optional<double> tolerance = {}) {
  mechanisms::RunSettings s;
  s.route = mechanisms::Route::kPenalty;
  s.friction = friction;
  s.t_end = t_end;
  s.tolerance = tolerance;
  return mechanisms::runScenario(mechanisms::loadScenario("roller-crank"), s);
}

/// The penalty route's system for the roller–crank: its model with the guide's closing joint,
/// the roller's contact the one reaction-dependent friction.
struct GuideSystem {
  dynamics::RigidScenario s = mechanisms::rollerCrankRigid({});
  dynamics::PlanarModel model = s.model;
  int row = 0;  ///< the closing joint's row
  std::unique_ptr<dynamics::PlanarMechanism> mechanism;
  std::unique_ptr<dynamics::PenaltySystem> system;
  explicit GuideSystem(const char* name) {
    const int joint = dynamics::addClosingJoint(model, s.contacts[0]);
    row = int(model.joints()[std::size_t(joint)].row);
    mechanism = std::make_unique<dynamics::PlanarMechanism>(model, s.contacts);
    dynamics::EomOptions eo;
    eo.baumgarte_alpha = eo.baumgarte_beta = 5.0;
    system = std::make_unique<dynamics::PenaltySystem>(
        *mechanism, std::vector<std::shared_ptr<const dynamics::FrictionLaw>>{nullptr}, dynamics::EomMethod::kBaumgarte,
        eo,
        std::vector<dynamics::PenaltyJointFriction>{
            {dynamics::PenaltyJointFriction::Kind::kGuide, 0, Eigen::Index(row), law(name)}});
  }
};

}  // namespace

TEST_CASE("roller-crank: the initial state is review Table 2", "[mechanisms][roller-crank]") {
  const dynamics::RigidScenario s = mechanisms::rollerCrankRigid({});
  Eigen::VectorXd q(9), v(9);  // Table 2: (x, y, θ) and (vx, vy, ω) of crank, rod, roller
  q << 0.0, 0.05, M_PI / 2, 0.15, 0.10, 0.0, 0.30, 0.10, 0.0;
  v << -0.2, 0.0, 4.0, -0.4, 0.0, 0.0, -0.4, 0.0, 8.0;
  CHECK((s.q0 - q).lpNorm<Eigen::Infinity>() < 1e-14);
  CHECK((s.v0 - v).lpNorm<Eigen::Infinity>() < 1e-12);
  CHECK(s.baumgarte_alpha == 5.0);  // review eq. 17
  dynamics::ContactKinematics k;
  dynamics::evaluateContacts(s.model, s.contacts, 0.0, s.q0, s.v0, k, false);
  CHECK(std::abs(k.gap(0)) < 1e-15);               // on the ground
  CHECK(std::abs(k.sliding_velocity(0)) < 1e-13);  // rolling
}

TEST_CASE("roller-crank: invalid data name the field", "[mechanisms][roller-crank]") {
  mechanisms::RollerCrank rc;
  rc.roller_radius = -0.05;
  CHECK_THROWS_WITH(rc.validate(), Catch::Contains("roller_radius > 0"));
  rc = {};
  rc.roller_height = 0.04;  // below the radius: the roller would be in the ground
  CHECK_THROWS_WITH(mechanisms::rollerCrankRigid(rc), Catch::Contains("roller_height"));
  rc = {};
  rc.rod_length = 0.05;  // cannot reach the roller's line from the crank pin at its lowest
  rc.crank_angle = -M_PI / 2;
  CHECK_THROWS_AS(rc.validate(), std::invalid_argument);
}

TEST_CASE("roller-crank without friction: constant spin, energy conserved", "[mechanisms][roller-crank]") {
  // The rod's pin is at the roller's centre and the ground pushes through it: nothing turns
  // the roller, θ̇_r = 8 rad/s for ever; T + V is conserved (ideal constraints do no work).
  const mechanisms::ScenarioRun r = run("none", 2.0, 1e-10);
  REQUIRE(r.result.ok());
  const Eigen::Index spin = r.result.column("roller.omega");
  CHECK((r.result.history.col(spin).array() - 8.0).abs().maxCoeff() < 1e-9);
  const mechanisms::RollerCrankFigures f = mechanisms::rollerCrankFigures({}, r);
  CHECK(f.max_energy_balance_error < 1e-7);  // |E − E(0)|, W_f ≡ 0
  CHECK(f.max_constraint_residual < 1e-8);
  CHECK(r.result.t_end == Approx(2.0));
  // The crank turns: more than a quarter turn in 2 s from 4 rad/s.
  CHECK(std::abs(r.result.final_q(2) - M_PI / 2) > 0.5);
}

TEST_CASE("roller-crank: the guide's F-N loop agrees with an independent EOM solve", "[mechanisms][roller-crank]") {
  // With the converged F applied as a known force, the project's EomSolver (Baumgarte, same
  // α, β) must give the same accelerations and the normal reaction N = −λ, and F must be the
  // law's value at |N|. Checked at the start and at a sliding state.
  for (const char* name : {"stribeck", "brown-mcphee", "lugre"}) {
    GuideSystem g(name);
    const mechanisms::ScenarioRun later = run(name, 0.4);
    REQUIRE(later.result.ok());
    Eigen::VectorXd y = g.system->initialState(0.0, g.s.q0, g.s.v0);
    const Eigen::Index n = 9;
    for (int state = 0; state < 2; ++state) {
      if (state == 1) {  // the run's last state, its law's states from the history
        y.head(n) = later.result.final_q;
        y.segment(n, n) = later.result.final_v;
        const Eigen::Index z = later.result.column("roller-ground.z");
        if (z >= 0) y(2 * n) = later.result.history(later.result.history.rows() - 1, z);
      }
      Eigen::VectorXd ydot(y.size());
      REQUIRE(g.system->derivative(0.0, y, ydot) == dynamics::EomStatus::kSuccess);
      const double f = g.system->jointFrictionTorque(0), normal = g.system->guideNormal(0);
      dynamics::ContactKinematics k;
      dynamics::evaluateContacts(g.s.model, g.s.contacts, 0.0, y.head(n), y.segment(n, n), k, false);
      INFO(name << ": v_s " << k.sliding_velocity(0) << ", N " << normal << ", F " << f);
      const Eigen::VectorXd z = y.segment(2 * n, g.system->frictionStateSize());
      CHECK(f == Approx(g.system->jointFriction()[0].law->force({k.sliding_velocity(0), std::abs(normal), 0.0},
                                                                std::span<const double>(z.data(), std::size_t(z.size()))))
                     .margin(1e-12));
      CHECK(g.system->jointReaction(0) == Approx(std::abs(normal)).epsilon(1e-12));

      dynamics::PlanarModel model = g.model;
      const double r = mechanisms::RollerCrank{}.roller_radius;
      model.addGeneralizedForce([f, r](double, const auto&, const auto&, Eigen::Ref<Eigen::VectorXd> q) {
        q(6) += f;      // along x on the roller
        q(8) += r * f;  // its moment about the centre, at the contact point below it
      });
      dynamics::EomOptions eo;
      eo.baumgarte_alpha = eo.baumgarte_beta = 5.0;
      dynamics::EomSolver eom(model, dynamics::EomMethod::kBaumgarte, eo);
      Eigen::VectorXd vdot(n);
      REQUIRE(eom.accelerations(0.0, y.head(n), y.segment(n, n), vdot) == dynamics::EomStatus::kSuccess);
      CHECK((vdot - ydot.segment(n, n)).lpNorm<Eigen::Infinity>() < 1e-9 * std::max(1.0, vdot.lpNorm<Eigen::Infinity>()));
      CHECK(-eom.multipliers()(g.row) == Approx(normal).epsilon(1e-10));
      CHECK(normal > 0.0);  // the ground pushes the roller up
    }
  }
}

TEST_CASE("roller-crank with friction: dissipated energy is the friction work", "[mechanisms][roller-crank]") {
  // E(t) − E(0) = −W_f, with tighter tolerances than the review's to show the balance is
  // limited by the integration only.
  for (const char* name : {"coulomb", "tanh", "brown-mcphee", "dahl"}) {
    const mechanisms::ScenarioRun r = run(name, 2.0, 1e-9);
    INFO(name << ": " << r.result.message);
    REQUIRE(r.result.ok());
    CHECK(r.result.friction_work > 1e-3);  // friction takes a measurable share of ≈ 0.08 J
    const mechanisms::RollerCrankFigures f = mechanisms::rollerCrankFigures({}, r);
    CHECK(f.max_energy_balance_error < 1e-7);
    CHECK(f.max_constraint_residual < T::kConstraint);
  }
}

TEST_CASE("roller-crank: the review's observations on its six models (Table 4 analogue)",
          "[mechanisms][roller-crank][slow]") {
  mechanisms::RunSettings settings;
  settings.output_dt = 1e-5;  // the chatter of the initial stick
  const auto rows = mechanisms::rollerCrankTable(mechanisms::loadScenario("roller-crank"), settings);
  REQUIRE(rows.size() == 6);
  // The laws without static friction (Coulomb, regularized Coulomb, Dahl) leave the initial
  // stick earlier than those with it (Stribeck, Brown–McPhee, LuGre), which hold for the
  // first 0.2 s (review Figs. 5–6).
  double latest_without = 0.0, earliest_with = 1e300;
  for (const auto& row : rows) {
    const bool stiction = row.law == "stribeck" || row.law == "brown-mcphee" || row.law == "lugre";
    INFO(row.law << " leaves the stick at " << row.figures.breakaway_time << " s");
    CHECK(row.figures.breakaway_time > 0.05);
    if (stiction) earliest_with = std::min(earliest_with, row.figures.breakaway_time);
    else latest_without = std::max(latest_without, row.figures.breakaway_time);
  }
  CHECK(latest_without < earliest_with);
  CHECK(earliest_with > 0.2);
  for (const auto& row : rows) {
    INFO(row.label << " (" << row.law << ", " << row.run.penalty->integrator << "): " << row.run.result.message
                   << "; chatter " << row.figures.sliding_sign_changes << ", max F/N "
                   << row.figures.max_friction_ratio);
    REQUIRE(row.run.result.ok());
    CHECK(row.run.result.t_end == Approx(2.0));
    CHECK(row.relative_cpu >= 1.0);
    if (row.law == "coulomb" || row.law == "stribeck") {
      // Discontinuous laws chatter in the initial stick phase…
      CHECK(row.run.penalty->integrator == "rk4");
      CHECK(row.figures.sliding_sign_changes >= T::kDiscontinuousChatter);
      CHECK(row.figures.friction_sign_changes >= T::kDiscontinuousChatter);
    } else {
      // …the smooth and dynamic ones roll through it.
      CHECK(row.figures.sliding_sign_changes <= T::kSmoothChatter);
      CHECK(row.figures.max_window_sliding < 1e-3);  // below Table 3's v_S
    }
    if (row.law == "brown-mcphee") CHECK(row.figures.max_friction_ratio <= 0.15 + T::kRatioTolerance);
    if (row.law == "lugre") {
      CHECK(row.figures.max_friction_ratio > 0.15);      // review Fig. 7f
      CHECK(row.figures.first_ratio_exceedance > 0.2);  // after the initial stick phase
      CHECK(row.run.penalty->integrator == "rk4");       // BDF stops after the fold, reported in bdf_failure
      CHECK_FALSE(row.run.penalty->bdf_failure.empty());
    }
    // No stiction: μk bounds F/N for the static laws. (Dahl's σ0 z lags a falling load, so its
    // ratio is not bounded by μk.)
    if (row.law == "coulomb" || row.law == "tanh") CHECK(row.figures.max_friction_ratio <= 0.1 + 1e-9);
  }
}

TEST_CASE("roller-crank: an evaluation of the penalty route's equations allocates nothing",
          "[mechanisms][roller-crank][alloc]") {
  ALLOCATION_TEST_PRELUDE();
  g_allocations = 0;  // the counter works in this executable
  g_armed = true;
  const Eigen::VectorXd probe = Eigen::VectorXd::Ones(64);
  g_armed = false;
  REQUIRE(g_allocations.load() > 0);
  CHECK(probe.sum() == 64.0);
  for (const char* name : {"coulomb", "brown-mcphee", "lugre"}) {
    GuideSystem g(name);
    Eigen::VectorXd y = g.system->initialState(0.0, g.s.q0, g.s.v0), ydot(y.size());
    y(9 + 6) += 1e-3;  // sliding: every branch of the loop solver is reached
    REQUIRE(g.system->derivative(0.0, y, ydot) == dynamics::EomStatus::kSuccess);
    g_allocations = 0;
    g_armed = true;
    for (int i = 0; i < 10; ++i) g.system->derivative(0.0, y, ydot);
    g_armed = false;
    INFO(name);
    CHECK(g_allocations.load() == 0);
  }
}
