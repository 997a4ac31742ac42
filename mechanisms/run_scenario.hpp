#pragma once
/// \file One path from a scenario — a built-in or a model file — to a result, by any route
/// (DESIGN §1b). The settings are resolved against the scenario's defaults, a route that cannot
/// take the mechanism says why (routeRefusal), the route runs, the history is completed with
/// the columns every route shares, and the scenario's own analyses (its paper's figures,
/// its exact reference) are attached. `stickslip run`, `compare` and `sweep` all go through
/// here and consume the result in memory.
///
/// History columns (ScenarioRun::result.columns), for every route:
///   t, the positions and velocities ("B.x", "B.y", "B.theta", "B.vx", "B.vy", "B.omega" per
///   body B), each contact's "C.N", "C.F", each joint friction's "J.reaction", "J.F", what the
///   route adds (the minimal form: "udotK", "lambdaK"; the penalty route: see
///   dynamics/routes/penalty/penalty_route.hpp; event-driven: the joints' multipliers
///   "J.lambda", "J.lambdaK", as the penalty route names them, where
///   dynamics/routes/joint_multipliers.hpp rebuilds them), then each contact's sliding velocity "C.v_t" (a journal in a
///   bearing also its eccentricity "C.e_x", "C.e_y"), each joint friction's rate "J.v_t", and
///   "energy", T + V of the model (kinetic, gravity and springs; no contact's elastic energy).
/// The minimal form's frictional elements are its own (minimal_form_route.hpp): the joints
/// with friction, then the frictional contacts, each with "J.reaction" (|R| or |N|) and "J.F".

#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/routes/stick_statistics.hpp"
#include "dynamics/routes/run_result.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

enum class Route { kEventDriven, kMoreauJean, kPenalty, kMinimalForm };
std::string_view toString(Route r);  ///< event-driven, moreau-jean, penalty, minimal-form
/// Every route's name, in that order.
const std::vector<std::string>& routeNames();
/// Throws std::invalid_argument("--method: unknown method …") with the nearest name.
Route parseRoute(std::string_view name);

/// What a run may cost, checked before it starts (ScenarioRunner) where the options tell: the
/// steps of a fixed-step route (t_end / dt), the history's samples (t_end / output_dt) and its
/// memory (samples × columns × 8 bytes). An adaptive route (CVODE) stops with limit-reached
/// when its steps or events pass the limit.
struct RunLimits {
  double max_steps = 1e8;
  double max_samples = 1e7;
  double max_history_mb = 2048.0;  ///< [MiB]
  double max_events = 1e6;         ///< event-driven, minimal form
};

/// How to run a scenario; what is left unset takes the scenario's default (its `run:` section
/// first, then the built-in's own values).
struct RunSettings {
  std::optional<Route> route;
  std::optional<double> t_end;      ///< [s], > 0
  /// The Moreau–Jean step, or the penalty route's RK4 step [s], > 0.
  std::optional<double> dt;
  /// History sampling [s]: > 0; Moreau–Jean also 0 (every step).
  std::optional<double> output_dt;
  /// CVODE's relative tolerance (event-driven, minimal form, the penalty route's BDF and Adams), > 0.
  std::optional<double> tolerance;
  double event_tolerance = 1e-10;   ///< event-driven: event location [s], > 0
  double theta = 0.5;               ///< Moreau–Jean's θ ∈ [½, 1]
  /// Moreau–Jean's position projection (MoreauJeanOptions): "contacts" (project_contacts),
  /// "positions" (project_positions too) or "none".
  std::string projection = "contacts";
  std::string solver = "auto";      ///< contact problems of the nonsmooth routes
  int facets = 8;                   ///< spatial contacts, solver lemke: the faceted cone's, ≥ 3 (others refuse another value)
  /// Event-driven: "newton" or "newton-tangential" (EventDrivenOptions); unset: the built-in's
  /// (RigidScenarioInfo::impact_law), newton for a mechanism of one's own.
  std::optional<std::string> impact_law;
  /// The penalty route: the catalogue law replacing set-valued Coulomb, or "none". The other
  /// routes: a built-in's choice of friction where it has one (zheng-*).
  std::optional<std::string> friction;
  std::optional<std::string> integrator;  ///< the penalty route's: "bdf", "rk4" or "adams"
  bool ideal = false;               ///< every clearance joint an ideal revolute (ideal_clearance.hpp)
  RunLimits limits;
};

