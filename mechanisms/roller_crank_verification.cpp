#include "mechanisms/roller_crank_verification.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mechanisms/roller_crank_analysis.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::mechanisms {
namespace {

using T = RollerCrankThresholds;
constexpr double kNever = 1e300;  // a stick that never ends


// A row of one run: it fails with the run's message when the run failed.
VerificationRow check(const std::string& method, const std::string& quantity, Check kind, double reference,
                      double obtained, double tolerance, const ScenarioRun& run) {
  return makeRow("roller-crank", method, quantity, kind, reference, obtained, tolerance, run.result.ok(),
                 run.result.ok() ? "" : run.result.message);
}

// A residual that ideally is 0, at most `tolerance`.
VerificationRow residual(const std::string& method, const std::string& quantity, double tolerance,
                         double obtained, const ScenarioRun& run) {
  return check(method, quantity, Check::kWithin, 0.0, obtained, tolerance, run);
}

// max |E − E(0) + W_f| over the history rows with t ≤ t_max (W_f dissipated).
double balanceUntil(const ScenarioRun& run, double t_max) {
  const dynamics::RunResult& r = run.result;
  const Eigen::Index e = r.column("energy"), w = r.column("friction_work");
  double worst = 0.0;
  for (Eigen::Index i = 0; i < r.history.rows() && r.history(i, 0) <= t_max; ++i)
    worst = std::max(worst, std::abs(r.history(i, e) - r.history(0, e) + r.history(i, w)));
  return worst;
}

// The review's Table 4: with MATLAB's ode45 (RelTol 1e-6) Dahl costs 169.8 times regularized
// Coulomb's CPU. A step count says the same without the machine: Dahl's over tanh's on the
// first 0.5 s (the stick, where the bristle is stiffest), by a non-stiff integrator (Adams) and
// by a stiff one (BDF), both at rtol 1e-6 and the route's largest step of 1e-4 s: tanh takes
// that cap's 5000 steps by either; Dahl as many by BDF, 87 times more by Adams.
void tableFourRows(const Scenario& scenario, std::vector<VerificationRow>& rows) {
  for (const char* integrator : {"adams", "bdf"}) {
    RunSettings s;
    s.route = Route::kPenalty;
    s.integrator = integrator;
    s.tolerance = 1e-6;
    s.t_end = 0.5;
    s.friction = "tanh";
    const ScenarioRun coulomb = runScenario(scenario, s);
    s.friction = "dahl";
    const ScenarioRun dahl = runScenario(scenario, s);
    const ScenarioRun& failed = coulomb.result.ok() ? dahl : coulomb;
    const double ratio = double(dahl.result.steps) / double(std::max(coulomb.result.steps, 1L));
    const bool adams = std::string(integrator) == "adams";
    const std::string quantity =
        "review Table 4 (ode45: Dahl 169.8 x the CPU of regularized Coulomb): steps of dahl / tanh over 0.5 s, rtol "
        "1e-6, steps <= 1e-4 s, " + std::string(adams ? ">= 10 (non-stiff: the bristle cuts its steps)" : "<= 1.5 (stiff)");
    rows.push_back(makeRow("roller-crank", "penalty/" + std::string(integrator), quantity,
                           adams ? Check::kAtLeast : Check::kAtMost, NAN, ratio, adams ? 10.0 : 1.5,
                           coulomb.result.ok() && dahl.result.ok(), failed.result.message));
  }
}

}  // namespace

