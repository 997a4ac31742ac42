#include "dynamics/contact/normal_law.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {
namespace {

[[noreturn]] void fail(std::string_view who, const std::string& what) {
  throw std::invalid_argument(std::string(who) + ": " + what);
}

void requireFinite(std::string_view who, const char* name, double x) {
  if (!std::isfinite(x)) {
    std::ostringstream os;
    os << "expected a finite " << name << ", got " << x;
    fail(who, os.str());
  }
}

void requirePositive(std::string_view who, const char* name, double x) {
  requireFinite(who, name, x);
  if (!(x > 0.0)) {
    std::ostringstream os;
    os << "expected " << name << " > 0, got " << x;
    fail(who, os.str());
  }
}

void validateStiffnessAndExponent(std::string_view who, double k, double n) {
  requirePositive(who, "stiffness K", k);
  requireFinite(who, "exponent n", n);
  if (n < 1.0) {
    std::ostringstream os;
    os << "expected exponent n ≥ 1, got " << n;
    fail(who, os.str());
  }
}

/// K δⁿ for δ > 0, else 0.
double elastic(double k, double n, double delta) {
  if (!(delta > 0.0)) return 0.0;
  // n = 1.5 is the common case, and δ·√δ costs far less than pow.
  return n == 1.5 ? k * delta * std::sqrt(delta) : k * std::pow(delta, n);
}

/// d(K δⁿ)/dδ = n K δⁿ⁻¹ for δ > 0, else 0 (the one-sided value at δ = 0 when n = 1).
double elasticSlope(double k, double n, double delta) {
  if (!(delta > 0.0)) return 0.0;
  if (n == 1.5) return 1.5 * k * std::sqrt(delta);
  return n * k * std::pow(delta, n - 1.0);
}

/// max(0, K δⁿ (1 + a δ̇)) with a = χ/K, the form shared by all dissipative laws; writing it
/// with a keeps the bracket free of K's magnitude.
double dampedForce(double k, double n, double a, double delta, double delta_rate) {
  const double kd = elastic(k, n, delta);
  if (kd == 0.0) return 0.0;
  return std::max(0.0, kd * (1.0 + a * delta_rate));
}

/// Partial derivatives of dampedForce; both 0 where the clamp is active (bracket ≤ 0).
NormalForceDerivatives dampedDerivatives(double k, double n, double a, double delta,
                                         double delta_rate) {
  const double bracket = 1.0 + a * delta_rate;
  if (!(delta > 0.0) || !(bracket > 0.0)) return {0.0, 0.0};
  return {elasticSlope(k, n, delta) * bracket, elastic(k, n, delta) * a};
}

}  // namespace

double ContactMaterial::compliance() const {
  return (1.0 - poisson_ratio * poisson_ratio) / young_modulus;
}

void ContactMaterial::validate(std::string_view who) const {
  requirePositive(who, "Young's modulus E", young_modulus);
  requireFinite(who, "Poisson ratio nu", poisson_ratio);
  if (!(poisson_ratio > -1.0 && poisson_ratio <= 0.5)) {
    std::ostringstream os;
    os << "expected Poisson ratio nu in (-1, 0.5], got " << poisson_ratio;
    fail(who, os.str());
  }
}

double hertzStiffness(const ContactMaterial& a, const ContactMaterial& b, double effective_radius) {
  constexpr std::string_view who = "dynamics::hertzStiffness";
  a.validate(who);
  b.validate(who);
  requirePositive(who, "effective radius R*", effective_radius);
  return 4.0 / (3.0 * (a.compliance() + b.compliance())) * std::sqrt(effective_radius);
}

double effectiveRadiusExternal(double r1, double r2) {
  constexpr std::string_view who = "dynamics::effectiveRadiusExternal";
  requirePositive(who, "radius R1", r1);
  requirePositive(who, "radius R2", r2);
  return r1 * r2 / (r1 + r2);
}

double effectiveRadiusInternal(double bearing_radius, double journal_radius) {
  constexpr std::string_view who = "dynamics::effectiveRadiusInternal";
  requirePositive(who, "journal radius R_J", journal_radius);
  requireFinite(who, "bearing radius R_B", bearing_radius);
  if (!(bearing_radius > journal_radius)) {
    std::ostringstream os;
    os << "expected bearing radius R_B > journal radius R_J, got R_B = " << bearing_radius
       << ", R_J = " << journal_radius;
    fail(who, os.str());
  }
  return bearing_radius * journal_radius / (bearing_radius - journal_radius);
}