/// One analysis of a run: figures merged into the run's JSON (top-level keys) and lines for
/// the text report.
struct Analysis {
  nlohmann::json figures = nlohmann::json::object();
  std::vector<std::string> lines;
};

/// The penalty route's choices, as run.
struct PenaltyChoice {
  std::string law;          ///< the catalogue law for set-valued Coulomb, or "none"
  std::string integrator;   ///< "bdf", "rk4" or "adams"
  std::string bdf_failure;  ///< why BDF was given up for RK4, when it was
  double stick_velocity = 0.0;  ///< |v_t| below which a loaded contact counts as sticking [m/s]
};

/// The minimal form's figures (dynamics/routes/minimal_form/minimal_form.hpp).
struct MinimalFormFigures {
  long absolute = 0, minimal = 0, n = 0, m = 0, k = 0, m2 = 0, k1 = 0;  ///< ReductionDimensions
  long rhs_evaluations = 0, reaction_failures = 0;
  double reaction_iterations_mean = 0.0;
  int reaction_iterations_max = 0;
  bool reaction_newton = false;
  std::vector<std::pair<double, double>> stick_intervals;
};

struct ScenarioRun {
  std::string scenario;        ///< the scenario's name
  std::string summary;         ///< one line on the mechanism, with its source
  Route route = Route::kEventDriven;
  double t_end = 0.0;          ///< the end time asked [s] (result.t_end: the time reached)
  std::string solver;          ///< the nonsmooth routes' contact solver
  std::string impact_law;      ///< event-driven's impact law (EventDrivenOptions::impact_law)
  dynamics::RunResult result;  ///< history completed as the file comment says
  /// The names of the event elements: contacts then joint friction (the minimal form: its own).
  std::vector<std::string> elements;
  double h = 0.0;              ///< Moreau–Jean's step [s]
  std::optional<PenaltyChoice> penalty;
  std::optional<MinimalFormFigures> minimal_form;
  dynamics::StickStatistics stick;
  double energy_initial = 0.0, energy_final = 0.0;  ///< T + V at the first and the last sample [J]
  /// The joints' constraint residual ‖Φ(q, t)‖∞ at the end [m or rad]: how far a time-stepping
  /// route let them drift apart. NaN without joints, and for the minimal form (none to drift).
  double joint_drift = std::numeric_limits<double>::quiet_NaN();
  std::vector<Analysis> analyses;
};

/// Why `route` cannot take the scenario's mechanism (the physical reason, naming the element),
/// or "" when it can.
std::string routeRefusal(const Scenario& scenario, Route route);

/// A run resolved and ready: settings checked, the mechanism built, its cost within the
/// limits. Construction throws std::invalid_argument for bad settings (a non-finite or
/// denormal number among them), a run beyond RunLimits (the estimate and the limit), or a route
/// that cannot take the mechanism (the reason); nothing runs until run(). Its result is ok
/// only when it reached t_end (RunResult::requireReached). Keeps a reference to the scenario;
/// one runner per thread.
class ScenarioRunner {
 public:
  ScenarioRunner(const Scenario& scenario, RunSettings settings);
  ~ScenarioRunner();
  ScenarioRunner(const ScenarioRunner&) = delete;
  ScenarioRunner& operator=(const ScenarioRunner&) = delete;

  Route route() const;
  double tEnd() const;  ///< the run's end time [s]
  /// The history's columns, known before the run.
  std::vector<std::string> columns() const;
  /// Runs once. `progress` is called with the simulated time as the run advances (a progress
  /// bar); it must not throw.
  ScenarioRun run(const std::function<void(double)>& progress = {});

 private:
  struct Plan;
  /// The mechanism of a planar or a spatial scenario, in the route's terms.
  static void planPlanar(Plan& p);
  static void planSpatial(Plan& p);
  static void planPenalty(Plan& p);  ///< the penalty route's law and integrator over the mechanism
  /// Throws std::invalid_argument when the run's estimated steps, samples or history memory
  /// pass RunSettings::limits, with the estimate, the options it comes from and the limit.
  void checkBudget() const;
  /// The minimal form's run: its own figures and the shared columns over its coordinates.
  void runMinimalForm(ScenarioRun& out) const;
  std::unique_ptr<Plan> plan_;
};

/// ScenarioRunner(scenario, settings).run().
ScenarioRun runScenario(const Scenario& scenario, const RunSettings& settings);

}  // namespace stickslip::mechanisms
