#pragma once
/// \file The constrained equations of motion, solved by each method of thesis §2.3.
///
/// Equations (thesis Eqs. 2.44–2.46):  M v̇ + Dᵀλ = Q,  D v̇ = γ,  with Φ̇ = D v + Φt.
/// Methods (W = D M⁻¹ Dᵀ, P = M + a DᵀD, f = 2μω Φ̇ + ω² Φ):
///  - kLagrange (standard Lagrange multipliers, Eqs. 2.48–2.50):
///      λ = W⁻¹ (D M⁻¹ Q − γ),  v̇ = M⁻¹ (Q − Dᵀλ).
///  - kBaumgarte (Eq. 2.52): the same with γ − 2α Φ̇ − β² Φ in place of γ.
///  - kPenalty (Bayo, García de Jalón & Serna 1988; Eq. 2.58):
///      P v̇ = Q − a Dᵀ(−γ + f),  λ = a (D v̇ − γ + f).
///  - kAugmentedLagrangian (Eqs. 2.60–2.64): v̇₀ = M⁻¹Q, λ₀ = 0, then
///      P v̇ᵢ₊₁ = M v̇ᵢ − a Dᵀ(−γ + f),  λᵢ₊₁ = λᵢ + a (D v̇ᵢ₊₁ − γ + f)
///    until ‖v̇ᵢ₊₁ − v̇ᵢ‖₂ ≤ ε·max(1, ‖v̇‖₂), or until the change stops halving while below
///    √ε·max(1, ‖v̇‖₂): P's conditioning (≈ a‖D‖²/min Mᵢᵢ) then sets a round-off floor.
///  - kCoordinatePartitioning (Wehage & Haug 1982; Eqs. 2.65–2.74): accelerations as
///    kLagrange; after each step project() keeps the independent coordinates and velocities
///    (chosen by full-pivoting LU of D) and recomputes the dependent ones: Newton on
///    Φ(u, w) = 0 with D_u δu = −Φ, then D_u v_u = −Φt − D_w v_w. All of y is integrated
///    and the dependent part then overwritten; this differs from integrating only the
///    independent part in what the RK4 stages see, not in order: the constraint manifold is
///    invariant for the full ODE, so both are fourth-order accurate.
///  - kNullSpace (García de Jalón & Bayo 1994; Eqs. 2.75–2.80): R = [−D_u⁻¹D_w; I] (rows
///    permuted to u, w) spans the null space of D, and [D; RᵀM] v̇ = [γ; RᵀQ];
///    λ = D_u⁻ᵀ (Q − M v̇)_u.
///  - kMoorePenrose (Udwadia & Kalaba 1992, Arabyan & Wu 1998; Eqs. 2.81–2.87):
///      C = D M^{-1/2},  v̇ = v̇_unc + M^{-1/2} C⁺ (γ − D v̇_unc),  v̇_unc = M⁻¹Q,
///    C⁺ by SVD, so redundant constraints are handled; λ = −(C⁺)ᵀ M^{1/2}(v̇ − v̇_unc).
///  - kDirectCorrection (Flores 2013; Eqs. 2.88–2.102): accelerations as kLagrange; after each
///    step project() iterates q ← q − Dᵀ(DDᵀ)⁻¹Φ until ‖Φ‖₂ ≤ ε, then
///    v ← v − Dᵀ(DDᵀ)⁻¹(D v + Φt).
/// Defaults are thesis Table 2.3. The thesis expresses the penalty α as 10⁷ times the largest
/// mass-matrix entry (García de Jalón & Bayo 1994); `penalty ≤ 0` selects that.
///
/// Workspace is sized once in the constructor; accelerations(), derivative() and project()
/// allocate nothing. Not thread-safe: one solver per thread.

#include <Eigen/Dense>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/model/model_system.hpp"

namespace stickslip::dynamics {

enum class EomMethod {
  kLagrange,
  kBaumgarte,
  kPenalty,
  kAugmentedLagrangian,
  kCoordinatePartitioning,
  kNullSpace,
  kMoorePenrose,
  kDirectCorrection,
};
std::string_view toString(EomMethod m);
/// Every method, in the order of thesis §2.3.
const std::vector<EomMethod>& allEomMethods();

/// For messages about a rank-deficient constraint Jacobian D (m × nv) of `system`: the ratio
/// of its smallest to largest singular value and the rows that have become dependent (those
/// with weight in the left singular vector of the smallest singular value), named by
/// MultibodySystem::constraintRowName. Allocates; call it only on failure.
std::string describeDependentRows(const MultibodySystem& system, const Eigen::MatrixXd& jacobian);

enum class EomStatus {
  kSuccess,
  kSingular,      ///< W, P, D_u or DDᵀ numerically singular (singular configuration or
                  ///< redundant constraints for a method that cannot take them)
  kNotConverged,  ///< augmented Lagrangian or a projection's Newton loop hit its iteration cap
};
std::string_view toString(EomStatus s);

struct EomOptions {
  double baumgarte_alpha = 5.0;    ///< α [1/s], ≥ 0
  double baumgarte_beta = 5.0;     ///< β [1/s], ≥ 0
  double penalty = 0.0;            ///< a [kg]; ≤ 0: 10⁷ · max Mᵢᵢ
  double penalty_damping = 1.0;    ///< μ, ≥ 0
  double penalty_frequency = 10.0; ///< ω [rad/s], ≥ 0
  double augmented_tol = 1e-10;    ///< ε on ‖v̇ᵢ₊₁ − v̇ᵢ‖₂ / max(1, ‖v̇‖₂), > 0
  int augmented_max_iterations = 50;
  double correction_tol = 1e-10;   ///< ε on ‖Φ‖₂ for the projections, > 0
  int correction_max_iterations = 20;
  double rank_tol = 1e-12;         ///< relative pivot / singular-value threshold, > 0
};

class EomSolver {
 public:
  /// Keeps a reference to `system`, which must outlive the solver. Throws
  /// std::invalid_argument on an option outside its range.
  EomSolver(const MultibodySystem& system, EomMethod method, EomOptions options = {});

