#include "lcp/lcp_auto.hpp"

#include <string>

#include "lcp/enumeration.hpp"
#include "lcp/small_pivoting.hpp"

namespace stickslip::lcp {

Result AutoLcpSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void AutoLcpSolver::solve(const Problem& p, Result& out) {
  const bool square = p.M.rows() == p.size() && p.M.cols() == p.size();
  answered_by_ = "bpp";
  if (square && solveBySmallPivoting(p, out)) return;
  if (square && p.size() > kSmallPivotingSize) {
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
