#include "mechanisms/incline.hpp"

#include "mechanisms/builtin_models.hpp"
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
  else if (!(push_frequency > 0.0 && std::isfinite(push_amplitude)))
    os << "push_frequency > 0 and a finite push_amplitude, got " << push_frequency << ", " << push_amplitude;
  if (!os.str().empty()) throw std::invalid_argument("Incline: expected " + os.str());
}

namespace {
const std::vector<ModelField<Incline>>& inclineFields() {
  static const std::vector<ModelField<Incline>> f{
      {"mass", &Incline::mass}, {"angle", &Incline::angle}, {"gravity", &Incline::gravity},
      {"mu_static", &Incline::mu_static}, {"mu_kinetic", &Incline::mu_kinetic},
      {"push_amplitude", &Incline::push_amplitude}, {"push_frequency", &Incline::push_frequency}};
  return f;
}
}  // namespace

dynamics::RigidScenario inclineRigid(const Incline& in) {
  in.validate();
  return builtinModel("incline", modelValues(in, inclineFields()));
}

Incline inclineOf(const dynamics::RigidScenario& s) { return fromModel(s, inclineFields()); }

std::vector<std::pair<double, std::string>> inclineReference(double t_end, const Incline& in) {
  in.validate();
  const double down = in.mass * in.gravity * std::sin(in.angle);
  const double n = in.mass * in.gravity * std::cos(in.angle);
  const double a = in.push_amplitude, w = in.push_frequency;
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
