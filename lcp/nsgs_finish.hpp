#pragma once
/// \file The exact finish of planar NSGS (nsgs.hpp): from an iterate near a solution to one
/// exact to round-off, where Gauss–Seidel alone stalls.
///
/// Why Gauss–Seidel stalls: on hyperstatic problems (more contact rows than the bodies'
/// degrees of freedom, as in a granular pile) W is singular and the reactions are not unique;
/// when W is given to a few digits (Siconos' files print six), its null directions turn
/// slightly indefinite and the consistent set of modes moves by a few contacts. Sweeping one
/// contact at a time then creeps along those directions: on fc2d_granularflowonwall_02020 it
/// reaches Siconos' error 1e-6 in about 1000 sweeps and stays above 2e-7 for 10⁵ more.
///
/// Each round of the finish:
///  1. Active-set solve. The iterate's modes (open: rᵢ = 0; stick: uᵢ = 0; slip±: uₙ = 0 with
///     rₜ = ∓μ rₙ) make a square sparse linear system in the closed contacts' unknowns, solved
///     by LU (dense up to kDenseActiveSet unknowns). Its answer is kept if it lowers Siconos'
///     error; with the right modes it is the solution, exact to round-off.
///  2. Local repair, where the modes are wrong: the contacts whose own error is within a factor
///     100 of the largest, with their neighbours in W (at most max_block contacts, worst
///     first), are solved together as one exact LCP by our Lemke, the other reactions fixed.
///     That settles the few modes one-contact-at-a-time sweeps cannot.
///  3. A few NSGS sweeps let the other contacts follow.
/// The best iterate seen is returned, so the finish never worsens its input.

#include <Eigen/Dense>

#include "lcp/nsgs.hpp"
#include "lcp/problem.hpp"

namespace stickslip::lcp {

struct NsgsFinishOptions {
  double tolerance = 1e-12;      ///< on fc2dError, as NsgsOptions::tolerance
  int rounds = 8;                ///< ≥ 1
  Eigen::Index max_block = 200;  ///< contacts in one local repair (its LCP has 4 max_block unknowns)
  int sweeps_between = 5;        ///< NSGS sweeps after each repair
};

struct NsgsFinishOutcome {
  double error = 0.0;           ///< fc2dError of the returned r
  int rounds = 0;               ///< rounds run
  int sweeps = 0;               ///< NSGS sweeps run between repairs
  Eigen::Index largest_block = 0;  ///< contacts in the largest local repair, 0 if none
};

/// Active sets of at most this many unknowns are solved by a dense LU, larger ones by a sparse LU.
inline constexpr Eigen::Index kDenseActiveSet = 64;

/// Step 1 alone: the active-set solve of r's modes, kept (r, u = W r + q and its fc2dError
/// `error` replaced) when it lowers `error`; returns whether it did. Not tried when the modes
/// have more than max_unknowns unknowns (2 per sticking contact, 1 per sliding one).
bool activeSetStep(const SparseFrictionProblem2D& p, double q_norm, Eigen::Index max_unknowns, Eigen::VectorXd& r,
                   Eigen::VectorXd& u, double& error);

/// r: the iterate (in), the best iterate seen (out); u = W r + q for the returned r. p is valid
/// (validated by the caller); nsgs is the caller's solver, whose workspace is reused.
NsgsFinishOutcome finishNsgs(const SparseFrictionProblem2D& p, const NsgsFinishOptions& options, NsgsSolver& nsgs,
                             Eigen::VectorXd& r, Eigen::VectorXd& u);

}  // namespace stickslip::lcp
