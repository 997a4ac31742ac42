#include "lcp/residual.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace stickslip::lcp {
namespace {

/// ‖x‖∞ of a vector or an expression, which it reads without forming a temporary.
template <typename Derived>
double inf(const Eigen::MatrixBase<Derived>& x) {
  return x.size() ? x.template lpNorm<Eigen::Infinity>() : 0.0;
}
double inducedInf(const Eigen::MatrixXd& x) {
  return x.size() ? x.cwiseAbs().rowwise().sum().maxCoeff() : 0.0;
}

}  // namespace

std::string scientific(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3e", x);
  return text;
}

Residual relativeTo(double absolute, double scale) {
  // A scale that overflowed (a term beyond double precision) measures nothing: NaN, which no
  // tolerance accepts. Never divide by less than the smallest normal number, so that an
  // all-zero problem with a nonzero residual stays visible.
  if (!std::isfinite(scale)) return {absolute, std::numeric_limits<double>::quiet_NaN()};
  return {absolute, absolute == 0.0 ? 0.0
                                    : absolute / std::max(scale, std::numeric_limits<double>::min())};
}

double frictionContactResidual(double mu, double rn, double rt, double un, double ut, double w_norm) {
  const double s = w_norm > 0.0 ? w_norm : 1.0;
  const double bound = mu * std::max(s * rn, 0.0);
  const double rt_proj = std::clamp(s * rt - ut, -bound, bound);
  return std::max(std::abs(std::min(s * rn, un)), std::abs(s * rt - rt_proj));
}

Residual residual(const Problem& p, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = p.M * z + p.q;
  return residual(p, z, w, inducedInf(p.M));
}

Residual residual(const Problem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w, double m_norm) {
  return relativeTo(inf(z.cwiseMin(w)), std::max(inf(p.q), m_norm * inf(z)));
}

std::pair<Residual, Eigen::Index> worstRow(const Problem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  std::pair<Residual, Eigen::Index> worst{{0.0, 0.0}, -1};
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const Residual row = relativeTo(std::abs(std::min(z(i), w(i))),
                                    std::max(std::abs(p.q(i)), p.M.row(i).cwiseAbs().dot(z.cwiseAbs())));
    if (std::isnan(row.relative)) return {row, i};
    if (worst.second < 0 || row.relative > worst.first.relative) worst = {row, i};
  }
  return worst;
}

Residual residual(const MixedProblem& p, const Eigen::VectorXd& u, const Eigen::VectorXd& v) {
  const Eigen::VectorXd eq = p.A * u + p.C * v + p.a;
  const Eigen::VectorXd w = p.D * u + p.B * v + p.b;
  const double abs = std::max(inf(eq), inf(v.cwiseMin(w)));
  const double scale = std::max({inf(p.a), inf(p.b), inducedInf(p.A) * inf(u), inducedInf(p.C) * inf(v),
                                 inducedInf(p.D) * inf(u), inducedInf(p.B) * inf(v)});
  return relativeTo(abs, scale);
}

Residual residual(const HorizontalProblem& p, const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  const Eigen::VectorXd eq = p.A * z + p.B * w - p.q;
  const double abs = std::max(inf(eq), inf(z.cwiseMin(w)));
  return relativeTo(abs, std::max({inf(p.q), inducedInf(p.A) * inf(z), inducedInf(p.B) * inf(w)}));
}

namespace {

template <typename Friction>
Residual frictionResidual(const Friction& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u, double w_norm) {
  double abs = 0.0;
  for (Eigen::Index i = 0; i < p.contacts(); ++i)
    abs = std::max(
        abs, frictionContactResidual(p.mu(i), r(2 * i), r(2 * i + 1), u(2 * i), u(2 * i + 1), w_norm));
  return relativeTo(abs, std::max(inf(p.q), w_norm * inf(r)));
}

double inducedInf(const SparseFrictionProblem2D::Matrix& W) {
  double w_norm = 0.0;
  for (Eigen::Index k = 0; k < W.outerSize(); ++k) {
    double row = 0.0;
    for (SparseFrictionProblem2D::Matrix::InnerIterator it(W, k); it; ++it) row += std::abs(it.value());
    w_norm = std::max(w_norm, row);
  }
  return w_norm;
}

}  // namespace

Residual residual(const FrictionProblem2D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  return frictionResidual(p, r, u, inducedInf(p.W));
}

Residual residual(const SparseFrictionProblem2D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  return frictionResidual(p, r, u, inducedInf(p.W));
}

Residual residual(const FrictionProblem2D& p, const Eigen::VectorXd& r) {
  return residual(p, r, p.W * r + p.q);
}

Residual residual(const SparseFrictionProblem2D& p, const Eigen::VectorXd& r) {
  return residual(p, r, p.W * r + p.q);
}

double defaultZeroTolerance(const Eigen::MatrixXd& M) {
  return 10.0 * double(std::max<Eigen::Index>(M.rows(), 1)) * std::max(1.0, inducedInf(M)) *
         std::numeric_limits<double>::epsilon();
}

}  // namespace stickslip::lcp
