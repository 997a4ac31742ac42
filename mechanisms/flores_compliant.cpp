#include "mechanisms/flores_compliant.hpp"

namespace stickslip::mechanisms {

dynamics::RigidScenario floresTranslationalCompliant(const FloresCompliant& f) {
  dynamics::RigidScenario s = floresTranslational(f.data);  // validates the data
  dynamics::FloresLaw law;
  law.stiffness = f.stiffness;
  law.exponent = f.exponent;
  law.restitution = f.data.restitution;
  law.validate("FloresCompliant");
  for (dynamics::RigidContact& c : s.contacts) c.compliant_law = law;
  return s;
}

}  // namespace stickslip::mechanisms
