#pragma once
/// \file Siconos Numerics 4.4 solvers behind stickslip's problem and result types.
///
/// One class per problem kind. Each owns one Siconos SolverOptions, created in the
/// constructor and reused by every solve (recreated only when the problem size changes,
/// because several Siconos solvers size their work arrays on first use), so the per-solve
/// overhead is copying the data into column-major buffers the object keeps.
///
/// Results follow result.hpp: the status is translated from Siconos' `info` (and, for
/// success, confirmed by our own residual: Siconos' checks are looser or, for 4.4's
/// lexicographic Lemke, report 0 on a secondary ray too), `pivots` is
/// iparam[SICONOS_IPARAM_ITER_DONE], and residual/relative_residual are recomputed with
/// residual.hpp so that the backends compare like for like. Siconos' own printing is
/// silenced (numerics_set_verbose(0), and SiconosOptions::quiet).
///
/// Conventions mapped here (checked against Siconos 4.4.0):
///  - LCP: identical, w = M z + q.
///  - MLCP: Siconos' z = (u, v), w = (w₁ = 0, w₂); A u + C v + a = 0, w₂ = D u + B v + b,
///    0 ≤ w₂ ⊥ v ≥ 0, i.e. MixedProblem as is. Siconos needs A square (as many equalities
///    as free variables).
///  - FC2D: Siconos' velocity = M reaction + q, per contact (normal, tangent), reaction
///    opposing the sliding velocity: FrictionProblem2D as is (W = M, r = reaction, u =
///    velocity).
///
/// Not thread-safe: Siconos keeps global state (verbosity; the MLCP "direct" solvers keep
/// their work in static variables). Use these classes from one thread.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

struct SiconosOptions {
  double tolerance = 1e-12;  ///< dparam[SICONOS_DPARAM_TOL]: Siconos' own stopping test, > 0
  /// iparam[SICONOS_IPARAM_MAX_ITER], ≥ 1. Enumeration solvers ignore it in Siconos; here
  /// they are refused (Status::kPivotLimit) when 2^(number of complementarity pairs) exceeds
  /// it, since the enumeration would not finish in useful time.
  int max_iterations = 10000;
  /// A Siconos success is reported as Status::kSuccess only if our relative residual is
  /// ≤ accept_tol; otherwise Status::kNumericalFailure.
  double accept_tol = 1e-9;
  /// Siconos 4.4 prints from inside its solvers whatever its verbosity; with quiet, stdout
  /// and stderr go to /dev/null during each solve. That costs about 5 µs per solve (a few
  /// system calls), which matters when timing small problems: benchmarks may turn it off.
  bool quiet = true;
};

/// Names accepted by SiconosLcpSolver: lemke, enum, pgs, rpgs, psor, cpg, latin, newton-min,
/// newton-fb, newton-min-fb, bard, murty, pivot.
std::vector<std::string> siconosLcpSolverNames();
/// Names accepted by SiconosMlcpSolver: enum, direct-enum, pgs, rpgs, psor, rpsor, fb,
/// direct-fb, lemke (Siconos' MLCP→LCP reduction solved by its Lemke).
std::vector<std::string> siconosMlcpSolverNames();
/// Names accepted by SiconosFc2dSolver: lemke, enum, nsgs, cpg (4.4 has no 2D Latin).
std::vector<std::string> siconosFc2dSolverNames();
/// Names accepted by SiconosFc3dSolver: nsgs, nsn-ac (Alart–Curnier semismooth Newton), prox
/// (proximal point), vi-eg (extragradient), all on the exact Coulomb cone.
std::vector<std::string> siconosFc3dSolverNames();

/// Siconos' own error measure of a spatial friction problem (fc3d_compute_error): the natural
/// map of r and De Saxcé's modified velocity û = u + (μ‖uₜ‖, 0, 0), u = W r + q, as a 2-norm
/// over the contacts, relative to ‖q‖ (absolute when ‖q‖ is round-off).
double siconosFc3dError(const FrictionProblem3D& p, const Eigen::VectorXd& r);

class SiconosLcpSolver final {
 public:
  /// Throws std::invalid_argument for an unknown name (the message lists the valid ones) or
  /// options out of range.
  explicit SiconosLcpSolver(std::string_view name, SiconosOptions options = {});
  ~SiconosLcpSolver();
  SiconosLcpSolver(SiconosLcpSolver&&) noexcept;
  SiconosLcpSolver& operator=(SiconosLcpSolver&&) noexcept;
  SiconosLcpSolver(const SiconosLcpSolver&) = delete;
  SiconosLcpSolver& operator=(const SiconosLcpSolver&) = delete;

  /// Solves p (validated: std::invalid_argument on bad sizes or NaN/Inf). An empty problem
  /// is solved trivially.
  Result solve(const Problem& p);
  void solve(const Problem& p, Result& out);

  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class SiconosMlcpSolver final {
 public:
  explicit SiconosMlcpSolver(std::string_view name, SiconosOptions options = {});
  ~SiconosMlcpSolver();
  SiconosMlcpSolver(SiconosMlcpSolver&&) noexcept;
  SiconosMlcpSolver& operator=(SiconosMlcpSolver&&) noexcept;
  SiconosMlcpSolver(const SiconosMlcpSolver&) = delete;
  SiconosMlcpSolver& operator=(const SiconosMlcpSolver&) = delete;

  /// Solves p; throws std::invalid_argument if p is invalid or A is not square.
  MixedResult solve(const MixedProblem& p);

  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class SiconosFc2dSolver final {
 public:
  explicit SiconosFc2dSolver(std::string_view name, SiconosOptions options = {});
  ~SiconosFc2dSolver();
  SiconosFc2dSolver(SiconosFc2dSolver&&) noexcept;
  SiconosFc2dSolver& operator=(SiconosFc2dSolver&&) noexcept;
  SiconosFc2dSolver(const SiconosFc2dSolver&) = delete;
  SiconosFc2dSolver& operator=(const SiconosFc2dSolver&) = delete;

  /// Solves p; throws std::invalid_argument if p is invalid.
  FrictionResult solve(const FrictionProblem2D& p);

  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Siconos Numerics' fc3d solvers. `pivots` holds their iteration count, `relative_residual`
/// Siconos' fc3d error of the answer (success: ≤ 10 × the tolerance asked for, and, since that
/// error is relative to ‖r‖ too and so shrinks as r diverges, uₙ ≥ −τ max(‖q‖∞, ‖W‖∞‖r‖∞) and
/// rₙuₙ within τ‖r‖∞ of that scale at every contact, τ = max(1e-6, 100 × the tolerance); else
/// kNumericalFailure). NSGS
/// refuses (kInvalidInput) a W with a normal diagonal entry W(3i, 3i) ≤ 0, on which Siconos
/// 4.4's NSGS aborts the process.
class SiconosFc3dSolver final {
 public:
  explicit SiconosFc3dSolver(std::string_view name, SiconosOptions options = {});
  ~SiconosFc3dSolver();
  SiconosFc3dSolver(SiconosFc3dSolver&&) noexcept;
  SiconosFc3dSolver& operator=(SiconosFc3dSolver&&) noexcept;
  SiconosFc3dSolver(const SiconosFc3dSolver&) = delete;
  SiconosFc3dSolver& operator=(const SiconosFc3dSolver&) = delete;

  /// Solves p; throws std::invalid_argument if p is invalid.
  FrictionResult solve(const FrictionProblem3D& p);

  const std::string& name() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace stickslip::lcp
