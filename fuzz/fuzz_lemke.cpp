/// libFuzzer target: LemkeSolver on arbitrary (M, q), n = 1 … 12, entries from fuzz_input.hpp
/// (NaN, ±Inf, huge, denormal and raw doubles included) and fuzzed options.
///
/// Invariants (each violation aborts, so libFuzzer keeps the input):
///  - solve() never throws; z and w always have size n;
///  - a NaN/Inf entry in M or q gives Status::kInvalidInput, finite data never does (unless
///    a row sum of |M| overflows, which Lemke refuses with its own message);
///  - kSuccess implies a finite z whose relative residual (recomputed here) is ≤ accept_tol;
///  - pivots ≤ (1 + restarts) · max_pivots (each restart has its own limit);
///  - a solver that has already solved other problems (of other sizes) returns bit for bit
///    what a fresh solver returns: the reused workspace carries nothing over.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <sstream>

#include "fuzz/fuzz_input.hpp"
#include "lcp/lemke.hpp"
#include "lcp/residual.hpp"

using namespace stickslip;

namespace {

bool sameResult(const lcp::Result& a, const lcp::Result& b) {
  auto same = [](const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
    if (x.size() != y.size()) return false;
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (std::memcmp(&x[i], &y[i], sizeof(double)) != 0) return false;
    return true;
  };
  return a.status == b.status && a.pivots == b.pivots && same(a.z, b.z) && same(a.w, b.w);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  const int n = in.range(1, 12);
  const std::uint8_t flags = in.byte();
  lcp::LemkeOptions options;
  options.lexicographic = (flags & 1) == 0;
  options.scale = (flags & 2) == 0;
  options.restarts = (flags >> 2) % 3;
  if (flags & 16) options.max_pivots = in.range(1, 40);
  lcp::Problem p;
  p.M.resize(n, n);
  p.q.resize(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) p.M(i, j) = in.real();
  for (int i = 0; i < n; ++i) p.q(i) = in.real();
  const bool finite = p.M.allFinite() && p.q.allFinite();

  static lcp::LemkeSolver reused(options);  // sees every input: workspace of all sizes
  lcp::Result r, fresh;
  try {
    lcp::LemkeSolver solver(options);
    fresh = solver.solve(p);
    reused = lcp::LemkeSolver(options);
    (void)reused.solve(lcp::Problem{Eigen::MatrixXd::Identity(13 - n, 13 - n),
                                    -Eigen::VectorXd::Ones(13 - n)});
    r = reused.solve(p);
  } catch (const std::exception& e) {
    fuzz::fail("fuzz_lemke", std::string("solve threw: ") + e.what());
  } catch (...) {
    fuzz::fail("fuzz_lemke", "solve threw a non-standard exception");
  }
  std::ostringstream why;
  why << "n = " << n << ", status " << r.status << ", pivots " << r.pivots << ": " << r.message;
  if (r.z.size() != n || r.w.size() != n) fuzz::fail("fuzz_lemke", "wrong output size; " + why.str());
  if (!finite && r.status != lcp::Status::kInvalidInput)
    fuzz::fail("fuzz_lemke", "non-finite data not reported as invalid input; " + why.str());
  // Finite entries whose row sums overflow (near DBL_MAX) are refused as input too.
  const bool norm_overflows = finite && !p.M.cwiseAbs().rowwise().sum().allFinite();
  if (finite && !norm_overflows && r.status == lcp::Status::kInvalidInput)
    fuzz::fail("fuzz_lemke", "finite data reported as invalid input; " + why.str());
  const int limit = options.max_pivots > 0 ? options.max_pivots : 100 * (n + 1);
  if (r.pivots < 0 || r.pivots > (1 + options.restarts) * limit)
    fuzz::fail("fuzz_lemke", "pivot count beyond the limit; " + why.str());
  if (r.ok()) {
    if (!r.z.allFinite()) fuzz::fail("fuzz_lemke", "success with a non-finite z; " + why.str());
    const lcp::Residual res = lcp::residual(p, r.z);
    if (!(res.relative <= options.accept_tol))
      fuzz::fail("fuzz_lemke", "success with relative residual " + std::to_string(res.relative) +
                                   "; " + why.str());
  }
  if (!sameResult(r, fresh))
    fuzz::fail("fuzz_lemke", "a reused solver differs from a fresh one; " + why.str());
  return 0;
}
