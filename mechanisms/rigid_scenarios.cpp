#include "mechanisms/rigid_scenarios.hpp"

#include <stdexcept>

#include "mechanisms/belt.hpp"
#include "mechanisms/bouncing_ball.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/flores_translational.hpp"
#include "mechanisms/incline.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::mechanisms {

const std::vector<RigidScenarioInfo>& rigidScenarios() {
  static const std::vector<RigidScenarioInfo> all{
      {"belt", "block on a moving belt tied by a spring (thesis Table 3.1): stick-slip cycle with a closed form", 20.0, 1e-4},
      {"dupont", "Dupont's two masses (Blajer & Markiewicz Fig. 4): friction in a slot whose normal force changes sign", 10.0, 1e-4},
      {"incline", "block on a 0.2 rad slope, mu_s = 0.4, pushed by 8 sin(2t) N along it: alternates stick and slip", 10.0, 1e-4},
      {"ball", "disk dropped from 1 m with e = 0.5 and 2 m/s forward, mu = 0.3: bounces, slides, then rolls", 3.0, 1e-4},
      {"flores-translational", "Flores, Leine & Glocker's slider-crank with a translational clearance joint (DESIGN 7)", 0.2, 1e-5},
      {"zheng-torque", "Zheng et al. Example I: slider-crank, clearance joint in permanent contact, torque 0.5 sin(2 pi t), mu = 0.10, mu_s = 0.11", 2.0, 1e-4, true, 1e-5, false},
      {"zheng-rheonomic", "Zheng et al. Example II: the crank driven as 0.5 sin(2 pi t) rad, mu = 0.05, mu_s = 0.055", 2.0, 1e-4, true, 1e-5, false},
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
  if (name == "flores-translational") return floresTranslational();
  if (name == "zheng-torque" || name == "zheng-rheonomic") {
    const bool torque = name == "zheng-torque";
    ZhengSliderCrank z = zhengExample(torque ? "torque" : "rheonomic");
    z.mu_kinetic = torque ? 0.10 : 0.05;
    z.mu_static = torque ? 0.11 : 0.055;
    return zhengRigid(z);
  }
  if (name == "ball") {
    BouncingBall b;
    b.velocity_x = 2.0;
    b.mu_static = b.mu_kinetic = 0.3;
    return bouncingBall(b);
  }
  return inclineRigid(pushedIncline());
}

}  // namespace stickslip::mechanisms
