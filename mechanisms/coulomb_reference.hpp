#pragma once
/// \file Independent reference for one sliding coordinate with set-valued Coulomb friction:
///   m s̈ = f(t) + F,   v = ṡ ≠ 0 ⇒ F = −μk N(t) sign v,   v = 0 ⇒ |F| ≤ μs N(t),
/// with the driving force f and the normal force N ≥ 0 known functions of time whose
/// integrals are known in closed form. Within a slip started at t₀ with ṡ(t₀) = 0,
///   ṡ(t) = (∫f − s μk ∫N)|_{t₀}^{t} / m,
/// so slip ends at a root of ṡ; there it sticks if |f| ≤ μs N, else it slips through in the
/// other direction; a stick ends where |f| = μs N. Roots are bracketed on a 1 ms grid and
/// bisected to 1e-14 s. Starts at rest at t = 0.

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace stickslip::mechanisms {

struct CoulombCoordinate {
  double mass = 1.0;
  double mu_static = 0.0, mu_kinetic = 0.0;
  std::function<double(double)> force, force_integral;    ///< f(t), ∫₀ᵗ f
  std::function<double(double)> normal, normal_integral;  ///< N(t) ≥ 0, ∫₀ᵗ N
};

/// Mode changes up to t_end: (t, "stick" | "slip+" | "slip-"), slip± meaning ṡ ≷ 0.
std::vector<std::pair<double, std::string>> coulombReference(const CoulombCoordinate& c, double t_end);

}  // namespace stickslip::mechanisms
