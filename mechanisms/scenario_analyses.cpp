#include "mechanisms/scenario_analyses.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "mechanisms/belt.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/incline.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::mechanisms {
namespace {

nlohmann::json finiteOrNull(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

/// The run's stick/slip changes against `reference`, matched one to one in order.
Analysis modeReference(const std::vector<dynamics::ModeChange>& reference, const ScenarioRun& run) {
  const std::vector<dynamics::ModeChange> changes = dynamics::modeChanges(run.result);
  const double error = dynamics::maxModeTimeError(changes, reference);
  const bool matched = std::isfinite(error);
  Analysis a;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& [t, kind] : reference) events.push_back({{"t", t}, {"kind", kind}});
  a.figures["reference"] = {{"events", events}, {"matched", matched}, {"max_time_error", finiteOrNull(error)}};
  std::ostringstream line;
  line << "reference   " << reference.size() << " stick/slip changes";
  if (matched)
    line << " matched, max |dt| = " << error << " s" << (run.route == Route::kPenalty ? " (estimated changes)" : "");
  else
    line << ", not matched one to one";
  a.lines.push_back(line.str());
  return a;
}

}  // namespace

std::optional<Analysis> beltExactChanges(const Scenario& s, const ScenarioRun& run) {
  std::vector<dynamics::ModeChange> ref;
  for (const auto& [t, kind] : beltClosedForm(beltOf(*s.model)).events(run.result.t_end))
    ref.emplace_back(t, kind == "stick" ? "stick" : "slip-");  // the block falls behind the belt
  return modeReference(ref, run);
}

std::optional<Analysis> dupontExactChanges(const Scenario& s, const ScenarioRun& run) {
  return modeReference(dupontReference(dupontOf(*s.model), run.result.t_end), run);
}

std::optional<Analysis> inclineExactChanges(const Scenario& s, const ScenarioRun& run) {
  return modeReference(inclineReference(run.result.t_end, inclineOf(*s.model)), run);
}

std::optional<Analysis> zhengCrankHold(const Scenario& s, const ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  const Eigen::Index theta1 = r.column("crank.theta");
  const bool at_rest = s.model->v0.lpNorm<Eigen::Infinity>() == 0.0;  // else there is nothing to hold
  if (!at_rest || r.history.rows() == 0 || theta1 < 0) return {};
  // Sticking, θ1 moves only within the integrator's tolerance (1e-12 rad over the 5 s default
  // run); slipping, it falls by ~3e-3 rad within a tenth of a second: 1e-6 rad separates the
  // two with room on both sides.
  constexpr double kHeldTolerance = 1e-6;
  const double drift = (r.history.col(theta1).array() - r.history(0, theta1)).abs().maxCoeff();
  const bool held = r.ok() && drift <= kHeldTolerance;
  Analysis a;
  a.figures = {{"theta1_drift", drift}, {"held", held}};
  std::ostringstream line;
  line << "crank       " << (held ? "held" : "not held") << ", max |theta1 - theta1(0)| = " << drift << " rad";
  a.lines.push_back(line.str());
  return a;
}

std::optional<Analysis> journalBearingMotion(const Scenario& s, const ScenarioRun& run) {
  if (run.route != Route::kPenalty) return {};
  const JournalBearing jb = journalBearingOf(*s.model);
  const JournalBearingPhases phases = journalBearingPhases(jb, run.result);
  Analysis a;
  nlohmann::json modes = nlohmann::json::array(), impacts = nlohmann::json::array();
  for (const auto& m : phases.modes)
    modes.push_back({{"t_begin", m.t_begin}, {"t_end", m.t_end}, {"mode", std::string(toString(m.mode))},
                     {"approximate", true}});
  for (const auto& i : phases.impacts)
    impacts.push_back({{"t_close", i.t_close}, {"t_open", i.t_open}, {"velocity_in", i.velocity_in},
                       {"velocity_out", i.velocity_out}, {"energy_ratio", i.energy_ratio}, {"approximate", true}});
  a.figures = {{"modes", modes}, {"impacts", impacts}};
  std::ostringstream line;
  line << "impacts     " << phases.impacts.size() << " (energy ratio vs c_e^2 = " << jb.restitution * jb.restitution
       << ":";
  for (std::size_t k = 0; k < std::min<std::size_t>(phases.impacts.size(), 5); ++k)
    line << ' ' << std::setprecision(4) << phases.impacts[k].energy_ratio;
  line << (phases.impacts.size() > 5 ? " …" : "") << ")";
  a.lines.push_back(line.str());
  a.lines.push_back("modes       " + std::to_string(phases.modes.size()) +
                    " (approximate times, from the contact's crossings)");
  const std::size_t shown = std::min<std::size_t>(phases.modes.size(), 12);
  for (std::size_t k = 0; k < shown; ++k) {
    std::ostringstream m;
    m << "  " << phases.modes[k].t_begin << " .. " << phases.modes[k].t_end << " s  " << toString(phases.modes[k].mode);
    a.lines.push_back(m.str());
  }
  if (shown < phases.modes.size()) {
    const auto& last = phases.modes.back();
    std::ostringstream m;
    m << "  … " << phases.modes.size() - shown - 1 << " more, then " << last.t_begin << " .. " << last.t_end << " s  "
      << toString(last.mode) << " (--json lists all)";
    a.lines.push_back(m.str());
  }
  return a;
}

}  // namespace stickslip::mechanisms
