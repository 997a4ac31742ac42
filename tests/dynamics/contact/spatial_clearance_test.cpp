// The spatial revolute clearance joint's contact geometry (dynamics/contact/spatial_clearance.hpp):
// the thirteen contact cases of the thesis' Figure 4.7, each built from a pose whose depths are
// known in closed form, and the velocity rows against finite differences of the depths.

#include <Eigen/Geometry>
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "dynamics/contact/spatial_clearance.hpp"

using namespace stickslip::dynamics;
using C = SpatialClearanceContact;

namespace {

/// Table 4.2's simulation 1: R_B = 0.01, R_J = 0.0095, L_B = 0.02, L_J = 0.019 [m].
SpatialClearanceJoint simulation1() {
  SpatialClearanceJoint j;
  j.journal_radius = 0.0095;
  j.bearing_radius = 0.01;
  j.journal_length = 0.019;
  j.bearing_length = 0.02;
  j.validate();
  return j;
}

/// The journal tilted by θ about y (its end A towards +x) and moved by (x, 0, z); the bearing
/// in the ground along z.
SpatialPose journal(double theta, double x, double z) {
  SpatialPose p;
  p.r = Eigen::Vector3d(x, 0.0, z);
  p.A = Eigen::AngleAxisd(theta, Eigen::Vector3d::UnitY()).toRotationMatrix();
  return p;
}

int caseOf(const SpatialClearanceJoint& j, const SpatialPose& p) { return contactCase(spatialClearanceGeometry(j, p, {})); }

constexpr double kDepth = 1e-5;  // the designed penetration [m]

}  // namespace

TEST_CASE("spatial clearance: a centred journal has the radial and half the axial clearance as gaps") {
  const SpatialClearanceJoint j = simulation1();
  const SpatialClearanceGeometry g = spatialClearanceGeometry(j, {}, {});
  CHECK(g.contacts[C::kRadialA].penetration == Approx(-5e-4).margin(1e-15));
  CHECK(g.contacts[C::kRadialB].penetration == Approx(-5e-4).margin(1e-15));
  CHECK(g.contacts[C::kAxialA].penetration == Approx(-5e-4).margin(1e-15));
  CHECK(g.contacts[C::kAxialB].penetration == Approx(-5e-4).margin(1e-15));
  CHECK(g.aligned);
  CHECK(contactCase(g) == 1);
  CHECK(g.contacts[C::kAxialA].normal.isApprox(Eigen::Vector3d::UnitZ()));
  CHECK(g.contacts[C::kAxialB].normal.isApprox(-Eigen::Vector3d::UnitZ()));
  // Aligned: the end wall's contact point is the rim's centre (thesis eq. 4.18).
  CHECK(g.contacts[C::kAxialA].journal_point.isApprox(Eigen::Vector3d(0, 0, 0.0095)));
}

TEST_CASE("spatial clearance: the aligned cases 2-4 (radial line, axial surface, both)") {
  const SpatialClearanceJoint j = simulation1();
  const double x = j.radialClearance() + kDepth, z = 0.5 * j.axialClearance() + kDepth;
  SpatialClearanceGeometry g = spatialClearanceGeometry(j, journal(0.0, x, 0.0), {});
  CHECK(contactCase(g) == 2);
  for (const int w : {C::kRadialA, C::kRadialB}) {
    CHECK(g.contacts[std::size_t(w)].penetration == Approx(kDepth).margin(1e-15));
    CHECK(g.contacts[std::size_t(w)].normal.isApprox(Eigen::Vector3d::UnitX()));
    CHECK(g.contacts[std::size_t(w)].bearing_point.x() == Approx(j.bearing_radius));
  }
  CHECK(g.contacts[C::kRadialA].journal_point.z() == Approx(0.5 * j.journal_length));
  CHECK(caseOf(j, journal(0.0, 0.0, z)) == 3);
  g = spatialClearanceGeometry(j, journal(0.0, 0.0, z), {});
  CHECK(g.contacts[C::kAxialA].penetration == Approx(kDepth).margin(1e-15));
  CHECK(g.contacts[C::kAxialA].bearing_point.z() == Approx(0.5 * j.bearing_length));
  CHECK(caseOf(j, journal(0.0, x, z)) == 4);
}

