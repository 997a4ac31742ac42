#pragma once
/// \file Planar Coulomb friction with two-sided contacts as a horizontal LCP (DESIGN §2).
///
/// A translational joint with a tiny clearance touches both walls at once: its gap
/// acceleration is held at zero and its normal reaction acts on either wall, rₙ = N⁺ − N⁻
/// with 0 ≤ N⁺ ⊥ N⁻ ≥ 0 (one wall pushes at a time), and its friction is bounded by the wall
/// that pushes, |rₜ| ≤ μ (N⁺ + N⁻) = μ |rₙ|. With the one-sided contacts of
/// FrictionProblem2D (u = W r + q; friction_to_lcp.hpp) the problem is
///   one-sided i:  0 ≤ uₙ ⊥ rₙ ≥ 0,     two-sided i:  uₙ = 0, rₙ free,
///   every i:      |rₜ| ≤ μ |rₙ|,  uₜ ≠ 0 ⇒ rₜ = −μ |rₙ| sign(uₜ).
/// Per contact (index 4i + k), as in friction_to_lcp.hpp but with the wall pair for a
/// two-sided contact:
///   one-sided  z = (rₙ, β⁺, β⁻, λ),  w = (uₙ, λ + uₜ, λ − uₜ, μ rₙ − β⁺ − β⁻)
///   two-sided  z = (N⁺, β⁺, β⁻, λ),  w = (N⁻, λ + uₜ, λ − uₜ, μ (N⁺ + N⁻) − β⁺ − β⁻),
/// its first row being the equation uₙ = 0 instead of a definition of w. Since r depends on
/// w through −N⁻, every row reads A z + B w = q: a horizontal LCP, 0 ≤ z ⊥ w ≥ 0, which
/// lcp::HlcpReduction turns into an LCP for Lemke (B is invertible when the two-sided
/// contacts' normal block of W is). Its solutions are those of the problem above; the
/// "jammed" states where both walls push (N⁺, N⁻ > 0) are excluded by N⁺ ⊥ N⁻. The rows are
/// posed on (W, q) / s, s the power of two at or below W's largest entry, which has the same r:
/// A and B then keep their condition at any mass (with W ~ 1/m against the unit entries,
/// 1e-15 or 1e15 kg made them singular).

#include <vector>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

/// The HLCP of `p` with contacts i two-sided where two_sided[i]. Throws std::invalid_argument
/// for a malformed problem or a mask of the wrong size.
HorizontalProblem frictionHlcp(const FrictionProblem2D& p, const std::vector<bool>& two_sided);

/// Solves it (HLCP → LCP → `lemke`) and returns r (rₙ = N⁺ − N⁻ for two-sided contacts) and
/// u = W r + q. Never throws; status kInvalidInput for a malformed problem or a singular
/// reduction, otherwise the HLCP solve's, and kNumericalFailure when the recovered r misses
/// the conditions above by more than lemke.options().accept_tol (relative).
FrictionResult solveFrictionHlcpWithLemke(const FrictionProblem2D& p,
                                          const std::vector<bool>& two_sided, LemkeSolver& lemke);

}  // namespace stickslip::lcp
