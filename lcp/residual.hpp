#pragma once
/// \file One residual per problem type, used by every solver, test and CLI output, and for
/// Siconos' answers too, so that backends are compared like for like.
///
/// Each returns the absolute residual (∞-norm of the natural map, zero iff the candidate
/// solves the problem) and a relative one divided by the scale of the terms that cancel.

#include <string>
#include <utility>

#include "lcp/problem.hpp"

namespace stickslip::lcp {

struct Residual {
  double absolute = 0.0;
  double relative = 0.0;
};

/// A residual or a tolerance in a message: "%.3e" (std::to_string prints 1e-12 as 0.000000).
std::string scientific(double x);

/// ‖min(z, Mz+q)‖∞ and that over max(‖q‖∞, ‖M‖∞‖z‖∞).
Residual residual(const Problem& p, const Eigen::VectorXd& z);
/// The same for a solver that has formed w = Mz + q and ‖M‖∞ (m_norm): O(n).
Residual residual(const Problem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w, double m_norm);
/// The worst row i of |min(zᵢ, wᵢ)| against that row's own terms, max(|qᵢ|, Σⱼ |Mᵢⱼ zⱼ|), and
/// its index. The residual above weighs every row against the largest term of all, so a z that
/// ran off along a ray (‖z‖ ~ 1e16) hides a row it does not enter, left at wᵢ = qᵢ < 0.
std::pair<Residual, Eigen::Index> worstRow(const Problem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w);

/// max(‖A u + C v + a‖∞, ‖min(v, D u + B v + b)‖∞), relative to the largest term.
Residual residual(const MixedProblem& p, const Eigen::VectorXd& u, const Eigen::VectorXd& v);

/// max(‖A z + B w − q‖∞, ‖min(z, w)‖∞), relative to the largest term.
Residual residual(const HorizontalProblem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w);

/// Planar Coulomb natural map, u = W r + q, per contact, with r taken to W's units by
/// s = ‖W‖∞ (1 when W = 0):
///   max(|min(s rₙ, uₙ)|, |s rₜ − proj[−μ s rₙ⁺, μ s rₙ⁺](s rₜ − uₜ)|),
/// zero iff r satisfies the conditions of FrictionProblem2D. Every term is a velocity, so the
/// measure does not change with the units of mass (with rₜ − uₜ, a slip's round-off in rₜ
/// counted m times more at m kg).
Residual residual(const FrictionProblem2D& p, const Eigen::VectorXd& r);
Residual residual(const SparseFrictionProblem2D& p, const Eigen::VectorXd& r);
/// The same with u = W r + q already formed by the caller.
Residual residual(const FrictionProblem2D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u);
Residual residual(const SparseFrictionProblem2D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u);
/// One contact's term of that maximum, for a solver that holds r and u in its own storage.
double frictionContactResidual(double mu, double rn, double rt, double un, double ut, double w_norm);

/// {absolute, absolute / scale}, as every residual here is normalized: a zero residual is
/// exact whatever the scale, and the scale is never below the smallest normal number. A scale
/// that is not finite gives a relative residual of NaN, which no tolerance accepts.
Residual relativeTo(double absolute, double scale);

/// Pivot tolerance derived from the problem's scale: 10·n·max(1, ‖M‖∞)·ε.
double defaultZeroTolerance(const Eigen::MatrixXd& M);

}  // namespace stickslip::lcp