  /// v̇ (size nv) and the multipliers (multipliers()) at (t, q, v).
  EomStatus accelerations(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                          const Eigen::Ref<const Eigen::VectorXd>& v,
                          Eigen::Ref<Eigen::VectorXd> vdot);
  /// accelerations() again at the state of the last accelerations() call, when only the
  /// generalized forces Q have changed there (a friction force probed, an applied force held
  /// off): Q is evaluated again, and the Lagrange-based methods reuse D, γ and the factors of
  /// D M⁻¹ Dᵀ; the others solve anew. The caller guarantees that (t, q, v) is that state.
  EomStatus accelerationsUnderNewForces(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                                        const Eigen::Ref<const Eigen::VectorXd>& v,
                                        Eigen::Ref<Eigen::VectorXd> vdot);
  /// ẏ for the state y = [q; v] (size nq + nv): [H(q) v; v̇].
  EomStatus derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                       Eigen::Ref<Eigen::VectorXd> ydot);
  /// Post-step correction for kCoordinatePartitioning and kDirectCorrection; no-op otherwise.
  EomStatus project(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v);

  /// λ from the last accelerations() (size m).
  const Eigen::VectorXd& multipliers() const { return lambda_; }
  /// Why the last accelerations() or project() did not succeed: the time, the method, and for
  /// kSingular the constraint rows (by joint) that have become dependent; empty after success.
  const std::string& failure() const { return failure_; }
  /// Iterations of the last augmented-Lagrangian solve or projection.
  int lastIterations() const { return iterations_; }
  EomMethod method() const { return method_; }
  const EomOptions& options() const { return options_; }
  const MultibodySystem& system() const { return system_; }

 private:
  void checkSizes(const char* who, Eigen::Index q, Eigen::Index v) const;
  EomStatus lagrange(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                     Eigen::Ref<Eigen::VectorXd> vdot);
  void lagrangeSolve(Eigen::Ref<Eigen::VectorXd> vdot);  // λ and v̇ for Q, from lagrange()'s factors
  EomStatus penalty(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                    const Eigen::Ref<const Eigen::VectorXd>& v, Eigen::Ref<Eigen::VectorXd> vdot);
  EomStatus nullSpace(Eigen::Ref<Eigen::VectorXd> vdot);
  EomStatus moorePenrose(Eigen::Ref<Eigen::VectorXd> vdot);
  bool selectPartition();
  bool factorDependent();
  EomStatus partitionProject(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v);
  EomStatus directCorrection(double t, Eigen::Ref<Eigen::VectorXd> q, Eigen::Ref<Eigen::VectorXd> v);
  EomStatus describe(EomStatus status, double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                     const char* where);
  void stabilizationTerms(double t, const Eigen::Ref<const Eigen::VectorXd>& q,
                          const Eigen::Ref<const Eigen::VectorXd>& v);

  const MultibodySystem& system_;
  EomMethod method_;
  EomOptions options_;
  Eigen::Index nq_, nv_, m_;
  double penalty_ = 0.0;
  int iterations_ = 0;
  bool partitioned_ = false;
  bool factored_ = false;  // lagrange()'s factors are those of the last accelerations()' state
  std::string failure_;

  // Workspace.
  Eigen::MatrixXd mass_, mass_inv_sqrt_;  ///< M and M^{-1/2}, dense, for the methods that need them
  Eigen::VectorXd forces_, gamma_, phi_, phi_t_, phi_dot_, rhs_m_, rhs_n_, lambda_, vdot_prev_;
  Eigen::VectorXd tmp_m_, tmp_n_, tmp_r_;
  Eigen::MatrixXd jac_, jac_minv_, minv_jt_, w_, p_, jac_u_, jac_w_, null_basis_, ns_matrix_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_w_, ldlt_p_;
  Eigen::FullPivLU<Eigen::MatrixXd> lu_select_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_u_, lu_ns_;
  Eigen::JacobiSVD<Eigen::MatrixXd> svd_;
  std::vector<Eigen::Index> dependent_, independent_;
};

}  // namespace stickslip::dynamics
