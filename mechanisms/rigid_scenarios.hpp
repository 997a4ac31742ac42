#pragma once
/// \file The built-in scenarios of the nonsmooth formulations, by name, with their default
/// data and the run settings they are meant for.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/minimal_form_route.hpp"
#include "dynamics/run_result.hpp"
#include "dynamics/nonsmooth/rigid_contact.hpp"
#include "mechanisms/scenario_data.hpp"

namespace stickslip::mechanisms {

struct Scenario;     // scenario_file.hpp
struct ScenarioRun;  // run_scenario.hpp
struct Analysis;     // run_scenario.hpp

/// An analysis a built-in attaches to its runs (its paper's figures); nothing when it does not
/// apply to the run (another route, another variant of the mechanism).
using RunAnalysis = std::optional<Analysis> (*)(const Scenario&, const ScenarioRun&);

struct RigidScenarioInfo {
  std::string name;
  std::string summary;       ///< one line, with its source
  double t_end = 1.0;        ///< default run length [s]
  double h = 1e-4;           ///< default Moreau–Jean step [s]
  double output_dt = 1e-3;   ///< default history sampling [s] (what its analyses need)
  /// A compliant contact makes the event-driven phases stiff: BDF at a relative tolerance
  /// of 1e-8 instead of Adams at 1e-10.
  bool stiff = false;
  double zero_velocity = 1e-8;  ///< |v_t| below this counts as zero at an event [m/s]
  /// Moreau–Jean runs it (zheng-*: with the rigid clearance joint, buildRigidScenario's
  /// `rigid`); false: a compliant contact, event-driven only.
  bool moreau_jean = true;
  /// The route `stickslip run` takes when none is given: the one the built-in was made for.
  std::string default_method = "event-driven";
  /// The catalogue law the penalty route puts in place of set-valued Coulomb unless
  /// --friction says otherwise: the one the built-in's source uses ("none": frictionless).
  std::string penalty_friction = "linear";
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
  /// The friction catalogue's parameters its penalty route starts from (`friction_parameters:`),
  /// or nothing when its laws take theirs from its data (zheng-*, muvengei-lugre). μs and μk
  /// are each contact's, not among them.
  std::optional<dynamics::FrictionParameters> friction_parameters{};
};

/// Every built-in rigid scenario, in the order `stickslip list` shows them.
const std::vector<RigidScenarioInfo>& rigidScenarios();
/// Throws std::invalid_argument naming the valid scenarios for an unknown name.
const RigidScenarioInfo& rigidScenarioInfo(std::string_view name);
/// Builds the scenario from `data` (its defaultScenarioData or a scenario file's); a built-in
/// model file (builtin_models.hpp) with its own values (a Scenario's model holds the user's). For the
/// zheng-* scenarios, `friction` chooses the clearance joint's friction — "coulomb-stiction"
/// (dry, set-valued, μ < μs; their default), "coulomb" (dry, μs = μ), "ambrosio" (Zheng's
/// modified Coulomb, regularized) or "none" — and `ideal` replaces the clearance joint by an
/// ideal revolute; `rigid` makes it a rigid unilateral joint (ZhengSliderCrank::rigid_contact,
/// for Moreau–Jean; not with "ambrosio"). Other scenarios take only "default", no `ideal`
/// and ignore `rigid` (their contacts are rigid already). Throws
/// std::invalid_argument for an unknown name or choice, or data of another scenario.
dynamics::RigidScenario buildRigidScenario(std::string_view name, const ScenarioData& data,
                                           std::string_view friction = "default",
                                           bool ideal = false, bool rigid = false);
/// The same with the scenario's default data.
dynamics::RigidScenario buildRigidScenario(std::string_view name,
                                           std::string_view friction = "default",
                                           bool ideal = false, bool rigid = false);

/// The built-in in Blajer's terms: the mechanism the other routes run, through
/// dynamics/minimal_form_route.hpp, except blajer-2's pin-in-slot joint (its default), which
/// only the minimal form has. Throws std::invalid_argument with the reason the minimal form
/// cannot take the mechanism.
dynamics::MinimalFormModel buildMinimalForm(std::string_view name, const ScenarioData& data);

}  // namespace stickslip::mechanisms
