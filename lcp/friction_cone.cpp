#include "lcp/friction_cone.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>

namespace stickslip::lcp {

Eigen::Vector3d projectOnCone(const Eigen::Vector3d& x, double mu) {
  if (mu == 0.0) return {std::max(x(0), 0.0), 0.0, 0.0};  // K is the normal half-line
  const double nt = std::hypot(x(1), x(2));
  if (nt <= mu * x(0)) return x;                           // inside K
  if (mu * nt <= -x(0)) return Eigen::Vector3d::Zero();    // in the polar cone: the apex
  const double rn = (mu * nt + x(0)) / (mu * mu + 1.0);    // onto the nearer generatrix
  return {rn, mu * rn * x(1) / nt, mu * rn * x(2) / nt};
}

double fc3dContactTerm(double mu, const Eigen::Vector3d& r, const Eigen::Vector3d& u) {
  const Eigen::Vector3d x{r(0) - u(0) - mu * std::hypot(u(1), u(2)), r(1) - u(1), r(2) - u(2)};
  return (r - projectOnCone(x, mu)).squaredNorm();
}

double fc3dError(const Eigen::Ref<const Eigen::VectorXd>& r, const Eigen::Ref<const Eigen::VectorXd>& u,
                 const Eigen::Ref<const Eigen::VectorXd>& mu, double q_norm, Eigen::Index bilateral) {
  const Eigen::Index contacts = mu.size() - bilateral;
  double sum = u.segment(3 * contacts, 3 * bilateral).squaredNorm();
  for (Eigen::Index i = 0; i < contacts; ++i) sum += fc3dContactTerm(mu(i), r.segment<3>(3 * i), u.segment<3>(3 * i));
  const double error = std::sqrt(sum), scale = std::max({r.norm(), u.norm(), q_norm});
  if (!std::isfinite(scale)) return std::numeric_limits<double>::quiet_NaN();  // a norm overflowed: no measure
  return scale > std::numeric_limits<double>::epsilon() ? error / scale : error;
}

namespace {

/// Whether the slip candidate r = rₙ (1, −μ t) solves u = A r + b to round-off, each condition
/// against the terms it sums (so that a tiny normal part is not judged on the tangential scale):
/// uₙ = 0, and uₜ = λ t with λ ≥ 0.
bool slipsLocally(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, const Eigen::Vector3d& r,
                  const Eigen::Vector2d& t) {
  if (!r.allFinite()) return false;
  const Eigen::Vector3d u = A * r + b, terms = b.cwiseAbs() + A.cwiseAbs() * r.cwiseAbs();
  const double tangential = std::hypot(terms(1), terms(2)), tol = 1e-10;
  const double along = u.tail<2>().dot(t), across = u(1) * t(1) - u(2) * t(0);
  return std::abs(u(0)) <= tol * terms(0) && std::abs(across) <= tol * tangential && along >= -tol * tangential;
}

/// Real roots of s⁴ + c₃s³ + c₂s² + c₁s + c₀ (the companion matrix' real eigenvalues, polished by
/// two Newton steps); returns how many, written to roots.
int quarticRealRoots(double c3, double c2, double c1, double c0, double roots[4]) {
  Eigen::Matrix4d companion = Eigen::Matrix4d::Zero();
  companion(1, 0) = companion(2, 1) = companion(3, 2) = 1.0;
  companion(0, 3) = -c0;
  companion(1, 3) = -c1;
  companion(2, 3) = -c2;
  companion(3, 3) = -c3;
  const Eigen::EigenSolver<Eigen::Matrix4d> eig(companion, false);
  if (eig.info() != Eigen::Success) return 0;
  int count = 0;
  const Eigen::Vector4cd ev = eig.eigenvalues();
  const double size = 1.0 + ev.cwiseAbs().maxCoeff();
  for (int k = 0; k < 4; ++k) {
    if (std::abs(ev(k).imag()) > 1e-7 * size) continue;
    double s = ev(k).real();
    for (int it = 0; it < 2; ++it) {
      const double p = (((s + c3) * s + c2) * s + c1) * s + c0;
      const double dp = ((4.0 * s + 3.0 * c3) * s + 2.0 * c2) * s + c1;
      if (dp == 0.0) break;
      s -= p / dp;
    }
    roots[count++] = s;
  }
  return count;
}

/// The largest real root of the same quartic by Newton's method from Fujiwara's bound on its roots
/// (above every real root, where the monic quartic is positive); NaN when Newton does not settle.
double largestQuarticRoot(double c3, double c2, double c1, double c0) {
  double s = 2.0 * std::max({std::abs(c3), std::sqrt(std::abs(c2)), std::cbrt(std::abs(c1)),
                             std::pow(std::abs(0.5 * c0), 0.25)});
  for (int it = 0; it < 60; ++it) {
    const double p = (((s + c3) * s + c2) * s + c1) * s + c0;
    const double dp = ((4.0 * s + 3.0 * c3) * s + 2.0 * c2) * s + c1;
    if (!(dp > 0.0)) return std::nan("");
    const double step = p / dp;
    s -= step;
    if (std::abs(step) <= 1e-15 * std::max(1.0, std::abs(s))) return s;
  }
  return std::nan("");
}

/// The slip mode: r = rₙ (1, −μ t) with uₙ = 0 and uₜ along +t (file comment of the header).
bool solveSlip(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu, Eigen::Vector3d& r) {
  const Eigen::Vector2d bt = b.tail<2>(), a_tn = A.block<2, 1>(1, 0);
  const Eigen::RowVector2d a_nt = A.block<1, 2>(0, 1);
  const Eigen::Vector2d c0 = A(0, 0) * bt - b(0) * a_tn;
  const Eigen::Matrix2d L = mu * (b(0) * A.block<2, 2>(1, 1) - bt * a_nt);
  const double trace = L.trace(), det = L.determinant();
  Eigen::Matrix2d adj;
  adj << L(1, 1), -L(0, 1), -L(1, 0), L(0, 0);
  const Eigen::Vector2d a0 = adj * c0;
  // (s² − T s + Δ)² − |a₀ − s c₀|² = 0, expanded.
  const double c3 = -2.0 * trace, c2 = trace * trace + 2.0 * det - c0.squaredNorm(),
               c1 = -2.0 * trace * det + 2.0 * a0.dot(c0), c00 = det * det - a0.squaredNorm();
  const auto tryDirection = [&](const Eigen::Vector2d& t) {
    const double d = A(0, 0) - mu * a_nt.dot(t);
    if (!(d > 0.0)) return false;
    const double rn = -b(0) / d;
    const Eigen::Vector3d candidate{rn, -mu * rn * t(0), -mu * rn * t(1)};
    if (!slipsLocally(A, b, candidate, t)) return false;
    r = candidate;
    return true;
  };
  const auto tryRoot = [&](double s) {
    if (!(s >= 0.0)) return false;
    const double p = s * s - trace * s + det;
    const Eigen::Vector2d v = a0 - s * c0;
    if (std::abs(p) > 1e-12 * (1.0 + s * s + std::abs(det))) {
      const Eigen::Vector2d t = (-v / p).normalized();
      return tryDirection(t);
    }
    // s is an eigenvalue of L: t in the null space of L − s I, either sign.
    const Eigen::Matrix2d m = L - s * Eigen::Matrix2d::Identity();
    Eigen::Vector2d t{m(0, 1), -m(0, 0)};
    if (t.squaredNorm() < Eigen::Vector2d(m(1, 1), -m(1, 0)).squaredNorm()) t = {m(1, 1), -m(1, 0)};
    if (t.squaredNorm() == 0.0) t = {1.0, 0.0};
    t.normalize();
    return tryDirection(t) || tryDirection(-t);
  };
  // The largest root is the slip of a symmetric positive block (in the isotropic case the roots
  // are ±Aₙₙ|bₜ| − μ|bₙ|Aₜₜ, twice); the others are tried when it fails.
  if (tryRoot(largestQuarticRoot(c3, c2, c1, c00))) return true;
  double roots[4];
  const int count = quarticRealRoots(c3, c2, c1, c00, roots);
  for (int k = 0; k < count; ++k)
    if (tryRoot(roots[k])) return true;
  return false;
}

}  // namespace

bool solveContact(const Eigen::Matrix3d& A, const Eigen::Vector3d& b, double mu, Eigen::Vector3d& r, ConeMode* mode) {
  const auto found = [&](ConeMode m) {
    if (mode) *mode = m;
    return true;
  };
  if (b(0) >= 0.0) {
    r.setZero();
    return found(ConeMode::kOpen);
  }
  // The problem is positively homogeneous: solved for A/α and b/β, r scales by β/α. Scaled so,
  // the tolerances below are relative whatever the units (b is often of round-off size).
  const double alpha = A.cwiseAbs().maxCoeff(), beta = b.cwiseAbs().maxCoeff();
  if (!(alpha > 0.0) || !std::isfinite(alpha) || !std::isfinite(beta)) return false;
  const Eigen::Matrix3d a = A / alpha;
  const Eigen::Vector3d c = b / beta;
  const double scale = beta / alpha;
  if (mu == 0.0) {  // the cone is the normal half-line: rₜ = 0, uₙ = 0
    if (!(a(0, 0) > 0.0)) return false;
    r = {-scale * c(0) / a(0, 0), 0.0, 0.0};
    return found(ConeMode::kSlip);
  }
  const Eigen::PartialPivLU<Eigen::Matrix3d> lu(a);
  if (std::abs(lu.determinant()) > 1e-14) {
    const Eigen::Vector3d stick = -lu.solve(c);
    if (stick(0) >= 0.0 && std::hypot(stick(1), stick(2)) <= mu * stick(0) * (1.0 + 1e-14)) {
      r = scale * stick;
      return found(ConeMode::kStick);
    }
  }
  Eigen::Vector3d slip;
  if (!solveSlip(a, c, mu, slip)) return false;
  r = scale * slip;
  return found(ConeMode::kSlip);
}

}  // namespace stickslip::lcp
