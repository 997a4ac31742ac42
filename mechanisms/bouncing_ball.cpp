#include "mechanisms/bouncing_ball.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "mechanisms/builtin_models.hpp"

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
  return builtinModel("ball", {{"radius", d.radius}, {"mass", d.mass}, {"gravity", d.gravity},
                               {"restitution", d.restitution}, {"mu_static", d.mu_static},
                               {"mu_kinetic", d.mu_kinetic}, {"height", d.height}, {"velocity_x", d.velocity_x},
                               {"velocity_y", d.velocity_y}, {"spin", d.spin}});
}

}  // namespace stickslip::mechanisms
