#include "mechanisms/muvengei_verification.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "mechanisms/muvengei_analysis.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {
namespace {

// A row of a penalty-route run: it fails with the run's message when the run failed.
VerificationRow penaltyRow(std::string quantity, double reference, double obtained,
                           double tolerance, const ScenarioRun& run,
                           Check check = Check::kWithin) {
  const bool ok = run.result.ok();
  return makeRow("muvengei", "penalty/" + run.penalty->integrator, std::move(quantity), check, reference, obtained,
                 tolerance, ok, ok ? "" : run.result.message);
}


// Figs 9-10: the paper's v_T passes through zero at t = 0.0321 s. Its v_T is the centres'
// relative velocity tᵀė (`centres_slip`, not the surfaces' slip, which stays above 0.14 m/s):
// with it, v_T's sign changes in contact over the second revolution, and the one nearest the
// paper's instant.
void centresSlipRows(const Scenario& scenario, const MuvengeiSliderCrank& d, std::vector<VerificationRow>& rows) {
  Scenario centres = scenario;
  applySettings(centres, {"parameters.centres_slip=true"});
  RunSettings settings;
  settings.route = Route::kPenalty;
  const ScenarioRun run = runScenario(centres, settings);
  long crossings = 0;
  double nearest = NAN;
  if (run.result.ok()) {
    const Eigen::MatrixXd& t = muvengeiTable(d, run).table;
    for (Eigen::Index i = 0; i + 1 < t.rows(); ++i) {
      const bool second = t(i, kTime) >= d.period() && t(i, kTime) < 2.0 * d.period();
      const bool contact = t(i, kNormalForce) > 0.0 && t(i + 1, kNormalForce) > 0.0;
      if (!second || !contact || (t(i, kTangentialVelocity) > 0.0) == (t(i + 1, kTangentialVelocity) > 0.0)) continue;
      ++crossings;
      if (!(std::abs(t(i, kTime) - 0.0321) >= std::abs(nearest - 0.0321))) nearest = t(i, kTime);
    }
  }
  rows.push_back(penaltyRow("Figs 9-10, centres_slip (the paper's v_T): v_T's sign changes in contact over the 2nd "
                            "revolution, >= 1",
                            NAN, double(crossings), 1.0, run, Check::kAtLeast));
  rows.push_back(penaltyRow("Figs 9-10, centres_slip: the sign change nearest the paper's t = 0.0321 s [s]", 0.0321,
                            nearest, 2e-4, run));
}

}  // namespace

std::vector<VerificationRow> verifyMuvengei() {
  std::vector<VerificationRow> rows;
  const Scenario scenario = loadScenario("muvengei-lugre");
  MuvengeiSliderCrank d = muvengeiOf(*scenario.model);
  RunSettings settings;  // the built-in's: two revolutions, BDF, every µs
  settings.route = Route::kPenalty;
  settings.ideal = true;
  d.ideal = true;
  const ScenarioRun ideal = runScenario(scenario, settings);
  const MuvengeiCycle ci = analyseMuvengeiCycle(d, muvengeiTable(d, ideal), d.period());
  rows.push_back(
      penaltyRow("ideal joint: max |a - a(closed form)| / max |a| over the 2nd revolution", 0.0,
                 ci.max_ideal_acceleration_error / ci.max_ideal_acceleration, 1e-6, ideal));
  settings.ideal = d.ideal = false;
  const ScenarioRun lugre = runScenario(scenario, settings);
  const MuvengeiTable lugre_table = muvengeiTable(d, lugre);
  const MuvengeiCycle c = analyseMuvengeiCycle(d, lugre_table, d.period());
  const double ratio = c.max_acceleration / ci.max_acceleration;
  rows.push_back(penaltyRow("Figs 7-8, clearance 0.5 mm, LuGre: impact spikes, max |a| / max |a(ideal)|, >= 1.5", NAN,
                            ratio, 1.5, lugre, Check::kAtLeast));
  rows.push_back(penaltyRow("Fig. 7: free flight (zero friction force) between contacts: share of the 2nd revolution's "
                            "samples out of contact, >= 0.005",
                            NAN, 1.0 - double(c.contact_samples) / double(std::max(c.samples, 1L)), 0.005, lugre,
                            Check::kAtLeast));
  centresSlipRows(scenario, d, rows);
  const double l = d.rod_length, r = d.crank_length;
  rows.push_back(penaltyRow(
      "max |x - x(ideal)|, <= (c + max penetration) l / sqrt(l^2 - r^2) (+0.1%) [m]", NAN,
      c.max_position_deviation,
      (d.clearance + c.max_penetration) * l / std::sqrt(l * l - r * r) * (1.0 + 1e-3), lugre,
      Check::kAtMost));
  rows.push_back(penaltyRow("bristle bound: max |sigma0 z| / mu_s, <= 1", NAN, c.max_bristle_ratio, 1.0,
                            lugre, Check::kAtMost));
  rows.push_back(penaltyRow("max |F_t| / (mu_s F_n), <= 1", NAN, c.max_friction_ratio, 1.0, lugre,
                            Check::kAtMost));
  rows.push_back(penaltyRow("presliding samples (|v_t| < v_s, F_t != 0) (count, must be 0); min |v_t| in contact " +
                                std::to_string(c.min_tangential_velocity) + " m/s",
                            0.0, double(c.stick_samples), 0.0, lugre, Check::kCount));
  rows.push_back(penaltyRow("work balance |dE - W_driver - W_contact| / int |P_driver| dt", 0.0,
                            c.energy_residual, 1e-5, lugre));
  settings.t_end = 0.005;
  settings.friction = "lugre-wojtyra";
  const ScenarioRun woj = runScenario(scenario, settings);
  const MuvengeiTable woj_table = muvengeiTable(d, woj);
  double diff = 0.0;
  for (Eigen::Index i = 0; i < woj_table.table.rows(); ++i)
    diff = std::max(diff, std::abs(woj_table.table(i, kSliderX) - lugre_table.table(i, kSliderX)));
  rows.push_back(
      penaltyRow("lugre-wojtyra = lugre-nondimensional (N_E = 1 N): max |dx| [m] over 5 ms", 0.0,
                 diff, 1e-7, woj));
  return rows;
}

}  // namespace stickslip::mechanisms