TEST_CASE("spatial clearance: the misaligned cases 5-13, depths in closed form") {
  const SpatialClearanceJoint j = simulation1();
  const double half = 0.5 * j.journal_length, rj = j.journal_radius;
  const double th = 0.01, s = std::sin(th), c = std::cos(th);
  // Tilted by θ about y, the rim at end A reaches x + ½L_J sin θ + R_J cos θ from the axis (its
  // point in the xz-plane) and ½L_J cos θ + R_J sin θ + z along it.
  const double x1 = j.bearing_radius - half * s - rj * c + kDepth;  // radial A touches by kDepth
  const double x2 = j.bearing_radius + half * s - rj * c + kDepth;  // radial B too
  const double z1 = 0.5 * j.bearing_length - half * c - rj * s + kDepth;  // axial A by kDepth

  SpatialClearanceGeometry g = spatialClearanceGeometry(j, journal(th, x1, 0.0), {});
  CHECK_FALSE(g.aligned);
  CHECK(contactCase(g) == 5);
  CHECK(g.contacts[C::kRadialA].penetration == Approx(kDepth).epsilon(1e-9));
  CHECK(g.contacts[C::kRadialB].penetration == Approx(kDepth - 2.0 * half * s).epsilon(1e-9));
  CHECK(g.contacts[C::kRadialA].journal_point.y() == Approx(0.0).margin(1e-15));

  g = spatialClearanceGeometry(j, journal(th, 0.0, z1), {});
  CHECK(contactCase(g) == 6);
  CHECK(g.contacts[C::kAxialA].penetration == Approx(kDepth).epsilon(1e-9));
  // The rim point farthest up is on the side the axis leans away from: −x.
  CHECK(g.contacts[C::kAxialA].journal_point.x() == Approx(half * s - rj * c));

  CHECK(caseOf(j, journal(th, x2, 0.0)) == 7);
  CHECK(caseOf(j, journal(th, x1, z1)) == 9);
  CHECK(caseOf(j, journal(th, x1, -z1)) == 10);
  CHECK(caseOf(j, journal(th, x2, z1)) == 11);

  // Tilted by 0.06 rad in a centred bearing, both rims reach the bore and both end walls.
  const SpatialClearanceGeometry corner = spatialClearanceGeometry(j, journal(0.06, 0.0, 0.0), {});
  CHECK(contactCase(corner) == 13);
  const double radial = half * std::sin(0.06) + rj * std::cos(0.06) - j.bearing_radius;
  const double axial = half * std::cos(0.06) + rj * std::sin(0.06) - 0.5 * j.bearing_length;
  CHECK(corner.contacts[C::kRadialA].penetration == Approx(radial).epsilon(1e-9));
  CHECK(corner.contacts[C::kRadialB].penetration == Approx(radial).epsilon(1e-9));
  CHECK(corner.contacts[C::kAxialB].penetration == Approx(axial).epsilon(1e-9));

  // Two end walls without the bore need more radial clearance than Table 4.2's (the thesis:
  // some cases are impossible for some proportions).
  SpatialClearanceJoint wide = j;
  wide.bearing_radius = 0.012;
  wide.alignment_tolerance = 0.0;
  wide.validate();
  CHECK(caseOf(wide, journal(0.06, 0.0, 0.0)) == 8);
  const double x12 = wide.bearing_radius - half * std::sin(0.06) - rj * std::cos(0.06) + kDepth;
  CHECK(caseOf(wide, journal(0.06, x12, 0.0)) == 12);
}

