#include "mechanisms/builtin_models.hpp"

#include <stdexcept>
#include <string>

#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

const BuiltinModelFile* builtinModelFile(std::string_view name) {
  for (const BuiltinModelFile& f : builtinModelFiles())
    if (f.name == name) return &f;
  return nullptr;
}

dynamics::RigidScenario builtinModel(std::string_view name, const std::vector<std::pair<std::string, double>>& values) {
  const BuiltinModelFile* f = builtinModelFile(name);
  if (!f) throw std::invalid_argument("'" + std::string(name) + "' is not a built-in model file");
  std::vector<ParameterValue> given;
  for (const auto& [key, x] : values) given.push_back({key, exactNumber(x), "builtinModel", 0, key});
  return loadPlanarModelText(f->text, f->path, given);
}

double modelParameter(const dynamics::RigidScenario& s, std::string_view name) {
  for (const auto& [key, x] : s.parameters)
    if (key == name) return x;
  throw std::invalid_argument("mechanism '" + s.name + "' has no parameter '" + std::string(name) + "'");
}

}  // namespace stickslip::mechanisms
