#include "mechanisms/rigid_scenarios.hpp"

#include <stdexcept>

#include "mechanisms/belt.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/incline.hpp"

namespace stickslip::mechanisms {

const std::vector<RigidScenarioInfo>& rigidScenarios() {
  static const std::vector<RigidScenarioInfo> all{
      {"belt", "block on a moving belt tied by a spring (thesis Table 3.1): stick-slip cycle with a closed form", 20.0, 1e-4},
      {"dupont", "Dupont's two masses (Blajer & Markiewicz Fig. 4): friction in a slot whose normal force changes sign", 10.0, 1e-4},
      {"incline", "block on a 0.2 rad slope, mu_s = 0.4, pushed by 8 sin(2t) N along it: alternates stick and slip", 10.0, 1e-4},
  };
  return all;
}

const RigidScenarioInfo& rigidScenarioInfo(std::string_view name) {
  for (const auto& s : rigidScenarios())
    if (s.name == name) return s;
  std::string names;
  for (const auto& s : rigidScenarios()) names += (names.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown scenario '" + std::string(name) + "' (built-in: " + names + ")");
}

dynamics::RigidScenario buildRigidScenario(std::string_view name) {
  rigidScenarioInfo(name);
  if (name == "belt") return beltRigid({});
  if (name == "dupont") return dupontRigid({});
  return inclineRigid(pushedIncline());
}

}  // namespace stickslip::mechanisms
