#pragma once
/// \file Spatial contact of a sphere (radius ρ ≥ 0; ρ = 0: a point) fixed in body i with a plane
/// fixed in body j (either may be the ground): a ball on a table, a block's corner on a slope.
///
/// With C the sphere's centre, Q a point of the plane and n its unit normal (world, pointing to
/// the side where the sphere is free), the sphere's deepest point is x = C − ρ n and
///   gap g = nᵀ(C − Q) − ρ,   penetration δ = −g,
/// its foot on the plane C_B = x − δ (−n) = x + δ n. Described as a spatial clearance joint's
/// candidate (SpatialClearanceContact: the normal −n the way the sphere penetrates, x as its
/// journal point and C_B as its bearing point), so that relativeVelocity and velocityRow give its
/// rows, and ġ = nᵀ v_rel holds exactly (the two points coincide up to δ n, and the plane
/// turns about the foot).

#include <Eigen/Core>
#include <string_view>

#include "dynamics/contact/spatial_clearance.hpp"

namespace stickslip::dynamics {

struct SpherePlane {
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();        ///< C′ in body i's axes [m]
  double radius = 0.0;                                     ///< ρ ≥ 0 [m]
  Eigen::Vector3d plane_point = Eigen::Vector3d::Zero();   ///< Q′ in body j's axes [m]
  Eigen::Vector3d plane_normal = Eigen::Vector3d::UnitZ(); ///< n′ in body j's axes, towards the free side
  /// Throws std::invalid_argument("<who>: …") for a non-finite entry, ρ < 0 or a zero normal;
  /// normalizes the normal.
  void validate(std::string_view who = "dynamics::SpherePlane");
};

/// The contact at poses `i` (the sphere's body) and `j` (the plane's). Allocates nothing.
SpatialClearanceContact spherePlaneContact(const SpherePlane& s, const SpatialPose& i, const SpatialPose& j);

}  // namespace stickslip::dynamics
