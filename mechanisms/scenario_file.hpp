#pragma once
/// \file Scenario files (YAML): a built-in mechanism, its parameters and the run settings.
///
///     scenario: zheng-torque        # the mechanism (a built-in name)
///     parameters:                   # any of its data; the rest keep the built-in values
///       mu_static: 0.12
///     friction_parameters:          # the penalty route's law (belt, journal-bearing,
///       sigma0: 1e5                 #   roller-crank), FrictionParameters by name
///     run:                          # options of `stickslip run`, '-' written '_'
///       method: event-driven
///       t_end: 2
///
/// Instead of `scenario:` (and its parameters), a file may describe a mechanism of its own in
/// a `model:` section (mechanisms/planar_model_file.hpp; spatial_model_file.hpp with
/// `dimension: 3`), run by every route. A built-in is a
/// model file itself (mechanisms/builtin_models.hpp): `parameters:` and --set
/// parameters.NAME are values of its model.parameters.
///
/// `stickslip show NAME` prints every parameter of a built-in in this form, with exact
/// (shortest round-trip) numbers, so running the printed file repeats the built-in bit for
/// bit. Errors are mechanisms::InputError naming file, line and key path.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/spatial_model_file.hpp"
#include "dynamics/friction/friction_parameters.hpp"

namespace stickslip::mechanisms {

/// One entry of the `run:` section (or of --set run.KEY=VALUE): a `stickslip run` option.
struct RunSetting {
  std::string key;     ///< as written, e.g. "t_end"
  std::string value;   ///< the scalar's text
  std::string origin;  ///< the file, or "--set"
  int line = 0;        ///< 1-based line in the file, 0 for --set
};

struct Scenario {
  std::string name;    ///< the built-in it instantiates, or the model's name
  std::string source;  ///< the file it was read from; "" for a built-in name
  /// The penalty route's friction law parameters (`friction_parameters:`), for the scenarios
  /// that have them (RigidScenarioInfo::friction_parameters).
  std::optional<dynamics::FrictionParameters> friction;
  std::vector<RunSetting> run;  ///< one per key, in file order, --set ones replacing
  /// The mechanism (mechanisms/planar_model_file.hpp): the user's own (`model:`) or a
  /// built-in's model file (builtin_models.hpp). Its parameters are set by
  /// --set [model.]parameters.NAME=VALUE, which rebuilds it from model_text.
  std::shared_ptr<const dynamics::RigidScenario> model;
  /// A spatial mechanism (`dimension: 3`, spatial_model_file.hpp) in its place: then `model`
  /// is null. Every route but the minimal form runs it.
  std::shared_ptr<const SpatialScenario> spatial;
  std::string model_text;    ///< the YAML document it was read from
  std::string model_source;  ///< the file that labels its errors
  std::vector<ParameterValue> model_parameters;  ///< values given from outside model_text
  /// `name` is a built-in: its run defaults, references and analyses (rigid_scenarios.hpp)
  /// apply.
  bool builtin = false;
};

/// True when `arg` names a scenario file rather than a built-in: it ends in .yaml or .yml,
/// or contains a '/'.
bool isScenarioFile(std::string_view arg);

/// A built-in name (its defaults) or a scenario file. Throws InputError: missing file, YAML
/// syntax, unknown key or scenario (with the nearest valid one), wrong type, a value out of
/// range, data the mechanism rejects.
Scenario loadScenario(std::string_view name_or_file);
/// The scenario's planar mechanism; throws std::invalid_argument("<what> takes planar
/// mechanisms; '<name>' is spatial (dimension: 3)") for a spatial one.
const dynamics::RigidScenario& planarModel(const Scenario& scenario, std::string_view what);

/// The values of the scenario's model.parameters, as evaluated (planar or spatial).
const std::vector<std::pair<std::string, double>>& modelParameters(const Scenario& scenario);

/// A scenario file's text; `label` stands for the file in errors and as its source.
Scenario loadScenarioText(const std::string& text, std::string_view label);

/// A copy whose mechanism is built anew from its text. A model's expressions evaluate on
/// state they own (muParser variables), so runs on separate threads each need their own
/// mechanism: one Scenario is then safe to run from several threads.
Scenario withOwnModel(const Scenario& scenario);

/// Applies --set KEY=VALUE with KEY `parameters.NAME`, `friction_parameters.NAME`,
/// `model.parameters.NAME` (the same as parameters.NAME) or `run.NAME`; throws InputError.
/// The model's parameters are checked as a whole by applySettings, after every assignment.
void applySetting(Scenario& scenario, std::string_view assignment);
/// Every assignment in order, then the mechanism's own checks on the result. A key given
/// twice is an InputError (a repeat would silently keep its last value).
void applySettings(Scenario& scenario, const std::vector<std::string>& assignments);

/// The scenario as a file: `summary` as its heading comment, every parameter with its
/// meaning and unit, and `run` settings (key, value) in order.
std::string scenarioYaml(const Scenario& scenario, std::string_view summary,
                         const std::vector<std::pair<std::string, std::string>>& run);

/// What `stickslip show` prints: a built-in scenario as a file, with every parameter, its run
/// settings and the default method. Throws std::invalid_argument for a mechanism of its own
/// (model:), whose file is its description.
std::string showScenario(const Scenario& scenario);

/// The shortest text that reads back as exactly `x`.
std::string exactNumber(double x);

}  // namespace stickslip::mechanisms
