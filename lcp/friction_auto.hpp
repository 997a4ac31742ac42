#pragma once
/// \file `auto` for planar friction (solve.hpp): the choice between NSGS and Lemke, with the
/// workspaces of both kept between solves.
///
/// NSGS goes first: a sweep solves each contact's local problem exactly, so weakly coupled
/// contacts are done in one or two sweeps, which no pivoting method matches.
/// - With at most kAutoLemkeContacts contacts it gets kAutoFewContactsSweeps sweeps: on a dense
///   W on the stack (small_nsgs.hpp, to the natural-map residual 1e-12), on a sparse one by
///   NsgsSolver (to Siconos' error 1e-12). Lemke (exact, a few pivots there) takes the problem
///   when they fall short.
/// - Beyond, NSGS runs on W's nonzeros with its exact finish (nsgs_finish.hpp), and Lemke is
///   the fallback if it stops short and W fits kDenseFrictionContacts.
/// FrictionResult::solver says which answered; residual and relative_residual are the
/// natural-map residual of residual.hpp, as for every solver. NSGS's answer stands only when
/// that residual is at most kAutoAccept relative; Siconos' error measure, which NSGS stops on,
/// is absolute for a problem whose scale is below machine ε, so there NSGS sweeps on to the
/// tolerance relative to that scale.
///
/// The solver keeps W's compressed rows, NSGS's and Lemke's workspaces and the result's
/// vectors: solving a run of problems of one size allocates nothing on the NSGS path but in
/// its active-set solves (once the modes settle, and in the exact finish).

#include "lcp/lemke.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"
#include "lcp/small_nsgs.hpp"

namespace stickslip::lcp {

inline constexpr Eigen::Index kAutoLemkeContacts = 4;
static_assert(kAutoLemkeContacts <= kSmallNsgsContacts, "few contacts go through the stack path");
inline constexpr int kAutoFewContactsSweeps = 8;
inline constexpr Eigen::Index kDenseFrictionContacts = 1024;
/// NSGS's answer stands when its natural-map relative residual is at most this, as Lemke's.
inline constexpr double kAutoAccept = 1e-9;

class AutoFrictionSolver {
 public:
  void solve(const FrictionProblem2D& p, FrictionResult& out);
  void solve(const SparseFrictionProblem2D& p, FrictionResult& out);

 private:
  /// NSGS (few contacts: capped, no finish) and the natural-map residual.
  void nsgs(const SparseFrictionProblem2D& p, FrictionResult& out);
  /// p validated: true, with `out` the refusal naming the entry, when it is malformed.
  static bool refuses(const FrictionProblem2D& p, FrictionResult& out);
  void lemke(const FrictionProblem2D& p, FrictionResult& out);

  SparseFrictionProblem2D sparse_;  ///< the dense problem's W by rows
  NsgsSolver nsgs_;
  LemkeSolver lemke_;
  Eigen::VectorXd warm_;  ///< NSGS's first answer, the start of its sweeps on (tiny scales)
};

}  // namespace stickslip::lcp
