#pragma once
/// \file The data of the built-ins built in C++ (the others are model files,
/// mechanisms/builtin_models.hpp) as one value, with its parameters listed by name: what
/// `stickslip show` prints, what a scenario file's `parameters:` section sets and what
/// `--set parameters.KEY=VALUE` changes. The builders take the same structs, so a file that
/// repeats a built-in's values runs exactly the built-in.

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "dynamics/friction/friction_parameters.hpp"
#include "mechanisms/journal_bearing.hpp"
#include "mechanisms/roller_crank.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::mechanisms {

/// std::monostate: the mechanism is a model (the user's `model:` or a built-in model file,
/// mechanisms/builtin_models.hpp), its values are its model's parameters.
using ScenarioData = std::variant<std::monostate, ZhengSliderCrank>;

/// One named value of a scenario's data, pointing into it.
struct ScenarioParameter {
  enum class Range { kAny, kPositive, kNonNegative, kUnit };  ///< kUnit: in [0, 1]
  std::string key;                      ///< snake_case, as in the file
  std::variant<double*, bool*> value;
  Range range = Range::kAny;
  std::string doc;                      ///< meaning and unit, printed as a comment
};

/// Every built-in scenario name, in `stickslip list` order.
const std::vector<std::string>& builtinScenarioNames();

/// The data a built-in scenario runs with (std::monostate for a built-in model file); throws
/// std::invalid_argument naming the built-in scenarios for an unknown name.
ScenarioData defaultScenarioData(std::string_view name);

/// The friction catalogue's parameters the penalty route takes for a scenario with `data`:
/// `given` (its friction_parameters:, defaults if none) with the ones its data fix (zheng-*:
/// the modified Coulomb's v0, v1). μs and μk are each contact's (penalty_route.hpp): never
/// friction_parameters.
dynamics::FrictionParameters penaltyFrictionParameters(const ScenarioData& data,
                                                       const std::optional<dynamics::FrictionParameters>& given);

/// The parameters of `data`, pointing into it (valid while `data` lives), in file order.
std::vector<ScenarioParameter> scenarioParameters(ScenarioData& data);

/// The data of scenario `name` as its type; throws std::invalid_argument when `data` holds
/// another scenario's.
template <class T>
const T& scenarioDataOf(const ScenarioData& data, std::string_view name) {
  if (const T* d = std::get_if<T>(&data)) return *d;
  throw std::invalid_argument("scenario '" + std::string(name) + "': its data are of another scenario");
}

/// Checks the data as its builder will (the structs' validate()); throws std::invalid_argument.
void validateScenarioData(const ScenarioData& data);

}  // namespace stickslip::mechanisms
