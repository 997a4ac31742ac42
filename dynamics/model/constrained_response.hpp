#pragma once
/// \file How a mechanism with its ideal joints (a MultibodySystem) responds to contact forces
/// and impulses at one configuration — the operator both nonsmooth formulations build their
/// complementarity problems from.
///
/// With contact forces entering as Jᵀ r (rigid_contact.hpp) the equations of motion are
///   M v̇ + Dᵀλ = Q + Jᵀ r,   D v̇ = γ̃ = γ − 2α Φ̇ − β² Φ   (Baumgarte, thesis Eq. 2.52),
/// so with S = D M⁻¹ Dᵀ
///   v̇ = a₀ + G Jᵀ r,   a₀ = M⁻¹Q + M⁻¹Dᵀ S⁻¹ (γ̃ − D M⁻¹ Q),   G = M⁻¹ − M⁻¹Dᵀ S⁻¹ D M⁻¹.
/// a₀ is the motion without contact forces; G is symmetric positive semidefinite with
/// D G = 0, so an impulse P changes the velocities by Δv = G Jᵀ P without violating the
/// joints' velocity equations, and the Delassus matrix J G Jᵀ is symmetric PSD.
/// The joint multipliers (thesis sign: −Dᵀλ is the joint force) are
///   λ = S⁻¹ (D M⁻¹ (Q + Jᵀ r) − γ̃).
/// Workspace is sized in the constructor, G's (nv × nv) on its first use; update() and the
/// products allocate nothing after that.
///
/// A model with at least kSparseJointRows joint rows that gives its Jacobian's pattern and has a
/// diagonal M (a planar mechanism with many joints) is handled sparse (sparse_joint_system.hpp):
/// D and S are never dense, S is factored by a sparse LU whose analysis is kept, and every
/// product above costs O(nnz(D)) plus a sparse solve — O(m) for a chain, against the dense
/// path's O(m² nv + m³). Smaller systems stay dense (SmallCholesky), where the sparse
/// bookkeeping costs more than it saves; there the products skip the zeros outside each joint
/// row's bodies (MultibodySystem::jointRowSpans) and S is factored within its profile.

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/model/small_cholesky.hpp"
#include "dynamics/model/model_system.hpp"
#include "dynamics/model/sparse_joint_system.hpp"

namespace stickslip::dynamics {

/// From this many joint rows a model that allows it is handled sparse. Measured on a hanging
/// chain with one clearance joint, µs per Moreau–Jean step sparse/dense: 1.7/2.0 at 6 rows,
/// 2.6/4.2 at 14, 4.4/12.3 at 30. Below 16 the gain is a microsecond or two, and the small
/// mechanisms of the seeds keep the dense path's results unchanged.
inline constexpr Eigen::Index kSparseJointRows = 16;
/// A rank-deficient sparse system names its dependent rows up to this many rows.
inline constexpr Eigen::Index kNamedRowsUpTo = 400;

class ConstrainedResponse {
 public:
  /// Keeps a reference to `model`. α, β ≥ 0 [1/s] (0, 0: no stabilization).
  ConstrainedResponse(const MultibodySystem& model, double baumgarte_alpha = 0.0,
                      double baumgarte_beta = 0.0);

  /// Evaluates Q, D, γ̃ at (t, q, v), factors S and forms a₀ and G. Returns false (see
  /// message()) when S is numerically singular: a dead centre or redundant joints.
  bool update(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
              const Eigen::Ref<const Eigen::VectorXd>& v);
  /// update() for a caller that imposes the joints at velocity level with projectVelocity():
  /// Q, D, Φ, Φt and S only, and a₀ = M⁻¹Q without its joint part M⁻¹Dᵀ S⁻¹(γ̃ − D M⁻¹Q).
  /// The projection removes any M⁻¹Dᵀ y added to the velocity (P(v + M⁻¹Dᵀy) = P(v)), so
  /// v + h a₀ projects to the same velocity either way, for the cost of neither γ nor a solve.
  /// multipliers() needs update().
  bool updateVelocityLevel(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                           const Eigen::Ref<const Eigen::VectorXd>& v);

