#include "mechanisms/incline.hpp"

#include "mechanisms/coulomb_reference.hpp"

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

Incline pushedIncline(const PushedIncline& p) {
  Incline in;
  in.mass = p.mass;
  in.angle = p.angle;
  in.gravity = p.gravity;
  in.mu_static = p.mu_static;
  in.mu_kinetic = p.mu_kinetic;
  in.push = [a = p.push_amplitude, w = p.push_frequency](double t) { return a * std::sin(w * t); };
  return in;
}

std::vector<std::pair<double, std::string>> pushedInclineReference(double t_end,
                                                                   const PushedIncline& p) {
  const Incline in = pushedIncline(p);
  in.validate();
  const double down = in.mass * in.gravity * std::sin(in.angle);
  const double n = in.mass * in.gravity * std::cos(in.angle);
  const double a = p.push_amplitude, w = p.push_frequency;
  CoulombCoordinate c;
  c.mass = in.mass;
  c.mu_static = in.mu_static;
  c.mu_kinetic = in.mu_kinetic;
  c.force = [down, a, w](double t) { return a * std::sin(w * t) - down; };
  c.force_integral = [down, a, w](double t) { return a / w * (1.0 - std::cos(w * t)) - down * t; };
  c.normal = [n](double) { return n; };
  c.normal_integral = [n](double t) { return n * t; };
  return coulombReference(c, t_end);
}

}  // namespace stickslip::mechanisms
