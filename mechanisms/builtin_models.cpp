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

dynamics::RigidScenario builtinModel(std::string_view name, const std::vector<std::pair<std::string, double>>& values) {
  BuiltinModelSource source = builtinModelSource(name);
  for (const auto& [key, x] : values) {
    std::erase_if(source.values, [&](const ParameterValue& v) { return v.name == key; });
    source.values.push_back({key, exactNumber(x), "builtinModel", 0, key});
  }
  dynamics::RigidScenario s = loadPlanarModelText(source.file->text, source.file->path, source.values);
  s.name = name;
  return s;
}

double modelParameter(const dynamics::RigidScenario& s, std::string_view name) {
  for (const auto& [key, x] : s.parameters)
    if (key == name) return x;
  throw std::invalid_argument("mechanism '" + s.name + "' has no parameter '" + std::string(name) + "'");
}

}  // namespace stickslip::mechanisms
