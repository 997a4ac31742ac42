#include "mechanisms/roller_crank.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "mechanisms/builtin_models.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

void RollerCrank::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("RollerCrank: expected " + what + ", got " + exactNumber(got));
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
const std::vector<ModelField<RollerCrank>>& rollerCrankFields() {
  using R = RollerCrank;
  static const std::vector<ModelField<R>> f{
      {"crank_length", &R::crank_length}, {"crank_mass", &R::crank_mass}, {"crank_inertia", &R::crank_inertia},
      {"rod_length", &R::rod_length}, {"rod_mass", &R::rod_mass}, {"rod_inertia", &R::rod_inertia},
      {"roller_radius", &R::roller_radius}, {"roller_mass", &R::roller_mass},
      {"roller_inertia", &R::roller_inertia}, {"roller_height", &R::roller_height}, {"gravity", &R::gravity},
      {"crank_angle", &R::crank_angle}, {"crank_rate", &R::crank_rate},
      {"baumgarte_alpha", &R::baumgarte_alpha}, {"baumgarte_beta", &R::baumgarte_beta}};
  return f;
}
}  // namespace

dynamics::RigidScenario rollerCrankRigid(const RollerCrank& rc) {
  rc.validate();
  return builtinModel("roller-crank", modelValues(rc, rollerCrankFields()));
}

RollerCrank rollerCrankOf(const dynamics::RigidScenario& s) { return fromModel(s, rollerCrankFields()); }

}  // namespace stickslip::mechanisms
