/// libFuzzer target: our round-cone solvers (lcp/round_cone.hpp: auto, nsgs, newton) on spatial
/// friction problems from arbitrary bytes.
///
/// The first byte picks how W is built, for 1 … 6 contacts:
///  - raw entries (any double: NaN, Inf, huge, denormal) and any μ;
///  - a Delassus matrix W = H Hᵀ from small entries, H of 3nc × k with k ≤ 3nc (k < 3nc: rank-
///    deficient, a hyperstatic set), optionally with a contact's block zeroed or a contact
///    doubled (two identical rows of H), and μ in [0, 2].
/// Each solver with a tenth of its default budgets (1000 sweeps, 20 Newton iterations), so that
/// an input without solution stays well within -timeout under the sanitizers.
/// Invariants: RoundConeSolver::solve never throws; r and u have size 3nc; non-finite data or μ < 0 is
/// kInvalidInput; a kSuccess answer is finite, has Siconos' fc3d error (recomputed by Siconos)
/// within 10 × the tolerance, and obeys Coulomb's law term by term — r in the cone, uₙ ≥ 0,
/// rₙuₙ = 0, a sliding contact's force opposed to its sliding — within 1e-6 of the problem's
/// scale; no answer takes longer than libFuzzer's -timeout.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>

#include "fuzz/fuzz_input.hpp"
#include "lcp/round_cone.hpp"
#include "lcp/siconos_backend.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_round_cone";
constexpr double kTolerance = 1e-10;  // RoundConeOptions' default
constexpr double kLaw = 1e-6;

lcp::FrictionProblem3D problemFrom(fuzz::FuzzInput& in) {
  const int nc = in.range(1, 6);
  const Eigen::Index n = 3 * nc;
  lcp::FrictionProblem3D p;
  p.W.resize(n, n);
  p.q.resize(n);
  p.mu.resize(nc);
  if (in.byte() % 4 == 0) {  // raw
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) p.W(i, j) = in.real();
    for (Eigen::Index i = 0; i < n; ++i) p.q(i) = in.real();
    for (int i = 0; i < nc; ++i) p.mu(i) = in.real();
    return p;
  }
  const Eigen::Index k = in.range(1, int(n));
  Eigen::MatrixXd H(n, k);
  for (Eigen::Index j = 0; j < k; ++j)
    for (Eigen::Index i = 0; i < n; ++i) H(i, j) = in.finite();
  const int defect = in.byte() % 4;  // 0: none, 1: a zero block, 2: a contact doubled
  const int c = in.range(0, nc - 1);
  if (defect == 1) H.middleRows(3 * c, 3).setZero();
  if (defect == 2 && nc > 1) H.middleRows(3 * ((c + 1) % nc), 3) = H.middleRows(3 * c, 3);
  p.W = H * H.transpose();
  for (Eigen::Index i = 0; i < n; ++i) p.q(i) = in.finite();
  for (int i = 0; i < nc; ++i) p.mu(i) = in.range(0, 8) / 4.0;
  return p;
}

/// Coulomb's law term by term (as tests/lcp/round_cone_test.cpp): "" or the violation.
std::string lawViolation(const lcp::FrictionProblem3D& p, const Eigen::VectorXd& r) {
  const Eigen::VectorXd u = p.W * r + p.q;
  const double rmax = std::max(r.cwiseAbs().maxCoeff(), 1e-300);
  const double vscale = std::max(p.q.cwiseAbs().maxCoeff(), p.W.cwiseAbs().maxCoeff() * rmax);
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const Eigen::Vector3d ri = r.segment<3>(3 * i), ui = u.segment<3>(3 * i);
    const double rt = ri.tail<2>().stableNorm(), ut = ui.tail<2>().stableNorm();  // no overflow of the squares
    const std::string at = " at contact " + std::to_string(i);
    if (ri(0) < -kLaw * rmax || rt > p.mu(i) * ri(0) + kLaw * rmax) return "r outside the cone" + at;
    if (ui(0) < -kLaw * vscale) return "u_n < 0" + at;
    if (ri(0) * ui(0) > kLaw * rmax * vscale) return "r_n u_n > 0" + at;
    if (ri(0) <= kLaw * rmax || ut <= kLaw * vscale) continue;
    if ((ri.tail<2>() + p.mu(i) * ri(0) * ui.tail<2>() / ut).stableNorm() > kLaw * rmax + 1e-4 * p.mu(i) * ri(0))
      return "slip not opposed to u_t" + at;
  }
  return "";
}

void check(const char* solver, const lcp::FrictionProblem3D& p, bool valid) {
  lcp::FrictionResult r;
  try {
    lcp::RoundConeOptions o;  // budgets of a tenth the defaults: a run stays well within -timeout under the sanitizers
    o.method = lcp::roundConeMethod(solver);
    o.max_sweeps = 1000;
    o.max_newton = 20;
    lcp::RoundConeSolver(o).solve(p, r);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string(solver) + " threw: " + e.what());
  }
  const std::string who = std::string(solver) + ": ";
  if (r.r.size() != p.q.size() || r.u.size() != p.q.size()) fuzz::fail(kTarget, who + "r or u has the wrong size");
  if (!valid) {
    if (r.status != lcp::Status::kInvalidInput) fuzz::fail(kTarget, who + "invalid data not refused");
    return;
  }
  if (!r.ok()) return;
  if (!(r.r.allFinite() && r.u.allFinite())) fuzz::fail(kTarget, who + "success with a non-finite r or u");
  // Siconos' measure sums squares: where the data's squares overflow it is NaN or Inf, and
  // Coulomb's law term by term (below) is the check.
  const double error = lcp::siconosFc3dError(p, r.r);
  const bool measurable = std::isfinite(error) || (std::isfinite(p.q.squaredNorm()) &&
                                                    std::isfinite(r.u.squaredNorm()) && std::isfinite(r.r.squaredNorm()));
  if (measurable && !(error <= 10.0 * kTolerance))
    fuzz::fail(kTarget, who + "success with Siconos' error " + std::to_string(error));
  if (const std::string why = lawViolation(p, r.r); !why.empty()) fuzz::fail(kTarget, who + "success, but " + why);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  const lcp::FrictionProblem3D p = problemFrom(in);
  const bool valid = p.W.allFinite() && p.q.allFinite() && p.mu.allFinite() && (p.mu.array() >= 0.0).all();
  for (const char* solver : {"auto", "nsgs", "newton"}) check(solver, p, valid);
  return 0;
}
