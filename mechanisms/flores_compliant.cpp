#include "mechanisms/flores_compliant.hpp"

#include "mechanisms/builtin_models.hpp"

namespace stickslip::mechanisms {

dynamics::RigidScenario floresTranslationalCompliant(const FloresCompliant& f) {
  f.data.validate();
  dynamics::FloresLaw law;
  law.stiffness = f.stiffness;
  law.exponent = f.exponent;
  law.restitution = f.data.restitution;
  law.validate("FloresCompliant");
  std::vector<std::pair<std::string, double>> values = floresParameters(f.data);
  values.push_back({"stiffness", f.stiffness});
  values.push_back({"exponent", f.exponent});
  return builtinModel("flores-translational", values);
}

}  // namespace stickslip::mechanisms
