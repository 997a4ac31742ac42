#include "mechanisms/roller_crank_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace stickslip::mechanisms {
namespace {

int signOf(double x) { return (x > 0.0) - (x < 0.0); }

/// Counts a change of sign; exact zeros (t = 0) neither start nor end one.
void countChange(int sign, int& last, int& count) {
  if (sign == 0) return;
  if (last != 0 && sign != last) ++count;
  last = sign;
}

}  // namespace

RollerCrankFigures rollerCrankFigures(const RollerCrank& rc, const ScenarioRun& run, double window) {
  const dynamics::RunResult& r = run.result;
  const dynamics::RigidScenario s = rollerCrankRigid(rc);
  const dynamics::FrictionParameters p = rollerCrankFrictionParameters();
  const Eigen::Index n = s.model.velocitySize(), m = s.model.constraintCount();
  const Eigen::Index cn = r.column("roller-ground.N"), cf = r.column("roller-ground.F"),
                     cv = r.column("roller-ground.v_t"), ce = r.column("energy"), cw = r.column("friction_work");
  RollerCrankFigures f;
  f.window = window;
  f.max_energy_balance_error = cw < 0 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  Eigen::VectorXd phi(m);
  dynamics::ContactKinematics kin;
  int last_v = 0, last_f = 0;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    const auto h = r.history.row(i);
    const double t = h(0), normal = h(cn), friction = h(cf), sliding = h(cv);
    const double ratio = normal != 0.0 ? std::abs(friction / normal) : 0.0;
    f.max_friction_ratio = std::max(f.max_friction_ratio, ratio);
    if (ratio > p.mu_s && f.first_ratio_exceedance < 0.0) f.first_ratio_exceedance = t;
    if (std::abs(sliding) > p.stribeck_velocity && f.breakaway_time < 0.0) f.breakaway_time = t;
    f.min_normal_force = i == 0 ? normal : std::min(f.min_normal_force, normal);
    if (cw >= 0) f.max_energy_balance_error = std::max(f.max_energy_balance_error, std::abs(h(ce) - r.history(0, ce) + h(cw)));
    const Eigen::VectorXd q = h.segment(1, n).transpose();
    s.model.constraints(t, q, phi);
    dynamics::evaluateContacts(s.model, s.contacts, t, q, h.segment(1 + n, n).transpose(), kin, false);
    f.max_constraint_residual = std::max({f.max_constraint_residual, phi.lpNorm<Eigen::Infinity>(), std::abs(kin.gap(0))});
    if (t <= window * (1.0 + 1e-12)) {
      countChange(signOf(sliding), last_v, f.sliding_sign_changes);
      countChange(signOf(friction), last_f, f.friction_sign_changes);
      f.max_window_sliding = std::max(f.max_window_sliding, std::abs(sliding));
    }
  }
  return f;
}

std::optional<Analysis> rollerCrankAnalysis(const Scenario& s, const ScenarioRun& run) {
  const RollerCrankFigures f = rollerCrankFigures(rollerCrankOf(*s.model), run);
  Analysis a;
  a.figures["roller"] = {{"max_friction_ratio", f.max_friction_ratio},
                         {"first_ratio_exceedance", f.first_ratio_exceedance},
                         {"breakaway_time", f.breakaway_time},
                         {"min_normal_force", f.min_normal_force},
                         {"max_energy_balance_error", std::isfinite(f.max_energy_balance_error)
                                                          ? nlohmann::json(f.max_energy_balance_error)
                                                          : nlohmann::json(nullptr)},
                         {"max_constraint_residual", f.max_constraint_residual},
                         {"window", f.window},
                         {"sliding_sign_changes", f.sliding_sign_changes},
                         {"friction_sign_changes", f.friction_sign_changes},
                         {"max_window_sliding", f.max_window_sliding}};
  std::ostringstream o;
  o << "roller      max F/N " << f.max_friction_ratio << " (first above mu_s at "
    << (f.first_ratio_exceedance < 0.0 ? std::string("never") : std::to_string(f.first_ratio_exceedance) + " s")
    << "), min N " << f.min_normal_force << " N\n"
    << "stick       initial stick ends at "
    << (f.breakaway_time < 0.0 ? std::string("never") : std::to_string(f.breakaway_time) + " s")
    << " (|v_s| > 1 mm/s); in [0, " << f.window << "] s " << f.sliding_sign_changes << " sign changes of v_s, "
    << f.friction_sign_changes << " of F (at the samples), max |v_s| " << f.max_window_sliding << " m/s\n"
    << "balance     max |E - E(0) + W_f| ";
  if (std::isfinite(f.max_energy_balance_error))
    o << f.max_energy_balance_error << " J";
  else
    o << "not known (the route records no friction work)";
  o << ", max constraint residual " << f.max_constraint_residual << " m";
  std::istringstream lines(o.str());
  for (std::string line; std::getline(lines, line);) a.lines.push_back(line);
  return a;
}

const std::vector<std::pair<std::string, std::string>>& rollerCrankModels() {
  static const std::vector<std::pair<std::string, std::string>> models{
      {"discontinuous Coulomb", "coulomb"}, {"regularized Coulomb", "tanh"}, {"discontinuous Stribeck", "stribeck"},
      {"Brown and McPhee", "brown-mcphee"}, {"Dahl", "dahl"},               {"LuGre", "lugre"}};
  return models;
}

std::vector<RollerCrankTableRow> rollerCrankTable(const Scenario& scenario, RunSettings settings) {
  const RollerCrank rc = rollerCrankOf(*scenario.model);
  settings.route = Route::kPenalty;
  std::vector<RollerCrankTableRow> rows;
  for (const auto& [label, law] : rollerCrankModels()) {
    settings.friction = law;
    RollerCrankTableRow row{label, law, runScenario(scenario, settings), {}, 0.0};
    row.figures = rollerCrankFigures(rc, row.run);
    rows.push_back(std::move(row));
  }
  double fastest = 0.0;
  for (const auto& r : rows)
    if (r.run.result.ok() && (fastest == 0.0 || r.run.result.cpu_seconds < fastest)) fastest = r.run.result.cpu_seconds;
  for (auto& r : rows) r.relative_cpu = fastest > 0.0 ? r.run.result.cpu_seconds / fastest : 0.0;
  return rows;
}

}  // namespace stickslip::mechanisms
