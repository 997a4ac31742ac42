#include "mechanisms/run_scenario.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/mechanism/ideal_clearance.hpp"
#include "dynamics/mechanism/planar_mechanism.hpp"
#include "dynamics/mechanism/rigid_counterpart.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/joint_multipliers.hpp"
#include "dynamics/routes/minimal_form/minimal_form.hpp"
#include "dynamics/routes/minimal_form/minimal_form_route.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/routes/penalty/penalty_route.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::mechanisms {
namespace {

constexpr double kLargestCount = 1e18;  ///< a limit that still fits a long
constexpr int kMostFacets = 256;        ///< the facets' bound 1 − cos(π/K) is 7.5e-5 there

/// A denormal number in a run setting is a typo or an overflow upstream: refused by name.
void requireNormal(const RunSettings& o) {
  const std::pair<const char*, std::optional<double>> numbers[] = {
      {"--t-end", o.t_end},
      {"--dt", o.dt},
      {"--output-dt", o.output_dt},
      {"--tolerance", o.tolerance},
      {"--event-tolerance", o.event_tolerance},
      {"--theta", o.theta},
      {"--max-steps", o.limits.max_steps},
      {"--max-samples", o.limits.max_samples},
      {"--max-history-mb", o.limits.max_history_mb},
      {"--max-events", o.limits.max_events}};
  for (const auto& [name, x] : numbers)
    if (x && std::fpclassify(*x) == FP_SUBNORMAL)
      throw std::invalid_argument(std::string(name) + ": " + exactNumber(*x) +
                                  " is denormal (smaller than 2.2250738585072014e-308 in magnitude)");
}

/// A count or a size for a message: three significant digits.
std::string estimate(double x) {
  std::ostringstream os;
  os << std::setprecision(3) << x;
  return os.str();
}

/// Run defaults of a model file: a compliant contact makes the phases stiff (BDF), as for the
/// built-ins; 1 s.
RigidScenarioInfo modelInfo(const Scenario& s) {
  RigidScenarioInfo info;
  info.name = s.name;
  info.summary = "a mechanism of its own, from " + s.source;
  if (s.model)
    for (const dynamics::RigidContact& c : s.model->contacts)
      info.stiff = info.stiff || c.normal == dynamics::RigidContact::Normal::kCompliant;
  return info;
}

/// The catalogue law by name with parameters `p`; an unknown name is an error naming --friction,
/// the nearest law and the catalogue.
std::unique_ptr<dynamics::FrictionLaw> catalogueLaw(std::string_view name, const dynamics::FrictionParameters& p) {
  std::vector<std::string> names;
  for (std::string_view n : dynamics::frictionLawNames()) names.emplace_back(n);
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string all;
    for (const auto& n : names) all += (all.empty() ? "" : ", ") + n;
    throw std::invalid_argument("--friction: unknown friction law '" + std::string(name) + "'" +
                                didYouMean(name, names) + " (catalogue: " + all + ")");
  }
  return dynamics::makeFrictionLaw(name, p);
}

/// Set-valued friction in a joint or a contact (μs or μk > 0).
bool anyFriction(const dynamics::Mechanism& m) {
  const auto frictional = [](const auto& e) { return e.mu_static > 0.0 || e.mu_kinetic > 0.0; };
  return std::any_of(m.jointFriction().begin(), m.jointFriction().end(), frictional) ||
         std::any_of(m.contacts().begin(), m.contacts().end(), frictional);
}

