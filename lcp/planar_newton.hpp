#pragma once
/// \file Planar friction by the global nonsmooth Newton method: the solver for coupled contacts
/// (a chain of clearance joints, a stack), whose cost per iteration is a sparse factorization of
/// W's pattern, where Gauss–Seidel needs sweeps that grow with the coupling and Lemke pivots
/// grow with (2 nc)².
///
/// Problem (as FrictionProblem2D, W in compressed rows): u = W r + q, per contact i (rows 2i
/// normal, 2i+1 tangent) 0 ≤ uₙ ⊥ rₙ ≥ 0, |rₜ| ≤ μᵢ rₙ, uₜ ≠ 0 ⇒ rₜ = −μᵢ rₙ sign(uₜ).
///
/// It is solved as the spatial problem whose second tangent is decoupled and unloaded: its row
/// and column of W hold Wₜₜ on the diagonal only, q_b = 0. There u_b = Wₜₜ r_b, so a sticking
/// contact has r_b = 0 and a slipping one r_b ∝ −u_b, again r_b = 0: the disk |r_T| ≤ μ rₙ cuts
/// the planar interval, and the spatial solution is the planar one. Alart and Curnier's Newton
/// (alart_curnier.hpp) solves it; its stopping measure, fc3dError of the embedded problem, is
/// fc2dError of the planar one (the cone and De Saxcé's velocity have no b component).
///
/// Rounds: the first starts with Newton's own step (no proximal weight: warm-started in a time
/// loop it converges in one or two iterations); a round that has not converged after
/// kNewtonRound iterations, or finds no descent, is followed by kNsgsSweeps Gauss–Seidel sweeps
/// and a round whose first weight is kSigmaStart. From r = 0 on a chain of hundreds of
/// contacts, Newton alone wandered for a hundred iterations where ten sweeps first brought it
/// within seven. Hyperstatic piles (W of rank far below 2 nc) are NSGS's: there it stops short
/// and says so (tests/lcp/planar_newton_test.cpp).

#include <Eigen/Dense>

#include "lcp/alart_curnier.hpp"
#include "lcp/contact_blocks.hpp"
#include "lcp/nsgs.hpp"

namespace stickslip::lcp {

/// Newton's iterations per round, the Gauss–Seidel sweeps between rounds, and the steps without
/// descent a round may take (AlartCurnierSolver::Weights::free_steps).
inline constexpr int kNewtonRound = 12, kNsgsSweeps = 10, kFreeSteps = 4;

/// W (2nc × 2nc, compressed rows) as the spatial problem's 3×3 blocks, the second tangent
/// decoupled with Wₜₜ on its diagonal (file comment); q and r embed likewise, (qₙ, qₜ, 0).
/// Reuses blocks' storage.
void embedPlanar(SparseRowView W, ContactBlocks& blocks);

/// The solver and its workspace: solve() allocates nothing once it has met the largest problem
/// (the sparse factorization aside, whose pattern is analysed again when the closed set changes).
class PlanarNewtonSolver {
 public:
  /// W 2nc × 2nc (viewOf), q of size 2nc, μ of size nc; r holds the first iterate (a warm start,
  /// or zeros) and returns the last, u = W r + q. The caller checks sizes. Status kSuccess at
  /// fc2dError ≤ tolerance, kPivotLimit after max_iterations, kNumericalFailure where no step
  /// gives descent (AlartCurnierSolver). The last `bilateral` blocks are a mechanism's joint
  /// rows, two per block: uᵢ = 0, rᵢ free (NsgsSolver::solve), so that contacts coupled through
  /// joints are solved on the sparse [J; D] M⁻¹ [J; D]ᵀ instead of the dense J G Jᵀ.
  AlartCurnierSolver::Outcome solve(SparseRowView W, const Eigen::Ref<const Eigen::VectorXd>& q,
                                    const Eigen::Ref<const Eigen::VectorXd>& mu, double tolerance,
                                    int max_iterations, Eigen::Ref<Eigen::VectorXd> r, Eigen::Ref<Eigen::VectorXd> u,
                                    Eigen::Index bilateral = 0);

 private:
  ContactBlocks blocks_;
  AlartCurnierSolver newton_;
  NsgsSolver nsgs_;
  Eigen::VectorXd q3_, r3_, u3_;
};

/// Validates p and solves it from r = 0 (or the warm start) with `solver`, or a fresh one when
/// nullptr (a caller that solves many problems passes its own, whose sparse analysis then
/// carries over): FrictionResult::pivots counts the iterations; residual and
/// relative_residual as NSGS's.
FrictionResult solveFrictionNewton(const SparseFrictionProblem2D& p, double tolerance = 1e-12,
                                   int max_iterations = 200, const Eigen::VectorXd* warm_start = nullptr,
                                   PlanarNewtonSolver* solver = nullptr);

}  // namespace stickslip::lcp
