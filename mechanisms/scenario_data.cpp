#include "mechanisms/scenario_data.hpp"

#include <stdexcept>

#include "mechanisms/builtin_models.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::mechanisms {
namespace {

using P = ScenarioParameter;
using R = ScenarioParameter::Range;

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;  // clang before 17 deduces no aggregate

std::vector<P> parametersOf(std::monostate&) { return {}; }

std::vector<P> parametersOf(ZhengSliderCrank& z) {
  std::vector<P> p{
          {"crank_radius", &z.crank_radius, R::kPositive, "L1 [m]"},
          {"crank_mass", &z.crank_mass, R::kPositive, "[kg]"},
          {"rod_a", &z.rod_a, R::kPositive, "rod centre to its bearing [m]"},
          {"rod_b", &z.rod_b, R::kPositive, "rod centre to B [m]"},
          {"rod_mass", &z.rod_mass, R::kPositive, "[kg]"},
          {"slider_mass", &z.slider_mass, R::kPositive, "[kg]"},
          {"journal_radius", &z.journal_radius, R::kPositive, "[m]"},
          {"bearing_radius", &z.bearing_radius, R::kPositive, "[m], > journal_radius"},
          {"young_modulus", &z.young_modulus, R::kPositive, "[Pa]"},
          {"poisson_ratio", &z.poisson_ratio, R::kAny, "in (-1, 0.5]"},
          {"restitution", &z.restitution, R::kUnit, "Hunt-Crossley restitution"},
          {"exponent", &z.exponent, R::kPositive, "contact force exponent"},
          {"impact_velocity", &z.impact_velocity, R::kPositive, "hysteresis impact velocity [m/s]"},
          {"gravity", &z.gravity, R::kAny, "along +x [m/s^2]"},
          {"crank_damping", &z.crank_damping, R::kNonNegative, "[N m s]"},
          {"slider_damping", &z.slider_damping, R::kNonNegative, "[N s/m]"},
          {"mu_kinetic", &z.mu_kinetic, R::kNonNegative, "dry Coulomb coefficient in the clearance joint"},
          {"mu_static", &z.mu_static, R::kNonNegative, "static coefficient, >= mu_kinetic"},
          {"modified_v0", &z.modified_v0, R::kPositive, "modified Coulomb (ambrosio): no force below [m/s]"},
          {"modified_v1", &z.modified_v1, R::kPositive, "modified Coulomb: full mu_kinetic N from [m/s]"},
          {"rigid_restitution", &z.rigid_restitution, R::kUnit, "Newton restitution of the rigid joint (moreau-jean)"}};
  // Only the drive of the example (its name chose it) has parameters.
  if (z.drive == ZhengSliderCrank::Drive::kRheonomic) {
    p.push_back({"rheonomic_amplitude", &z.rheonomic_amplitude, R::kAny, "theta1(t) = A sin(2 pi t) [rad]"});
    return p;
  }
  if (z.drive == ZhengSliderCrank::Drive::kTorque) {
    p.push_back({"torque_amplitude", &z.torque_amplitude, R::kAny, "torque tau0 sin(Omega t) on the crank [N m]"});
    p.push_back({"torque_frequency", &z.torque_frequency, R::kAny, "Omega [rad/s]"});
  }
  p.push_back({"theta1", &z.theta1, R::kAny, "initial crank angle [rad]"});
  p.push_back({"theta1_rate", &z.theta1_rate, R::kAny, "initial crank rate [rad/s]"});
  return p;
}

ZhengSliderCrank zhengScenario(std::string_view name) {
  // Zheng et al.'s Examples I-III with Coulomb mu < mu_s in the clearance joint.
  const bool torque = name == "zheng-torque", rheonomic = name == "zheng-rheonomic";
  ZhengSliderCrank z = zhengExample(torque ? "torque" : rheonomic ? "rheonomic" : "equilibrium");
  z.mu_kinetic = torque ? 0.10 : rheonomic ? 0.05 : 0.15;
  z.mu_static = torque ? 0.11 : rheonomic ? 0.055 : 0.20;
  return z;
}

}  // namespace

const std::vector<std::string>& builtinScenarioNames() {
  static const std::vector<std::string> names{
      "belt", "dupont", "incline", "ball", "flores-translational", "journal-bearing-rigid",
      "zheng-torque", "zheng-rheonomic", "zheng-equilibrium", "journal-bearing",
      "muvengei-lugre", "roller-crank", "blajer-1", "blajer-2", "blajer-2-slider"};
  return names;
}

ScenarioData defaultScenarioData(std::string_view name) {
  if (builtinModelFile(name)) return std::monostate{};  // its data are its model file's
  if (name == "zheng-torque" || name == "zheng-rheonomic" || name == "zheng-equilibrium")
    return zhengScenario(name);
  std::string names;
  for (const auto& n : builtinScenarioNames()) names += (names.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown scenario '" + std::string(name) + "' (built-in: " + names + ")");
}

dynamics::FrictionParameters penaltyFrictionParameters(const ScenarioData& data,
                                                       const std::optional<dynamics::FrictionParameters>& given) {
  dynamics::FrictionParameters p = given.value_or(dynamics::FrictionParameters{});
  if (const auto* z = std::get_if<ZhengSliderCrank>(&data)) {
    p.modified_v0 = z->modified_v0;
    p.modified_v1 = z->modified_v1;
  }
  return p;
}

std::vector<ScenarioParameter> scenarioParameters(ScenarioData& data) {
  return std::visit([](auto& d) { return parametersOf(d); }, data);
}

void validateScenarioData(const ScenarioData& data) {
  std::visit(Overloaded{[](const std::monostate&) {}, [](const auto& d) { d.validate(); }},
             data);
}

}  // namespace stickslip::mechanisms
