#include "mechanisms/dupont.hpp"

#include "mechanisms/builtin_models.hpp"
#include "mechanisms/coulomb_reference.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stickslip::mechanisms {

void Dupont::validate() const {
  std::ostringstream os;
  if (!(m1 > 0.0) || !(m2 > 0.0)) os << "masses > 0, got " << m1 << ", " << m2;
  else if (!(mu_kinetic >= 0.0) || !(mu_static >= mu_kinetic))
    os << "0 <= mu_kinetic <= mu_static, got " << mu_kinetic << ", " << mu_static;
  else if (!std::isfinite(f1_amplitude + f1_frequency + f2_amplitude + f2_frequency))
    os << "finite force amplitudes and frequencies";
  if (!os.str().empty()) throw std::invalid_argument("Dupont: expected " + os.str());
}

namespace {
const std::vector<ModelField<Dupont>>& dupontFields() {
  static const std::vector<ModelField<Dupont>> f{
      {"m1", &Dupont::m1}, {"m2", &Dupont::m2}, {"f1_amplitude", &Dupont::f1_amplitude},
      {"f1_frequency", &Dupont::f1_frequency}, {"f2_amplitude", &Dupont::f2_amplitude},
      {"f2_frequency", &Dupont::f2_frequency}, {"mu_static", &Dupont::mu_static}, {"mu_kinetic", &Dupont::mu_kinetic}};
  return f;
}
}  // namespace

dynamics::RigidScenario dupontRigid(const Dupont& d) {
  d.validate();
  return builtinModel("dupont", modelValues(d, dupontFields()));
}

Dupont dupontOf(const dynamics::RigidScenario& s) { return fromModel(s, dupontFields()); }

std::vector<std::pair<double, std::string>> dupontReference(const Dupont& d, double t_end) {
  d.validate();
  const double a1 = d.f1_amplitude, w1 = d.f1_frequency, a2 = d.f2_amplitude, w2 = d.f2_frequency;
  const double share = d.m1 / (d.m1 + d.m2);  // N = m1 |F2| / (m1 + m2)
  CoulombCoordinate c;
  c.mass = d.m1;
  c.mu_static = d.mu_static;
  c.mu_kinetic = d.mu_kinetic;
  c.force = [=](double t) { return a1 * std::sin(w1 * t); };
  c.force_integral = [=](double t) { return a1 / w1 * (1.0 - std::cos(w1 * t)); };
  c.normal = [=](double t) { return share * std::abs(a2 * std::cos(w2 * t)); };
  // ∫₀ᵗ |cos ω₂τ| dτ: each half period of cos contributes 2/ω₂.
  c.normal_integral = [=](double t) {
    const double u = w2 * t + M_PI / 2, m = std::floor(u / M_PI), r = u - m * M_PI;
    return share * std::abs(a2) * (2.0 * m - std::cos(r)) / w2;
  };
  return coulombReference(c, t_end);
}

}  // namespace stickslip::mechanisms
