#include "mechanisms/scenario_analyses.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>

#include "dynamics/contact/spatial_clearance.hpp"

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

std::optional<Analysis> spatialClearanceMotion(const Scenario& s, const ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  if (!s.spatial || s.spatial->clearances.empty() || r.history.rows() < 2) return {};
  const dynamics::SpatialClearance& c = s.spatial->clearances.front();
  if (r.column(c.name + ".radial-A.N") < 0) return {};  // --ideal: no clearance joint
  const dynamics::SpatialModel& m = s.spatial->model;
  const Eigen::Index nq = m.positionSize();
  // The bearing's rotation relative to the journal about the journal's axis a: the angle by
  // which it turns a vector u ⊥ a (exact for a rotation about a).
  const Eigen::Vector3d a = c.joint.journal_axis, u = dynamics::frameFromAxis(a).col(0);
  std::array<long, 14> cases{};
  double turns = 0.0, last = 0.0;
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    const Eigen::VectorXd q = r.history.row(i).segment(1, nq).transpose();
    const dynamics::SpatialPose pi = dynamics::bodyPose(m, q, c.journal_body), pj = dynamics::bodyPose(m, q, c.bearing_body);
    ++cases[std::size_t(dynamics::contactCase(dynamics::spatialClearanceGeometry(c.joint, pi, pj)))];
    const Eigen::Vector3d ru = pi.A.transpose() * pj.A * u;
    const double angle = std::atan2(a.dot(u.cross(ru)), u.dot(ru));
    if (i > 0) turns += std::remainder(angle - last, 2.0 * M_PI);
    last = angle;
  }
  turns /= 2.0 * M_PI;
  const double energy_change = run.energy_final - run.energy_initial;
  Analysis out;
  out.figures["turns"] = turns;
  out.figures["energy_change"] = energy_change;
  std::ostringstream line;
  line << "clearance   " << c.name << ": the bearing turned " << std::setprecision(4) << turns
       << " times about the journal; T + V changed by " << energy_change << " J";
  out.lines.push_back(line.str());
  if (const Eigen::Index az = r.column("slider.az"); az >= 0) {
    std::vector<double> a_abs(std::size_t(r.history.rows())), maxima;
    for (Eigen::Index i = 0; i < r.history.rows(); ++i) a_abs[std::size_t(i)] = std::abs(r.history(i, az));
    for (std::size_t i = 1; i + 1 < a_abs.size(); ++i)
      if (a_abs[i] >= a_abs[i - 1] && a_abs[i] >= a_abs[i + 1]) maxima.push_back(a_abs[i]);
    std::sort(maxima.rbegin(), maxima.rend());
    const std::size_t top = std::min<std::size_t>(20, maxima.size());
    const double largest = top ? std::accumulate(maxima.begin(), maxima.begin() + long(top), 0.0) / double(top) : 0.0;
    std::sort(a_abs.begin(), a_abs.end());
    const double p99 = a_abs[a_abs.size() * 99 / 100];
    out.figures["acceleration_peaks"] = {{"column", "slider.az"}, {"largest", largest}, {"p99", p99}};
    std::ostringstream peaks;
    peaks << "peaks       |slider.az|: mean of the " << top << " largest " << largest << " m/s^2, 99th percentile "
          << p99 << " m/s^2";
    out.lines.push_back(peaks.str());
  }
  nlohmann::json shares = nlohmann::json::object();
  std::ostringstream line_cases;
  line_cases << "cases       share of the samples per contact case (thesis Figure 4.7):";
  for (int k = 1; k <= 13; ++k)
    if (cases[std::size_t(k)] > 0) {
      const double share = double(cases[std::size_t(k)]) / double(r.history.rows());
      shares[std::to_string(k)] = share;
      line_cases << ' ' << k << ": " << std::setprecision(3) << 100.0 * share << " %";
    }
  out.figures["contact_cases"] = shares;
  out.lines.push_back(line_cases.str());
  return out;
}

}  // namespace stickslip::mechanisms
