#pragma once
/// \file The system interface the nonsmooth routes run a mechanism through (DESIGN §1b): its
/// bodies and ideal joints as a MultibodySystem (q̇ = H(q) v, the mass, the constraints and
/// their Jacobians, the applied forces), and what the contact problems need besides — each
/// contact's kinematics (gap, normal and sliding rates, their Jacobian rows and drift terms)
/// and behaviour (unilateral, bilateral or compliant; μs, μk; restitution), and the friction in
/// its joints (sliding rate, reaction, the row its torque enters by). The engines see nothing
/// else of the mechanism: a planar one is PlanarMechanism (planar_mechanism.hpp); a spatial
/// one implements the same calls.

#include <Eigen/Dense>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "dynamics/friction/joint_friction.hpp"
#include "dynamics/model/model_system.hpp"
#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

/// One term of a joint friction's load written as a sum of norms,
///   |R| = Σ_k weight_k ‖A_k λ + B_k f‖,
/// λ the joints' multipliers and f the contacts' forces (N_k at 2k, F_k at 2k + 1): a pin's
/// resultant, or one end of a finite slider (spatial_mechanism.hpp).
struct JointLoadTerm {
  double weight = 1.0;
  Eigen::MatrixXd lambda;   ///< A_k, d × m (d = 2 or 3)
  Eigen::MatrixXd contact;  ///< B_k, d × 2 nc
};

class Mechanism : public MultibodySystem {
 public:
  /// The contacts, for their behaviour and names; their geometry is read only through
  /// evaluateContacts().
  virtual const std::vector<RigidContact>& contacts() const = 0;
  /// The joints' Coulomb friction, for its coefficients, lever and names.
  virtual const std::vector<JointFriction>& jointFriction() const = 0;

  /// Sizes `out` for contacts(): its vectors, and its Jacobian's pattern from the contacts' bodies.
  virtual void resizeContacts(ContactKinematics& out) const = 0;
  /// Kinematics of every contact at (t, q, v) into `out` (resized if needed; allocates
  /// nothing once sized). drift = false leaves the drift terms b_n, b_t uncomputed (NaN).
  virtual void evaluateContacts(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                const Eigen::Ref<const Eigen::VectorXd>& v, ContactKinematics& out,
                                bool drift = true) const = 0;
  /// Joint friction e: its sliding rate ṡ = C v, its reaction |R| from the joint multipliers λ
  /// and the contacts' forces (N_k at 2k, F_k at 2k + 1: a pin's slot), and s C added to `row`
  /// (size nv): the generalized force of a friction torque s.
  virtual double jointFrictionRate(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& v) const = 0;
  virtual double jointFrictionReaction(std::size_t e, const Eigen::Ref<const Eigen::VectorXd>& lambda,
                                       const Eigen::Ref<const Eigen::VectorXd>& contact_forces) const = 0;
  virtual void addJointFrictionRow(std::size_t e, double s, Eigen::Ref<Eigen::VectorXd> row) const = 0;
  /// jointFrictionReaction()'s load as its terms, for the static analysis (statics/hold.hpp),
  /// which bounds the friction by these norms.
  virtual std::vector<JointLoadTerm> jointFrictionLoad(std::size_t e) const = 0;
};

/// The first contact the state (0, q0) violates — a unilateral one whose gap is below
/// −tolerance, or a bilateral one whose |gap| exceeds it — and that gap.
std::optional<std::pair<std::size_t, double>> initialPenetration(const Mechanism& mechanism, const Eigen::VectorXd& q0,
                                                                 double tolerance);
/// Throws std::invalid_argument("<caller>: the initial state penetrates contact '<name>' by …",
/// or "… leaves bilateral contact '<name>' at gap …") when initialPenetration finds one: a
/// rigid formulation would start from an impossible state (and Baumgarte's feedback push the
/// bodies apart, adding energy). Compliant contacts (penetration is their state) are left alone.
void requireNoInitialPenetration(const Mechanism& mechanism, const Eigen::VectorXd& q0, double tolerance,
                                 std::string_view caller);

}  // namespace stickslip::dynamics
