#pragma once
/// \file Planar Coulomb friction problem → LCP, exact in 2D.
///
/// FrictionProblem2D (problem.hpp): u = W r + q, per contact i with (rₙ, rₜ) = (r₂ᵢ, r₂ᵢ₊₁):
///   0 ≤ uₙ ⊥ rₙ ≥ 0,   |rₜ| ≤ μ rₙ,   uₜ ≠ 0 ⇒ rₜ = −μ rₙ sign(uₜ).
/// In 2D the friction disk is the segment [−μ rₙ, μ rₙ], spanned by two directions, so the
/// law is linear complementarity with no polyhedral approximation [Klarbring 1986; Stewart &
/// Trinkle 1996, with two directions; Glocker & Pfeiffer's saturations]. Per contact
///   z = (rₙ, β⁺, β⁻, λ),   rₜ = β⁺ − β⁻,
///   w = (uₙ, λ + uₜ, λ − uₜ, μ rₙ − β⁺ − β⁻),   0 ≤ z ⊥ w ≥ 0,
/// (LCP index 4i + k holds entry k of contact i). The LCP's variable is λ' = λ / s, with s the
/// power of two at or below W's largest entry: W r and s λ' then meet in the rows λ ± uₜ at one
/// scale, whatever the masses (Lemke's one-pass equilibration cannot balance W ~ 1/m against
/// a 1, and lost digits in proportion to m: 1e-9 relative at 1e7 kg). Why it is exact:
///  - λ + uₜ ≥ 0 and λ − uₜ ≥ 0 give λ ≥ |uₜ|; μ rₙ − β⁺ − β⁻ ≥ 0 gives |rₜ| ≤ μ rₙ.
///  - Sliding, uₜ > 0: λ ≥ uₜ > 0, so λ + uₜ > 0 ⇒ β⁺ = 0, and λ > 0 ⇒ β⁺ + β⁻ = μ rₙ, so
///    rₜ = −μ rₙ; if μ rₙ > 0 then β⁻ > 0 ⇒ λ = uₜ. Thus λ = |uₜ| and the force sits on the
///    boundary of the segment opposite to uₜ; uₜ < 0 is the mirror image.
///  - Sticking, uₜ = 0: any |rₜ| ≤ μ rₙ is reproduced with λ = 0, β± = max(±rₜ, 0).
/// Conversely every friction solution gives an LCP solution by z = (rₙ, max(rₜ, 0),
/// max(−rₜ, 0), |uₜ|) (lcpSolutionFrom), so the two problems have the same solutions r.
///
/// The LCP matrix is M = Eᵀ W E + K, with E z = r and K holding the λ and μ couplings; q̂ = Eᵀ q.
/// Matrix class: for z ≥ 0, zᵀ M z = (E z)ᵀ W (E z) + Σᵢ μᵢ rₙᵢ λᵢ ≥ 0, so M is copositive
/// when W is PSD. It is not copositive-plus when some μᵢ > 0 (z = e₄ᵢ gives zᵀMz = 0 but
/// (M + Mᵀ) z = μᵢ e₄ᵢ₊₃ ≠ 0), so the copositive-plus theorem [Cottle, Pang & Stone 1992,
/// §4.4] does not apply as it stands; for positive definite W the structure closes the gap.
/// A secondary ray (z + s h, z₀), s ≥ 0, with h ≥ 0, h ≠ 0, has hᵀ M h = 0 (copositivity and
/// complementarity along the ray), hence E h = 0 and, from M h ≥ 0 in the λ rows, β± = 0 in
/// h: h holds λ only, at some contact. Along the ray that contact's λ + uₜ and λ − uₜ grow,
/// so its β± = 0, and λ > 0 forces its complement μ rₙ − β⁺ − β⁻ + d z₀ = μ rₙ + d z₀ to
/// vanish, impossible with z₀ > 0 and d > 0. So with W
/// positive definite and a non-cycling (lexicographic) rule Lemke ends with a solution, for
/// every q and μ ≥ 0 (cf. Anitescu & Potra 1997). With μ = 0 the path meets structural ties
/// (β⁺ + β⁻ = d z₀ on sliding rows), which lemke.cpp resolves in z₀'s favour. With a singular
/// W, h may also carry reactions r = E h ≠ 0 in the cones with W r = 0, and Lemke may end on
/// a ray; existence then needs qᵀr ≥ 0 for those r, which holds when q lies in the range of W
/// (W = J M⁻¹ Jᵀ and q = J v, as for a mechanism: qᵀr = vᵀ Jᵀ r = 0).

#include <Eigen/Dense>

#include "lcp/lemke.hpp"
#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::lcp {

/// The power of two at or below W's largest entry (1 when W = 0 or that entry is not a normal
/// number): W's scale, exact to multiply and divide by. A problem posed on (W/s, q) has the
/// forces s r, in W's units: its natural map compares velocities (accelerations) with their like.
double frictionScale(const Eigen::MatrixXd& W);
inline double frictionScale(const FrictionProblem2D& p) { return frictionScale(p.W); }

class FrictionReduction final {
 public:
  /// Builds LCP(M, q̂) of size 4·nc. Throws std::invalid_argument for a malformed problem.
  explicit FrictionReduction(const FrictionProblem2D& p);

  const Problem& lcp() const { return lcp_; }

  /// r = E z: (rₙ, rₜ) = (z₄ᵢ, z₄ᵢ₊₁ − z₄ᵢ₊₂) per contact. Throws if z has the wrong size.
  Eigen::VectorXd reactions(const Eigen::VectorXd& z) const;

  /// The LCP solution z = (rₙ, max(rₜ, 0), max(−rₜ, 0), |uₜ| / s) per contact that
  /// corresponds to a friction solution (r, u). Throws if the sizes are wrong.
  Eigen::VectorXd lcpSolutionFrom(const Eigen::VectorXd& r, const Eigen::VectorXd& u) const;

 private:
  Problem lcp_;
  double lambda_scale_ = 1.0;  ///< s = frictionScale(p)
};

/// Reduces p, solves the LCP with `lemke`, returns r, u = W r + q and the residual of the
/// friction problem (residual(FrictionProblem2D, r)). Never throws. Status: Lemke's, except
/// kInvalidInput for a malformed problem and kNumericalFailure when the recovered r has a
/// relative residual above lemke.options().accept_tol.
FrictionResult solveFrictionWithLemke(const FrictionProblem2D& p, LemkeSolver& lemke);

}  // namespace stickslip::lcp
