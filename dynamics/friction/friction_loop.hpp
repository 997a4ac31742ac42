#pragma once
/// \file The algebraic loop between a friction force and the constraint reaction it changes.
///
/// When the load of a friction is a constraint reaction, the reaction is affine in the friction
/// force F (the equations of motion are linear in their forces): a guide's normal force
/// N(F) = a + b F, a revolute joint's reaction force R(F) = a + b F with a, b in the plane. The
/// friction law closes the loop, F = law(|R|). Written in the unknown magnitude N ≥ 0:
///   h(N) = N − |R(law(N))| = 0.
/// For a law with |b ∂law/∂N| < 1 (Coulomb-type laws, |b| μ < 1) the root is unique; for laws
/// whose force has a 1/N term (LuGre's σ1 ż with g(v) ∝ N) there may be two. h(0) ≤ 0 and
/// h → +∞ as N grows (or as N → 0+ for a 1/N term, h → −∞), so a root exists.
///
/// Method: secant iterates from the frictionless reaction N = |a| and the fixed-point step
/// (they pick the root continuing the frictionless state, in 2–3 iterates for the
/// piecewise-linear laws); if they leave N > 0 or stall, a bracket [0, N_hi] (N_hi doubled
/// until h > 0) and the Illinois variant of regula falsi, bisecting when it stalls.
/// Converged when |h| ≤ 1e-12 max(1, |a|).

#include <algorithm>
#include <cmath>

namespace stickslip::dynamics {

struct FrictionLoopSolution {
  double normal_magnitude = 0.0;  ///< N ≥ 0 [N]
  double normal = 0.0;            ///< the scalar loop's a + b F, signed [N]
  double force = 0.0;             ///< F = law(N) [N]
  double residual = 0.0;          ///< |h(N)| [N]
  int iterations = 0;             ///< law evaluations
  bool converged = false;
};

/// `reaction(F)` returns the magnitude |R(F)| ≥ 0 of the reaction under a friction force F,
/// `law(N)` the friction force for a load N ≥ 0. `start` > 0, if given, replaces the
/// frictionless reaction as the first iterate: the root continuing a known nearby one.
template <class Reaction, class Law>
FrictionLoopSolution solveFrictionLoop(const Reaction& reaction, const Law& law, double start = 0.0) {
  FrictionLoopSolution s;
  const double frictionless = reaction(0.0);
  const double tol = 1e-12 * std::max(1.0, frictionless);
  const auto h = [&](double n) {
    ++s.iterations;
    return n - reaction(law(n));
  };
  const auto finish = [&](double n, double hn) {
    s.normal_magnitude = n;
    s.force = law(n);
    s.residual = std::abs(hn);
    s.converged = s.residual <= tol;
    return s;
  };
  double n0 = start > 0.0 ? start : frictionless, h0 = h(n0);
  if (std::abs(h0) <= tol) return finish(n0, h0);
  double n1 = n0 - h0, h1 = h(n1);
  for (int k = 0; k < 12 && n1 >= 0.0; ++k) {
    if (std::abs(h1) <= tol) return finish(n1, h1);
    const double slope = (h1 - h0) / (n1 - n0);
    if (!std::isfinite(slope) || slope == 0.0) break;
    n0 = n1;
    h0 = h1;
    n1 -= h1 / slope;
    if (n1 < 0.0) break;
    h1 = h(n1);
  }
  // Bracket and Illinois.
  double lo = 0.0, hlo = h(0.0);
  if (hlo >= 0.0) return finish(0.0, hlo);
  double hi = std::max(2.0 * frictionless, 1e-9), hhi = h(hi);
  for (int k = 0; k < 200 && hhi <= 0.0; ++k) {
    lo = hi;
    hlo = hhi;
    hi *= 2.0;
    hhi = h(hi);
  }
  if (hhi <= 0.0) return finish(hi, hhi);  // not converged: reported
  int side = 0;
  for (int k = 0; k < 200; ++k) {
    double n = (lo * hhi - hi * hlo) / (hhi - hlo);
    if (!(n > lo && n < hi)) n = 0.5 * (lo + hi);
    const double hn = h(n);
    if (std::abs(hn) <= tol || hi - lo <= 1e-15 * hi) return finish(n, hn);
    if (hn < 0.0) {
      lo = n;
      hlo = hn;
      if (side == -1) hhi *= 0.5;
      side = -1;
    } else {
      hi = n;
      hhi = hn;
      if (side == 1) hlo *= 0.5;
      side = 1;
    }
  }
  return finish(0.5 * (lo + hi), h(0.5 * (lo + hi)));
}

/// The scalar loop N(F) = a + b F.
template <class Law>
FrictionLoopSolution solveFrictionLoop(double a, double b, const Law& law) {
  FrictionLoopSolution s = solveFrictionLoop([&](double f) { return std::abs(a + b * f); }, law);
  s.normal = a + b * s.force;
  return s;
}

}  // namespace stickslip::dynamics
