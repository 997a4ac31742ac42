#include "mechanisms/muvengei.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include "dynamics/contact/normal_law.hpp"
#include "dynamics/mechanism/ideal_clearance.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {

void MuvengeiSliderCrank::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("MuvengeiSliderCrank: expected " + what + ", got " +
                                exactNumber(got));
  };
  const auto positive = [](double x) { return std::isfinite(x) && x > 0.0; };
  if (!positive(crank_length)) fail("crank_length > 0", crank_length);
  if (!(std::isfinite(rod_length) && rod_length > crank_length))
    fail("rod_length > crank_length (a crank that turns fully)", rod_length);
  for (const auto& [name, x] : {std::pair{"crank_mass", crank_mass},
                                {"crank_inertia", crank_inertia},
                                {"rod_mass", rod_mass},
                                {"rod_inertia", rod_inertia},
                                {"slider_mass", slider_mass},
                                {"slider_inertia", slider_inertia},
                                {"bearing_radius", bearing_radius},
                                {"crank_speed", crank_speed},
                                {"stribeck_fraction", stribeck_fraction},
                                {"stribeck_exponent", stribeck_exponent}})
    if (!positive(x)) fail(std::string(name) + " > 0", x);
  if (!(positive(clearance) && clearance < bearing_radius))
    fail("clearance in (0, bearing_radius)", clearance);
  if (!(std::isfinite(restitution) && restitution > 0.0 && restitution <= 1.0))
    fail("restitution in (0, 1]", restitution);
  if (!(std::isfinite(gravity) && gravity >= 0.0)) fail("gravity ≥ 0", gravity);
  if (!(std::isfinite(mu_k) && mu_k > 0.0)) fail("mu_k > 0", mu_k);
  if (!(std::isfinite(mu_s) && mu_s >= mu_k)) fail("mu_s ≥ mu_k", mu_s);
  if (!positive(sigma0)) fail("sigma0 > 0", sigma0);
  if (!(std::isfinite(sigma1) && sigma1 >= 0.0)) fail("sigma1 ≥ 0", sigma1);
  if (!(std::isfinite(sigma2) && sigma2 >= 0.0)) fail("sigma2 ≥ 0", sigma2);
  dynamics::ContactMaterial{young_modulus, poisson_ratio}.validate("MuvengeiSliderCrank");
}

double MuvengeiSliderCrank::period() const { return 2.0 * std::numbers::pi / crank_speed; }

double MuvengeiSliderCrank::contactStiffness() const {
  const dynamics::ContactMaterial steel{young_modulus, poisson_ratio};
  return dynamics::journalBearingStiffness(bearing_radius, journalRadius(), steel, steel);
}

double MuvengeiSliderCrank::idealMaxTangentialVelocity() const {
  // ω_rod = −ω r cos θ / (l cos φ), sin φ = −r sin θ / l; sampled finely over a revolution.
  double best = 0.0;
  constexpr int kSamples = 36000;
  for (int i = 0; i < kSamples; ++i) {
    const double th = 2.0 * std::numbers::pi * i / kSamples;
    const double s = crank_length * std::sin(th) / rod_length;
    const double w_rod =
        -crank_speed * crank_length * std::cos(th) / (rod_length * std::sqrt(1.0 - s * s));
    best = std::max(best, std::abs(journalRadius() * crank_speed - bearing_radius * w_rod));
  }
  return best;
}

dynamics::FrictionParameters muvengeiFrictionParameters(const MuvengeiSliderCrank& d) {
  dynamics::FrictionParameters p;
  p.mu_k = d.mu_k;
  p.mu_s = d.mu_s;
  p.sigma0 = d.sigma0;
  p.sigma1 = d.sigma1;
  p.sigma2 = d.sigma2;
  p.viscous = d.sigma2;
  p.stribeck_exponent = d.stribeck_exponent;
  p.stribeck_velocity = d.stribeckVelocity();
  p.reference_normal_force = 1.0;
  // The velocity scales of the regularized static laws follow vs (they stay below it).
  p.tolerance_velocity = p.karnopp_velocity = p.threshold_velocity = 0.1 * p.stribeck_velocity;
  p.modified_v1 = 0.1 * p.stribeck_velocity;
  p.modified_v0 = 0.01 * p.stribeck_velocity;
  return p;
}

SliderKinematics idealSlider(const MuvengeiSliderCrank& d, double t) {
  const double r = d.crank_length, l = d.rod_length, w = d.crank_speed;
  const double s = std::sin(w * t), c = std::cos(w * t);
  const double root = std::sqrt(l * l - r * r * s * s);
  SliderKinematics k;
  k.x = r * c + root;
  // Derivatives with respect to θ, then by the chain rule with θ̇ = ω, θ̈ = 0.
  const double dx = -r * s - r * r * s * c / root;
  const double ddx = -r * c - r * r * (c * c - s * s) / root -
                     r * r * r * r * s * s * c * c / (root * root * root);
  k.v = w * dx;
  k.a = w * w * ddx;
  return k;
}

