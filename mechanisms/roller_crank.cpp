#include "mechanisms/roller_crank.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace stickslip::mechanisms {

void RollerCrank::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("RollerCrank: expected " + what + ", got " + std::to_string(got));
  };
  const auto positive = [&](const char* name, double x) {
    if (!(std::isfinite(x) && x > 0.0)) fail(std::string(name) + " > 0", x);
  };
  positive("crank_length", crank_length);
  positive("crank_mass", crank_mass);
  positive("crank_inertia", crank_inertia);
  positive("rod_length", rod_length);
  positive("rod_mass", rod_mass);
  positive("rod_inertia", rod_inertia);
  positive("roller_radius", roller_radius);
  positive("roller_mass", roller_mass);
  positive("roller_inertia", roller_inertia);
  if (!(std::isfinite(roller_height) && roller_height > roller_radius))
    fail("roller_height > roller_radius", roller_height);
  if (!(std::isfinite(gravity) && gravity >= 0.0)) fail("gravity ≥ 0", gravity);
  if (!std::isfinite(crank_angle)) fail("a finite crank_angle", crank_angle);
  if (!std::isfinite(crank_rate)) fail("a finite crank_rate", crank_rate);
  if (!(std::isfinite(baumgarte_alpha) && baumgarte_alpha >= 0.0))
    fail("baumgarte_alpha ≥ 0", baumgarte_alpha);
  if (!(std::isfinite(baumgarte_beta) && baumgarte_beta >= 0.0))
    fail("baumgarte_beta ≥ 0", baumgarte_beta);
  // The rod must reach the roller's line from the crank pin, away from the vertical.
  const double rise = roller_height - crank_length * std::sin(crank_angle);
  if (!(std::abs(rise) < rod_length))
    fail("|roller_height − crank_length·sin(crank_angle)| < rod_length", rise);
}

dynamics::FrictionParameters rollerCrankFrictionParameters() {
  dynamics::FrictionParameters p;
  p.mu_s = 0.15;
  p.mu_k = 0.1;
  p.stribeck_velocity = 1e-3;
  p.stribeck_exponent = 2.0;
  p.sigma0 = 1e5;
  p.sigma1 = std::sqrt(1e5);
  p.sigma2 = 0.0;
  p.viscous = 0.0;
  return p;
}

namespace {

// Bodies crank, rod, roller (0, 1, 2), gravity and the three revolutes.
void addLinks(const RollerCrank& rc, dynamics::PlanarModel& m) {
  using Eigen::Vector2d;
  const double l1 = rc.crank_length, l2 = rc.rod_length;
  m.addBody("crank", rc.crank_mass, rc.crank_inertia);
  m.addBody("rod", rc.rod_mass, rc.rod_inertia);
  m.addBody("roller", rc.roller_mass, rc.roller_inertia);
  m.setGravity(Vector2d(0.0, -rc.gravity));
  constexpr dynamics::BodyIndex crank = 0, rod = 1, roller = 2;
  m.addRevolute(dynamics::kGround, Vector2d::Zero(), crank, Vector2d(-0.5 * l1, 0.0), "ground-crank");
  m.addRevolute(crank, Vector2d(0.5 * l1, 0.0), rod, Vector2d(-0.5 * l2, 0.0), "crank-rod");
  m.addRevolute(rod, Vector2d(0.5 * l2, 0.0), roller, Vector2d::Zero(), "rod-roller");
}

}  // namespace

dynamics::RigidScenario rollerCrankRigid(const RollerCrank& rc) {
  rc.validate();
  using Eigen::Vector2d;
  dynamics::RigidScenario s;
  s.name = "roller-crank";
  dynamics::PlanarModel& m = s.model;
  addLinks(rc, m);
  constexpr dynamics::BodyIndex roller = 2;
  dynamics::RigidContact c;
  c.name = "roller-ground";
  c.normal = dynamics::RigidContact::Normal::kBilateral;
  c.body_i = roller;
  c.radius = rc.roller_radius;
  c.geometry.line_point_on_j = Vector2d(0.0, rc.roller_height - rc.roller_radius);
  const dynamics::FrictionParameters f = rollerCrankFrictionParameters();
  c.mu_static = f.mu_s;
  c.mu_kinetic = f.mu_k;
  s.contacts.push_back(c);
  s.baumgarte_alpha = rc.baumgarte_alpha;
  s.baumgarte_beta = rc.baumgarte_beta;

  // Positions: the crank at θ₁, the roller to the right of the crank pin on the line y = h.
  const double l1 = rc.crank_length, l2 = rc.rod_length, h = rc.roller_height;
  const Vector2d pin = l1 * Vector2d(std::cos(rc.crank_angle), std::sin(rc.crank_angle));
  const Vector2d centre(pin.x() + std::sqrt(l2 * l2 - (h - pin.y()) * (h - pin.y())), h);
  const Eigen::Index n = m.velocitySize(), rows = m.constraintCount();
  s.q0 = Eigen::VectorXd::Zero(n);
  s.q0.segment<3>(0) << 0.5 * pin, rc.crank_angle;
  s.q0.segment<3>(3) << 0.5 * (pin + centre), std::atan2(centre.y() - pin.y(), centre.x() - pin.x());
  s.q0.segment<3>(6) << centre, 0.0;
  // Velocities: D v = 0, the roller's centre on its line (ẏ_r = 0), θ̇₁ given and pure rolling
  // (v_t = ẋ_r + R θ̇_r = 0): n equations.
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(n, n);
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
  Eigen::MatrixXd jac(rows, n);
  m.jacobian(0.0, s.q0, jac);
  a.topRows(rows) = jac;
  a(rows, 7) = 1.0;  // ẏ_r
  a(rows + 1, 2) = 1.0;
  b(rows + 1) = rc.crank_rate;
  a(rows + 2, 6) = 1.0;
  a(rows + 2, 8) = rc.roller_radius;
  s.v0 = a.fullPivLu().solve(b);
  return s;
}

}  // namespace stickslip::mechanisms