/// Appends the columns every route shares after its own (run_scenario.hpp): each contact's v_t
/// (and a journal's e_x, e_y), each joint friction's ṡ, and the energy T + V.
class SharedColumns {
 public:
  explicit SharedColumns(const dynamics::Mechanism& m) : m_(m) {}
  void names(std::vector<std::string>& out) const {
    for (const auto& c : m_.contacts()) {
      out.push_back(c.name + ".v_t");
      if (c.shape == dynamics::RigidContact::Shape::kJournalBearing) {
        out.push_back(c.name + ".e_x");
        out.push_back(c.name + ".e_y");
      }
    }
    for (const auto& j : m_.jointFriction()) out.push_back(j.name + ".v_t");
    out.push_back("energy");
  }
  void append(dynamics::RunResult& r) {
    std::vector<std::string> added;
    names(added);
    const std::vector<dynamics::RigidContact>& contacts = m_.contacts();
    const Eigen::Index from = r.history.cols(), nq = m_.positionSize(), nv = m_.velocitySize();
    r.history.conservativeResize(Eigen::NoChange, from + Eigen::Index(added.size()));
    r.columns.insert(r.columns.end(), added.begin(), added.end());
    Eigen::VectorXd q(nq), v(nv);
    dynamics::ContactKinematics k;
    for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
      q = r.history.row(i).segment(1, nq).transpose();
      v = r.history.row(i).segment(1 + nq, nv).transpose();
      Eigen::Index c = from;
      if (!contacts.empty()) m_.evaluateContacts(r.history(i, 0), q, v, k, false);
      for (std::size_t n = 0; n < contacts.size(); ++n) {
        r.history(i, c++) = dynamics::frictionLawVelocity(contacts[n], k, Eigen::Index(n));
        if (contacts[n].shape == dynamics::RigidContact::Shape::kJournalBearing) {
          // g = c − |e| and the contact's normal, the push on the journal, is −e/|e|
          // (rigid_contact.cpp): e = −(c − g) n.
          const Eigen::Vector2d e = (k.gap(Eigen::Index(n)) - contacts[n].journal_bearing.clearance()) * k.normal[n];
          r.history(i, c++) = e.x();
          r.history(i, c++) = e.y();
        }
      }
      for (std::size_t e = 0; e < m_.jointFriction().size(); ++e) r.history(i, c++) = m_.jointFrictionRate(e, v);
      r.history(i, c++) = m_.kineticEnergy(v) + m_.potentialEnergy(q);
    }
  }

 private:
  const dynamics::Mechanism& m_;
};

/// Event-driven's history gets the joints' multipliers, as the penalty route's has them
/// (dynamics/routes/joint_multipliers.hpp); Moreau–Jean's forces are a step's mean impulses,
/// not the forces at the sampled state.
bool recordsJointMultipliers(Route route, const dynamics::Mechanism& m) {
  return route == Route::kEventDriven && dynamics::rebuildsJointMultipliers(m);
}

void appendJointMultipliers(const dynamics::Mechanism& m, double alpha, double beta, dynamics::RunResult& r) {
  const Eigen::MatrixXd lambda = dynamics::jointMultiplierHistory(m, r, alpha, beta);
  const Eigen::Index from = r.history.cols();
  r.history.conservativeResize(Eigen::NoChange, from + lambda.cols());
  r.history.rightCols(lambda.cols()) = lambda;
  for (Eigen::Index row = 0; row < lambda.cols(); ++row) r.columns.push_back(m.multiplierName(row));
}

}  // namespace

std::string_view toString(Route r) {
  switch (r) {
    case Route::kEventDriven: return "event-driven";
    case Route::kMoreauJean: return "moreau-jean";
    case Route::kPenalty: return "penalty";
    case Route::kMinimalForm: return "minimal-form";
  }
  return "?";
}

const std::vector<std::string>& routeNames() {
  static const std::vector<std::string> names{"event-driven", "moreau-jean", "penalty", "minimal-form"};
  return names;
}

Route parseRoute(std::string_view name) {
  for (std::size_t i = 0; i < routeNames().size(); ++i)
    if (routeNames()[i] == name) return Route(i);
  throw std::invalid_argument("--method: unknown method '" + std::string(name) +
                              "' (expected event-driven, moreau-jean, penalty or minimal-form)" +
                              didYouMean(name, routeNames()));
}

struct ScenarioRunner::Plan {
  const Scenario* scenario = nullptr;
  RunSettings settings;
  Route route = Route::kEventDriven;
  RigidScenarioInfo info;
  double t_end = 1.0;
  /// The mechanism the absolute routes run: a planar scenario or a spatial one, and over it the
  /// mechanism as the routes see it with its initial state (for the minimal form, only a spatial
  /// mechanism's joints, which its form reduces).
  std::unique_ptr<dynamics::RigidScenario> planar;
  std::shared_ptr<const SpatialScenario> spatial;
  std::unique_ptr<dynamics::Mechanism> mechanism;
  Eigen::VectorXd q0, v0;
  double baumgarte_alpha = 0.0, baumgarte_beta = 0.0;
  /// The minimal form's: its model, and the reduction built on it.
  std::unique_ptr<dynamics::MinimalFormModel> minimal;
  std::unique_ptr<dynamics::MinimalForm> form;
  PenaltyChoice penalty;
  dynamics::PenaltyRouteOptions penalty_options;
  std::unique_ptr<dynamics::PenaltyRoute> penalty_route;
};

