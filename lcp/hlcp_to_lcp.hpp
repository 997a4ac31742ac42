#pragma once
/// \file Horizontal LCP → LCP by inverting one of its two blocks.
///
/// The HorizontalProblem (problem.hpp) A z + B w = q, 0 ≤ z ⊥ w ≥ 0 [Zhuang & Wang; Cottle,
/// Pang & Stone 1992, §1.5 "horizontal LCP"] is an LCP as soon as one block is invertible:
///   B invertible:  w = B⁻¹q − B⁻¹A z   ⇒  LCP(M = −B⁻¹A, B⁻¹q) in z, then w = M z + B⁻¹q;
///   A invertible:  z = A⁻¹q − A⁻¹B w   ⇒  LCP(M = −A⁻¹B, A⁻¹q) in w, then z = M w + A⁻¹q.
/// Complementarity is symmetric in (z, w), so both are exact reformulations; when both
/// blocks are invertible the two LCP matrices are each other's inverse. kAuto inverts the
/// better-conditioned block (larger reciprocal condition estimate; B on a tie), which keeps
/// the round-off of the inverse smallest.
///
/// Errors: the constructor throws std::invalid_argument for a malformed problem and when the
/// requested block (or, for kAuto, both blocks) is singular or ill-conditioned
/// ("… A is singular …", "… neither A nor B is invertible …"). solveHlcpWithLemke() never
/// throws: it reports those cases as Status::kInvalidInput with the message.

#include <Eigen/Dense>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

enum class HlcpBranch {
  kAuto,     ///< invert the better-conditioned block
  kInvertB,  ///< LCP in z
  kInvertA,  ///< LCP in w
};

class HlcpReduction final {
 public:
  /// Throws std::invalid_argument as described in the file comment; a block counts as
  /// invertible when its estimated reciprocal condition number is ≥ min_rcond.
  explicit HlcpReduction(const HorizontalProblem& p, HlcpBranch branch = HlcpBranch::kAuto,
                         double min_rcond = 1e-12);

  /// The LCP: in z for kInvertB, in w for kInvertA.
  const Problem& lcp() const { return lcp_; }
  /// The branch taken (never kAuto).
  HlcpBranch branch() const { return branch_; }
  /// Reciprocal condition estimate of the inverted block.
  double rcond() const { return rcond_; }

  struct Recovered {
    Eigen::VectorXd z, w;
  };
  /// The HLCP's (z, w) from the LCP's variable x and its complement M x + q.
  Recovered recover(const Eigen::VectorXd& x) const;

 private:
  Problem lcp_;
  HlcpBranch branch_ = HlcpBranch::kInvertB;
  double rcond_ = 0.0;
};

/// Reduces p (kAuto), solves the LCP with `lemke` and returns the HLCP's z and w, with
/// residual/relative_residual from residual(HorizontalProblem, z, w). Status: Lemke's, except
/// kInvalidInput when neither block can be inverted and kNumericalFailure when the recovered
/// pair's relative residual exceeds lemke.options().accept_tol.
Result solveHlcpWithLemke(const HorizontalProblem& p, LemkeSolver& lemke);

}  // namespace stickslip::lcp
