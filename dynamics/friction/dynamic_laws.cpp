#include "dynamics/friction/dynamic_laws.hpp"

#include <algorithm>
#include <numbers>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {
namespace {

using friction_detail::sgn;
using friction_detail::stribeckCoefficient;

// Unloaded contact: the bristles relax with the bristle time constant (dynamic_laws.hpp).
double relaxTime(const FrictionParameters& p) { return p.sigma1 > 0.0 ? p.sigma1 / p.sigma0 : 1e-3; }
double relaxRate(const FrictionParameters& p, double z) { return -z / relaxTime(p); }

// ż = v − (σ0 s/level) z while the friction level is positive, else the unloaded relaxation.
BristleCoefficients bristleRates(const FrictionParameters& p, double speed, double level) {
  BristleCoefficients b;
  if (level > 0.0) {
    b.drive = 1.0;
    b.decay = p.sigma0 * speed / level;
  } else {
    b.decay = 1.0 / relaxTime(p);
  }
  return b;
}

}  // namespace

// ---- Dahl ------------------------------------------------------------------------------------

void DahlFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                             std::span<double> rate) const {
  const double fc = p_.mu_k * in.normal_force;
  rate[0] = fc > 0.0 ? in.velocity - p_.sigma0 * std::abs(in.velocity) * s[0] / fc
                     : relaxRate(p_, s[0]);
}

bool DahlFriction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                  double& viscous) const {
  b[0] = bristleRates(p_, speed, p_.mu_k * n);
  b[0].stiffness = p_.sigma0;
  viscous = 0.0;
  return true;
}

// ---- LuGre -----------------------------------------------------------------------------------

double LuGreFriction::zRate(double v, double n, double z) const {
  const double g = stribeckCoefficient(p_, v) * n;
  return g > 0.0 ? v - p_.sigma0 * std::abs(v) * z / g : relaxRate(p_, z);
}

double LuGreFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double zdot = zRate(in.velocity, in.normal_force, s[0]);
  return -(p_.sigma0 * s[0] + p_.sigma1 * zdot + p_.sigma2 * in.velocity);
}

void LuGreFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                              std::span<double> rate) const {
  rate[0] = zRate(in.velocity, in.normal_force, s[0]);
}

double LuGreFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * n * sgn(v) + p_.sigma2 * v);
}

bool LuGreFriction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                   double& viscous) const {
  b[0] = bristleRates(p_, speed, stribeckCoefficient(p_, speed) * n);
  b[0].stiffness = p_.sigma0;
  b[0].damping = p_.sigma1;
  viscous = p_.sigma2;
  return true;
}

// ---- LuGre, Wojtyra's load scaling -----------------------------------------------------------

double LuGreWojtyraFriction::zRate(double v, double z) const {
  const double g = stribeckCoefficient(p_, v) * p_.reference_normal_force;
  return g > 0.0 ? v - p_.sigma0 * std::abs(v) * z / g : relaxRate(p_, z);
}

double LuGreWojtyraFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double zdot = zRate(in.velocity, s[0]);
  return -((p_.sigma0 * s[0] + p_.sigma1 * zdot) * in.normal_force / p_.reference_normal_force +
           p_.sigma2 * in.velocity);
}

void LuGreWojtyraFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                     std::span<double> rate) const {
  rate[0] = zRate(in.velocity, s[0]);
}

double LuGreWojtyraFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * n * sgn(v) + p_.sigma2 * v);
}

bool LuGreWojtyraFriction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                          double& viscous) const {
  b[0] = bristleRates(p_, speed, stribeckCoefficient(p_, speed) * p_.reference_normal_force);
  b[0].stiffness = p_.sigma0 * n / p_.reference_normal_force;
  b[0].damping = p_.sigma1 * n / p_.reference_normal_force;
  viscous = p_.sigma2;
  return true;
}

// ---- LuGre, nondimensional (Muvengei et al.) -------------------------------------------------

LuGreNondimensionalFriction::LuGreNondimensionalFriction(const FrictionParameters& p) : p_(p) {
  if (!(p.mu_k > 0.0))
    throw std::invalid_argument(
        "lugre-nondimensional: expected mu_k > 0 (the form divides by it), got mu_k = " +
        std::to_string(p.mu_k));
  const double per_load = p.stribeck_velocity / (p.reference_normal_force * p.mu_k);
  rate_scale_ = p.sigma0 * per_load;
  sigma1_bar_ = p.sigma1 * per_load;
  sigma2_bar_ = p.sigma2 * per_load;
}

double LuGreNondimensionalFriction::gBar(double vbar) const {
  return 1.0 + (p_.mu_s / p_.mu_k - 1.0) * std::exp(-std::pow(std::abs(vbar), p_.stribeck_exponent));
}

double LuGreNondimensionalFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double vbar = in.velocity / p_.stribeck_velocity;
  const double beta = std::abs(vbar) / gBar(vbar);
  const double mu_bar = (1.0 - beta * sigma1_bar_) * s[0] + (sigma1_bar_ + sigma2_bar_) * vbar;
  return -p_.mu_k * mu_bar * in.normal_force;
}

void LuGreNondimensionalFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                            std::span<double> rate) const {
  const double vbar = in.velocity / p_.stribeck_velocity;
  rate[0] = rate_scale_ * (vbar - std::abs(vbar) * s[0] / gBar(vbar));
}

double LuGreNondimensionalFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * sgn(v) + p_.sigma2 * v / p_.reference_normal_force) * n;
}

bool LuGreNondimensionalFriction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                                 double& viscous) const {
  const double sbar = speed / p_.stribeck_velocity, beta = sbar / gBar(sbar);
  b[0].drive = rate_scale_ / p_.stribeck_velocity;
  b[0].decay = rate_scale_ * beta;
  b[0].stiffness = p_.mu_k * n * (1.0 - beta * sigma1_bar_);
  b[0].damping = 0.0;
  viscous = p_.mu_k * n * (sigma1_bar_ + sigma2_bar_) / p_.stribeck_velocity;
  return true;
}

// ---- Elasto-plastic (Dupont) -----------------------------------------------------------------

double ElastoPlasticFriction::zRate(double v, double n, double z) const {
  const double g = stribeckCoefficient(p_, v) * n;
  if (!(g > 0.0)) return relaxRate(p_, z);
  const double z_max = g / p_.sigma0, z_ba = p_.breakaway_ratio * z_max, a = std::abs(z);
  double alpha = 0.0;
  if (v * z >= 0.0 && a > z_ba) {
    alpha = a >= z_max ? 1.0
                       : 0.5 * (std::sin(std::numbers::pi * (a - 0.5 * (z_max + z_ba)) /
                                         (z_max - z_ba)) +
                                1.0);
  }
  return v - alpha * p_.sigma0 * std::abs(v) * z / g;
}

double ElastoPlasticFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double zdot = zRate(in.velocity, in.normal_force, s[0]);
  return -(p_.sigma0 * s[0] + p_.sigma1 * zdot + p_.sigma2 * in.velocity);
}

void ElastoPlasticFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                      std::span<double> rate) const {
  rate[0] = zRate(in.velocity, in.normal_force, s[0]);
}

double ElastoPlasticFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * n * sgn(v) + p_.sigma2 * v);
}

// ---- Reset integrator ------------------------------------------------------------------------

double ResetIntegratorFriction::zRate(double v, double n, double z) const {
  const double z0 = p_.mu_k * n / p_.sigma0;
  return std::abs(z) >= z0 && z * v > 0.0 ? 0.0 : v;
}

double ResetIntegratorFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double z = s[0], z0 = p_.mu_k * in.normal_force / p_.sigma0;
  if (std::abs(z) >= z0) return -p_.sigma0 * z0 * sgn(z);
  return -(p_.sigma0 * (1.0 + p_.stiction_coefficient) * z +
           p_.sigma1 * zRate(in.velocity, in.normal_force, z));
}

void ResetIntegratorFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                        std::span<double> rate) const {
  rate[0] = zRate(in.velocity, in.normal_force, s[0]);
}

// ---- Bliman–Sorine ---------------------------------------------------------------------------

bool BlimanSorine1Friction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                           double& viscous) const {
  const double eps = p_.bliman_sorine_length;
  b[0] = {p_.mu_k * n / eps, speed / eps, 1.0, 0.0};
  viscous = 0.0;
  return true;
}

// ---- Bliman–Sorine, second order -------------------------------------------------------------

namespace {
// Peak over the path variable u = s/εf of φ(1 − e^{−u/η}) − (φ − μk)(1 − e^{−u}), per unit N.
double blimanSorinePeak(double phi, double mu_k, double eta) {
  if (!(phi > mu_k)) return phi;
  const double u = std::log(phi / (eta * (phi - mu_k))) / (1.0 / eta - 1.0);
  return phi * (1.0 - std::exp(-u / eta)) - (phi - mu_k) * (1.0 - std::exp(-u));
}
}  // namespace

