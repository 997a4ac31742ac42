#pragma once
/// \file `auto` for an LCP: block principal pivoting first, on the stack for a small problem
/// (small_pivoting.hpp), with a kept Cholesky factor beyond (block_pivoting.hpp); Lemke's
/// method; and where it ends without a solution on a small problem, the enumeration of the
/// complementary bases (enumeration.hpp).
///
/// Up to kSmallPivotingSize unknowns a few rounds of block pivoting on the stack cost a fraction
/// of one Lemke solve, and their answer is returned only once its residual is checked. Beyond,
/// for M symmetric positive definite, block pivoting costs about one factorization where Lemke
/// pivots ~n times on an n × n inverse. Any other M it refuses, most within its first round (a
/// factorization of the guessed free block), which is what `auto` risks there; an answer it
/// gives has passed the residual check, whatever M. Wherever it gives none, Lemke decides.
///
/// Lemke's method ends with a solution for every P-matrix, and for M copositive-plus (positive
/// semidefinite M among them) whenever one exists. Outside those classes a secondary ray proves
/// nothing. A bimatrix game is such a case: M = [0 A; B 0] with A, B > 0
/// is copositive but not copositive-plus, an equilibrium always exists, and Lemke with the
/// covering vector e may still end on a ray (Siconos' lcp_CPS_3, after one pivot, ours and
/// Siconos' alike). Up to kAutoEnumerationSize unknowns `auto` then visits the 2ⁿ bases,
/// which either gives a solution or adds to Lemke's status that none with a nonsingular basis
/// exists.
///
/// Contract: Lemke's (lemke.hpp), invalid input refused without enumeration. `answeredBy()`
/// names the solver whose answer the last solve returned: "bpp", "lemke" or "enum"; an answer
/// from the enumeration says in its message why Lemke's was not taken. Small block pivoting works
/// on the stack, and the workspaces of block pivoting and Lemke are kept between solves; the
/// enumeration, a fallback, allocates its own.

#include <Eigen/Dense>
#include <string_view>

#include "lcp/block_pivoting.hpp"
#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

/// Enumeration after Lemke up to this size: 65 536 bases, a fraction of a second at most.
inline constexpr Eigen::Index kAutoEnumerationSize = 16;

class AutoLcpSolver final {
 public:
  /// Solves p into `out`. Never throws.
  void solve(const Problem& p, Result& out);
  Result solve(const Problem& p);
  std::string_view answeredBy() const { return answered_by_; }

 private:
  BlockPivotingSolver bpp_;
  LemkeSolver lemke_;
  const char* answered_by_ = "bpp";
};

}  // namespace stickslip::lcp
