#pragma once
/// \file The built-in scenarios by name: each a model file (builtin_models.hpp) with the run
/// settings it is meant for, its references and its analyses.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/planar_model_file.hpp"

namespace stickslip::mechanisms {

struct Scenario;     // scenario_file.hpp
struct ScenarioRun;  // run_scenario.hpp
struct Analysis;     // run_scenario.hpp

/// An analysis a built-in attaches to its runs (its paper's figures); nothing when it does not
/// apply to the run (another route, another variant of the mechanism).
using RunAnalysis = std::optional<Analysis> (*)(const Scenario&, const ScenarioRun&);

/// A choice of friction a built-in offers (`--friction NAME` on its nonsmooth routes): the
/// values it gives its model's parameters (expressions of the others).
struct FrictionChoice {
  std::string name;
  std::string summary;
  std::vector<std::pair<std::string, std::string>> values;
};

struct RigidScenarioInfo {
  std::string name;
  std::string summary;       ///< one line, with its source
  double t_end = 1.0;        ///< default run length [s]
  double h = 1e-4;           ///< default Moreau–Jean step [s]
  double output_dt = 1e-3;   ///< default history sampling [s] (what its analyses need)
  /// The penalty route's default RK4 step [s]: 10 µs resolves the default steel contacts of
  /// bodies of tens of grams and up.
  double penalty_dt = 1e-5;
  /// A compliant contact makes the event-driven phases stiff: BDF at a relative tolerance
  /// of 1e-8 instead of Adams at 1e-10.
  bool stiff = false;
  double zero_velocity = 1e-8;  ///< |v_t| below this counts as zero at an event [m/s]
  /// The route `stickslip run` takes when none is given: the one the built-in was made for.
  std::string default_method = "event-driven";
  /// The catalogue law the penalty route puts in place of set-valued Coulomb unless
  /// --friction says otherwise: the one the built-in's source uses ("none": frictionless).
  std::string penalty_friction = "linear";
  /// The event-driven route's impact law unless --impact-law says otherwise: "newton", or
  /// "newton-tangential" where its frictional impacts would add energy by Newton's (Kane's
  /// paradox: muvengei-lugre's at 2500 rpm).
  std::string impact_law = "newton";
  /// Nothing drives it: the penalty route's energy guard (PenaltyRouteOptions::passive).
  bool passive = false;
  /// The columns `compare` sets side by side unless told (the quantities its papers plot);
  /// empty: the first run's moving coordinates.
  std::vector<std::string> compare_outputs{};
  /// The analyses attached to its runs, in the order they are reported.
  std::vector<RunAnalysis> analyses{};
  /// The penalty route's law parameters derived from its model's parameters (muvengei-lugre:
  /// per unit load, vs from the ideal mechanism), in place of friction_parameters.
  dynamics::FrictionParameters (*friction_from_model)(const dynamics::RigidScenario&) = nullptr;
  /// The choices of `--friction` its nonsmooth routes take (zheng-*), the first the default:
  /// each sets some of its model's parameters. Empty: its friction is its model's.
  std::vector<FrictionChoice> friction_choices{};
  /// The friction catalogue's parameters its penalty route starts from (`friction_parameters:`),
  /// or nothing when its laws take theirs from its data (zheng-*, muvengei-lugre). μs and μk
  /// are each contact's, not among them.
  std::optional<dynamics::FrictionParameters> friction_parameters{};
};

/// Every built-in rigid scenario, in the order `stickslip list` shows them.
const std::vector<RigidScenarioInfo>& rigidScenarios();
/// Throws std::invalid_argument naming the valid scenarios for an unknown name.
const RigidScenarioInfo& rigidScenarioInfo(std::string_view name);
/// Every built-in scenario's name, in `stickslip list` order.
const std::vector<std::string>& builtinScenarioNames();

/// `values` (a model's parameter values) with those choice `friction` of built-in `info`
/// gives, located as `--friction`, in place of any of the same name. Throws
/// std::invalid_argument naming the choices (or the built-ins that have some).
void applyFrictionChoice(std::vector<ParameterValue>& values, const RigidScenarioInfo& info,
                         std::string_view friction);

/// Built-in `name` (its model file) with its choice of friction (`friction`; "default": the
/// model's own) and, with `ideal`, its clearance joints made ideal revolutes. Throws
/// std::invalid_argument for an unknown name or choice.
dynamics::RigidScenario buildRigidScenario(std::string_view name, std::string_view friction = "default",
                                           bool ideal = false);

}  // namespace stickslip::mechanisms
