#include "lcp/hlcp_to_lcp.hpp"

#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

constexpr const char* kHlcpReduction = "HlcpReduction";

double rcondOf(const Eigen::FullPivLU<Eigen::MatrixXd>& lu) {
  return lu.isInvertible() ? lu.rcond() : 0.0;
}

}  // namespace

HlcpReduction::HlcpReduction(const HorizontalProblem& p, HlcpBranch branch, double min_rcond) {
  p.validate(kHlcpReduction);
  const Eigen::Index n = p.size();
  if (n == 0) {
    branch_ = branch == HlcpBranch::kInvertA ? HlcpBranch::kInvertA : HlcpBranch::kInvertB;
    rcond_ = 1.0;
    lcp_.M.resize(0, 0);
    lcp_.q.resize(0);
    return;
  }
  std::optional<Eigen::FullPivLU<Eigen::MatrixXd>> lu_a, lu_b;
  double rc_a = 0.0, rc_b = 0.0;
  if (branch != HlcpBranch::kInvertA) rc_b = rcondOf(lu_b.emplace(p.B));
  if (branch != HlcpBranch::kInvertB) rc_a = rcondOf(lu_a.emplace(p.A));

  const auto fail = [&](const char* expected, const char* got) {
    std::ostringstream os;
    os << kHlcpReduction << ": expected " << expected << " (reciprocal condition ≥ " << min_rcond << "), got "
       << got << " (";
    if (lu_a) os << "rcond(A) = " << rc_a;
    if (lu_a && lu_b) os << ", ";
    if (lu_b) os << "rcond(B) = " << rc_b;
    os << ")";
    throw std::invalid_argument(os.str());
  };
  switch (branch) {
    case HlcpBranch::kInvertB:
      if (!(rc_b >= min_rcond)) fail("B invertible", "B is singular or ill-conditioned");
      break;
    case HlcpBranch::kInvertA:
      if (!(rc_a >= min_rcond)) fail("A invertible", "A is singular or ill-conditioned");
      break;
    case HlcpBranch::kAuto:
      if (!(rc_a >= min_rcond) && !(rc_b >= min_rcond))
        fail("A or B invertible", "neither A nor B is invertible");
      branch = rc_b >= rc_a ? HlcpBranch::kInvertB : HlcpBranch::kInvertA;
      break;
  }
  branch_ = branch;
  if (branch_ == HlcpBranch::kInvertB) {
    rcond_ = rc_b;
    lcp_.M = -lu_b->solve(p.A);
    lcp_.q = lu_b->solve(p.q);
  } else {
    rcond_ = rc_a;
    lcp_.M = -lu_a->solve(p.B);
    lcp_.q = lu_a->solve(p.q);
  }
}

HlcpReduction::Recovered HlcpReduction::recover(const Eigen::VectorXd& x) const {
  if (x.size() != lcp_.size())
    throw std::invalid_argument(std::string(kHlcpReduction) + "::recover: expected x of size " +
                                std::to_string(lcp_.size()) + ", got " + std::to_string(x.size()));
  Recovered out;
  Eigen::VectorXd complement = lcp_.M * x + lcp_.q;
  if (branch_ == HlcpBranch::kInvertB) {
    out.z = x;
    out.w = std::move(complement);
  } else {
    out.w = x;
    out.z = std::move(complement);
  }
  return out;
}

Result solveHlcpWithLemke(const HorizontalProblem& p, LemkeSolver& lemke) {
  Result out;
  out.z = Eigen::VectorXd::Zero(p.q.size());
  out.w = Eigen::VectorXd::Zero(p.q.size());
  std::optional<HlcpReduction> reduction;
  try {
    reduction.emplace(p);
  } catch (const std::invalid_argument& e) {
    out.status = Status::kInvalidInput;
    out.message = std::string("solveHlcpWithLemke: ") + e.what();
    return out;
  }
  const Result r = lemke.solve(reduction->lcp());
  out.status = r.status;
  out.message = r.message;
  out.pivots = r.pivots;
  out.zero_tol_used = r.zero_tol_used;
  if (r.z.size() == p.size()) {
    HlcpReduction::Recovered rec = reduction->recover(r.z);
    out.z = std::move(rec.z);
    out.w = std::move(rec.w);
  }
  const Residual res = residual(p, out.z, out.w);
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (r.ok() && !(res.relative <= lemke.options().accept_tol)) {
    std::ostringstream os;
    os << "solveHlcpWithLemke: the reduced LCP was solved but the recovered HLCP pair has "
          "relative residual "
       << res.relative << " > " << lemke.options().accept_tol << " (rcond of the inverted block "
       << reduction->rcond() << ")";
    out.status = Status::kNumericalFailure;
    out.message = os.str();
  }
  return out;
}

}  // namespace stickslip::lcp
