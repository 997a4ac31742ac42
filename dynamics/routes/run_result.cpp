#include "dynamics/routes/run_result.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ctime>
#include <sstream>

namespace stickslip::dynamics {

double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::string_view toString(ContactMode m) {
  switch (m) {
    case ContactMode::kOpen: return "open";
    case ContactMode::kStick: return "stick";
    case ContactMode::kSlipPositive: return "slip+";
    case ContactMode::kSlipNegative: return "slip-";
  }
  return "?";
}

std::string_view toString(EventKind k) {
  switch (k) {
    case EventKind::kStick: return "stick";
    case EventKind::kSlipPositive: return "slip+";
    case EventKind::kSlipNegative: return "slip-";
    case EventKind::kImpact: return "impact";
    case EventKind::kOpen: return "open";
    case EventKind::kClose: return "close";
  }
  return "?";
}

std::string_view toString(RunStatus s) {
  switch (s) {
    case RunStatus::kOk: return "ok";
    case RunStatus::kContactSolverFailure: return "contact-solver-failure";
    case RunStatus::kIntegratorFailure: return "integrator-failure";
    case RunStatus::kNoConsistentMode: return "no-consistent-mode";
    case RunStatus::kNotConverged: return "not-converged";
    case RunStatus::kEnergyIncrease: return "energy-increase";
    case RunStatus::kLimitReached: return "limit-reached";
    case RunStatus::kLiftOff: return "lift-off";
    case RunStatus::kIncomplete: return "incomplete";
  }
  return "?";
}

Eigen::Index RunResult::column(std::string_view name) const {
  const auto it = std::find(columns.begin(), columns.end(), name);
  return it == columns.end() ? -1 : Eigen::Index(it - columns.begin());
}

void RunResult::fail(RunStatus s, std::string why) {
  if (!ok()) return;
  status = s;
  message = std::move(why);
}

void RunResult::requireReached(double t_end_asked) {
  // The routes land on t_end by a shortened last step or CVODE's stop time: round-off only.
  if (!ok() || t_end >= t_end_asked * (1.0 - 1e-9)) return;
  std::ostringstream os;
  os << "the run stopped at t = " << t_end << " s before t_end = " << t_end_asked << " s after " << steps
     << " steps, naming no failure";
  fail(RunStatus::kIncomplete, os.str());
}

void RunResult::requireFinite() {
  const Eigen::Index energy = column("energy");
  if (!ok() || energy < 0) return;
  Eigen::Index row = 0;
  while (row < history.rows() && std::isfinite(history(row, energy))) ++row;
  if (row == history.rows() && final_q.allFinite() && final_v.allFinite()) return;
  std::ostringstream os;
  os << "the motion overflowed double precision: ";
  if (row < history.rows())
    os << "the energy is " << history(row, energy) << " at t = " << history(row, 0) << " s";
  else
    os << "the final state is not finite";
  fail(RunStatus::kIntegratorFailure, os.str());
}

std::vector<ModeChange> modeChanges(const RunResult& run, int element) {
  std::vector<ModeChange> changes;
  for (const ContactEvent& e : run.events)
    if ((element < 0 || e.contact == element) &&
        (e.kind == EventKind::kStick || e.kind == EventKind::kSlipPositive ||
         e.kind == EventKind::kSlipNegative))
      changes.emplace_back(e.t, std::string(toString(e.kind)));
  return changes;
}

double maxModeTimeError(const std::vector<ModeChange>& changes,
                        const std::vector<ModeChange>& reference) {
  constexpr double kUnmatched = std::numeric_limits<double>::infinity();
  if (changes.size() != reference.size()) return kUnmatched;
  double error = 0.0;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (changes[i].second != reference[i].second) return kUnmatched;
    error = std::max(error, std::abs(changes[i].first - reference[i].first));
  }
  return error;
}

}  // namespace stickslip::dynamics
