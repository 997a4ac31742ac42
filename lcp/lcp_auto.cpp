#include "lcp/lcp_auto.hpp"

#include <string>

#include "lcp/enumeration.hpp"
#include "lcp/small_pivoting.hpp"

namespace stickslip::lcp {

namespace {

/// M equal to its transpose entry for entry, block pivoting's premise: checked on one triangle
/// here, so that a nonsymmetric M goes to Lemke without a round of block pivoting first.
bool symmetric(const Eigen::MatrixXd& M) {
  for (Eigen::Index j = 0; j < M.cols(); ++j)
    for (Eigen::Index i = j + 1; i < M.rows(); ++i)
      if (M(i, j) != M(j, i)) return false;
  return true;
}

}  // namespace

Result AutoLcpSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void AutoLcpSolver::solve(const Problem& p, Result& out) {
  const bool square = p.M.rows() == p.size() && p.M.cols() == p.size();
  answered_by_ = "bpp";
  if (square && solveBySmallPivoting(p, out)) return;
  if (square && p.size() > kSmallPivotingSize && symmetric(p.M)) {
    bpp_.solve(p, out);
    if (out.ok()) return;
  }
  answered_by_ = "lemke";
  lemke_.solve(p, out);
  if (out.ok() || out.status == Status::kInvalidInput || p.size() > kAutoEnumerationSize) return;
  Result bases = solveByEnumeration(p);
  const std::string count = "2^" + std::to_string(p.size());
  if (!bases.ok()) {
    out.message += "; the enumeration of all " + count +
                   " complementary bases found no solution with a nonsingular basis either";
    return;
  }
  answered_by_ = "enum";
  bases.message = "lemke ended without a solution (" + std::string(toString(out.status)) +
                  "); the enumeration of the " + count + " complementary bases found this one";
  out = std::move(bases);
}

}  // namespace stickslip::lcp
