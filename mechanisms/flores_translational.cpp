#include "mechanisms/flores_translational.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::mechanisms {
namespace {

void require(bool ok, const char* what, double got) {
  if (ok) return;
  std::ostringstream os;
  os << "FloresTranslational: expected " << what << ", got " << got;
  throw std::invalid_argument(os.str());
}

}  // namespace

void FloresTranslational::validate() const {
  for (double x : {l1, l2, a, b, c, m1, m2, m3, J1, J2, J3})
    require(x > 0.0 && std::isfinite(x), "positive finite lengths, masses and inertias", x);
  require(gravity >= 0.0 && std::isfinite(gravity), "gravity >= 0", gravity);
  require(restitution >= 0.0 && restitution <= 1.0, "restitution in [0, 1]", restitution);
  require(mu >= 0.0 && std::isfinite(mu), "mu >= 0", mu);
  require(theta0.allFinite() && theta_rate0.allFinite(), "finite initial angles and rates",
          theta0.sum() + theta_rate0.sum());
}

Eigen::Matrix<double, 2, 4> floresCorners(const FloresTranslational& d) {
  Eigen::Matrix<double, 2, 4> corners;
  corners << -d.a, d.a, -d.a, d.a,  //
      d.b, d.b, -d.b, -d.b;
  return corners;
}

dynamics::RigidScenario floresTranslational(const FloresTranslational& d) {
  d.validate();
  using dynamics::kGround;
  using Eigen::Vector2d;
  dynamics::RigidScenario s;
  s.name = "flores-translational";
  dynamics::PlanarModel& m = s.model;
  const auto crank = m.addBody("crank", d.m1, d.J1);
  const auto rod = m.addBody("rod", d.m2, d.J2);
  const auto slider = m.addBody("slider", d.m3, d.J3);
  m.addRevolute(kGround, Vector2d::Zero(), crank, Vector2d(-0.5 * d.l1, 0.0), "O");
  m.addRevolute(crank, Vector2d(0.5 * d.l1, 0.0), rod, Vector2d(-0.5 * d.l2, 0.0), "A");
  m.addRevolute(rod, Vector2d(0.5 * d.l2, 0.0), slider, Vector2d::Zero(), "B");
  m.setGravity(Vector2d(0.0, -d.gravity));

  const Eigen::Matrix<double, 2, 4> corners = floresCorners(d);
  const char* names[] = {"upper-left", "upper-right", "lower-left", "lower-right"};
  const double wall = d.b + d.c;
  for (int k = 0; k < 4; ++k) {
    const bool upper = corners(1, k) > 0.0;
    dynamics::RigidContact ct;
    ct.name = std::string("slider ") + names[k];
    ct.body_i = slider;
    ct.body_j = kGround;
    ct.geometry.point_on_i = corners.col(k);
    ct.geometry.line_point_on_j = Vector2d(0.0, upper ? wall : -wall);
    ct.geometry.line_normal_on_j = Vector2d(0.0, upper ? -1.0 : 1.0);
    ct.mu_static = ct.mu_kinetic = d.mu;
    ct.restitution = d.restitution;
    s.contacts.push_back(ct);
  }

  // Absolute state from the generalized angles: centroids at the bars' midpoints.
  const double t1 = d.theta0(0), t2 = d.theta0(1), t3 = d.theta0(2);
  const double w1 = d.theta_rate0(0), w2 = d.theta_rate0(1), w3 = d.theta_rate0(2);
  const Vector2d e1(std::cos(t1), std::sin(t1)), e2(std::cos(t2), std::sin(t2));
  const Vector2d n1(-e1.y(), e1.x()), n2(-e2.y(), e2.x());  // d e/dθ
  s.q0.resize(9);
  s.v0.resize(9);
  const Vector2d r1 = 0.5 * d.l1 * e1, r2 = d.l1 * e1 + 0.5 * d.l2 * e2, r3 = d.l1 * e1 + d.l2 * e2;
  const Vector2d v1 = 0.5 * d.l1 * w1 * n1, v2 = d.l1 * w1 * n1 + 0.5 * d.l2 * w2 * n2,
                 v3 = d.l1 * w1 * n1 + d.l2 * w2 * n2;
  s.q0 << r1, t1, r2, t2, r3, t3;
  s.v0 << v1, w1, v2, w2, v3, w3;
  return s;
}

}  // namespace stickslip::mechanisms
