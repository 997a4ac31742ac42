#include "dynamics/contact/spatial_clearance.hpp"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "dynamics/model/spatial_model.hpp"  // frameFromAxis

namespace stickslip::dynamics {

void SpatialClearanceJoint::validate(std::string_view who) {
  const auto fail = [&](const std::string& what) { throw std::invalid_argument(std::string(who) + ": " + what); };
  const auto finite = [](const Eigen::Vector3d& x) { return x.allFinite(); };
  if (!finite(journal_centre) || !finite(bearing_centre) || !finite(journal_axis) || !finite(bearing_axis))
    fail("expected finite centres and axes");
  if (!(journal_axis.norm() > 0.0) || !(bearing_axis.norm() > 0.0)) fail("expected nonzero axes");
  journal_axis.normalize();
  bearing_axis.normalize();
  if (!(journal_radius > 0.0) || !std::isfinite(journal_radius))
    fail("expected journal_radius > 0, got " + std::to_string(journal_radius));
  if (!(bearing_radius > journal_radius) || !std::isfinite(bearing_radius))
    fail("expected bearing_radius > journal_radius (a radial clearance), got " + std::to_string(bearing_radius) +
         " and " + std::to_string(journal_radius));
  if (!(journal_length > 0.0) || !std::isfinite(journal_length))
    fail("expected journal_length > 0, got " + std::to_string(journal_length));
  if (!(bearing_length > journal_length) || !std::isfinite(bearing_length))
    fail("expected bearing_length > journal_length (an axial clearance), got " + std::to_string(bearing_length) +
         " and " + std::to_string(journal_length));
  if (!(alignment_tolerance >= 0.0) || !std::isfinite(alignment_tolerance))
    fail("expected alignment_tolerance >= 0, got " + std::to_string(alignment_tolerance));
  if (alignment_tolerance == 0.0) alignment_tolerance = 1e-3 * 2.0 * radialClearance() / journal_length;
}

namespace {

/// The rim angle φ maximizing ‖d + R (cos φ U + sin φ W)‖² (see the file comment).
double farthestRimAngle(const Eigen::Vector3d& d, const Eigen::Vector3d& U, const Eigen::Vector3d& W, double R,
                        double start) {
  const auto point = [&](double c, double s) -> Eigen::Vector3d { return d + R * (c * U + s * W); };
  // Eight samples a quarter of π apart, their cosines and sines by rotating start's (one sincos).
  constexpr int kSamples = 8;
  constexpr double h = M_SQRT1_2;
  constexpr double turn_c[kSamples] = {1.0, h, 0.0, -h, -1.0, -h, 0.0, h};
  constexpr double turn_s[kSamples] = {0.0, h, 1.0, h, 0.0, -h, -1.0, -h};
  const double c0 = std::cos(start), s0 = std::sin(start);
  double best = start, best_f = point(c0, s0).squaredNorm();
  for (int k = 1; k < kSamples; ++k) {
    const double c = c0 * turn_c[k] - s0 * turn_s[k], s = s0 * turn_c[k] + c0 * turn_s[k];
    if (const double f = point(c, s).squaredNorm(); f > best_f) best = start + 2.0 * M_PI * k / kSamples, best_f = f;
  }
  constexpr double kMaxStep = M_PI / 8.0;
  double phi = best;
  for (int it = 0; it < 40; ++it) {
    const double c = std::cos(phi), s = std::sin(phi);
    const Eigen::Vector3d p = point(c, s);
    const Eigen::Vector3d dp = R * (-s * U + c * W);
    const double f1 = 2.0 * p.dot(dp);
    const double f2 = 2.0 * (dp.squaredNorm() - p.dot(p - d));
    double step = f2 < 0.0 ? -f1 / f2 : std::copysign(kMaxStep, f1);  // uphill where f is not concave
    step = std::clamp(step, -kMaxStep, kMaxStep);
    phi += step;
    if (std::abs(step) <= 1e-14) break;
  }
  return phi;
}

}  // namespace

SpatialClearanceGeometry spatialClearanceGeometry(const SpatialClearanceJoint& joint, const SpatialPose& i,
                                                  const SpatialPose& j) {
  SpatialClearanceGeometry g;
  const Eigen::Vector3d p_j = i.r + i.A * joint.journal_centre, p_b = j.r + j.A * joint.bearing_centre;
  const Eigen::Vector3d a_b = j.A * joint.bearing_axis;
  Eigen::Vector3d a_j = i.A * joint.journal_axis;
  if (a_j.dot(a_b) < 0.0) a_j = -a_j;  // the journal's end A is the one towards the bearing's end A
  g.tilt = std::atan2(a_j.cross(a_b).norm(), a_j.dot(a_b));
  const double sin_aligned = std::sin(joint.alignment_tolerance);
  g.aligned = g.tilt <= joint.alignment_tolerance;

  const Eigen::Matrix3d rim_frame = frameFromAxis(a_j);  // (u, w, a_J)
  const Eigen::Vector3d u = rim_frame.col(0), w = rim_frame.col(1);
  const auto off_bearing_axis = [&](const Eigen::Vector3d& x) -> Eigen::Vector3d {
    const Eigen::Vector3d e = x - p_b;
    return e - e.dot(a_b) * a_b;
  };
  const double rj = joint.journal_radius;
  for (int end = 0; end < 2; ++end) {
    const double sigma = end == 0 ? 1.0 : -1.0;
    const Eigen::Vector3d rim_centre = p_j + sigma * 0.5 * joint.journal_length * a_j;

    // Radial: the rim point farthest from the bearing's axis.
    const Eigen::Vector3d d = off_bearing_axis(rim_centre);
    const Eigen::Vector3d U = u - u.dot(a_b) * a_b, W = w - w.dot(a_b) * a_b;
    const Eigen::Vector3d offset = d - d.dot(a_j) * a_j;
    const double phi = farthestRimAngle(d, U, W, rj, std::atan2(offset.dot(w), offset.dot(u)));
    SpatialClearanceContact& radial = g.contacts[std::size_t(SpatialClearanceContact::kRadialA + end)];
    radial.journal_point = rim_centre + rj * (std::cos(phi) * u + std::sin(phi) * w);
    const Eigen::Vector3d e = off_bearing_axis(radial.journal_point);
    const double rho = e.norm();
    // ρ = 0 needs the rim around the bearing's axis, c_r ≥ R_J away from contact: any normal.
    radial.normal = rho > 0.0 ? Eigen::Vector3d(e / rho) : frameFromAxis(a_b).col(0);
    radial.penetration = rho - joint.bearing_radius;
    radial.bearing_point = radial.journal_point - radial.penetration * radial.normal;

    // Axial: the rim point farthest beyond the bearing's end wall, its outward normal n = σ a_B.
    SpatialClearanceContact& axial = g.contacts[std::size_t(SpatialClearanceContact::kAxialA + end)];
    axial.normal = sigma * a_b;
    const Eigen::Vector3d m = axial.normal - axial.normal.dot(a_j) * a_j;
    axial.journal_point = rim_centre + (rj / std::max(m.norm(), sin_aligned)) * m;
    axial.penetration = axial.normal.dot(axial.journal_point - p_b) - 0.5 * joint.bearing_length;
    axial.bearing_point = axial.journal_point - axial.penetration * axial.normal;
  }
  return g;
}

int contactCase(const SpatialClearanceGeometry& g) {
  using C = SpatialClearanceContact;
  const bool ra = g.contacts[C::kRadialA].touching(), rb = g.contacts[C::kRadialB].touching();
  const bool aa = g.contacts[C::kAxialA].touching(), ab = g.contacts[C::kAxialB].touching();
  const int radial = int(ra) + int(rb), axial = int(aa) + int(ab);
  if (radial == 0 && axial == 0) return 1;
  if (g.aligned) return radial > 0 && axial > 0 ? 4 : radial > 0 ? 2 : 3;
  switch (radial * 3 + axial) {
    case 3: return 5;   // 1 radial
    case 1: return 6;   // 1 axial
    case 6: return 7;   // 2 radial
    case 2: return 8;   // 2 axial
    case 4: return (ra && aa) || (rb && ab) ? 9 : 10;
    case 7: return 11;  // 2 radial, 1 axial
    case 5: return 12;  // 1 radial, 2 axial
    default: return 13;
  }
}

Eigen::Vector3d relativeVelocity(const SpatialClearanceContact& contact, const SpatialPose& i, const SpatialPose& j,
                                 const Eigen::Matrix<double, 12, 1>& velocities) {
  // A material point at x moves at ṙ + (A ω′) × (x − r).
  const Eigen::Vector3d journal = velocities.segment<3>(0) + (i.A * velocities.segment<3>(3)).cross(contact.journal_point - i.r);
  const Eigen::Vector3d bearing = velocities.segment<3>(6) + (j.A * velocities.segment<3>(9)).cross(contact.bearing_point - j.r);
  return journal - bearing;
}

Eigen::Matrix<double, 1, 12> velocityRow(const SpatialClearanceContact& contact, const Eigen::Vector3d& d,
                                         const SpatialPose& i, const SpatialPose& j) {
  Eigen::Matrix<double, 1, 12> row;
  row.segment<3>(0) = d.transpose();
  row.segment<3>(3) = (contact.journal_point - i.r).cross(d).transpose() * i.A;
  row.segment<3>(6) = -d.transpose();
  row.segment<3>(9) = -(contact.bearing_point - j.r).cross(d).transpose() * j.A;
  return row;
}

}  // namespace stickslip::dynamics
