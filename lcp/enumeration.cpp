#include "lcp/enumeration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

double infNorm(const Eigen::MatrixXd& m) {
  return m.size() ? m.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
}
double infNorm(const Eigen::VectorXd& v) { return v.size() ? v.lpNorm<Eigen::Infinity>() : 0.0; }

void checkInput(const Problem& p, const EnumerationOptions& options, std::string_view who) {
  p.validate(who);
  if (p.size() > options.max_size)
    throw std::invalid_argument(std::string(who) + ": expected n ≤ " +
                                std::to_string(options.max_size) +
                                " (2ⁿ bases), got n = " + std::to_string(p.size()));
  if (options.max_size > 30)
    throw std::invalid_argument(std::string(who) + ": expected max_size ≤ 30, got " +
                                std::to_string(options.max_size));
}

struct Candidate {
  Eigen::VectorXd z, w;
  Residual res;
  double tol = 0.0;
};

/// Visits the bases in bitmask order and calls visit(candidate) for each accepted one; stops
/// when visit returns false. Returns the number of bases examined and the largest tolerance.
template <typename Visit>
std::uint64_t enumerate(const Problem& p, const EnumerationOptions& options, double& tol_used,
                        Visit&& visit) {
  const Eigen::Index n = p.size();
  const double norm_M = infNorm(p.M), norm_q = infNorm(p.q);
  const std::uint64_t count = std::uint64_t{1} << n;
  std::vector<Eigen::Index> support;
  support.reserve(n);
  Eigen::MatrixXd Mss;
  Eigen::VectorXd rhs;
  Candidate c;
  c.z.resize(n);
  c.w.resize(n);
  std::uint64_t examined = 0;
  for (std::uint64_t mask = 0; mask < count; ++mask) {
    ++examined;
    support.clear();
    for (Eigen::Index j = 0; j < n; ++j)
      if (mask >> j & 1u) support.push_back(j);
    const Eigen::Index k = Eigen::Index(support.size());
    c.z.setZero();
    if (k > 0) {
      Mss.resize(k, k);
      rhs.resize(k);
      for (Eigen::Index a = 0; a < k; ++a) {
        rhs(a) = -p.q(support[a]);
        for (Eigen::Index b = 0; b < k; ++b) Mss(a, b) = p.M(support[a], support[b]);
      }
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(Mss);
      // rcond is NaN or 0 when a pivot vanished; both fail this test.
      if (!(lu.rcond() >= options.min_rcond)) continue;
      const Eigen::VectorXd zs = lu.solve(rhs);
      if (!zs.allFinite()) continue;
      for (Eigen::Index a = 0; a < k; ++a) c.z(support[a]) = zs(a);
    }
    c.w.noalias() = p.M * c.z;
    c.w += p.q;
    const double scale = std::max(norm_q, norm_M * infNorm(c.z));
    c.tol = options.feasibility_tol > 0.0 ? options.feasibility_tol : 1e-10 * scale;
    // z_S̄ = 0 and w_S = 0 hold up to round-off by construction, so checking every entry of
    // z and w is the same as checking z_S and w_S̄.
    if ((c.z.array() < -c.tol).any() || (c.w.array() < -c.tol).any()) continue;
    c.z = c.z.cwiseMax(0.0);
    c.w.noalias() = p.M * c.z;
    c.w += p.q;
    c.res = residual(p, c.z);
    if (!(c.res.relative <= options.accept_tol)) continue;
    tol_used = std::max(tol_used, c.tol);
    if (!visit(c)) break;
  }
  return examined;
}

}  // namespace

Result solveByEnumeration(const Problem& p, const EnumerationOptions& options) {
  Result r;
  const Eigen::Index n = std::max<Eigen::Index>(p.q.size(), 0);
  r.z = Eigen::VectorXd::Zero(n);
  r.w = Eigen::VectorXd::Zero(n);
  try {
    checkInput(p, options, "solveByEnumeration");
  } catch (const std::invalid_argument& e) {
    r.status = Status::kInvalidInput;
    r.message = e.what();
    return r;
  }
  bool found = false;
  double tol_used = 0.0;
  const std::uint64_t examined = enumerate(p, options, tol_used, [&](const Candidate& c) {
    r.z = c.z;
    r.w = c.w;
    r.residual = c.res.absolute;
    r.relative_residual = c.res.relative;
    found = true;
    return false;
  });
  r.pivots = int(std::min<std::uint64_t>(examined, std::uint64_t(INT32_MAX)));
  r.zero_tol_used = tol_used;
  if (found) {
    r.status = Status::kSuccess;
  } else {
    r.status = Status::kRayTermination;
    r.message =
        "no complementary basis of the " + std::to_string(examined) + " examined yields a solution";
    const Residual res = residual(p, r.z);
    r.residual = res.absolute;
    r.relative_residual = res.relative;
  }
  return r;
}

std::vector<Eigen::VectorXd> enumerateSolutions(const Problem& p,
                                                const EnumerationOptions& options) {
  checkInput(p, options, "enumerateSolutions");
  std::vector<Eigen::VectorXd> solutions;
  double tol_used = 0.0;
  enumerate(p, options, tol_used, [&](const Candidate& c) {
    const double zc = infNorm(c.z);
    const bool seen = std::any_of(solutions.begin(), solutions.end(), [&](const auto& s) {
      const double scale = std::max({1.0, zc, infNorm(s)});
      return (s - c.z).template lpNorm<Eigen::Infinity>() <= options.distinct_tol * scale;
    });
    if (!seen) solutions.push_back(c.z);
    return true;
  });
  return solutions;
}

}  // namespace stickslip::lcp
