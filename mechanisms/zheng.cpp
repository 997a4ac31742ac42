#include "mechanisms/zheng.hpp"

#include "dynamics/mechanism/planar_mechanism.hpp"
#include "dynamics/routes/joint_multipliers.hpp"
#include "dynamics/mechanism/ideal_clearance.hpp"
#include "dynamics/mechanism/rigid_counterpart.hpp"
#include "mechanisms/builtin_models.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace stickslip::mechanisms {

void ZhengSliderCrank::validate() const {
  std::ostringstream os;
  if (!(crank_radius > 0.0 && crank_mass > 0.0 && rod_a > 0.0 && rod_b > 0.0 && rod_mass > 0.0 &&
        slider_mass > 0.0))
    os << "positive lengths and masses";
  else if (!(journal_radius > 0.0 && bearing_radius > journal_radius))
    os << "0 < journal_radius < bearing_radius, got " << journal_radius << ", " << bearing_radius;
  else if (!(mu_kinetic >= 0.0 && mu_static >= mu_kinetic))
    os << "0 <= mu_kinetic <= mu_static, got " << mu_kinetic << ", " << mu_static;
  else if (modified_coulomb != 0.0 && modified_coulomb != 1.0)
    os << "modified_coulomb 0 or 1, got " << modified_coulomb;
  else if (!(impact_velocity > 0.0)) os << "impact_velocity > 0, got " << impact_velocity;
  else if (!(rigid_restitution >= 0.0 && rigid_restitution <= 1.0))
    os << "rigid_restitution in [0, 1], got " << rigid_restitution;
  else if (rigid_contact && modified_coulomb && mu_kinetic > 0.0)
    os << "set-valued Coulomb with a rigid clearance joint (the modified Coulomb law needs the "
          "compliant one)";
  if (!os.str().empty()) throw std::invalid_argument("ZhengSliderCrank: expected " + os.str());
}

ZhengSliderCrank zhengExample(const std::string& example) {
  ZhengSliderCrank z;
  if (example == "torque") return z;
  if (example == "rheonomic") {
    z.drive = ZhengSliderCrank::Drive::kRheonomic;
    z.theta1_rate = z.rheonomic_amplitude * 2.0 * std::numbers::pi;
    return z;
  }
  if (example == "equilibrium") {
    z.drive = ZhengSliderCrank::Drive::kFree;
    z.theta1 = std::numbers::pi - 0.01;
    return z;
  }
  throw std::invalid_argument("zhengExample: expected torque, rheonomic or equilibrium, got '" + example + "'");
}

namespace {

using Z = ZhengSliderCrank;

/// The model parameters of drive `drive`'s file.
std::vector<ModelField<Z>> zhengFields(Z::Drive drive) {
  std::vector<ModelField<Z>> f{
      {"crank_radius", &Z::crank_radius},       {"crank_mass", &Z::crank_mass},
      {"rod_a", &Z::rod_a},                     {"rod_b", &Z::rod_b},
      {"rod_mass", &Z::rod_mass},               {"slider_mass", &Z::slider_mass},
      {"journal_radius", &Z::journal_radius},   {"bearing_radius", &Z::bearing_radius},
      {"young_modulus", &Z::young_modulus},     {"poisson_ratio", &Z::poisson_ratio},
      {"restitution", &Z::restitution},         {"exponent", &Z::exponent},
      {"impact_velocity", &Z::impact_velocity}, {"gravity", &Z::gravity},
      {"crank_damping", &Z::crank_damping},     {"slider_damping", &Z::slider_damping},
      {"mu_kinetic", &Z::mu_kinetic},           {"mu_static", &Z::mu_static},
      {"modified_coulomb", &Z::modified_coulomb}, {"modified_v0", &Z::modified_v0},
      {"modified_v1", &Z::modified_v1},         {"rigid_restitution", &Z::rigid_restitution}};
  if (drive == Z::Drive::kRheonomic) {
    f.emplace_back("rheonomic_amplitude", &Z::rheonomic_amplitude);
  } else {
    for (const auto& [name, member] : {std::pair{"torque_amplitude", &Z::torque_amplitude},
                                       {"torque_frequency", &Z::torque_frequency},
                                       {"theta1", &Z::theta1},
                                       {"theta1_rate", &Z::theta1_rate}})
      f.emplace_back(name, member);
  }
  return f;
}

}  // namespace

dynamics::RigidScenario zhengRigid(const ZhengSliderCrank& z) {
  z.validate();
  ZhengSliderCrank values = z;
  if (z.drive == Z::Drive::kFree) values.torque_amplitude = 0.0;
  dynamics::RigidScenario s = builtinModel(z.drive == Z::Drive::kRheonomic ? "zheng-rheonomic" : "zheng-torque",
                                           modelValues(values, zhengFields(z.drive)));
  s.name = "zheng";
  if (z.ideal) return dynamics::withIdealClearanceJoints(s);
  return z.rigid_contact ? dynamics::withRigidContacts(std::move(s)) : s;
}

Eigen::VectorXd zhengDrivingTorque(const dynamics::RigidScenario& s, const dynamics::RunResult& run) {
  const auto& joints = s.model.joints();
  const auto driver = std::find_if(joints.begin(), joints.end(),
                                   [](const auto& j) { return j.type == dynamics::JointType::kRheonomicDriver; });
  if (driver == joints.end()) throw std::invalid_argument("zhengDrivingTorque: the scenario has no rheonomic driver");
  const dynamics::PlanarMechanism mechanism(s);
  return -dynamics::jointMultiplierHistory(mechanism, run, s.baumgarte_alpha, s.baumgarte_beta).col(driver->row);
}

}  // namespace stickslip::mechanisms