BlimanSorine2Friction::BlimanSorine2Friction(const FrictionParameters& p) : p_(p), phi_(p.mu_k) {
  if (!(p.mu_s > p.mu_k)) return;  // no stiction peak asked for: the slow model vanishes
  // The peak grows monotonically with φ (its φ-derivative is e^{−u} − e^{−u/η} > 0).
  double lo = p.mu_k, hi = 2.0 * p.mu_s;
  while (blimanSorinePeak(hi, p.mu_k, p.bliman_sorine_eta) < p.mu_s) hi *= 2.0;
  for (int it = 0; it < 200 && hi - lo > 1e-15 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (blimanSorinePeak(mid, p.mu_k, p.bliman_sorine_eta) < p.mu_s ? lo : hi) = mid;
  }
  phi_ = 0.5 * (lo + hi);
}

void BlimanSorine2Friction::stateRate(const FrictionInput& in, std::span<const double> s,
                                      std::span<double> rate) const {
  const double v = in.velocity, av = std::abs(v), eps = p_.bliman_sorine_length;
  const double f1 = phi_ * in.normal_force, f2 = (phi_ - p_.mu_k) * in.normal_force;
  rate[0] = (f1 * v - av * s[0]) / (p_.bliman_sorine_eta * eps);
  rate[1] = (-f2 * v - av * s[1]) / eps;
}

bool BlimanSorine2Friction::linearBristles(double speed, double n, std::span<BristleCoefficients> b,
                                           double& viscous) const {
  const double eps = p_.bliman_sorine_length, fast = p_.bliman_sorine_eta * eps;
  b[0] = {phi_ * n / fast, speed / fast, 1.0, 0.0};
  b[1] = {-(phi_ - p_.mu_k) * n / eps, speed / eps, 1.0, 0.0};
  viscous = 0.0;
  return true;
}

// ---- Generalized Maxwell-slip ----------------------------------------------------------------

double GmsFriction::elementRate(int i, double v, double g, double z) const {
  constexpr double kBand = 0.01;  // ε of the slip band (dynamic_laws.hpp)
  const double k = p_.sigma0 / kElements;
  const double delta = kShare[std::size_t(i)] * g / k;
  if (z * v > 0.0 && std::abs(z) >= (1.0 - kBand) * delta)
    return p_.gms_attraction * (sgn(v) - z / delta);
  return v;
}

double GmsFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double v = in.velocity, g = stribeckCoefficient(p_, v) * in.normal_force;
  const double k = p_.sigma0 / kElements, c = p_.sigma1 / kElements;
  double r = p_.sigma2 * v;
  for (int i = 0; i < kElements; ++i) {
    const double z = s[std::size_t(i)];
    r += k * z + c * (g > 0.0 ? elementRate(i, v, g, z) : relaxRate(p_, z));
  }
  return -r;
}

void GmsFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                            std::span<double> rate) const {
  const double v = in.velocity, g = stribeckCoefficient(p_, v) * in.normal_force;
  for (int i = 0; i < kElements; ++i) {
    const auto j = std::size_t(i);
    rate[j] = g > 0.0 ? elementRate(i, v, g, s[j]) : relaxRate(p_, s[j]);
  }
}

double GmsFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * n * sgn(v) + p_.sigma2 * v);
}

// ---- Gonthier et al. -------------------------------------------------------------------------

GonthierFriction::GonthierFriction(const FrictionParameters& p) : p_(p) {
  if (!(p.sigma1 > 0.0))
    throw std::invalid_argument("gonthier: expected sigma1 > 0 (the state equation divides by "
                                "it), got sigma1 = " +
                                std::to_string(p.sigma1));
}

double GonthierFriction::slipFactor(double v) const {
  const double r = v / p_.stribeck_velocity;
  return std::exp(-r * r);
}

double GonthierFriction::direction(double v) const {
  const double v_eps = 0.01 * p_.stribeck_velocity;
  if (std::abs(v) >= v_eps) return sgn(v);
  const double r = v / v_eps;
  return r * (1.5 - 0.5 * r * r);
}

double GonthierFriction::zRate(double v, double n, double z) const {
  const double s = slipFactor(v);
  return s * v + (1.0 - s) * (p_.mu_k * n * direction(v) - p_.sigma0 * z) / p_.sigma1;
}

double GonthierFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double n = in.normal_force;
  const double f_br = p_.sigma0 * s[0] + p_.sigma1 * zRate(in.velocity, n, s[0]);
  const double f_max = (p_.mu_k + (p_.mu_s - p_.mu_k) * s[1]) * n;
  return -(std::clamp(f_br, -f_max, f_max) + p_.sigma2 * in.velocity);
}

void GonthierFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                 std::span<double> rate) const {
  rate[0] = zRate(in.velocity, in.normal_force, s[0]);
  const double ds = slipFactor(in.velocity) - s[1];
  rate[1] = ds >= 0.0 ? ds / p_.dwell_time : ds * p_.sigma0 / p_.sigma1;
}

