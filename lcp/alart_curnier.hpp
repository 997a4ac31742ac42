#pragma once
/// \file A global nonsmooth Newton method for spatial friction on the round cone: Alart and
/// Curnier's (1991) augmented-Lagrangian equations, solved with a sparse factorization and a
/// line search, regularized where W is rank-deficient.
///
/// Equations, per contact i (ρ = diag(ρₙ, ρₜ, ρₜ) > 0, u = W r + q):
///   aₙ = rₙ − ρₙuₙ,   aₜ = rₜ − ρₜuₜ,
///   F(r) = r − (max(0, aₙ), proj_{disk μ max(0, aₙ)}(aₜ)) = 0,
/// which holds exactly when r solves FrictionProblem3D. With Π the generalized Jacobian of the
/// projection in a, F's generalized Jacobian is H = (I − Π) + Π ρ W: a block matrix of W's block
/// pattern. Each iteration solves (H + σ Π ρ) Δ = −F and takes r + αΔ, α halved until
/// ‖F‖² falls by a fraction (Armijo). σ = w̄ min(c, ‖F‖/‖r‖) is a proximal term
/// (Levenberg–Marquardt in spirit; w̄: the mean of W's diagonal; c = Weights::start at first,
/// kSigmaStart by default, a tenth as much after each full step). Where no step length gives descent it rises a
/// hundredfold, up to kSigmaMax w̄. It keeps the system solvable on the null directions of a
/// hyperstatic W, where the reactions are not unique, and vanishes as F does, so convergence
/// stays fast. ρₙ = 1/Wₙₙ, ρₜ = 2/(Wₜ₁ₜ₁ + Wₜ₂ₜ₂) per contact.
///
/// Bilateral blocks (a mechanism's joint rows posed with the contacts, the last `bilateral`
/// blocks): uᵢ = 0 with rᵢ free, i.e. the projection is the identity, Π = I and Fᵢ = ρᵢ uᵢ.
///
/// Open contacts (Π = 0) have identity rows and leave the system; the closed ones' is solved by
/// dense LU when small or dense (a matrix kept per closed-set size: a time loop that has met a
/// size allocates nothing), else by sparse LU (sparse_lu.hpp: KLU, its analysis kept while the
/// pattern recurs). Stopping rule: Siconos' fc3d error (fc3dError) ≤ tolerance, the
/// normal rows holding on their own scale too (contact_blocks.hpp: normalViolation).

#include <Eigen/Dense>
#include <utility>
#include <vector>

#include "lcp/contact_blocks.hpp"
#include "lcp/sparse_lu.hpp"
#include "lcp/status.hpp"

namespace stickslip::lcp {

/// Dense LU up to kDenseNewtonRows unknowns when the closed contacts are at most
/// kDenseNewtonContacts or fill at least 1/kDenseNewtonFill of their blocks; sparse LU otherwise
/// (on a chain's block-tridiagonal system KLU is faster from 8 contacts on).
inline constexpr Eigen::Index kDenseNewtonRows = 150, kDenseNewtonContacts = 8;
inline constexpr double kDenseNewtonFill = 4.0;
inline constexpr double kSigmaMin = 1e-8, kSigmaMax = 1.0;
/// The first step's proximal weight at most: from a far start on a hyperstatic W the unweighted
/// step runs along W's null directions; ‖F‖/‖r‖ lowers the weight as the solve converges.
inline constexpr double kSigmaStart = 1e-2;

class AlartCurnierSolver {
 public:
  struct Outcome {
    Status status = Status::kNotRun;  ///< kSuccess, kPivotLimit, or kNumericalFailure (no descent)
    int iterations = 0;
    double error = 0.0;  ///< fc3dError at the end
  };
  /// The proximal weight's bounds, relative to W (file comment).
  struct Weights {
    /// The first step's weight at most; then ‖F‖/‖r‖ takes over. 0 starts with Newton's own
    /// step (a positive definite W); kSigmaStart keeps a hyperstatic one's first step short.
    double start = kSigmaStart;
    /// How far the weight may rise before the solve gives up with kNumericalFailure;
    /// kSigmaStart gives up where a step fails at the starting weight.
    double ceiling = kSigmaMax;
    /// How many times, instead of giving up, the full step of the starting weight is taken
    /// though ‖F‖ grows (a nonmonotone watchdog: from a far start on a long chain the merit
    /// ‖F‖² has kinks where no step along Newton's direction descends).
    int free_steps = 0;
  };
  /// The last `bilateral` blocks are bilateral (file comment); their μ is unused.
  /// r: the first iterate (in), the last (out); u = W r + q. The caller checks sizes.
  Outcome solve(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance, int max_iterations,
                Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u, const Weights& weights,
                Eigen::Index bilateral = 0);
  Outcome solve(const ContactBlocks& W, const Eigen::Ref<const Eigen::VectorXd>& q,
                const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance, int max_iterations,
                Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u) {
    return solve(W, q, mu, tolerance, max_iterations, r, u, Weights{});
  }

 private:
  /// F at (r, u) into f, and Π per contact into pi_; returns ‖F‖².
  double residual(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                  const Eigen::Ref<const Eigen::VectorXd>& mu, Eigen::VectorXd& f);
  /// Solves (H + σ Π ρ) dr = −f; false when the factorization fails.
  bool newtonStep(const ContactBlocks& W, double sigma);

  Eigen::Index bilateral_ = 0;  ///< of the present solve
  Eigen::VectorXd rho_, f_, dr_, r_trial_, u_trial_, f_trial_, rhs_, solution_;
  std::vector<Eigen::Matrix3d> pi_;
  Eigen::VectorXd terms_;  ///< normalViolation's workspace
  std::vector<Eigen::Index> slot_;  ///< per contact: its place among the closed ones, −1 if open
  std::vector<Eigen::MatrixXd> dense_;  ///< index: closed contacts
  std::vector<Eigen::PartialPivLU<Eigen::MatrixXd>> dense_lu_;
  std::vector<std::pair<Eigen::Index, Eigen::Matrix3d>> row_blocks_;  ///< one row of H's blocks
  std::vector<int> outer_, inner_;  ///< H in compressed rows
  std::vector<double> values_;
  SparseLu sparse_lu_;
};

}  // namespace stickslip::lcp
