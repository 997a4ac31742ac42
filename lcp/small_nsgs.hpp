#pragma once
/// \file NSGS (nsgs.hpp) on a dense planar frictional problem of a few contacts, on the stack:
/// the first try of `auto` (friction_auto.hpp) up to kSmallNsgsContacts contacts.
///
/// The method is NsgsSolver's: a sweep solves each contact's local problem exactly, the
/// others' reactions fixed, and keeps u = W r + q current by adding the contact's two columns
/// of W times its change. For a few contacts every size is its own instantiation, W and q are
/// read in place as fixed-size matrices and r, u live on the stack, so that one contact costs
/// a local solve and its checks, where the general solver spends more on its workspace and
/// dynamic loops. The stopping rule is the one measure every solver here is judged by: the
/// relative natural-map residual (residual.hpp) at most kSmallNsgsTolerance, on u formed afresh.
///
/// Contract: returns true with `out` a success (r, u, sweeps in `pivots`, the residuals), or
/// false with `out` untouched: more contacts than kSmallNsgsContacts, W or q of the wrong
/// size, a NaN or infinite entry, a negative μ (the caller's validation names them), a local
/// problem without a solution, or no answer within `max_sweeps`. No allocation once `out` has
/// the problem's size.

#include <Eigen/Dense>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

inline constexpr Eigen::Index kSmallNsgsContacts = 4;
inline constexpr double kSmallNsgsTolerance = 1e-12;

bool solveBySmallNsgs(const FrictionProblem2D& p, int max_sweeps, FrictionResult& out);

}  // namespace stickslip::lcp
