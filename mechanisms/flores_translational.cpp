#include "mechanisms/flores_translational.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "mechanisms/builtin_models.hpp"

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

std::vector<std::pair<std::string, double>> floresParameters(const FloresTranslational& d) {
  return {{"l1", d.l1}, {"l2", d.l2}, {"a", d.a}, {"b", d.b}, {"c", d.c}, {"m1", d.m1}, {"m2", d.m2},
          {"m3", d.m3}, {"J1", d.J1}, {"J2", d.J2}, {"J3", d.J3}, {"gravity", d.gravity},
          {"restitution", d.restitution}, {"mu", d.mu}, {"crank_angle", d.theta0(0)}, {"rod_angle", d.theta0(1)},
          {"slider_angle", d.theta0(2)}, {"crank_rate", d.theta_rate0(0)}, {"rod_rate", d.theta_rate0(1)},
          {"slider_rate", d.theta_rate0(2)}};
}

dynamics::RigidScenario floresTranslational(const FloresTranslational& d) {
  d.validate();
  return builtinModel("flores-translational", floresParameters(d));
}

}  // namespace stickslip::mechanisms