  const Eigen::VectorXd& freeAcceleration() const { return a0_; }  ///< a₀ (size nv)
  /// λ₀ = S⁻¹ (D M⁻¹ Q − γ̃) (size m): multipliers() without contact forces, at the last update().
  const Eigen::VectorXd& freeMultipliers() const { return free_lambda_; }
  /// G (nv × nv), formed on the first call after update(): a time step without contacts
  /// never needs it, nor does event-driven's sparse path, which never stores it.
  const Eigen::MatrixXd& inverseMass();
  /// gjt = G Jᵀ for the columns jt = Jᵀ (nv × k), without forming G:
  /// M⁻¹Jᵀ − M⁻¹Dᵀ S⁻¹ (D M⁻¹ Jᵀ) — k solves instead of nv when few contacts are active.
  /// Columns, not rows: every loop runs over contiguous memory. Allocates only when k
  /// exceeds every k seen before.
  void inverseMassTimesColumns(const Eigen::Ref<const Eigen::MatrixXd>& jt,
                               Eigen::Ref<Eigen::MatrixXd> gjt);
  /// The same, with the joints' multiplier change S⁻¹ D M⁻¹ Jᵀ (m × k: multiplierChange() of
  /// each column) from the same solves.
  void inverseMassTimesColumns(const Eigen::Ref<const Eigen::MatrixXd>& jt,
                               Eigen::Ref<Eigen::MatrixXd> gjt, Eigen::Ref<Eigen::MatrixXd> lambda_change);
  /// v ← v − M⁻¹Dᵀ S⁻¹ (D v + Φt + k Φ): the M-orthogonal projection of v onto the joints'
  /// velocity equations, with a position feedback rate k ≥ 0 [1/s] (at the last update()).
  void projectVelocity(Eigen::Ref<Eigen::VectorXd> v, double feedback_rate);
  /// dq = −M⁻¹Dᵀ S⁻¹ φ: the mass-weighted least change of q that removes a drift φ (size m) of
  /// the joints to first order, with D and S at the last update.
  void jointCorrection(const Eigen::Ref<const Eigen::VectorXd>& phi, Eigen::Ref<Eigen::VectorXd> dq);
  const Eigen::VectorXd& forces() const { return forces_; }         ///< Q (size nv)
  /// Λ (size m) with M Δv = F − DᵀΛ: the joints' impulse over a velocity change Δv (size nv)
  /// to which the impulse F (size nv) of every other force led, Λ = S⁻¹ D (M⁻¹F − Δv), at the
  /// last update() or updateVelocityLevel(). Exact when M⁻¹F − Δv lies in the range of M⁻¹Dᵀ,
  /// as it does for Δv = h a₀ + G F (a step of either kind, projected or not).
  void jointImpulse(const Eigen::Ref<const Eigen::VectorXd>& velocity_change,
                    const Eigen::Ref<const Eigen::VectorXd>& impulse,
                    Eigen::Ref<Eigen::VectorXd> joint_impulse);
  /// λ (size m) for a total contact force Jᵀ r (size nv), at the last update(). Throws
  /// std::logic_error after updateVelocityLevel().
  void multipliers(const Eigen::Ref<const Eigen::VectorXd>& contact_force,
                   Eigen::Ref<Eigen::VectorXd> lambda);
  /// Δλ = S⁻¹ D M⁻¹ Δf (size m): the change of multipliers() for a change Δf (size nv) of the
  /// contact force, at the last update() or updateVelocityLevel().
  void multiplierChange(const Eigen::Ref<const Eigen::VectorXd>& force_change,
                        Eigen::Ref<Eigen::VectorXd> lambda_change);
  const std::string& message() const { return message_; }
  const MultibodySystem& model() const { return model_; }
  /// Whether the joints are handled sparse (file comment).
  bool sparse() const { return sparse_ != nullptr; }
  /// The sparse path's D and S at the last update (null on the dense path).
  const SparseJointSystem* sparseJoints() const { return sparse_.get(); }

 private:
  /// out = M⁻¹ x: a row scaling when M is diagonal, else the system's blocks.
  void scaleByInverseMass(const Eigen::Ref<const Eigen::MatrixXd>& x, Eigen::Ref<Eigen::MatrixXd> out) const;

  const MultibodySystem& model_;
  const Eigen::VectorXd* inverse_mass_diagonal_;  ///< null unless M is diagonal
  double alpha_, beta_;
  Eigen::VectorXd forces_, a0_, free_lambda_, phi_, phi_t_, gamma_, tmp_m_, tmp_v_;
  /// Q, D, Φ, Φt at (t, q, v), and γ with them on the dense path when `with_gamma`; S formed and
  /// factored. False (message_) if S is singular.
  bool factorJoints(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v, bool with_gamma);

  Eigen::MatrixXd d_, minv_dt_, s_, g_, columns_work_;
  SmallCholesky s_cholesky_;
  // Dense path: joint row r of D and column r of M⁻¹Dᵀ are zero outside the velocities
  // spans_[r] (MultibodySystem::jointRowSpans: a joint couples few bodies), column c of D
  // outside the rows column_rows_[c]. S and the products with D and M⁻¹Dᵀ skip those zeros,
  // and S is factored within its profile (small_cholesky.hpp); column j of S's lower triangle
  // is zero below row s_last_[j].
  std::vector<std::pair<Eigen::Index, Eigen::Index>> spans_, column_rows_;
  std::vector<Eigen::Index> s_last_;
  /// out = D x (size m) over the spans.
  void multiplyD(const Eigen::Ref<const Eigen::VectorXd>& x, Eigen::Ref<Eigen::VectorXd> out) const;
  /// out += scale M⁻¹Dᵀ y (size nv) over the spans.
  void addInverseMassDt(double scale, const Eigen::Ref<const Eigen::VectorXd>& y,
                        Eigen::Ref<Eigen::VectorXd> out) const;
  std::unique_ptr<SparseJointSystem> sparse_;  ///< set for the sparse path (then d_ … s_ are empty)
  bool g_current_ = false, gamma_current_ = false;
  std::string message_;
};

}  // namespace stickslip::dynamics
