#pragma once
/// \file Exhaustive complementary-basis enumeration for LCP(M, q): the independent
/// reference solver of the tests ("Lemke vs enumeration") for small n.
///
/// A solution of LCP(M, q) (problem.hpp) with support S ⊆ {0, …, n−1} satisfies
///   z_S̄ = 0,   w_S = 0   ⇒   M_SS z_S = −q_S,   w_S̄ = M_S̄S z_S + q_S̄,
/// and solves the LCP iff z_S ≥ 0 and w_S̄ ≥ 0 [Murty 1988, §1.2; Cottle, Pang & Stone 1992,
/// §1.3]. The enumeration visits the 2ⁿ subsets S in increasing bitmask order (bit j set ⇔
/// j ∈ S, so S = ∅, i.e. z = 0, comes first), factorizes M_SS by LU with partial pivoting and
/// accepts a basis when z_S ≥ −tol and w_S̄ ≥ −tol; the candidate is then clipped to z ≥ 0,
/// w = M z + q is recomputed, and it must pass the relative-residual check of residual.hpp.
///
/// Limitation: bases whose M_SS is singular or ill-conditioned (reciprocal condition below
/// `min_rcond`) are skipped. Every solution that is a vertex of the solution set has a
/// nonsingular basis, so nothing is missed for P-matrices (unique solution) or for isolated
/// solutions; a continuum of solutions is represented by its vertices only.
///
/// Cost: 2ⁿ LU factorizations of size ≤ n, hence the size limit (n ≤ 20 by default, about a
/// million bases). Use it only as a reference.

#include <Eigen/Dense>
#include <vector>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

struct EnumerationOptions {
  int max_size = 20;  ///< larger problems are rejected as invalid input (2ⁿ bases)
  /// Accept z_S ≥ −tol and w_S̄ ≥ −tol. ≤ 0: 1e-10·max(‖q‖∞, ‖M‖∞‖z‖∞) per candidate, which
  /// admits the round-off of a basis solve with condition number up to ~1e5 (ε·cond ≪ 1e-10).
  double feasibility_tol = 0.0;
  double min_rcond = 1e-12;  ///< skip bases with rcond(M_SS) below this (LU estimate, 1-norm)
  double accept_tol = 1e-9;  ///< a candidate needs relative residual ≤ this
  /// Two solutions are the same when ‖z₁ − z₂‖∞ ≤ distinct_tol·max(1, ‖z₁‖∞, ‖z₂‖∞).
  double distinct_tol = 1e-8;
};

/// The first solution in bitmask order. Status: kSuccess with z, w, residual filled;
/// kRayTermination (the enumeration's counterpart of Lemke's secondary ray) when no basis
/// yields a solution, i.e. the LCP has no solution with a nonsingular basis, z = w = 0;
/// kInvalidInput (with the message, never an exception) for a malformed problem or
/// n > max_size. `pivots` counts the bases examined; `zero_tol_used` is the largest
/// feasibility tolerance applied.
Result solveByEnumeration(const Problem& p, const EnumerationOptions& options = {});

/// Every distinct solution z (w = M z + q), in bitmask order of the first basis that produced
/// it; empty if there is none. Visits all 2ⁿ bases. Throws std::invalid_argument for a
/// malformed problem or n > max_size.
std::vector<Eigen::VectorXd> enumerateSolutions(const Problem& p,
                                                const EnumerationOptions& options = {});

}  // namespace stickslip::lcp
