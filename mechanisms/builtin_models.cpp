#include "mechanisms/builtin_models.hpp"

#include <yaml-cpp/yaml.h>

#include <stdexcept>
#include <string>

#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

const BuiltinModelFile* builtinModelFile(std::string_view name) {
  for (const BuiltinModelFile& f : builtinModelFiles())
    if (f.name == name) return &f;
  return nullptr;
}

BuiltinModelSource builtinModelSource(std::string_view name) {
  const BuiltinModelFile* f = builtinModelFile(name);
  if (!f) throw std::invalid_argument("'" + std::string(name) + "' is not a built-in model file");
  const YAML::Node root = YAML::Load(std::string(f->text));  // compiled in, tested: it parses
  if (!root["scenario"]) return {f, {}};
  BuiltinModelSource base = builtinModelSource(root["scenario"].Scalar());
  for (const auto& kv : root["parameters"]) {
    const std::string key = kv.first.Scalar();
    base.values.push_back({key, kv.second.Scalar(), std::string(f->path), kv.second.Mark().line + 1,
                           "parameters." + key});
  }
  return base;
}

namespace {

/// What built-in `name` loads with `values` (exact numbers) in place of its parameters'.
BuiltinModelSource withValues(std::string_view name, const std::vector<std::pair<std::string, double>>& values,
                              const char* origin) {
  BuiltinModelSource source = builtinModelSource(name);
  for (const auto& value : values) {
    const std::string& key = value.first;  // (clang's C++20 does not capture structured bindings)
    std::erase_if(source.values, [&](const ParameterValue& v) { return v.name == key; });
    source.values.push_back({key, exactNumber(value.second), origin, 0, key});
  }
  return source;
}

}  // namespace

dynamics::RigidScenario builtinModel(std::string_view name, const std::vector<std::pair<std::string, double>>& values) {
  const BuiltinModelSource source = withValues(name, values, "builtinModel");
  dynamics::RigidScenario s = loadPlanarModelText(source.file->text, source.file->path, source.values);
  s.name = name;
  return s;
}

bool isSpatial(const BuiltinModelFile& f) {
  return modelFileDimension(builtinModelSource(f.name).file->text) == 3;  // a variant: its base's
}

std::vector<std::string> builtinSpatialModelNames() {
  std::vector<std::string> names;
  for (const BuiltinModelFile& f : builtinModelFiles())
    if (isSpatial(f)) names.emplace_back(f.name);
  return names;
}

SpatialScenario builtinSpatialModel(std::string_view name, const std::vector<std::pair<std::string, double>>& values) {
  const BuiltinModelSource source = withValues(name, values, "builtinSpatialModel");
  SpatialScenario s = loadSpatialModelText(source.file->text, source.file->path, source.values);
  s.name = name;
  return s;
}

double modelParameter(const dynamics::RigidScenario& s, std::string_view name) {
  for (const auto& [key, x] : s.parameters)
    if (key == name) return x;
  throw std::invalid_argument("mechanism '" + s.name + "' has no parameter '" + std::string(name) + "'");
}

}  // namespace stickslip::mechanisms
