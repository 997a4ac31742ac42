#include "dynamics/mechanism/ideal_clearance.hpp"

#include <stdexcept>

#include "dynamics/model/model_assembly.hpp"

namespace stickslip::dynamics {

RigidScenario withIdealClearanceJoints(const RigidScenario& s) {
  RigidScenario ideal = s;
  ideal.contacts.clear();
  std::vector<int> index(s.contacts.size(), -1);  // old contact → new, −1: now a joint
  for (std::size_t k = 0; k < s.contacts.size(); ++k) {
    const RigidContact& c = s.contacts[k];
    if (c.shape != RigidContact::Shape::kJournalBearing) {
      index[k] = int(ideal.contacts.size());
      ideal.contacts.push_back(c);
      continue;
    }
    ideal.model.addRevolute(c.body_i, c.journal_bearing.journal_centre_on_i, c.body_j,
                            c.journal_bearing.bearing_centre_on_j, c.name);
  }
  if (ideal.contacts.size() == s.contacts.size())
    throw std::invalid_argument("--ideal: '" + s.name + "' has no clearance joint (journal-in-bearing contact) to make ideal");
  for (RevoluteFriction& f : ideal.joint_friction)
    if (f.slot >= 0) f.slot = index[std::size_t(f.slot)];  // a pin's slot is a point-line contact: kept
  Eigen::VectorXd phi(ideal.model.constraintCount());
  ideal.model.constraints(0.0, ideal.q0, phi);
  if (phi.lpNorm<Eigen::Infinity>() > 1e-12) {
    const AssemblyResult r = assemble(ideal.model, 0.0, ideal.initial_held, ideal.q0, ideal.v0);
    if (!r.ok())
      throw std::invalid_argument("--ideal: the initial state of '" + s.name +
                                  "' cannot be assembled with ideal joints: " + r.message);
  }
  return ideal;
}

}  // namespace stickslip::dynamics
