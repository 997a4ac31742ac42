#pragma once
/// \file Spatial Coulomb friction on a faceted cone, solved exactly as an LCP by our Lemke.
///
/// Each contact's friction force is written over k unit directions of its tangent plane,
/// d_j = (cos 2πj/k, sin 2πj/k), rₜ = Σⱼ βⱼ dⱼ with βⱼ ≥ 0, and the round cone ‖rₜ‖ ≤ μ rₙ
/// is replaced by the polygon Σⱼ βⱼ ≤ μ rₙ (Stewart & Trinkle 1996; Acary & Brogliato 2008,
/// §13.4). With λ the sliding speed, per contact (z = (rₙ, β₁…β_k, λ) ≥ 0):
///   uₙ               ≥ 0  ⊥  rₙ ≥ 0
///   λ + dⱼᵀ uₜ       ≥ 0  ⊥  βⱼ ≥ 0      (j = 1…k)
///   μ rₙ − Σⱼ βⱼ     ≥ 0  ⊥  λ  ≥ 0
/// an LCP of size (k + 2) nc with M = T W Tᵀ + E, q̃ = T q, T mapping r to (rₙ, dⱼᵀ rₜ, 0).
///
/// The error bound of the facets: the polygon is inscribed in the disk ‖rₜ‖ ≤ μ rₙ and
/// contains the disk of radius μ rₙ cos(π/k). So every answer lies in the true cone; a contact
/// that sticks or is open in the faceted answer is exact; a sliding one carries a friction
/// force of magnitude between μ rₙ cos(π/k) and μ rₙ, at most π/k away from the direction
/// opposed to the sliding velocity. k = 8: 7.6 % in magnitude; k = 32: 0.48 %.

#include <string>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

/// The relative magnitude bound 1 − cos(π/k) of the facet approximation (file comment).
double facetBound(int facets);

/// The most directions per contact the command line takes: 4.7e-6 from the round cone, and
/// a dense LCP of (K + 2) unknowns per contact that still fits the memory.
inline constexpr int kMaxFacets = 1024;
/// Throws std::invalid_argument("WHO: expected 3 … kMaxFacets, got K") outside that range.
void requireFacetCount(int facets, const std::string& who);

/// Solves p on the faceted cone with `facets` ≥ 3 directions per contact by our Lemke.
/// FrictionResult: r (3 nc), u = W r + q, Lemke's status, pivots and LCP residual.
/// Invalid input (p invalid, facets < 3) is Status::kInvalidInput.
FrictionResult solveFrictionFaceted(const FrictionProblem3D& p, int facets);

/// The same with its workspace (the LCP, the map T, Lemke's) kept between calls, for a time
/// loop: once a problem size has been met, solve() allocates nothing. It does not validate p
/// (NaN or Inf still come back as Lemke's kInvalidInput). Not thread-safe.
class FacetedFrictionSolver final {
 public:
  /// Throws std::invalid_argument for facets < 3.
  explicit FacetedFrictionSolver(int facets);
  /// turn: per contact, an angle θᵢ added to its facets' directions (dⱼ at 2πj/k + θᵢ), so that
  /// a vertex of the polygon, where it touches the round cone, can lie along a known slip
  /// direction; none: θ = 0.
  void solve(const FrictionProblem3D& p, FrictionResult& out, const Eigen::VectorXd* turn = nullptr);
  int facets() const { return facets_; }

 private:
  int facets_;
  Eigen::MatrixXd T_, TW_;  ///< z-space rows (rₙ, dⱼᵀ rₜ, 0) per contact, from r-space; T W
  bool turned_ = false;      ///< T holds turned facets
  Problem lcp_;
  Result z_;
  LemkeSolver lemke_;
};

}  // namespace stickslip::lcp
