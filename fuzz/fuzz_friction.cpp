/// libFuzzer target: planar Coulomb friction from arbitrary bytes, two ways.
///
/// (a) A FrictionProblem2D (W, q, μ) with 1 … 4 contacts through solveFrictionWithLemke.
///     The first byte picks how W is built: raw entries (any double, so NaN/Inf/huge too), or
///     W = A Aᵀ + I from small finite entries (positive definite, the case friction_to_lcp.hpp
///     proves Lemke processes). Invariants: never throws; r and u have size 2·nc; non-finite
///     data or μ < 0 gives kInvalidInput, valid data only when the LCP's norm overflows; kSuccess has a finite r with relative residual
///     ≤ accept_tol (recomputed); with W = A Aᵀ + I and μ ≤ 2 the solve succeeds.
/// (b) A single contact (a₀, w, N, μs, μk) through solveByTrialAndError and
///     solveSingleContactWithLemke. Invariants: neither throws; invalid input is kInvalidInput
///     for both; trial-and-error always succeeds on valid input; when both succeed they pick
///     the same mode (as tests/lcp/trial_and_error_test.cpp requires on random contacts),
///     unless w μs N or its factors are denormal or near overflow.

#include <cmath>
#include <cstdint>
#include <exception>
#include <sstream>
#include <stdexcept>

#include "fuzz/fuzz_input.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/residual.hpp"
#include "lcp/trial_and_error.hpp"

using namespace stickslip;

namespace {

constexpr const char* kTarget = "fuzz_friction";

void frictionProblem(fuzz::FuzzInput& in, lcp::LemkeSolver& lemke) {
  const int nc = in.range(1, 4);
  const bool definite = in.byte() % 2 == 0;
  const Eigen::Index n = 2 * nc;
  lcp::FrictionProblem2D p;
  p.W.resize(n, n);
  p.q.resize(n);
  p.mu.resize(nc);
  if (definite) {
    Eigen::MatrixXd A(n, n);
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) A(i, j) = in.range(-8, 8) / 2.0;
    p.W = A * A.transpose() + Eigen::MatrixXd::Identity(n, n);
    for (Eigen::Index i = 0; i < n; ++i) p.q(i) = in.range(-8, 8) / 2.0;
    for (int i = 0; i < nc; ++i) p.mu(i) = in.range(0, 8) / 4.0;
  } else {
    for (Eigen::Index j = 0; j < n; ++j)
      for (Eigen::Index i = 0; i < n; ++i) p.W(i, j) = in.real();
    for (Eigen::Index i = 0; i < n; ++i) p.q(i) = in.real();
    for (int i = 0; i < nc; ++i) p.mu(i) = in.real();
  }
  const bool valid = p.W.allFinite() && p.q.allFinite() && p.mu.allFinite() &&
                     (p.mu.array() >= 0.0).all();

  lcp::FrictionResult r;
  try {
    r = lcp::solveFrictionWithLemke(p, lemke);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string("solveFrictionWithLemke threw: ") + e.what());
  } catch (...) {
    fuzz::fail(kTarget, "solveFrictionWithLemke threw a non-standard exception");
  }
  std::ostringstream why;
  why << "nc = " << nc << (definite ? " (W = A Aᵀ + I)" : " (raw W)") << ", status " << r.status
      << ", pivots " << r.pivots << ": " << r.message;
  if (!valid && r.status != lcp::Status::kInvalidInput)
    fuzz::fail(kTarget, "invalid data not reported as invalid input; " + why.str());
  // Finite entries near DBL_MAX can overflow the norm of the reduced LCP's matrix, which
  // Lemke refuses as input ("‖M‖∞ overflows"): allowed.
  if (valid && r.status == lcp::Status::kInvalidInput &&
      r.message.find("overflows") == std::string::npos)
    fuzz::fail(kTarget, "valid data reported as invalid input; " + why.str());
  if (r.ok()) {
    if (r.r.size() != n || r.u.size() != n) fuzz::fail(kTarget, "wrong output size; " + why.str());
    if (!r.r.allFinite()) fuzz::fail(kTarget, "success with a non-finite r; " + why.str());
    const double rel = lcp::residual(p, r.r).relative;
    if (!(rel <= lemke.options().accept_tol))
      fuzz::fail(kTarget, "success with relative residual " + std::to_string(rel) + "; " + why.str());
  }
  if (definite && !r.ok()) fuzz::fail(kTarget, "positive definite W not solved; " + why.str());
}

void singleContact(fuzz::FuzzInput& in, lcp::LemkeSolver& lemke) {
  lcp::SingleContact c;
  const bool raw = in.byte() % 2 == 0;
  auto value = [&] { return raw ? in.real() : in.finite(); };
  c.free_acceleration = value();
  c.compliance = value();
  c.normal_force = value();
  c.mu_static = value();
  c.mu_kinetic = value();
  // c.zero_tol stays at its default: a user tolerance below round-off makes the two routes
  // legitimately differ at the stick/slip boundary.
  bool valid = true;
  try {
    c.validate();
  } catch (const std::invalid_argument&) {
    valid = false;
  }
  lcp::SingleContactResult t, l;
  try {
    t = lcp::solveByTrialAndError(c);
    l = lcp::solveSingleContactWithLemke(c, lemke);
  } catch (const std::exception& e) {
    fuzz::fail(kTarget, std::string("single contact threw: ") + e.what());
  } catch (...) {
    fuzz::fail(kTarget, "single contact threw a non-standard exception");
  }
  std::ostringstream why;
  why.precision(17);
  why << "a0 = " << c.free_acceleration << ", w = " << c.compliance << ", N = " << c.normal_force
      << ", mu_s = " << c.mu_static << ", mu_k = " << c.mu_kinetic << ", tol = " << c.zero_tol
      << "; trial-and-error " << t.status << " " << lcp::toString(t.mode) << " F = " << t.friction
      << "; LCP " << l.status << " " << lcp::toString(l.mode) << " F = " << l.friction << " ("
      << l.message << ")";
  if (!valid && (t.status != lcp::Status::kInvalidInput || l.status != lcp::Status::kInvalidInput))
    fuzz::fail(kTarget, "invalid contact not reported as invalid input; " + why.str());
  if (valid && !t.ok()) fuzz::fail(kTarget, "trial-and-error failed on a valid contact; " + why.str());
  // The routes evaluate w μs N in different orders; with denormal or overflowing products
  // (0.25 · 4.9e-324 = 0) they see different numbers, and no mode is meaningful there.
  auto representable = [](double x) { return x == 0.0 || (std::abs(x) >= 1e-290 && std::abs(x) <= 1e290); };
  const bool in_range = representable(c.free_acceleration) && representable(c.compliance) &&
                        representable(c.normal_force) && representable(c.mu_static) &&
                        representable(c.mu_static * c.normal_force) &&
                        representable(c.compliance * c.mu_static) &&
                        representable(c.compliance * c.mu_static * c.normal_force);
  if (in_range && t.ok() && l.ok() && t.mode != l.mode)
    fuzz::fail(kTarget, "trial-and-error and LCP disagree on the mode; " + why.str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::FuzzInput in(data, size);
  static lcp::LemkeSolver lemke;  // reused across inputs, as a time loop would
  if (in.byte() % 2 == 0)
    frictionProblem(in, lemke);
  else
    singleContact(in, lemke);
  return 0;
}