std::vector<VerificationRow> rollerCrankVerification() {
  const Scenario scenario = loadScenario("roller-crank");
  const RollerCrank rc = rollerCrankOf(*scenario.model);
  std::vector<VerificationRow> rows;

  // Frictionless: nothing turns the roller about its centre (the rod's pin is there), so
  // θ̇_r = 8 rad/s for ever, and T + V is conserved.
  RunSettings settings;
  settings.route = Route::kPenalty;
  settings.friction = "none";
  settings.tolerance = 1e-10;
  const ScenarioRun free = runScenario(scenario, settings);
  const Eigen::Index spin = free.result.column("roller.omega");
  double spin_error = 0.0;
  for (Eigen::Index i = 0; i < free.result.history.rows(); ++i)
    spin_error = std::max(spin_error, std::abs(free.result.history(i, spin) - rc.crank_rate * 2.0));
  rows.push_back(residual("penalty/bdf, no friction", "max |omega_roller - 8| (closed form: constant) [rad/s]",
                          1e-9, spin_error, free));
  rows.push_back(residual("penalty/bdf, no friction", "max |E - E(0)| [J]", T::kEnergyBalance,
                          rollerCrankFigures(rc, free).max_energy_balance_error, free));

  // The six models, sampled every 10 µs for the chatter of the initial stick.
  RunSettings table_settings;
  table_settings.output_dt = 1e-5;
  const std::vector<RollerCrankTableRow> table = rollerCrankTable(scenario, table_settings);
  // The laws without static friction leave the initial stick before those with it.
  double latest_without = 0.0, earliest_with = kNever;
  bool all_ok = true;
  for (const RollerCrankTableRow& r : table) {
    const bool stiction = r.law == "stribeck" || r.law == "brown-mcphee" || r.law == "lugre";
    const double t = r.figures.breakaway_time < 0.0 ? kNever : r.figures.breakaway_time;
    if (stiction) earliest_with = std::min(earliest_with, t);
    else latest_without = std::max(latest_without, t);
    all_ok = all_ok && r.run.result.ok();
  }
  // Reported as the gap between the two: positive, at least 1 ms.
  const ScenarioRun* failed = &table.front().run;
  for (const RollerCrankTableRow& r : table)
    if (!r.run.result.ok()) failed = &r.run;
  rows.push_back(check("all six",
                       "end of stick (|v_s| > vs): earliest with stiction - latest without, >= 1 ms (" +
                           std::to_string(latest_without) + " s, " + std::to_string(earliest_with) + " s) [s]",
                       Check::kAtLeast, NAN, all_ok ? earliest_with - latest_without : NAN, 1e-3, *failed));
  for (const RollerCrankTableRow& r : table) {
    const std::string method = "penalty:" + r.law + "/" + r.run.penalty->integrator;
    if (r.law == "lugre") {
      rows.push_back(residual(method, "max |E - E(0) + W_f| for t <= " +
                                          std::to_string(T::kLuGreBalanceWindow) + " s (before the fold) [J]",
                              T::kEnergyBalance, balanceUntil(r.run, T::kLuGreBalanceWindow), r.run));
    } else {
      rows.push_back(residual(method, "max |E - E(0) + W_f| [J]", T::kEnergyBalance,
                              r.figures.max_energy_balance_error, r.run));
    }
    rows.push_back(residual(method, "max |Phi| [m]", T::kConstraint, r.figures.max_constraint_residual, r.run));
    const std::string window = "[0, " + std::to_string(r.figures.window) + "] s";
    if (r.law == "coulomb" || r.law == "stribeck")  // the laws that jump at v = 0
      rows.push_back(check(method, "chatter: sign changes of v_s in " + window + ", >= " +
                                       std::to_string(T::kDiscontinuousChatter),
                           Check::kAtLeast, NAN, r.figures.sliding_sign_changes, T::kDiscontinuousChatter, r.run));
    else
      rows.push_back(check(method, "rolling: sign changes of v_s in " + window + ", <= " +
                                       std::to_string(T::kSmoothChatter),
                           Check::kAtMost, NAN, r.figures.sliding_sign_changes, T::kSmoothChatter, r.run));
    const double mu_s = rollerCrankFrictionParameters().mu_s;
    if (r.law == "lugre")
      rows.push_back(check(method, "max F/N, >= mu_s (exceeds it: review Fig. 7f; first at t = " +
                                       std::to_string(r.figures.first_ratio_exceedance) + " s)",
                           Check::kAtLeast, mu_s, r.figures.max_friction_ratio, mu_s, r.run));
    if (r.law == "brown-mcphee")
      rows.push_back(check(method, "max F/N, <= mu_s (+1e-6)", Check::kAtMost, mu_s, r.figures.max_friction_ratio,
                           mu_s + T::kRatioTolerance, r.run));
  }
  tableFourRows(scenario, rows);
  return rows;
}

}  // namespace stickslip::mechanisms