double GonthierFriction::steadyForce(double v, double n) const {
  const double s = slipFactor(v);
  const double f_max = (p_.mu_k + (p_.mu_s - p_.mu_k) * s) * n;
  // At |v| ≪ vs, 1 − s underflows and the bristle force is unbounded: the cap decides.
  const double f_br = s < 1.0 ? p_.mu_k * n * direction(v) + p_.sigma1 * s * v / (1.0 - s)
                              : f_max * sgn(v);
  return -(std::clamp(f_br, -f_max, f_max) + p_.sigma2 * v);
}

// ---- Liang et al. bristle --------------------------------------------------------------------

double LiangFriction::zRate(double v, double n, double z) const {
  const double mu = std::abs(v) > p_.threshold_velocity ? p_.mu_k : p_.mu_s;
  const double z_max = mu * n / p_.bristle_stiffness;
  if (std::abs(z) < z_max || z * v < 0.0) return v;
  return -(z - z_max * sgn(z)) * p_.bristle_stiffness / p_.bristle_damping;
}

double LiangFriction::force(const FrictionInput& in, std::span<const double> s) const {
  return -(p_.bristle_stiffness * s[0] +
           p_.bristle_damping * zRate(in.velocity, in.normal_force, s[0]));
}

void LiangFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                              std::span<double> rate) const {
  rate[0] = zRate(in.velocity, in.normal_force, s[0]);
}

double LiangFriction::steadyForce(double v, double n) const {
  const double mu = std::abs(v) > p_.threshold_velocity ? p_.mu_k : p_.mu_s;
  return -mu * n * sgn(v);
}

// ---- Harnoy–Friedland ------------------------------------------------------------------------

namespace {
/// The short bearing's load per unit κ |v| at eccentricity ε (Ocvirk), increasing in ε, and its
/// derivative.
double shortBearingLoad(double eps, double* slope = nullptr) {
  const double c = 1.0 - eps * eps, pi2 = std::numbers::pi * std::numbers::pi;
  const double q = pi2 * c + 16.0 * eps * eps, root = std::sqrt(q);
  if (slope) *slope = root / (c * c) + eps * eps * (32.0 - 2.0 * pi2) / (2.0 * root * c * c) + 4.0 * eps * eps * root / (c * c * c);
  return eps * root / (c * c);
}
}  // namespace

HarnoyFriedlandFriction::HarnoyFriedlandFriction(const FrictionParameters& p)
    : p_(p), film_(p.reference_normal_force / (p.stribeck_velocity * shortBearingLoad(p.transition_eccentricity))) {}

double HarnoyFriedlandFriction::steadyEccentricity(double v, double n, double guess) const {
  if (n == 0.0) return 0.0;
  const double target = n / (film_ * std::abs(v));  // +inf at rest
  if (!(target < shortBearingLoad(kMaxEccentricity))) return kMaxEccentricity;
  // Newton on the increasing h, kept inside the bracket that shrinks around the root.
  double lo = 0.0, hi = kMaxEccentricity, eps = guess > 0.0 && guess < hi ? guess : 0.5 * hi;
  for (int i = 0; i < 100; ++i) {
    double slope = 0.0;
    const double r = shortBearingLoad(eps, &slope) - target;
    if (std::abs(r) <= 1e-14 * target) break;
    (r < 0.0 ? lo : hi) = eps;
    const double next = eps - r / slope;
    eps = next > lo && next < hi ? next : 0.5 * (lo + hi);
    if (hi - lo <= 1e-15) break;
  }
  return eps;
}

namespace {
/// The two terms of eq. 3.43 at eccentricity ε: the asperities' force and the film's per unit v.
struct FilmForces {
  double asperity, viscous;
};
FilmForces filmForces(const FrictionParameters& p, double eps, double n) {
  eps = std::clamp(eps, 0.0, kMaxEccentricity);
  const double lift = std::max(eps - p.transition_eccentricity, 0.0) / (kMaxEccentricity - p.transition_eccentricity);
  return {p.mu_s * n * lift * lift, p.viscous / std::sqrt(1.0 - eps * eps)};
}
}  // namespace

double HarnoyFriedlandFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const FilmForces f = filmForces(p_, s[0], in.normal_force);
  if (in.velocity == 0.0) return friction_detail::holdingForce(in.applied_force, f.asperity);
  return -(f.asperity * sgn(in.velocity) + f.viscous * in.velocity);
}

double HarnoyFriedlandFriction::steadyForce(double v, double n) const {
  const FilmForces f = filmForces(p_, steadyEccentricity(v, n), n);
  return -(f.asperity * sgn(v) + f.viscous * v);
}

}  // namespace stickslip::dynamics
