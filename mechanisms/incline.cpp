#include "mechanisms/incline.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::mechanisms {

void Incline::validate() const {
  std::ostringstream os;
  if (!(mass > 0.0)) os << "mass > 0, got " << mass;
  else if (!(std::abs(angle) < M_PI / 2)) os << "angle in (-pi/2, pi/2), got " << angle;
  else if (!(gravity >= 0.0)) os << "gravity >= 0, got " << gravity;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic))
    os << "0 <= mu_kinetic <= mu_static, got " << mu_kinetic << ", " << mu_static;
  if (!os.str().empty()) throw std::invalid_argument("Incline: expected " + os.str());
}

dynamics::RigidScenario inclineRigid(const Incline& in) {
  in.validate();
  dynamics::RigidScenario s;
  s.name = "incline";
  const auto block = s.model.addBody("block", in.mass, in.mass * 1e-2);
  s.model.setGravity({0.0, -in.gravity});
  const Eigen::Vector2d up(std::cos(in.angle), std::sin(in.angle));
  if (in.push) {
    auto push = in.push;
    s.model.addAppliedForce(block, {0.0, 0.0}, [push, up](double t) -> Eigen::Vector2d { return push(t) * up; });
  }
  dynamics::RigidContact c;
  c.name = "block-slope";
  c.body_i = block;
  c.geometry.line_normal_on_j = Eigen::Vector2d(-up.y(), up.x());
  c.mu_static = in.mu_static;
  c.mu_kinetic = in.mu_kinetic;
  s.contacts.push_back(c);
  s.q0 = Eigen::VectorXd::Zero(3);
  s.v0 = Eigen::VectorXd::Zero(3);
  return s;
}

}  // namespace stickslip::mechanisms
