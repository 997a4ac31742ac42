#include "mechanisms/flores_compliant.hpp"

#include <vector>

namespace stickslip::mechanisms {

FloresPenaltySystem floresTranslationalPenalty(
    const FloresCompliant& f, std::shared_ptr<const dynamics::FrictionLaw> friction) {
  const dynamics::RigidScenario rigid = floresTranslational(f.data);  // validates the data
  dynamics::FloresLaw law;
  law.stiffness = f.stiffness;
  law.exponent = f.exponent;
  law.restitution = f.data.restitution;
  law.validate("FloresCompliant");
  FloresPenaltySystem s;
  s.model = std::make_unique<dynamics::PlanarModel>(rigid.model);
  std::vector<dynamics::PenaltyContact> contacts;
  for (const dynamics::RigidContact& c : rigid.contacts)
    contacts.push_back(dynamics::PenaltyContact::pointOnLine(c.body_i, c.body_j, c.geometry, law,
                                                             friction, c.name));
  s.system = std::make_unique<dynamics::PenaltySystem>(*s.model, std::move(contacts));
  s.y0 = s.system->initialState(0.0, rigid.q0, rigid.v0);
  return s;
}

}  // namespace stickslip::mechanisms
