#pragma once
/// \file What every route (event-driven, Moreau–Jean, penalty, minimal form) reports: how the
/// run ended, the contact and joint-friction events with their times and kinds, counters, the
/// friction work, and a sampled history whose columns the route names.

#include <Eigen/Dense>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lcp/status.hpp"

namespace stickslip::dynamics {

/// Mode of one contact between events. Slip directions refer to the contact's tangent t:
/// kSlipPositive is v_t > 0 (rigid_contact.hpp).
enum class ContactMode { kOpen, kStick, kSlipPositive, kSlipNegative };

/// kStick, kSlipPositive, kSlipNegative: the contact enters that mode (from any other);
/// kImpact: a velocity jump at the contact; kClose: a unilateral contact closes without an
/// impact (ġ = 0); kOpen: it separates.
enum class EventKind { kStick, kSlipPositive, kSlipNegative, kImpact, kOpen, kClose };
std::string_view toString(ContactMode m);
std::string_view toString(EventKind k);  ///< stick, slip+, slip-, impact, open, close

struct ContactEvent {
  double t = 0.0;    ///< [s]
  int contact = 0;   ///< index into the contact list
  EventKind kind = EventKind::kStick;
  /// Estimated from samples, not located: the penalty route's stick/slip changes, timed at
  /// the first sample past the change (penalty_route.hpp).
  bool approximate = false;
  /// kClose and kOpen by the penalty route: the rate of penetration δ̇ at the crossing, > 0
  /// closing, < 0 opening [m/s]; NaN where the route does not measure it.
  double penetration_rate = std::numeric_limits<double>::quiet_NaN();
};

/// How a run ended. Every status but kOk comes with RunResult::message, which names the time
/// and what failed.
enum class RunStatus {
  kOk,
  /// A complementarity problem was not solved: RunResult::solver_status and solver_residual
  /// say how (never a silent wrong answer).
  kContactSolverFailure,
  /// The ODE integrator failed (CVODE's error, a step-size underflow, a non-finite derivative)
  /// or the equations of motion could not be solved (a singular constraint Jacobian).
  kIntegratorFailure,
  /// No contact mode is consistent (Painlevé, or a frictional impact that would add energy:
  /// Kane's paradox), or joint friction has no consistent stick/slip decision.
  kNoConsistentMode,
  /// A fixed point (a joint reaction and its friction) did not converge.
  kNotConverged,
  /// The energy of a mechanism that nothing drives rose (penalty_route.hpp: `passive`).
  kEnergyIncrease,
  /// A limit on steps or events was reached (Zeno accumulation, max_steps).
  kLimitReached,
  /// A unilateral contact the route keeps closed (the minimal form) lost its load: the run
  /// stops at the lift-off, where the degrees of freedom change; a route of unilateral
  /// contacts (event-driven, Moreau–Jean) continues past it.
  kLiftOff,
  /// The route returned before t_end without naming a failure (RunResult::requireReached):
  /// reported, never taken for a finished run.
  kIncomplete,
};
std::string_view toString(RunStatus s);  ///< ok, contact-solver-failure, integrator-failure, …

/// CPU seconds spent by the calling thread: a run's cost without the time other processes or
/// threads take from it; the engines benchmarks time the engines by it too.
double threadCpuSeconds();

struct RunResult {
  RunStatus status = RunStatus::kOk;
  bool ok() const { return status == RunStatus::kOk; }
  std::string message;  ///< why the run stopped early, when !ok()
  /// The complementarity solver the nonsmooth routes used ("auto" resolved); empty otherwise.
  std::string contact_solver;
  /// kContactSolverFailure: the solver's own status and the residual of its last iterate.
  lcp::Status solver_status = lcp::Status::kSuccess;
  double solver_residual = std::numeric_limits<double>::quiet_NaN();
  std::vector<ContactEvent> events;
  /// The modes the run starts in, contacts then joint friction (as the event indices), as
  /// the route decided them at t = 0: events report changes from these. Empty: not decided
  /// by the route (judge from the initial state).
  std::vector<ContactMode> initial_modes;
  long steps = 0;              ///< integrator steps (event-driven) or time steps (Moreau–Jean)
  long relaxed_steps = 0;      ///< penalty route by RK4: steps that relaxed some bristle exactly (rk4.hpp)
  /// Penalty route by RK4: the energy its steps created, and the energy that flowed it is judged
  /// against [J] (PenaltyRun); NaN otherwise.
  double energy_created = std::numeric_limits<double>::quiet_NaN();
  double energy_flowed = std::numeric_limits<double>::quiet_NaN();
  long lcp_solves = 0;         ///< complementarity problems solved
  long pivots = 0;             ///< Lemke pivots over all solves
  /// Single-contact runs with cross-checking: mode decisions where the LCP and
  /// trial-and-error differ (0 expected).
  long mode_mismatches = 0;
  long mode_checks = 0;        ///< decisions cross-checked
  double cpu_seconds = 0.0;    ///< the run's CPU time (threadCpuSeconds), setup excluded
  double t_end = 0.0;          ///< time reached [s]
  /// Event-driven: the deepest penetration −g of a rigid unilateral contact over the samples
  /// and events [m] (within its event tolerances, a few gap_tolerance); NaN elsewhere.
  double max_penetration = std::numeric_limits<double>::quiet_NaN();
  /// Energy dissipated by friction, −∫ Σ F_k v_t,k dt [J]; Moreau–Jean sums −P_t v_t⁺ over
  /// its steps (every step, not only the sampled ones); NaN where a route does not report it.
  double friction_work = std::numeric_limits<double>::quiet_NaN();
  /// Sampled history, one row per sample, its columns named by `columns` (the same size):
  /// t, q (nq), v (nv), then per contact N_k, F_k (normal and friction force; for Moreau–Jean
  /// the impulses of the step that ends at the row divided by its length, at t = 0 those of the
  /// first step), per joint friction its reaction and friction, then what the route adds.
  Eigen::MatrixXd history;
  std::vector<std::string> columns;
  Eigen::VectorXd final_q, final_v;

  /// Index of the named column, or −1.
  Eigen::Index column(std::string_view name) const;
  /// Ends the run with `s` and `why` (the first failure is kept).
  void fail(RunStatus s, std::string why);
  /// A run is ok only when it reached `t_end_asked` (to round-off): an ok run that stopped
  /// short becomes kIncomplete, its message naming the time it reached.
  void requireReached(double t_end_asked);
  /// An ok run whose final state or sampled energy is not finite (the motion overflowed double
  /// precision) becomes kIntegratorFailure, its message naming the first sample where it is not.
  void requireFinite();
};

/// A stick/slip change: its time and kind ("stick", "slip+", "slip-").
using ModeChange = std::pair<double, std::string>;
/// The run's stick/slip changes in order (impacts, openings and closings left out).
/// With element ≥ 0, only those of that contact (or joint friction: index after the contacts).
std::vector<ModeChange> modeChanges(const RunResult& run, int element = -1);
/// Max |Δt| between two lists of changes matched one to one with equal kinds; +∞ when they
/// cannot be matched (different counts or kinds).
double maxModeTimeError(const std::vector<ModeChange>& changes,
                        const std::vector<ModeChange>& reference);

}  // namespace stickslip::dynamics
