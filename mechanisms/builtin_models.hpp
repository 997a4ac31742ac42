#pragma once
/// \file The built-ins that are model files: mechanisms/scenarios/NAME.yaml, compiled into the
/// library (mechanisms/CMakeLists.txt, BUILTIN_MODELS). A file holds a `model:`, or names
/// another built-in (`scenario:`) with other values of its `parameters:` (a variant, such as
/// journal-bearing-rigid). The file is the mechanism's only description: `stickslip run belt` and `stickslip run mechanisms/scenarios/belt.yaml` run
/// the same model, and the C++ builders of these built-ins (beltRigid, dupontRigid, ...)
/// load it with their structs' values as its parameters. What the file does not hold — run
/// defaults, references, analyses — is attached by name in rigid_scenarios.cpp.
/// A spatial file (`dimension: 3`, spatial_model_file.hpp) is loaded by builtinSpatialModel
/// (builtinModel refuses it); as a scenario, every route but the minimal form runs it.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/spatial_model_file.hpp"

namespace stickslip::mechanisms {

struct BuiltinModelFile {
  std::string_view name;  ///< the built-in's name
  std::string_view path;  ///< its file in the source tree, which labels errors
  std::string_view text;  ///< the file's contents
};

/// Every built-in that is a model file.
const std::vector<BuiltinModelFile>& builtinModelFiles();

/// The file of built-in `name`, or nullptr when that built-in is not a model file.
const BuiltinModelFile* builtinModelFile(std::string_view name);

/// What built-in `name` loads: the model file (a variant's base) and the values a variant
/// gives its parameters (located in the variant's file).
struct BuiltinModelSource {
  const BuiltinModelFile* file = nullptr;
  std::vector<ParameterValue> values;
};
/// Throws std::invalid_argument for a name that is not a built-in model file.
BuiltinModelSource builtinModelSource(std::string_view name);

/// The mechanism of built-in `name` (a model file) with `values` in place of its parameters'
/// (name, value; exact), named `name`. Throws InputError for a value the model rejects, std::invalid_argument
/// for a name that is not a built-in model file.
dynamics::RigidScenario builtinModel(std::string_view name,
                                     const std::vector<std::pair<std::string, double>>& values = {});

/// Whether built-in model file `f` describes a spatial mechanism (`dimension: 3`).
bool isSpatial(const BuiltinModelFile& f);

/// The names of the built-in model files that are spatial, in table order.
std::vector<std::string> builtinSpatialModelNames();

/// The spatial mechanism of built-in `name` (a spatial model file), assembled, with `values`
/// in place of its parameters' (as builtinModel), named `name`. Throws InputError for a value
/// the model rejects or for a planar file (model.dimension), std::invalid_argument for a name
/// that is not a built-in model file.
SpatialScenario builtinSpatialModel(std::string_view name,
                                    const std::vector<std::pair<std::string, double>>& values = {});

/// The value of parameter `name` of a mechanism loaded from a model file; throws
/// std::invalid_argument naming the mechanism when it has none of that name.
double modelParameter(const dynamics::RigidScenario& s, std::string_view name);

/// One value of a built-in's struct T and the name of the model parameter that holds it: the
/// one list both ways go through (modelValues, fromModel).
template <class T>
struct ModelField {
  std::string_view name;
  std::function<double&(T&)> of;
  ModelField(std::string_view n, double T::*member) : name(n), of([member](T& x) -> double& { return x.*member; }) {}
  ModelField(std::string_view n, std::function<double&(T&)> f) : name(n), of(std::move(f)) {}
};

/// The (name, value) pairs builtinModel takes, from `x`.
template <class T>
std::vector<std::pair<std::string, double>> modelValues(T x, const std::vector<ModelField<T>>& fields) {
  std::vector<std::pair<std::string, double>> values;
  for (const ModelField<T>& f : fields) values.emplace_back(f.name, f.of(x));
  return values;
}

/// T{} with every field read from the parameters of a mechanism loaded from its model file;
/// throws std::invalid_argument when one is missing.
template <class T>
T fromModel(const dynamics::RigidScenario& s, const std::vector<ModelField<T>>& fields) {
  T x{};
  for (const ModelField<T>& f : fields) f.of(x) = modelParameter(s, f.name);
  return x;
}

}  // namespace stickslip::mechanisms
