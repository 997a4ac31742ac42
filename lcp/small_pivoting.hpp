#pragma once
/// \file Block principal pivoting on a small dense LCP(M, q) of any M, on the stack: the first
/// try of `auto` (lcp_auto.hpp) up to kSmallPivotingSize unknowns.
///
/// As block_pivoting.hpp, a guess of the free set F (z_G = 0) fixes the candidate
///   M_FF z_F = −q_F,   w = M z + q,
/// and every infeasible index (z_i < 0 in F, w_i < 0 in G) changes sides while their number
/// falls, then only the largest (Murty's rule). Each round eliminates a compact copy of M_FF
/// afresh, without row exchanges, which for a few unknowns costs less than keeping a factor:
/// an index whose pivot vanishes leaves F, so that a singular block (M positive semidefinite,
/// a game) still gives a candidate.
///
/// The first F is where q_i < 0, from 5 unknowns on where one projected Jacobi step from
/// z_i = max(0, −q_i / M_ii) leaves z positive (M's diagonal positive): a product over F's
/// columns that sees the coupling q's signs miss, and saves rounds (seeded SPD LCPs of 16
/// unknowns: 1.6 rounds on average, 2.1 from q's signs).
///
/// A triangular M with a positive diagonal (a P-matrix; diagonal for contacts that do not
/// couple) skips the rounds: one substitution, forward or backward, gives z and w, each
/// z_j = max(0, −w_j / M_jj) once the w_j it depends on is complete. Murty's example, built to
/// make pivoting methods take exponentially many steps, takes one round.
///
/// Nothing here relies on M's class: an answer is returned only when its relative natural-map
/// residual (residual.hpp) is at most 1e-9, so a success is a solution whatever M. Where the
/// method does not reach one within n + 2 rounds, it says so and leaves the problem to a
/// method whose scope is known (Lemke).
///
/// Contract: returns true with `out` a success (z, w, rounds in `pivots`, residuals), or false
/// with `out` untouched: n above kSmallPivotingSize, a NaN or infinite entry, no solution within
/// the rounds. Sizes are not checked here (the caller validates). No allocation once `out`
/// has the problem's size.

#include <Eigen/Dense>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

inline constexpr Eigen::Index kSmallPivotingSize = 16;

bool solveBySmallPivoting(const Problem& p, Result& out);

}  // namespace stickslip::lcp
