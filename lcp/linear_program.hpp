#pragma once
/// \file Linear programs solved as LCPs by the project's own complementarity solvers.
///
///   minimize cᵀx  subject to  A x ≤ b,  x ∈ ℝⁿ free.
///
/// With x = x⁺ − x⁻ (x± ≥ 0) and the multipliers u ≥ 0 of the rows, the optimality
/// conditions (primal and dual feasibility, complementary slackness) are LCP(M, q) in
/// z = (x⁺, x⁻, u):
///   M = [ 0  0  Aᵀ ; 0  0  −Aᵀ ; −A  A  0 ],   q = (c, −c, b),
/// i.e. c + Aᵀu = 0 and 0 ≤ u ⊥ b − A x ≥ 0 [Cottle, Pang & Stone 1992, §1.2]. M is skew
/// symmetric, hence copositive-plus: Lemke ends either at a solution or on a secondary ray,
/// and the ray proves that the primal or the dual has no feasible point. The solver first
/// solves the feasibility problem (c = 0, whose dual u = 0 is always feasible), so a ray
/// there means "infeasible" and a ray with c means "unbounded". Lemke's answer is checked
/// against the optimality conditions (relative 1e-9) before it is returned.
///
/// The cross-check is a different method, vertex enumeration: for A of full column rank the
/// optimum, if any, is at a vertex, where n linearly independent rows are tight, and the
/// program is unbounded iff an extreme ray d of the recession cone {A d ≤ 0} (n − 1
/// independent rows tight) has cᵀd < 0. It visits every subset of n and n − 1 rows (small
/// programs only), and reports kFailed for A without full column rank. Its dual is that of a
/// basis of the optimal vertex's tight rows with u ≥ 0.
///
/// A third method for degenerate programs (many rows tight at the optimum, as the polygons of
/// statics/hold.hpp's round cones make them), where Lemke may stop on a bad basis: the simplex
/// method on the dual  min bᵀu  s.t.  Aᵀu = −c, u ≥ 0, a dense tableau with Bland's rule (which
/// cannot cycle), x the simplex multipliers of its equations. Its answer is checked against the
/// same optimality conditions.

#include <Eigen/Dense>
#include <string>
#include <string_view>

#include "lcp/status.hpp"

namespace stickslip::lcp {

struct LinearProgram {
  Eigen::MatrixXd A;  ///< m × n
  Eigen::VectorXd b;  ///< m
  Eigen::VectorXd c;  ///< n (empty: 0, a feasibility problem)
};

enum class LpStatus { kOptimal, kInfeasible, kUnbounded, kFailed };
std::string_view toString(LpStatus s);  ///< optimal, infeasible, unbounded, failed

enum class LpMethod { kLemke, kVertices, kSimplex };

struct LpResult {
  LpStatus status = LpStatus::kFailed;
  Eigen::VectorXd x;     ///< a minimizer (kOptimal), else a feasible point if one was found
  Eigen::VectorXd dual;  ///< u ≥ 0 per row: u_i > 0 marks a binding row (kOptimal)
  double objective = 0.0;
  Status lcp_status = Status::kNotRun;  ///< the last LCP solve's
  double lcp_residual = 0.0;            ///< its relative residual
  int pivots = 0;                       ///< over both solves
  std::string message;                  ///< why, when kFailed
  bool ok() const { return status == LpStatus::kOptimal; }
};

/// Solves the program. Throws std::invalid_argument for inconsistent sizes or NaN/Inf; a
/// pivot limit or a numerical failure of the LCP solver is kFailed with its status.
LpResult solveLinearProgram(const LinearProgram& lp, LpMethod method = LpMethod::kLemke);

}  // namespace stickslip::lcp