double journalBearingStiffness(double bearing_radius, double journal_radius,
                               const ContactMaterial& bearing, const ContactMaterial& journal) {
  return hertzStiffness(bearing, journal, effectiveRadiusInternal(bearing_radius, journal_radius));
}

void HertzLaw::validate(std::string_view who) const {
  validateStiffnessAndExponent(who, stiffness, exponent);
}

double HertzLaw::force(double penetration, double /*penetration_rate*/,
                       double /*impact_velocity*/) const {
  return elastic(stiffness, exponent, penetration);
}

NormalForceDerivatives HertzLaw::derivatives(double penetration, double /*penetration_rate*/,
                                             double /*impact_velocity*/) const {
  return {elasticSlope(stiffness, exponent, penetration), 0.0};
}

void DissipativeHertzParameters::validate(std::string_view who) const {
  validateStiffnessAndExponent(who, stiffness, exponent);
  requireFinite(who, "restitution c_e", restitution);
  if (!(restitution >= 0.0 && restitution <= 1.0)) {
    std::ostringstream os;
    os << "expected restitution c_e in [0, 1], got " << restitution;
    fail(who, os.str());
  }
  requirePositive(who, "min_impact_velocity", min_impact_velocity);
}

double HuntCrossleyLaw::hysteresisFactor(double impact_velocity) const {
  return stiffness * dampingRatio(impact_velocity);
}

double HuntCrossleyLaw::dampingRatio(double impact_velocity) const {
  return 1.5 * (1.0 - restitution) / std::max(impact_velocity, min_impact_velocity);
}

double HuntCrossleyLaw::force(double penetration, double penetration_rate,
                              double impact_velocity) const {
  return dampedForce(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                     penetration_rate);
}

NormalForceDerivatives HuntCrossleyLaw::derivatives(double penetration, double penetration_rate,
                                                    double impact_velocity) const {
  return dampedDerivatives(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                           penetration_rate);
}

double LankaraniNikraveshLaw::hysteresisFactor(double impact_velocity) const {
  return stiffness * dampingRatio(impact_velocity);
}

double LankaraniNikraveshLaw::dampingRatio(double impact_velocity) const {
  return 0.75 * (1.0 - restitution * restitution) / std::max(impact_velocity, min_impact_velocity);
}

double LankaraniNikraveshLaw::force(double penetration, double penetration_rate,
                                    double impact_velocity) const {
  return dampedForce(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                     penetration_rate);
}

NormalForceDerivatives LankaraniNikraveshLaw::derivatives(double penetration,
                                                          double penetration_rate,
                                                          double impact_velocity) const {
  return dampedDerivatives(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                           penetration_rate);
}

void FloresLaw::validate(std::string_view who) const {
  DissipativeHertzParameters::validate(who);
  if (!(restitution > 0.0)) fail(who, "expected restitution c_e in (0, 1], got 0");
}

double FloresLaw::hysteresisFactor(double impact_velocity) const {
  return stiffness * dampingRatio(impact_velocity);
}

double FloresLaw::dampingRatio(double impact_velocity) const {
  return 1.6 * (1.0 - restitution) / (restitution * std::max(impact_velocity, min_impact_velocity));
}

double FloresLaw::force(double penetration, double penetration_rate, double impact_velocity) const {
  return dampedForce(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                     penetration_rate);
}

NormalForceDerivatives FloresLaw::derivatives(double penetration, double penetration_rate,
                                              double impact_velocity) const {
  return dampedDerivatives(stiffness, exponent, dampingRatio(impact_velocity), penetration,
                           penetration_rate);
}

double normalForce(const NormalLaw& law, double penetration, double penetration_rate,
                   double impact_velocity) {
  return std::visit(
      [&](const auto& l) { return l.force(penetration, penetration_rate, impact_velocity); }, law);
}

double normalLawPotential(const NormalLaw& law, double penetration) {
  if (penetration <= 0.0) return 0.0;
  return std::visit(
      [&](const auto& l) {
        return l.stiffness * std::pow(penetration, l.exponent + 1.0) / (l.exponent + 1.0);
      },
      law);
}

double normalLawElasticForce(const NormalLaw& law, double penetration) {
  if (penetration <= 0.0) return 0.0;
  return std::visit([&](const auto& l) { return l.stiffness * std::pow(penetration, l.exponent); }, law);
}

}  // namespace stickslip::dynamics
