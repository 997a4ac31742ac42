#pragma once
/// \file Coulomb friction in an ideal revolute joint of a PlanarModel (Blajer & Markiewicz
/// eq. 2.4): with ṡ = θ̇_j − θ̇_i the relative rotation and R the joint's reaction force,
///   ṡ ≠ 0 ⇒ friction torque on j  T = −sign(ṡ) μk r |R|   (−T on i),
///   ṡ = 0 ⇒ |T| ≤ μs r |R|,
/// r the journal radius (Blajer writes the lever arm as d). The revolute joint's rows are
/// r_i + A_i s_i − r_j − A_j s_j = 0, so its two multipliers are the global components of
/// the force on j and |R| = ‖λ_joint‖. T enters the generalized forces as Cᵀ T with the row
/// C = ∂ṡ/∂v (+1 at θ_j, −1 at θ_i), constant, so s̈ = C v̇.
/// The friction depends on |R|, which depends on T through the joint's equations: the
/// event-driven formulation resolves the slip force by a fixed point on |R| and decides
/// stick or slip by trial and error (|R| is not linear, so the decision is not an LCP).
///
/// A pin turning in a slot (Blajer eq. 2.5₄) is the same torque law on the pin of a bilateral
/// point–line contact (rigid_contact.hpp), the slot: ṡ = θ̇_pin − θ̇_slot (the pin on the
/// contact's point body body_i, the slot on its line body body_j; the order of its closing
/// joint) and |R| = √(N² + F²) the resultant of the slot's normal force N and its friction F
/// along the slot (Blajer's √(1 + μt²) |N| whenever the slot slides).

#include <Eigen/Dense>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/model/planar_model.hpp"

namespace stickslip::dynamics {

struct RigidContact;

struct RevoluteFriction {
  std::string name = "joint friction";
  int joint = 0;              ///< index of a revolute joint in PlanarModel::joints()
  double radius = 0.0;        ///< r [m], > 0
  double mu_static = 0.0;     ///< μs ≥ μk
  double mu_kinetic = 0.0;    ///< μk ≥ 0
  /// ≥ 0: the pin of a slot instead, the index of that bilateral point–line contact in the
  /// mechanism's contacts (`joint` unused); −1: a revolute joint.
  int slot = -1;

  /// Throws std::invalid_argument("<name>: expected …, got …").
  void validate(const PlanarModel& model, const std::vector<RigidContact>& contacts) const;
  /// The bodies (i, j) whose relative rotation ṡ = θ̇_j − θ̇_i slides: the joint's, or the slot
  /// contact's line and point bodies.
  std::pair<BodyIndex, BodyIndex> bodies(const PlanarModel& model, const std::vector<RigidContact>& contacts) const;
  /// |R| [N] from the model's multipliers λ, or for a pin from the contacts' forces (N_k at
  /// 2k, F_k at 2k + 1, the rows of ContactKinematics::jacobian; impulses give an impulse).
  double reaction(const PlanarModel& model, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                  const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const;
  /// ṡ = θ̇_j − θ̇_i = C v [rad/s].
  double rate(const PlanarModel& model, const std::vector<RigidContact>& contacts,
              const Eigen::Ref<const Eigen::VectorXd>& v) const;
  /// Adds s · C (the row of ṡ = θ̇_j − θ̇_i, size nv) to `row`.
  void addRow(const PlanarModel& model, const std::vector<RigidContact>& contacts, double s,
              Eigen::Ref<Eigen::VectorXd> row) const;
};

}  // namespace stickslip::dynamics
