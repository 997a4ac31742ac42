#pragma once
/// \file The mechanism a route of rigid contacts only (Moreau–Jean) runs: every compliant
/// contact that states its rigid_restitution becomes a rigid unilateral one with that
/// Newton's e, its set-valued Coulomb kept; a preloaded clearance joint among them is placed
/// again, carrying its load at contact (δ = 0; clearance_preload.hpp).

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

/// `s` with those contacts made rigid. A compliant contact without rigid_restitution, or
/// with a regularized friction law (smooth_friction, which needs the normal force as a
/// function of the penetration), stays compliant: the caller refuses it. Throws as
/// preloadClearanceJoints.
RigidScenario withRigidContacts(RigidScenario s);

}  // namespace stickslip::dynamics