namespace {
const std::vector<ModelField<MuvengeiSliderCrank>>& muvengeiFields() {
  using M = MuvengeiSliderCrank;
  static const std::vector<ModelField<M>> f{
      {"crank_length", &M::crank_length}, {"crank_mass", &M::crank_mass}, {"crank_inertia", &M::crank_inertia},
      {"rod_length", &M::rod_length}, {"rod_mass", &M::rod_mass}, {"rod_inertia", &M::rod_inertia},
      {"slider_mass", &M::slider_mass}, {"slider_inertia", &M::slider_inertia},
      {"bearing_radius", &M::bearing_radius}, {"clearance", &M::clearance}, {"young_modulus", &M::young_modulus},
      {"poisson_ratio", &M::poisson_ratio}, {"restitution", &M::restitution}, {"crank_speed", &M::crank_speed},
      {"gravity", &M::gravity}, {"mu_k", &M::mu_k}, {"mu_s", &M::mu_s}, {"sigma0", &M::sigma0},
      {"sigma1", &M::sigma1}, {"sigma2", &M::sigma2}, {"stribeck_exponent", &M::stribeck_exponent},
      {"stribeck_fraction", &M::stribeck_fraction}};
  return f;
}
}  // namespace

dynamics::RigidScenario muvengeiRigid(const MuvengeiSliderCrank& d) {
  d.validate();
  const dynamics::RigidScenario s = builtinModel("muvengei-lugre", modelValues(d, muvengeiFields()));
  return d.ideal ? dynamics::withIdealClearanceJoints(s) : s;
}

MuvengeiSliderCrank muvengeiOf(const dynamics::RigidScenario& s) {
  MuvengeiSliderCrank d = fromModel(s, muvengeiFields());
  d.ideal = std::none_of(s.contacts.begin(), s.contacts.end(), [](const dynamics::RigidContact& c) {
    return c.shape == dynamics::RigidContact::Shape::kJournalBearing;
  });
  return d;
}

MuvengeiCycle analyseMuvengeiCycle(const MuvengeiSliderCrank& d, const MuvengeiTable& r, double t_begin) {
  MuvengeiCycle cy;
  cy.t_begin = t_begin;
  cy.t_end = t_begin + d.period();
  const double vs = r.stribeck_velocity, tol = 1e-9 * d.period();
  const Eigen::MatrixXd& tb = r.table;
  bool in_stick = false, have_prev = false;
  double abs_driver = 0.0, e_first = 0.0, e_last = 0.0;
  Eigen::Index prev = 0;
  for (Eigen::Index i = 0; i < tb.rows(); ++i) {
    const double t = tb(i, kTime);
    if (t < cy.t_begin - tol || t > cy.t_end + tol) continue;
    const SliderKinematics ideal = idealSlider(d, t);
    ++cy.samples;
    cy.max_acceleration = std::max(cy.max_acceleration, std::abs(tb(i, kSliderA)));
    cy.max_ideal_acceleration = std::max(cy.max_ideal_acceleration, std::abs(ideal.a));
    cy.max_position_deviation =
        std::max(cy.max_position_deviation, std::abs(tb(i, kSliderX) - ideal.x));
    cy.max_ideal_acceleration_error =
        std::max(cy.max_ideal_acceleration_error, std::abs(tb(i, kSliderA) - ideal.a));
    cy.max_bristle_ratio =
        std::max(cy.max_bristle_ratio, std::abs(tb(i, kBristleCoefficient)) / d.mu_s);
    const double fn = tb(i, kNormalForce), ft = tb(i, kFrictionForce),
                 vt = tb(i, kTangentialVelocity);
    bool stick = false;
    if (fn > 0.0) {
      ++cy.contact_samples;
      cy.min_tangential_velocity = cy.contact_samples == 1
                                       ? std::abs(vt)
                                       : std::min(cy.min_tangential_velocity, std::abs(vt));
      cy.max_tangential_velocity = std::max(cy.max_tangential_velocity, std::abs(vt));
      cy.max_penetration = std::max(cy.max_penetration, tb(i, kPenetration));
      cy.max_normal_force = std::max(cy.max_normal_force, fn);
      cy.max_friction_ratio = std::max(cy.max_friction_ratio, std::abs(ft) / (d.mu_s * fn));
      const double bound = fn * (d.mu_s + (1.0 + d.mu_s / d.mu_k) * d.sigma1 * std::abs(vt));
      cy.max_damped_bound_ratio = std::max(cy.max_damped_bound_ratio, std::abs(ft) / bound);
      stick = std::abs(vt) < vs && std::abs(ft) > 0.01 * d.mu_k * fn;
    }
    if (stick) {
      ++cy.stick_samples;
      if (!in_stick) ++cy.stick_intervals;
    }
    in_stick = stick;
    if (!have_prev) {
      e_first = tb(i, kMechanicalEnergy);
    } else {
      const double h = t - tb(prev, kTime);
      cy.driver_work += 0.5 * h * (tb(i, kDriverPower) + tb(prev, kDriverPower));
      cy.contact_work += 0.5 * h * (tb(i, kContactPower) + tb(prev, kContactPower));
      abs_driver += 0.5 * h * (std::abs(tb(i, kDriverPower)) + std::abs(tb(prev, kDriverPower)));
    }
    e_last = tb(i, kMechanicalEnergy);
    prev = i;
    have_prev = true;
  }
  cy.energy_change = e_last - e_first;
  if (abs_driver > 0.0)
    cy.energy_residual = std::abs(cy.energy_change - cy.driver_work - cy.contact_work) / abs_driver;
  return cy;
}

}  // namespace stickslip::mechanisms
