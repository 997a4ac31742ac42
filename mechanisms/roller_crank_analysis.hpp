#pragma once
/// \file What a run of the roller–crank shows, as the review reports it (§4, Figs. 5–8 and
/// Table 4): the friction ratio F/N against μs, the chatter of the sliding velocity in the
/// initial stick phase and when that stick ends, the energy balance E − E(0) = −W_f and the
/// constraints' residual; and the Table 4 study of the six friction models.

#include <optional>
#include <string>
#include <vector>

#include "mechanisms/roller_crank.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::mechanisms {

/// From the samples of a run of rollerCrankRigid(rc) (every route; the energy balance needs the
/// penalty route's `friction_work` column).
struct RollerCrankFigures {
  double max_friction_ratio = 0.0;  ///< max |F| / |N|
  /// First sample where |F|/|N| > μs (−1: never) [s].
  double first_ratio_exceedance = -1.0;
  /// First sample where |v_s| > vs (Table 3's 1 mm/s): the end of the initial stick (−1: never) [s].
  double breakaway_time = -1.0;
  double min_normal_force = 0.0;  ///< [N] (negative: the roller would lift off)
  /// max |E − E(0) + W| over the samples, W the dissipated friction work (NaN without it) [J].
  double max_energy_balance_error = 0.0;
  double max_constraint_residual = 0.0;  ///< max of ‖Φ‖∞ and the contact's |gap| [m]
  /// In the initial stick window [0, window]: sign changes of v_s and of F at the samples (chatter),
  /// and the largest |v_s|.
  double window = 0.05;
  int sliding_sign_changes = 0, friction_sign_changes = 0;
  double max_window_sliding = 0.0;  ///< [m/s]
};
RollerCrankFigures rollerCrankFigures(const RollerCrank& rc, const ScenarioRun& run, double window = 0.05);

/// The analysis attached to roller-crank's runs: RollerCrankFigures as JSON `roller` {…}.
std::optional<Analysis> rollerCrankAnalysis(const Scenario& s, const ScenarioRun& run);

/// The review's six friction models of Table 4 by the penalty route: discontinuous Coulomb
/// (coulomb), regularized Coulomb (tanh), discontinuous Stribeck (stribeck), Brown–McPhee,
/// Dahl and LuGre; each with the integrator the route picks for it (RK4 for the laws that jump
/// at v = 0, BDF otherwise, redone with RK4 if BDF fails).
struct RollerCrankTableRow {
  std::string label, law;
  ScenarioRun run;
  RollerCrankFigures figures;
  double relative_cpu = 0.0;  ///< CPU time / the fastest model's
};
const std::vector<std::pair<std::string, std::string>>& rollerCrankModels();  ///< (label, law)
/// The six runs of `scenario` (roller-crank, with its data) with `settings` and each model's
/// law.
std::vector<RollerCrankTableRow> rollerCrankTable(const Scenario& scenario, RunSettings settings);

}  // namespace stickslip::mechanisms