std::string routeRefusal(const Scenario& scenario, Route route) {
  try {
    RunSettings settings;
    settings.route = route;
    ScenarioRunner runner(scenario, settings);
    return {};
  } catch (const InputError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

ScenarioRunner::ScenarioRunner(const Scenario& scenario, RunSettings settings) : plan_(std::make_unique<Plan>()) {
  Plan& p = *plan_;
  p.scenario = &scenario;
  p.settings = std::move(settings);
  const RunSettings& o = p.settings;
  p.info = scenario.builtin ? rigidScenarioInfo(scenario.name) : modelInfo(scenario);
  p.route = o.route.value_or(parseRoute(p.info.default_method));
  p.t_end = o.t_end.value_or(p.info.t_end);
  requireNormal(o);
  for (const auto& [name, x] : {std::pair{"--t-end", o.t_end}, {"--dt", o.dt}, {"--tolerance", o.tolerance}})
    if (x && !(*x > 0.0 && std::isfinite(*x)))
      throw std::invalid_argument(std::string(name) + ": expected a number > 0, got " + exactNumber(*x));
  if (o.tolerance && *o.tolerance >= 1.0)  // relative: 1 or more asks for no correct digit
    throw std::invalid_argument("--tolerance: expected a relative tolerance below 1, got " + exactNumber(*o.tolerance));
  if (!(o.event_tolerance > 0.0 && std::isfinite(o.event_tolerance)))
    throw std::invalid_argument("--event-tolerance: expected a number > 0, got " + exactNumber(o.event_tolerance));
  for (const auto& [name, x] : {std::pair{"--max-steps", o.limits.max_steps}, {"--max-samples", o.limits.max_samples},
                                {"--max-history-mb", o.limits.max_history_mb}, {"--max-events", o.limits.max_events}})
    if (!(x >= 1.0 && x <= kLargestCount))
      throw std::invalid_argument(std::string(name) + ": expected a number in [1, 1e18], got " + exactNumber(x));
  if (!(o.theta >= 0.5 && o.theta <= 1.0))
    throw std::invalid_argument("--theta: expected a number in [0.5, 1], got " + exactNumber(o.theta));
  if (o.projection != "contacts" && o.projection != "positions" && o.projection != "none")
    throw std::invalid_argument("--projection: expected contacts, positions or none, got '" + o.projection + "'");
  if (o.output_dt) {
    const bool every_step = p.route == Route::kMoreauJean && *o.output_dt == 0.0;
    if (!(*o.output_dt > 0.0 || every_step) || !std::isfinite(*o.output_dt))
      throw std::invalid_argument("--output-dt: expected a time step > 0 [s]" +
                                  std::string(p.route == Route::kMoreauJean ? " or 0 (every step)" : "") + ", got " +
                                  exactNumber(*o.output_dt));
  }
  if (o.facets < 3 || o.facets > kMostFacets)
    throw std::invalid_argument("--facets: expected an integer in [3, " + std::to_string(kMostFacets) + "], got " +
                                std::to_string(o.facets));
  if (o.facets != RunSettings{}.facets && o.solver != "lemke")
    throw std::invalid_argument("--facets: the faceted cone is --solver lemke's (spatial contacts); --solver " +
                                o.solver + " does not use it");
  // A name no nonsmooth route takes is refused here, whatever the route (compare gives every
  // method the same --solver), so that a file's run.solver is named at its line; whether the
  // route takes a known name is the route's own check.
  if (o.solver != "trial-and-error" && !dynamics::isMoreauJeanSolver(o.solver))
    throw std::invalid_argument(
        std::string("--solver: expected auto, lemke, nsgs, newton, trial-and-error") +
        (scenario.spatial ? ", round-cone or siconos-<fc3d solver>" : " or siconos-<fc2d solver>") +
        ", got '" + o.solver + "'");
  if (o.impact_law && *o.impact_law != "newton" && *o.impact_law != "newton-tangential")
    throw std::invalid_argument("--impact-law: expected newton or newton-tangential, got '" + *o.impact_law + "'");
  if (o.impact_law && *o.impact_law != "newton" && p.route != Route::kEventDriven)
    throw std::invalid_argument("--impact-law: " + *o.impact_law + " is event-driven's; " +
                                std::string(toString(p.route)) + " takes newton");
  if (o.integrator && *o.integrator != "bdf" && *o.integrator != "rk4" && *o.integrator != "adams")
    throw std::invalid_argument("--integrator: expected bdf, rk4 or adams, got '" + *o.integrator + "'");
  if (scenario.spatial) {
    planSpatial(p);
  } else {
    planPlanar(p);
  }
  if (p.route == Route::kPenalty) planPenalty(p);
  checkBudget();
}

void ScenarioRunner::planPenalty(Plan& p) {
  const Scenario& scenario = *p.scenario;
  const RunSettings& o = p.settings;

  const dynamics::Mechanism& m = *p.mechanism;
  dynamics::PenaltyRouteOptions& po = p.penalty_options;
  const bool frictional = anyFriction(m);
  po.friction_law = o.friction ? *o.friction : frictional ? p.info.penalty_friction : "none";
  po.friction_parameters = p.info.friction_from_model && scenario.model
                               ? p.info.friction_from_model(*scenario.model)
                               : scenario.friction.value_or(dynamics::FrictionParameters{});
  po.passive = p.info.passive;
  const auto law = po.friction_law != "none" ? catalogueLaw(po.friction_law, po.friction_parameters) : nullptr;
  const bool jumps = law && (law->jumpsAtZero() || law->jumpsWithState());
  const bool settles = law && law->settlesBetweenSteps();
  if (settles && o.integrator && *o.integrator != "rk4")
    throw std::invalid_argument("--integrator " + *o.integrator + ": " + dynamics::variableStepRefusal(*law) +
                                ": expected rk4");
  if (o.friction && po.friction_law != "none" && !frictional)
    throw std::invalid_argument("--friction: '" + scenario.name + "' has no set-valued friction for " +
                                po.friction_law + " to replace (no contact or joint with mu_s or mu_k > 0)");
  p.penalty.law = po.friction_law;
  p.penalty.stick_velocity = po.stick_velocity;
  // BDF unless told otherwise, or the law jumps (it stalls BDF) or settles between steps.
  p.penalty.integrator = o.integrator.value_or(jumps || settles ? "rk4" : "bdf");
  using Integrator = dynamics::PenaltyIntegrationOptions::Integrator;
  po.integration.integrator = p.penalty.integrator == "rk4"     ? Integrator::kRk4
                              : p.penalty.integrator == "adams" ? Integrator::kAdams
                                                                : Integrator::kBdf;
  po.integration.t_end = p.t_end;
  po.integration.dt = o.dt.value_or(p.info.penalty_dt);
  po.integration.output_dt = o.output_dt.value_or(p.info.output_dt);
  if (o.tolerance) po.integration.relative_tolerance = *o.tolerance;
  po.integration.max_rk4_steps = long(o.limits.max_steps);
  po.integration.max_run_steps = long(o.limits.max_steps);
  p.penalty_route = p.planar ? std::make_unique<dynamics::PenaltyRoute>(*p.planar, po)
                             : std::make_unique<dynamics::PenaltyRoute>(m, p.q0, p.v0, p.baumgarte_alpha,
                                                                        p.baumgarte_beta, po);
}

void ScenarioRunner::planPlanar(Plan& p) {
  const Scenario& scenario = *p.scenario;
  const RunSettings& o = p.settings;
  // The nonsmooth routes take a built-in's choice of friction, as values of its model's
  // parameters; the penalty route puts --friction's law in place of set-valued Coulomb.
  dynamics::RigidScenario mechanism = *scenario.model;
  if (o.friction && p.route != Route::kPenalty) {
    std::vector<ParameterValue> values = scenario.model_parameters;
    applyFrictionChoice(values, p.info, *o.friction);
    mechanism = loadPlanarModelText(scenario.model_text, scenario.model_source, values);
    mechanism.name = scenario.name;
  }
  if (o.ideal) mechanism = dynamics::withIdealClearanceJoints(mechanism);
  if (p.route != Route::kPenalty)
    for (const auto& c : mechanism.contacts)
      if (c.centres_slip)
        throw std::invalid_argument("--method: contact '" + c.name + "' of '" + scenario.name +
                                    "' has centres_slip, a friction law reading the centres' velocity: the "
                                    "penalty route's (the other routes resolve the surfaces' slip)");

  if (p.route == Route::kMinimalForm) {
    p.minimal = std::make_unique<dynamics::MinimalFormModel>(dynamics::minimalFormModel(mechanism));
    p.form = std::make_unique<dynamics::MinimalForm>(p.minimal->model, p.minimal->friction, p.minimal->options,
                                                     p.minimal->x0);
    return;
  }
  if (p.route == Route::kMoreauJean) mechanism = dynamics::withRigidContacts(std::move(mechanism));
  p.planar = std::make_unique<dynamics::RigidScenario>(std::move(mechanism));
  const dynamics::RigidScenario& s = *p.planar;
  if (p.route == Route::kMoreauJean)
    for (const auto& c : s.contacts) {
      if (c.normal != dynamics::RigidContact::Normal::kCompliant) continue;
      const std::string contact =
          "--method: moreau-jean takes rigid contacts (unilateral or bilateral); contact '" +
          c.name + "' of '" + scenario.name + "' is compliant, ";
      if (c.rigid_restitution && c.smooth_friction)  // withRigidContacts keeps it compliant
        throw std::invalid_argument(
            contact + "its friction the regularized law '" +
            std::string(c.smooth_friction->name()) +
            "', which needs the force of its penetration (event-driven or penalty run it; "
            "Moreau–Jean takes the contact rigid with set-valued friction only: coulomb, "
            "coulomb-stiction or none)");
      throw std::invalid_argument(
          contact +
          "a force of its penetration (event-driven or penalty run it; its "
          "rigid_restitution: e lets Moreau–Jean take it as a rigid contact)");
    }
  p.mechanism = std::make_unique<dynamics::PlanarMechanism>(s);
  p.q0 = s.q0;
  p.v0 = s.v0;
  p.baumgarte_alpha = s.baumgarte_alpha;
  p.baumgarte_beta = s.baumgarte_beta;
}

void ScenarioRunner::planSpatial(Plan& p) {
  const Scenario& scenario = *p.scenario;
  const RunSettings& o = p.settings;
  if (o.friction && p.route != Route::kPenalty) {
    std::vector<ParameterValue> values;
    applyFrictionChoice(values, p.info, *o.friction);  // a spatial mechanism offers none: says so
  }
  p.spatial = o.ideal ? std::make_shared<const SpatialScenario>(withIdealClearanceJoints(*scenario.spatial, "--ideal"))
                      : scenario.spatial;
  const SpatialScenario& s = *p.spatial;
  if (p.route == Route::kMinimalForm) {
    const dynamics::SpatialMechanism whole(s.model, s.q0, s.friction, s.clearances, s.planes);
    p.minimal = std::make_unique<dynamics::MinimalFormModel>(dynamics::minimalFormModel(whole, s.q0, s.v0, s.name));
    p.mechanism = std::make_unique<dynamics::SpatialMechanism>(s.model, s.q0, s.friction);
    p.form = std::make_unique<dynamics::MinimalForm>(*p.mechanism, p.minimal->options, p.minimal->x0);
    return;
  }
  std::vector<dynamics::SpatialClearance> clearances = s.clearances;
  if (p.route == Route::kMoreauJean || p.route == Route::kEventDriven)
    for (dynamics::SpatialClearance& c : clearances) {
      const std::string route = p.route == Route::kMoreauJean ? "moreau-jean" : "event-driven";
      if (!c.rigid_restitution)
        throw std::invalid_argument("--method: " + route + " takes the clearance joint as rigid; clearance joint '" +
                                    c.name + "' of '" + scenario.name +
                                    "' is compliant (the penalty route runs it; its rigid_restitution: e lets " + route +
                                    " take it as rigid)");
      c.rigid = true;
    }
  // Plane contacts: rigid for the nonsmooth routes; the penalty route's compliant law, theirs or
  // its default for a sphere of their radius.
  std::vector<dynamics::SpatialPlaneContact> planes = s.planes;
  if (p.route == Route::kPenalty)
    for (dynamics::SpatialPlaneContact& c : planes) {
      dynamics::RigidContact shape;
      shape.radius = c.geometry.radius;
      shape.restitution = c.restitution;
      if (!c.law) c.law = dynamics::defaultCompliantLaw(shape);
      c.rigid = false;
    }
  p.mechanism = std::make_unique<dynamics::SpatialMechanism>(s.model, s.q0, s.friction, std::move(clearances),
                                                             std::move(planes));
  p.q0 = s.q0;
  p.v0 = s.v0;
  // A spatial model file states no stabilization: the planar routes' default terms.
  p.baumgarte_alpha = dynamics::RigidScenario{}.baumgarte_alpha;
  p.baumgarte_beta = dynamics::RigidScenario{}.baumgarte_beta;
}

void ScenarioRunner::checkBudget() const {
  const Plan& p = *plan_;
  const RunSettings& o = p.settings;
  const RunLimits& limits = o.limits;
  const std::string t_end = "--t-end " + exactNumber(p.t_end);
  // A fixed step: Moreau–Jean's, or the penalty route's by RK4.
  std::optional<double> step;
  if (p.route == Route::kMoreauJean) step = o.dt.value_or(p.info.h);
  if (p.route == Route::kPenalty && p.penalty.integrator == "rk4") step = p.penalty_options.integration.dt;
  const double steps = step ? std::ceil(p.t_end / *step - 1e-9) : 0.0;  // as the routes count them
  if (steps > limits.max_steps)
    throw std::invalid_argument(t_end + " --dt " + exactNumber(*step) + " needs " + estimate(steps) +
                                " steps, more than --max-steps " + estimate(limits.max_steps) +
                                " (a larger --dt, a shorter --t-end, or a larger --max-steps)");
  const double output_dt = o.output_dt.value_or(p.info.output_dt);
  double samples = output_dt > 0.0 ? std::floor(p.t_end / output_dt) + 1.0 : steps + 1.0;
  if (step) samples = std::min(samples, steps + 1.0);  // a fixed-step route samples at most every step
  if (samples > limits.max_samples)
    throw std::invalid_argument(t_end + " --output-dt " + exactNumber(output_dt) + " needs " + estimate(samples) +
                                " history samples, more than --max-samples " + estimate(limits.max_samples) +
                                " (a larger --output-dt, a shorter --t-end, or a larger --max-samples)");
  const double columns = double(this->columns().size());
  const double mib = samples * columns * 8.0 / (1024.0 * 1024.0);
  if (mib > limits.max_history_mb)
    throw std::invalid_argument(t_end + " --output-dt " + exactNumber(output_dt) + " needs " + estimate(samples) +
                                " samples of " + estimate(columns) + " columns, " + estimate(mib) +
                                " MiB of history, more than --max-history-mb " + estimate(limits.max_history_mb) +
                                " (a larger --output-dt, a shorter --t-end, or a larger --max-history-mb)");
}

ScenarioRunner::~ScenarioRunner() = default;

Route ScenarioRunner::route() const { return plan_->route; }

double ScenarioRunner::tEnd() const { return plan_->t_end; }

std::vector<std::string> ScenarioRunner::columns() const {
  const Plan& p = *plan_;
  if (p.minimal) {
    const dynamics::ReductionDimensions& d = p.form->dimensions();
    std::vector<std::string> c = dynamics::historyColumns(p.form->system(), {}, {});
    for (Eigen::Index i = 0; i < d.k; ++i) c.push_back("udot" + std::to_string(i));
    for (Eigen::Index i = 0; i < d.m; ++i) c.push_back("lambda" + std::to_string(i));
    for (const auto& j : p.form->friction()) {
      c.push_back(j.name + ".reaction");
      c.push_back(j.name + ".F");
    }
    for (const auto& j : p.form->friction()) c.push_back(j.name + ".v_t");
    c.push_back("energy");
    return c;
  }
  const dynamics::Mechanism& m = *p.mechanism;
  std::vector<std::string> c = p.penalty_route ? p.penalty_route->columns()
                                               : dynamics::historyColumns(m, m.contacts(), m.jointFriction());
  if (recordsJointMultipliers(p.route, m))
    for (Eigen::Index row = 0; row < m.constraintCount(); ++row) c.push_back(m.multiplierName(row));
  SharedColumns(m).names(c);
  return c;
}

void ScenarioRunner::runMinimalForm(ScenarioRun& out) const {
  const Plan& p = *plan_;
  const RunSettings& o = p.settings;
  dynamics::RunResult& r = out.result;
  dynamics::MinimalFormSimulationOptions mo;
  mo.t_end = p.t_end;
  mo.relative_tolerance = o.tolerance.value_or(1e-10);
  mo.absolute_tolerance = 1e-2 * mo.relative_tolerance;
  mo.output_dt = o.output_dt.value_or(p.info.output_dt);
  mo.max_total_steps = long(o.limits.max_steps);
  mo.max_events = long(o.limits.max_events);
  const dynamics::MinimalFormRun m = dynamics::simulateMinimalForm(*p.form, p.minimal->x0, p.minimal->u0, mo);
  r = m.run;
  const dynamics::ReductionDimensions& d = m.dimensions;
  MinimalFormFigures f;
  f.absolute = d.absolute();
  f.minimal = d.minimal();
  f.n = d.n, f.m = d.m, f.k = d.k, f.m2 = d.m2, f.k1 = d.k1;
  f.rhs_evaluations = m.rhs_evaluations;
  f.reaction_failures = m.reaction_failures;
  f.reaction_iterations_mean = m.rhs_evaluations > 0 ? double(m.reaction_iterations) / double(m.rhs_evaluations) : 0.0;
  f.reaction_iterations_max = m.max_reaction_iterations;
  f.reaction_newton = p.minimal->options.reaction_newton;
  f.stick_intervals = m.stick_intervals;
  out.minimal_form = f;
  // Per element from its events, as the other routes count them (every element sticks
  // with the mechanism).
  const bool starts_stuck = !m.stick_intervals.empty() && m.stick_intervals.front().first <= 0.0;
  const std::vector<dynamics::FrictionalJoint>& friction = p.form->friction();
  out.stick = dynamics::stickStatistics(r.events, std::vector<bool>(friction.size(), starts_stuck), 0.0, r.t_end);
  for (const auto& j : friction) out.elements.push_back(j.name);
  // The shared columns: each element's sliding rate, the energy.
  const dynamics::MultibodySystem& model = p.form->system();
  const Eigen::Index nq = model.positionSize(), n = d.n, from = r.history.cols(), nj = Eigen::Index(friction.size());
  r.history.conservativeResize(Eigen::NoChange, from + nj + 1);
  for (const auto& j : friction) r.columns.push_back(j.name + ".v_t");
  r.columns.push_back("energy");
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    const Eigen::VectorXd x = r.history.row(i).segment(1, nq).transpose();
    const Eigen::VectorXd xdot = r.history.row(i).segment(1 + nq, n).transpose();
    for (Eigen::Index j = 0; j < nj; ++j)
      r.history(i, from + j) = p.form->slidingRate(std::size_t(j), r.history(i, 0), x, xdot);
    r.history(i, from + nj) = model.kineticEnergy(xdot) + model.potentialEnergy(x);
  }
}

ScenarioRun ScenarioRunner::run(const std::function<void(double)>& progress) {
  Plan& p = *plan_;
  const Scenario& scenario = *p.scenario;
  const RunSettings& o = p.settings;
  ScenarioRun out;
  out.scenario = scenario.name;
  out.summary = p.info.summary;
  out.route = p.route;
  out.t_end = p.t_end;
  out.solver = o.solver;
  dynamics::RunResult& r = out.result;

  if (p.route == Route::kMinimalForm) {
    runMinimalForm(out);
  } else {
    const dynamics::Mechanism& m = *p.mechanism;
    if (p.route == Route::kEventDriven) {
      dynamics::EventDrivenOptions eo;
      eo.output_dt = o.output_dt.value_or(p.info.output_dt);
      eo.t_end = p.t_end;
      eo.solver = o.solver;
      eo.facets = o.facets;
      eo.impact_law = o.impact_law.value_or(p.info.impact_law);
      out.impact_law = eo.impact_law;
      if (p.info.stiff) eo.integrator = dynamics::OdeMethod::kBdf;
      eo.relative_tolerance = o.tolerance.value_or(p.info.stiff ? 1e-8 : 1e-10);
      eo.absolute_tolerance = 1e-2 * eo.relative_tolerance;
      // A closed contact's gap drifts by the integrator's tolerance; a gap tolerance below it
      // sends every step back to a mode decision (the ladder at rtol 1e-6: 2 M steps). At the
      // default tolerances 10 atol ≤ 1e-9, the default, which it leaves unchanged.
      eo.gap_tolerance = std::max(eo.gap_tolerance, 10.0 * eo.absolute_tolerance);
      eo.velocity_tolerance = p.info.zero_velocity;
      eo.event_tolerance = o.event_tolerance;
      eo.baumgarte_alpha = p.baumgarte_alpha;
      eo.baumgarte_beta = p.baumgarte_beta;
      eo.max_total_steps = long(o.limits.max_steps);
      eo.max_events = long(o.limits.max_events);
      eo.progress = progress;
      r = dynamics::simulateEventDriven(m, p.q0, p.v0, eo);
    } else if (p.route == Route::kMoreauJean) {
      dynamics::MoreauJeanOptions mo;
      mo.output_dt = o.output_dt.value_or(p.info.output_dt);
      mo.t_end = p.t_end;
      mo.solver = o.solver;
      mo.facets = o.facets;
      mo.h = out.h = o.dt.value_or(p.info.h);
      mo.theta = o.theta;
      mo.project_contacts = o.projection != "none";
      mo.project_positions = o.projection == "positions";
      mo.max_steps = long(o.limits.max_steps);
      mo.progress = progress;
      r = dynamics::simulateMoreauJean(m, p.q0, p.v0, mo);
    } else {
      dynamics::PenaltyIntegrationOptions integration = p.penalty_options.integration;
      integration.progress = progress;
      r = p.penalty_route->run(integration);
      // A BDF failure with no integrator asked for is redone with RK4, and the reason kept.
      if (r.status == dynamics::RunStatus::kIntegratorFailure && !o.integrator && p.penalty.integrator == "bdf") {
        p.penalty.bdf_failure = std::string(dynamics::toString(r.status)) + ": " + r.message;
        p.penalty.integrator = "rk4";
        integration.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kRk4;
        r = p.penalty_route->run(integration);
      }
      out.penalty = p.penalty;
    }
    for (const auto& c : m.contacts()) out.elements.push_back(c.name);
    for (const auto& j : m.jointFriction()) out.elements.push_back(j.name);
    if (recordsJointMultipliers(p.route, m)) appendJointMultipliers(m, p.baumgarte_alpha, p.baumgarte_beta, r);
    SharedColumns(m).append(r);
    if (m.constraintCount() > 0 && r.final_q.size() == m.positionSize()) {
      Eigen::VectorXd phi(m.constraintCount());
      m.constraints(r.t_end, r.final_q, phi);
      out.joint_drift = phi.lpNorm<Eigen::Infinity>();
    }
    // The frictional contacts and joint frictions the run starts sticking in, as the route
    // decided at t = 0.
    std::vector<bool> sticking;
    for (std::size_t k = 0; k < r.initial_modes.size(); ++k)
      sticking.push_back(r.initial_modes[k] == dynamics::ContactMode::kStick &&
                         (k >= m.contacts().size() || m.contacts()[k].frictional()));
    out.stick = dynamics::stickStatistics(r.events, sticking, 0.0, r.t_end);
  }
  r.requireReached(p.t_end);
  r.requireFinite();
  const Eigen::Index energy = r.column("energy");
  if (r.history.rows() > 0) {
    out.energy_initial = r.history(0, energy);
    out.energy_final = r.history(r.history.rows() - 1, energy);
  } else {
    out.energy_initial = out.energy_final = NAN;
  }
  for (const RunAnalysis analysis : p.info.analyses) {
    // A paper's closed form that does not hold for these values (a belt without its spring)
    // gives no figures; the run itself stands, and says so.
    try {
      if (std::optional<Analysis> a = analysis(scenario, out)) out.analyses.push_back(std::move(*a));
    } catch (const std::invalid_argument& e) {
      out.analyses.push_back({.figures = {{"analysis_unavailable", e.what()}},
                              .lines = {std::string("analysis    not available: ") + e.what()}});
    }
  }
  return out;
}

ScenarioRun runScenario(const Scenario& scenario, const RunSettings& settings) {
  return ScenarioRunner(scenario, settings).run();
}

}  // namespace stickslip::mechanisms
