#include "dynamics/contact/sphere_plane.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {

void SpherePlane::validate(std::string_view who) {
  const auto fail = [&](const std::string& what) { throw std::invalid_argument(std::string(who) + ": " + what); };
  if (!centre.allFinite() || !plane_point.allFinite() || !plane_normal.allFinite())
    fail("expected a finite centre, plane point and plane normal");
  if (!(radius >= 0.0) || !std::isfinite(radius)) fail("expected radius >= 0, got " + std::to_string(radius));
  if (!(plane_normal.norm() > 0.0)) fail("expected a nonzero plane normal");
  plane_normal.normalize();
}

SpatialClearanceContact spherePlaneContact(const SpherePlane& s, const SpatialPose& i, const SpatialPose& j) {
  const Eigen::Vector3d n = j.A * s.plane_normal;
  const Eigen::Vector3d centre = i.r + i.A * s.centre, q = j.r + j.A * s.plane_point;
  SpatialClearanceContact c;
  c.penetration = s.radius - n.dot(centre - q);
  c.normal = -n;
  c.journal_point = centre - s.radius * n;
  c.bearing_point = c.journal_point + c.penetration * n;
  return c;
}

}  // namespace stickslip::dynamics
