#include "dynamics/mechanism/rigid_counterpart.hpp"

#include "dynamics/mechanism/clearance_preload.hpp"

namespace stickslip::dynamics {

RigidScenario withRigidContacts(RigidScenario s) {
  bool preloaded = false;
  for (RigidContact& c : s.contacts)
    if (c.normal == RigidContact::Normal::kCompliant && c.rigid_restitution && !c.smooth_friction) {
      c.normal = RigidContact::Normal::kUnilateral;
      c.restitution = *c.rigid_restitution;
      preloaded = preloaded || c.preloaded;
    }
  if (preloaded) preloadClearanceJoints(s);
  return s;
}

}  // namespace stickslip::dynamics
