#pragma once
/// \file Lemke's complementary pivoting algorithm with lexicographic degeneracy resolution.
///
/// Solves LCP(M, q) (problem.hpp) by pivoting on the augmented system
///   w − M z − d z₀ = q,   w, z, z₀ ≥ 0,   wᵀz = 0,
/// starting from the almost-complementary basis {w} with the artificial z₀ entering
/// against the covering vector d > 0 [Lemke 1965; Cottle, Pang & Stone 1992, §4.4].
/// It terminates with a solution when z₀ leaves the basis, or on a secondary ray, which for
/// copositive-plus M proves that the LCP has no solution.
///
/// Implementation notes: the basis inverse is kept explicitly and updated by one rank-1
/// product-form step per pivot (O(n²)), ties in the ratio test are broken
/// lexicographically with the rows of that inverse (no cycling), on a restart after a failed
/// path a near tie with z₀ (ratios within 1e-6 relative, which round-off can split) ends the
/// run when the basis with z₀ leaving, solved afresh, passes the acceptance test, rows and
/// columns of M are equilibrated by positive diagonal scalings that leave complementarity
/// unchanged, and the final basis is re-solved by an LU factorization so the answer carries
/// no accumulated update error. A ray or numerical failure is retried along other pivot paths before it is
/// reported (LemkeOptions::restarts). All workspace is sized once per problem size and reused across solves.

#include <Eigen/Dense>
#include <vector>

#include "lcp/problem.hpp"
#include "lcp/residual.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

struct LemkeOptions {
  int max_pivots = 0;          ///< 0: 100·(n + 1); Lemke is exponential in the worst case
  double zero_tol = 0.0;       ///< pivot tolerance; ≤ 0: defaultZeroTolerance(scaled M)
  bool lexicographic = true;   ///< lexicographic ratio test (false: smallest index on ties)
  bool scale = true;           ///< equilibrate rows and columns of M before pivoting
  double accept_tol = 1e-9;    ///< success needs relative residual ≤ this, else numerical failure
  /// On a ray or a numerical failure, retry along up to this many other pivot paths (0..3:
  /// the same path letting z₀ leave on near ties; unscaled; non-uniform covering vector with
  /// a 100× finer tolerance). Pivots add up.
  int restarts = 3;
  Eigen::VectorXd covering;    ///< covering vector d > 0 (empty: all ones)
};

class LemkeSolver final {
 public:
  explicit LemkeSolver(LemkeOptions options = {});

  /// Solves p. Invalid input (size mismatch, NaN/Inf, bad covering vector) gives
  /// Status::kInvalidInput with a message instead of throwing. Not thread-safe: the solver
  /// reuses its workspace; use one solver per thread.
  Result solve(const Problem& p);
  /// Same, writing into `out` so that a caller in a time loop allocates nothing.
  void solve(const Problem& p, Result& out);

  const LemkeOptions& options() const { return options_; }

 private:
  struct Attempt {
    bool scale;
    bool alternate_covering;
    double tol_factor;
    bool z0_near_ties = false;  ///< let z₀ leave on a near tie (see attempt())
  };
  /// One pivoting path's scalars: the norms the residual is relative to, q's scale, the pivot
  /// tolerance and the pivot budget.
  struct Path {
    double norm_M = 0.0, norm_q = 0.0, q_scale = 1.0, tol = 0.0;
    int max_pivots = 0;
  };
  /// One path, in its steps: the input checked, z = 0 when it solves, the problem scaled, the
  /// pivots followed to a complementary basis, the solution read off and checked.
  void attempt(const Problem& p, Result& out, const Attempt& how);
  bool validInput(const Problem& p, Result& out) const;
  bool solvedAtZero(const Problem& p, Result& out) const;
  bool scaleProblem(const Problem& p, Result& out, const Attempt& how, Path& path);
  int startBasis(Eigen::Index n, double tol);  ///< the first leaving row
  bool followPath(const Problem& p, Result& out, const Attempt& how, const Path& path);
  int leavingRow(double piv_tol, double min_ratio, double tol);  ///< among the ratio test's ties
  Residual evaluate(const Problem& p, Result& out, const Path& path, const Eigen::VectorXd& basic) const;
  void resolveBasis(Eigen::VectorXd& x);
  void finish(const Problem& p, Result& out, const Path& path);
  void resize(Eigen::Index n);
  LemkeOptions options_;
  // Workspace, sized once per n: Ms_ = −R M C (scaled, negated: the z columns of the
  // augmented system), Binv_ the basis inverse, basis_matrix_ the terminal basis for the LU
  // re-solve; qs_ = R q, row/col scales R and C, d_ the covering vector, x_ = B⁻¹ qs_ the basic
  // values, column_ = B⁻¹ (entering column), ratio_row_ scratch for ratios and row sums, trial_
  // a basis tried with z₀ leaving on a near tie;
  // basis_[row] = variable, position_[variable] = row or −1, ties_ rows tied in a ratio test.
  Eigen::MatrixXd Ms_, Binv_, basis_matrix_;
  Eigen::VectorXd qs_, row_scale_, col_scale_, d_, x_, column_, ratio_row_, trial_, z_prev_, w_prev_;
  std::vector<int> basis_, position_, ties_;
  Result first_;  ///< the first attempt's outcome while restarts run (reused: no allocation)
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

}  // namespace stickslip::lcp
