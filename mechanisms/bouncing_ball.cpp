#include "mechanisms/bouncing_ball.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::mechanisms {
namespace {

void require(bool ok, const char* what, double got) {
  if (ok) return;
  std::ostringstream os;
  os << "BouncingBall: expected " << what << ", got " << got;
  throw std::invalid_argument(os.str());
}

}  // namespace

void BouncingBall::validate() const {
  require(radius > 0.0 && std::isfinite(radius), "radius > 0", radius);
  require(mass > 0.0 && std::isfinite(mass), "mass > 0", mass);
  require(gravity >= 0.0 && std::isfinite(gravity), "gravity >= 0", gravity);
  require(restitution >= 0.0 && restitution <= 1.0, "restitution in [0, 1]", restitution);
  require(mu_kinetic >= 0.0 && std::isfinite(mu_kinetic), "mu_kinetic >= 0", mu_kinetic);
  require(mu_static >= mu_kinetic && std::isfinite(mu_static), "mu_static >= mu_kinetic",
          mu_static);
  require(height >= radius && std::isfinite(height), "height >= radius", height);
  require(std::isfinite(velocity_x) && std::isfinite(velocity_y) && std::isfinite(spin),
          "finite initial velocities", velocity_x + velocity_y + spin);
}

dynamics::RigidScenario bouncingBall(const BouncingBall& d) {
  d.validate();
  dynamics::RigidScenario s;
  s.name = "bouncing-ball";
  const auto ball = s.model.addBody("ball", d.mass, 0.5 * d.mass * d.radius * d.radius);
  s.model.setGravity(Eigen::Vector2d(0.0, -d.gravity));
  dynamics::RigidContact c;
  c.name = "ball-floor";
  c.body_i = ball;
  c.body_j = dynamics::kGround;
  c.radius = d.radius;  // the disk's centre against the line y = 0
  c.restitution = d.restitution;
  c.mu_static = d.mu_static;
  c.mu_kinetic = d.mu_kinetic;
  s.contacts.push_back(c);
  s.q0 = Eigen::Vector3d(0.0, d.height, 0.0);
  s.v0 = Eigen::Vector3d(d.velocity_x, d.velocity_y, d.spin);
  return s;
}

}  // namespace stickslip::mechanisms