TEST_CASE("spatial clearance: the end wall's contact point moves continuously from the rim's centre to the rim") {
  const SpatialClearanceJoint j = simulation1();
  const double tol = j.alignment_tolerance;
  CHECK(tol == Approx(1e-3 * 2.0 * 5e-4 / 0.019));
  const auto point = [&](double th) { return spatialClearanceGeometry(j, journal(th, 0.0, 0.0), {}).contacts[C::kAxialA].journal_point; };
  CHECK((point(0.5 * tol) - point(0.0)).norm() == Approx(0.5 * j.journal_radius).epsilon(1e-3));
  CHECK((point(tol * (1 - 1e-9)) - point(tol * (1 + 1e-9))).norm() < 1e-9);
  CHECK((point(2.0 * tol) - point(0.0)).norm() == Approx(j.journal_radius).epsilon(1e-3));
}

TEST_CASE("spatial clearance: the velocity rows give the rates of the depths") {
  const SpatialClearanceJoint j = simulation1();
  // Both bodies moving, the journal tilted and off centre, every candidate at a generic point.
  SpatialPose pi = journal(0.02, 3e-4, -2e-4), pj;
  pj.r = Eigen::Vector3d(0.01, -0.02, 0.03);
  pj.A = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  pi.r = pj.r + pj.A * pi.r;
  pi.A = pj.A * pi.A;
  Eigen::Matrix<double, 12, 1> v;
  v << 0.3, -0.2, 0.5, 1.5, -2.0, 0.7, -0.1, 0.4, 0.2, -0.8, 0.6, 1.1;
  const auto moved = [&](double h, const SpatialPose& p, int at) {
    SpatialPose m;
    m.r = p.r + h * v.segment<3>(at);
    const Eigen::Vector3d w = v.segment<3>(at + 3);  // ω′, body axes: A(h) = A exp(h ω̃′)
    m.A = p.A * Eigen::AngleAxisd(h * w.norm(), w.normalized()).toRotationMatrix();
    return m;
  };
  const SpatialClearanceGeometry g = spatialClearanceGeometry(j, pi, pj);
  constexpr double h = 1e-7;
  const SpatialClearanceGeometry plus = spatialClearanceGeometry(j, moved(h, pi, 0), moved(h, pj, 6));
  const SpatialClearanceGeometry minus = spatialClearanceGeometry(j, moved(-h, pi, 0), moved(-h, pj, 6));
  for (std::size_t w = 0; w < 4; ++w) {
    INFO("candidate " << w);
    const double rate = velocityRow(g.contacts[w], g.contacts[w].normal, pi, pj).dot(v);
    const double fd = (plus.contacts[w].penetration - minus.contacts[w].penetration) / (2.0 * h);
    CHECK(rate == Approx(fd).epsilon(1e-6).margin(1e-10));
    CHECK(std::abs(rate) > 1e-3);  // a real motion, not a vacuous match
    // v_rel itself, along the normal and along any other direction, is what the rows give.
    const Eigen::Vector3d v_rel = relativeVelocity(g.contacts[w], pi, pj, v), d = Eigen::Vector3d(1, -2, 2) / 3.0;
    CHECK(g.contacts[w].normal.dot(v_rel) == Approx(rate).epsilon(1e-12));
    CHECK(d.dot(v_rel) == Approx(velocityRow(g.contacts[w], d, pi, pj).dot(v)).epsilon(1e-12));
  }
}

TEST_CASE("spatial clearance: invalid geometry is refused with the reason") {
  SpatialClearanceJoint j = simulation1();
  j.journal_radius = 0.01;
  CHECK_THROWS_WITH(j.validate("pin"), Catch::Contains("pin: expected bearing_radius > journal_radius"));
  j = simulation1();
  j.journal_length = 0.03;
  CHECK_THROWS_WITH(j.validate("pin"), Catch::Contains("bearing_length > journal_length"));
  j = simulation1();
  j.bearing_axis.setZero();
  CHECK_THROWS_WITH(j.validate("pin"), Catch::Contains("nonzero axes"));
}
