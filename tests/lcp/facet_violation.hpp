#pragma once
// Checks a faceted-cone answer (lcp/friction_facets.hpp) against Coulomb's law on the round
// cone, within the facets' stated bound: shared by the fc3d collection's tests and the spatial
// clearance joint's.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <string>

#include "lcp/problem.hpp"
#include "lcp/result.hpp"

namespace stickslip::test {

/// The faceted answer against Coulomb's law on the round cone, contact by contact: r inside
/// the cone; where the contact slides (uₙ = 0, ‖uₜ‖ > 0), ‖rₜ‖ ≥ μ rₙ cos(π/k) and rₜ at most
/// π/k from −uₜ; where it is open (rₙ = 0), uₙ ≥ 0. Returns the first violation, or "".
inline std::string facetViolation(const lcp::FrictionProblem3D& p, const lcp::FrictionResult& s, int k) {
  // u = W r + q cancels: its round-off is relative to the size of W r and q (the box stack:
  // |q| 32, |W||r| 220, |u| 1.5e-6).
  // An answer of zero impulses (every contact open) is measured against the problem's scale q/W.
  const double scale_r =
      std::max({s.r.cwiseAbs().maxCoeff(), p.q.cwiseAbs().maxCoeff() / p.W.cwiseAbs().maxCoeff(), 1e-300});
  const double scale_u = std::max(p.q.cwiseAbs().maxCoeff(), p.W.cwiseAbs().maxCoeff() * s.r.cwiseAbs().maxCoeff());
  // Lemke's round-off on the box stack leaves β of 6e-9 at an open contact (rn = 0, max rn 0.32).
  const double tol_r = 1e-7 * scale_r, tol_u = 1e-8 * scale_u;
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const double rn = s.r(3 * i), mu = p.mu(i), un = s.u(3 * i);
    const Eigen::Vector2d rt = s.r.segment<2>(3 * i + 1), ut = s.u.segment<2>(3 * i + 1);
    std::ostringstream at;
    at << "contact " << i << ": ";
    if (rn < -tol_r || un < -tol_u) return at.str() + "rn or un negative";
    if (rt.norm() > mu * rn + tol_r) return at.str() + "outside the cone";
    if (rn > tol_r && std::abs(un) > tol_u) return at.str() + "rn un != 0";
    if (rn > tol_r && ut.norm() > 1e-6 * scale_u) {  // sliding
      if (rt.norm() < mu * rn * std::cos(std::numbers::pi / k) - tol_r) return at.str() + "friction below the bound";
      if (mu * rn > tol_r) {
        const double cosine = -rt.dot(ut) / (rt.norm() * ut.norm());
        if (cosine < std::cos(std::numbers::pi / k) - 1e-9) return at.str() + "friction more than pi/k off -ut";
      }
    }
  }
  return "";
}

}  // namespace stickslip::test
