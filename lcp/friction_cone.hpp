#pragma once
/// \file The round Coulomb cone of spatial friction: projection, Siconos' error measure, and the
/// exact solution of one contact's 3×3 problem, on which the round-cone solvers build.
///
/// Per contact, unknowns (normal, tangent, tangent) as in Siconos' fc3d, u = A r + b with A the
/// 3×3 block of W and b the rest of the velocity. With De Saxcé's modified velocity
/// û = u + (μ‖uₜ‖, 0, 0) and the cone K = {‖rₜ‖ ≤ μ rₙ}, its dual K* = {μ‖uₜ‖ ≤ uₙ}:
///   K ∋ r ⊥ û ∈ K*,
/// i.e. one of three modes:
///   open   r = 0,                      uₙ ≥ 0 (any uₜ);
///   stick  u = 0,                      ‖rₜ‖ ≤ μ rₙ;
///   slip   uₙ = 0, rₙ > 0, uₜ = λ t,  rₜ = −μ rₙ t  (λ > 0, ‖t‖ = 1).

#include <Eigen/Dense>

namespace stickslip::lcp {

/// The Euclidean projection of x on K_μ = {‖xₜ‖ ≤ μ xₙ} (the apex for μ = 0 and xₙ ≤ 0, the
/// normal half-line for μ = 0 and xₙ > 0).
Eigen::Vector3d projectOnCone(const Eigen::Vector3d& x, double mu);

/// One contact's term of Siconos' fc3d error: ‖r − proj_K(r − û)‖² (ρ = 1).
double fc3dContactTerm(double mu, const Eigen::Vector3d& r, const Eigen::Vector3d& u);

/// Siconos' error measure for spatial friction (fc3d_compute_error): the 2-norm over the
/// contacts of r − proj_K(r − û), divided by max(‖r‖, ‖u‖, ‖q‖) when that exceeds machine ε.
/// Zero iff r solves the problem with u = W r + q; NaN when that maximum overflowed, which no
/// tolerance accepts. The last `bilateral` blocks are equality rows (alart_curnier.hpp), their
/// term ‖uᵢ‖².
double fc3dError(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                 const Eigen::Ref<const Eigen::VectorXd>& mu, double q_norm, Eigen::Index bilateral = 0);

/// The mode an exact local solve found.
enum class ConeMode { kOpen, kStick, kSlip };

/// Solves one contact's problem u = A r + b on the round cone exactly, trying the modes in turn:
///  - open when bₙ ≥ 0;
///  - stick when A is invertible and −A⁻¹b lies in K;
///  - slip: with D(t) = Aₙₙ − μ Aₙₜ t, rₙ = −bₙ/D(t), and c₀ = Aₙₙ bₜ − bₙ Aₜₙ,
///    L = μ (bₙ Aₜₜ − bₜ Aₙₜ), uₜ = λ t becomes (L − λD I) t = −c₀ with ‖t‖ = 1: a quartic in
///    λD (|adj(L − s I) c₀| = |det(L − s I)|) whose positive real roots are tried, each checked
///    for D(t) > 0 and the local equations to round-off.
/// Returns false when no mode applies (A singular or far from positive, or μ large against an
/// anisotropic A): the caller regularizes (proximal steps) or reports the contact. No
/// allocation.
bool solveContact(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu, Eigen::Vector3d& r,
                  ConeMode* mode = nullptr);

}  // namespace stickslip::lcp
