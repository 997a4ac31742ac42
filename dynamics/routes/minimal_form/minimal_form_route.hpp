#pragma once
/// \file The minimal form as a route over a mechanism (RigidScenario): the description every
/// route runs, put into Blajer & Markiewicz's terms (dynamics/routes/minimal_form/minimal_form.hpp) with no
/// derivation per mechanism.
///
/// What carries over:
///  - bodies, ideal joints, held angles (PlanarModel::addAngle) and force elements, as they are;
///  - a bilateral point–line contact becomes a point-on-line joint (the line of body j, moved
///    out by the disk's radius along its normal; the disk's centre on body i), and its
///    set-valued Coulomb friction a prismatic FrictionalJoint: μ |N| along the line;
///  - a unilateral one closed at the start (|g|, |ġ| ≤ 1e-9) becomes the same joint, watched:
///    the run stops with status lift-off where its normal force reaches zero;
///  - a moving surface (a belt) carries its speed over: the joint sticks at ṡ = v_s(t);
///  - friction in a revolute joint becomes a revolute FrictionalJoint: μ r |R|.
/// What cannot, and why (the reasons minimalFormRefusal gives):
///  - a unilateral contact open at the start, a compliant contact or a clearance joint: the
///    minimal form keeps every constraint closed (a contact that opens changes the degrees of
///    freedom);
///  - a unilateral contact, or one on a moving surface, beside other frictional elements: the
///    normal force is indeterminate while they stick together, and the surface's stick is a
///    driver velocity other than theirs;
///  - a rheonomic driver: the reduction ẋ = D(x) u is that of a scleronomic mechanism;
///  - Coulomb friction on a disk of radius > 0: its sliding rate includes the disk's rolling,
///    which a point-on-line joint does not see;
///  - no degree of freedom, or frictional elements that do not all slide with one velocity
///    (Blajer's stick–slip decision is on a single u₀).
///
/// Degrees of freedom and independent coordinates, found at q0. N (n × k) spans the null
/// space of the constraint Jacobian C (k = n − rank C, rank by a full-pivot LU at a relative
/// threshold of 1e-10), and S = C_μ N gives the sliding rates of the frictional elements in
/// N's coordinates. rank S ≤ 1 is required; its right singular vector z splits the motions into
/// the sliding one, N z, and the k − 1 that slide nowhere, K = N z⊥. The driver u₀ is a
/// coordinate that N z moves and every motion in K leaves still, so that u₀ alone carries the
/// sliding; among those, the rotation of a body pinned to the ground first (a crank or a
/// pendulum has no dead centre where its angle stops while the mechanism moves), then other
/// rotations, then translations, the largest |(N z)_i| within a class. The other k − 1
/// coordinates are the pivots of a column-pivoted QR of Kᵀ. Without friction (S = 0) every
/// motion is "sliding" and the driver is chosen by the same classes.

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "dynamics/routes/minimal_form/minimal_form.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"

namespace stickslip::dynamics {

/// A mechanism in Blajer's terms. MinimalForm keeps a reference to `model`: construct it once
/// this object has its final address.
struct MinimalFormModel {
  std::string name;
  PlanarModel model;  ///< a planar mechanism's, converted; empty for a spatial one
  std::vector<FrictionalJoint> friction;  ///< the frictional joints, then the frictional contacts
  MinimalFormOptions options;
  Eigen::VectorXd x0, u0;
  Eigen::VectorXd drive;  ///< unit vector of the driver coordinate (inverse dynamics)
};

/// Why the minimal form cannot run `s` (the file comment's reasons, naming the element), or
/// "" when it can.
std::string minimalFormRefusal(const RigidScenario& s);

/// `s` in Blajer's terms. Throws std::invalid_argument("the minimal form …: <reason>") when
/// minimalFormRefusal would give one.
MinimalFormModel minimalFormModel(const RigidScenario& s);

/// A spatial mechanism's options (the independent velocity coordinates chosen as above, with
/// a spatial body's ω′ about its axes as its rotations; the loop-closing rows), x0 = q0 and u0,
/// for MinimalForm(mechanism, options, x0), which reduces the mechanism itself (model and
/// friction stay empty). Throws std::invalid_argument("the minimal form cannot take '<name>':
/// <reason>") for a clearance joint or a plane contact (constraints that open), or the
/// reasons above.
MinimalFormModel minimalFormModel(const SpatialMechanism& mechanism, const Eigen::VectorXd& q0,
                                  const Eigen::VectorXd& v0, const std::string& name);

}  // namespace stickslip::dynamics
