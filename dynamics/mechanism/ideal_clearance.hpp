#pragma once
/// \file The ideal mechanism of a mechanism with clearance joints: every journal-in-bearing
/// contact replaced by an ideal revolute joint between the journal's and the bearing's
/// centres (`--ideal`, for a built-in or a model file alike). The joint is named after the
/// contact. Where the journal does not start centred, the initial state is assembled onto the
/// new joints (least change, dynamics/model/model_assembly.hpp), the held coordinates kept.

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

/// Throws std::invalid_argument when `s` has no clearance joint, or when the initial state
/// cannot be assembled with the ideal joints.
RigidScenario withIdealClearanceJoints(const RigidScenario& s);

}  // namespace stickslip::dynamics
