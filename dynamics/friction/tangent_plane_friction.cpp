#include "dynamics/friction/tangent_plane_friction.hpp"

#include <array>
#include <stdexcept>
#include <string>
#include <utility>

namespace stickslip::dynamics {

double TangentPlaneFriction::coefficients(const FrictionLaw& law, double speed, double normal_force,
                                          Coefficients& b) {
  double viscous = 0.0;
  static_cast<void>(law.linearBristles(speed, normal_force, std::span(b.data(), std::size_t(law.stateSize())),
                                       viscous));
  return viscous;
}

bool TangentPlaneFriction::lifts(const FrictionLaw& law) {
  const int n = law.stateSize();
  if (n < 1 || n > kMaxBristles) return false;
  Coefficients b;
  double viscous = 0.0;
  return law.linearBristles(0.0, 0.0, std::span(b.data(), std::size_t(n)), viscous);
}

TangentPlaneFriction::TangentPlaneFriction(std::shared_ptr<const FrictionLaw> law) : law_(std::move(law)) {
  if (!law_) throw std::invalid_argument("TangentPlaneFriction: expected a friction law, got none");
  if (!lifts(*law_))
    throw std::invalid_argument("friction law '" + std::string(law_->name()) +
                                "' has no isotropic form on a sliding plane (its states are not bristles linear in "
                                "the velocity, tangent_plane_friction.hpp)");
}

void TangentPlaneFriction::initialState(std::span<double> z) const {
  for (double& x : z) x = 0.0;
}

void TangentPlaneFriction::steadyState(const PlaneFrictionInput& in, std::span<double> z) const {
  const Eigen::Vector3d& v = in.sliding_velocity;
  Coefficients b;
  static_cast<void>(coefficients(*law_, v.norm(), in.normal_force, b));
  for (int i = 0; i < bristles(); ++i) {
    const BristleCoefficients& c = b[std::size_t(i)];
    Eigen::Map<Eigen::Vector3d>(z.data() + 3 * i) =
        c.decay > 0.0 ? Eigen::Vector3d(c.drive / c.decay * v) : Eigen::Vector3d::Zero();
  }
}

Eigen::Vector3d TangentPlaneFriction::force(const PlaneFrictionInput& in, std::span<const double> z) const {
  const Eigen::Vector3d& v = in.sliding_velocity;
  Coefficients b;
  const double viscous = coefficients(*law_, v.norm(), in.normal_force, b);
  Eigen::Vector3d r = viscous * v;  // R = −F_T
  for (int i = 0; i < bristles(); ++i) {
    const BristleCoefficients& c = b[std::size_t(i)];
    const Eigen::Vector3d zi = Eigen::Map<const Eigen::Vector3d>(z.data() + 3 * i);
    const Eigen::Vector3d tangential = zi - in.normal.dot(zi) * in.normal;  // Π z_i
    // a Π z + b Π ż with Π ż = α v_T − β Π z.
    r += c.stiffness * tangential + c.damping * (c.drive * v - c.decay * tangential);
  }
  return -r;
}

void TangentPlaneFriction::stateRate(const PlaneFrictionInput& in, std::span<const double> z,
                                     std::span<double> rate) const {
  const Eigen::Vector3d& v = in.sliding_velocity;
  Coefficients b;
  static_cast<void>(coefficients(*law_, v.norm(), in.normal_force, b));
  for (int i = 0; i < bristles(); ++i) {
    const BristleCoefficients& c = b[std::size_t(i)];
    Eigen::Map<Eigen::Vector3d>(rate.data() + 3 * i) =
        c.drive * v - c.decay * Eigen::Map<const Eigen::Vector3d>(z.data() + 3 * i);
  }
}

}  // namespace stickslip::dynamics
