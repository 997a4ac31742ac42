#include "dynamics/friction/switching_laws.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dynamics/friction/static_laws.hpp"

namespace stickslip::dynamics {
namespace {

using friction_detail::sgn;
using friction_detail::stribeckCoefficient;

}  // namespace

// ---- Armstrong's seven parameters --------------------------------------------------------------

namespace {
enum ArmstrongState { kMode, kDisplacement, kLaggedSpeed, kAge, kLastLevel, kArmed };
}

double ArmstrongFriction::staticLevel(double n, std::span<const double> s) const {
  return n * (s[kLastLevel] + (p_.mu_s - s[kLastLevel]) * s[kAge]);
}

double ArmstrongFriction::slideLevel(double n, double lagged_speed, std::span<const double> s) const {
  const double fc = p_.mu_k * n, r = lagged_speed / p_.stribeck_velocity;
  return fc + (staticLevel(n, s) - fc) / (1.0 + r * r);
}

void ArmstrongFriction::initialState(const FrictionInput& in, std::span<double> s) const {
  const bool stuck = std::abs(in.velocity) < p_.threshold_velocity;
  s[kMode] = stuck ? 0.0 : sgn(in.velocity);
  s[kDisplacement] = 0.0;
  s[kLaggedSpeed] = std::abs(in.velocity);
  s[kAge] = 1.0;  // fully aged: F_S = Fs
  s[kLastLevel] = p_.mu_s;
  s[kArmed] = stuck ? 0.0 : 1.0;
}

double ArmstrongFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double v = in.velocity, n = in.normal_force;
  if (n == 0.0) return -p_.viscous * v;  // unloaded: no junction holds
  if (s[kMode] != 0.0) return -(slideLevel(n, s[kLaggedSpeed], s) * s[kMode] + p_.viscous * v);
  // Past the break-away the spring holds F_S until settle() lets it slide: the force stays
  // continuous in the load, which a joint's reaction loop needs.
  const double limit = staticLevel(n, s);
  return -(std::clamp(p_.sigma0 * s[kDisplacement], -limit, limit) + p_.sigma1 * v);
}

void ArmstrongFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                  std::span<double> rate) const {
  std::fill(rate.begin(), rate.end(), 0.0);
  const bool stuck = s[kMode] == 0.0;
  rate[kDisplacement] = stuck ? in.velocity : 0.0;
  rate[kLaggedSpeed] = (std::abs(in.velocity) - s[kLaggedSpeed]) / p_.lag_time;
  const double young = 1.0 - s[kAge];
  rate[kAge] = stuck ? young * young / p_.dwell_time : 0.0;
}

void ArmstrongFriction::settle(const FrictionInput& in, std::span<double> s) const {
  const double v = in.velocity, n = in.normal_force, vd = p_.threshold_velocity;
  if (s[kMode] == 0.0) {
    const double spring = p_.sigma0 * s[kDisplacement];
    if (n == 0.0) {
      s[kDisplacement] = 0.0;  // unloaded: the junction lets go
    } else if (std::abs(spring) >= staticLevel(n, s) && (spring != 0.0 || v != 0.0)) {
      s[kMode] = spring != 0.0 ? sgn(spring) : sgn(v);
      s[kDisplacement] = 0.0;
      s[kLaggedSpeed] = 0.0;
      s[kArmed] = std::abs(v) >= vd ? 1.0 : 0.0;
    }
    return;
  }
  if (std::abs(v) >= vd) s[kArmed] = 1.0;
  if (s[kMode] * v > 0.0 && !(s[kArmed] != 0.0 && std::abs(v) < vd)) return;
  // The slide ends: the stick starts from the Stribeck level it had, unaged.
  s[kLastLevel] = n > 0.0 ? slideLevel(n, s[kLaggedSpeed], s) / n : p_.mu_k;
  s[kMode] = s[kDisplacement] = s[kAge] = s[kArmed] = 0.0;
}

double ArmstrongFriction::steadyForce(double v, double n) const {
  const double r = v / p_.stribeck_velocity, fc = p_.mu_k * n, fs = p_.mu_s * n;
  return -((fc + (fs - fc) / (1.0 + r * r)) * sgn(v) + p_.viscous * v);
}

// ---- Wojewoda et al. ---------------------------------------------------------------------------

double WojewodaFriction::shape(double speed) const {
  return std::exp(-std::pow(speed / p_.stribeck_velocity, p_.stribeck_exponent));
}

double WojewodaFriction::risingLimit(double speed, double n) const {
  const double fc = p_.mu_k * n;
  const double peak = n * (p_.mu_s + p_.breakaway_rise / (1.0 + speed / p_.stribeck_velocity));
  return fc + (peak - fc) * shape(speed);
}

double WojewodaFriction::limit(const FrictionInput& in, double filtered_velocity) const {
  const double v = in.velocity, n = in.normal_force, speed = std::abs(v);
  // Falling: v v̇ < 0 with v̇ = (v − w)/τL above round-off (w settles a few ulps short of a
  // steady v) and a speed beyond vd, where the sign of v̇ means a slide that slows.
  const double slowing = v - filtered_velocity;
  const bool falling = speed >= p_.threshold_velocity && v * slowing < 0.0 &&
                       std::abs(slowing) > 1e-3 * p_.threshold_velocity;
  if (!falling) return risingLimit(speed, n);
  const double fc = p_.mu_k * n, fs = p_.mu_s * n;
  return std::max(fc - (fs - fc) * shape(speed), 0.0);
}

void WojewodaFriction::initialState(const FrictionInput& in, std::span<double> s) const {
  s[0] = in.velocity;  // at rest the junction is unstrained; sliding, it has yielded
  const bool slides = std::abs(in.velocity) >= p_.threshold_velocity;
  s[1] = slides ? sgn(in.velocity) * risingLimit(std::abs(in.velocity), in.normal_force) / p_.sigma0 : 0.0;
}

double WojewodaFriction::force(const FrictionInput& in, std::span<const double> s) const {
  const double lim = limit(in, s[0]);
  return -std::clamp(p_.sigma0 * s[1], -lim, lim);
}

void WojewodaFriction::stateRate(const FrictionInput& in, std::span<const double> s,
                                 std::span<double> rate) const {
  const double v = in.velocity, z = s[1];
  rate[0] = (v - s[0]) / p_.lag_time;
  const bool slides = p_.sigma0 * std::abs(z) >= limit(in, s[0]) && z * v > 0.0;
  rate[1] = slides ? 0.0 : v;
}

void WojewodaFriction::settle(const FrictionInput& in, std::span<double> s) const {
  const double bound = limit(in, s[0]) / p_.sigma0;
  s[1] = std::clamp(s[1], -bound, bound);
}

double WojewodaFriction::steadyForce(double v, double n) const {
  return -risingLimit(std::abs(v), n) * sgn(v);
}

// ---- the bristle model of Haessig & Friedland --------------------------------------------------

namespace {
constexpr double kGoldenFraction = 0.6180339887498949;  // (√5 − 1)/2
}

BristleFriction::BristleFriction(const FrictionParameters& p) : p_(p) {
  const double ratio = p.mu_s > 0.0 ? p.mu_k / p.mu_s : 0.0;
  if (!(ratio >= 0.3 && ratio <= 0.9)) {
    std::ostringstream os;
    os.precision(17);
    os << "makeFrictionLaw(bristle): expected 0.3 mu_s <= mu_k <= 0.9 mu_s (a bond's force saws between its "
          "re-forming and breaking strains, so the law slides below its break-away), got mu_k = "
       << p.mu_k << ", mu_s = " << p.mu_s;
    throw std::invalid_argument(os.str());
  }
  mean_reset_ = (24.0 * ratio - 11.0) / 13.0;
  spread_ = 0.5 * (1.0 - mean_reset_);
}

void BristleFriction::initialState(const FrictionInput&, std::span<double> s) const {
  std::fill(s.begin(), s.end(), 0.0);
}

double BristleFriction::broken(double n, std::span<const double> s, std::span<double> strain) const {
  const double delta = p_.mu_s * n / p_.sigma0;
  double count = s[kBonds];
  for (int i = 0; i < kBonds; ++i) {
    double e = s[std::size_t(i)];
    if (delta == 0.0) e = 0.0;  // unloaded: every bond lets go
    for (int guard = 0; std::abs(e) > delta; ++guard) {
      const double fraction = count * kGoldenFraction - std::floor(count * kGoldenFraction);
      const double rho = mean_reset_ + spread_ * (2.0 * fraction - 1.0);
      count += 1.0;
      // Passed δ by |e| − δ: re-formed at ρ δ, it has since taken that much more strain. (A
      // load that drops a hundredfold in one step would loop long: re-form it afresh.)
      e = guard < 100 ? sgn(e) * (rho * delta + std::abs(e) - delta) : sgn(e) * rho * delta;
    }
    strain[std::size_t(i)] = e;
  }
  return count;
}

double BristleFriction::force(const FrictionInput& in, std::span<const double> s) const {
  // A bond strained past δ holds δ until settle() breaks it: the force stays continuous in
  // the load, which a joint's reaction loop needs.
  const double delta = p_.mu_s * in.normal_force / p_.sigma0;
  double sum = 0.0;
  for (int i = 0; i < kBonds; ++i) sum += std::clamp(s[std::size_t(i)], -delta, delta);
  return -p_.sigma0 / kBonds * sum;
}

void BristleFriction::stateRate(const FrictionInput& in, std::span<const double>, std::span<double> rate) const {
  std::fill(rate.begin(), rate.end() - 1, in.velocity);
  rate[kBonds] = 0.0;
}

void BristleFriction::settle(const FrictionInput& in, std::span<double> s) const {
  s[kBonds] = broken(in.normal_force, s, s.first(kBonds));
}

double BristleFriction::steadyForce(double v, double n) const { return -p_.mu_k * n * sgn(v); }

// ---- Leuven ------------------------------------------------------------------------------------

namespace {
enum LeuvenState { kDeflection, kDirection, kDepth, kPoints };
/// Reversal point j (1-based) of the stack: its deflection and hysteresis force.
double pointZ(std::span<const double> s, int j) { return s[std::size_t(kPoints + 2 * (j - 1))]; }
double pointF(std::span<const double> s, int j) { return s[std::size_t(kPoints + 2 * (j - 1) + 1)]; }
}  // namespace

int LeuvenFriction::openDepth(std::span<const double> s) const {
  const double z = s[kDeflection];
  int depth = int(s[kDepth]);
  while (depth > 0) {
    const double from = pointZ(s, depth);
    const double target = depth >= 2 ? pointZ(s, depth - 1) : -pointZ(s, 1);
    const double dir = sgn(target - from);
    if (dir == 0.0 || (z - target) * dir < 0.0) break;
    depth = depth >= 2 ? depth - 2 : 0;  // the inner loop closed: back on the outer curve
  }
  return depth;
}

double LeuvenFriction::hysteresisForce(double n, std::span<const double> s) const {
  const double fs = p_.mu_s * n;
  if (fs == 0.0) return 0.0;
  const auto virgin = [&](double z) { return 2.0 * fs * std::tanh(p_.sigma0 * z / (2.0 * fs)); };
  const int depth = openDepth(s);
  if (depth == 0) return virgin(s[kDeflection]);
  return pointF(s, depth) + 2.0 * virgin(0.5 * (s[kDeflection] - pointZ(s, depth)));
}

double LeuvenFriction::zRate(const FrictionInput& in, double z, double hysteresis) const {
  const double v = in.velocity, g = stribeckCoefficient(p_, v) * in.normal_force;
  if (!(g > 0.0)) {  // unloaded: relax with the bristle time constant, as LuGre's
    const double tau = p_.sigma1 > 0.0 ? p_.sigma1 / p_.sigma0 : 1e-3;
    return -z / tau;
  }
  const double r = hysteresis * sgn(v) / g;
  return v * (1.0 - sgn(r) * std::pow(std::abs(r), p_.transition_exponent));
}

void LeuvenFriction::initialState(const FrictionInput& in, std::span<double> s) const {
  std::fill(s.begin(), s.end(), 0.0);
  s[kDirection] = sgn(in.velocity);
}

double LeuvenFriction::force(const FrictionInput& in, std::span<const double> s) const {
  if (in.normal_force == 0.0) return -p_.sigma2 * in.velocity;  // unloaded: the viscous term
  const double fh = hysteresisForce(in.normal_force, s);
  return -(fh + p_.sigma1 * zRate(in, s[kDeflection], fh) + p_.sigma2 * in.velocity);
}

void LeuvenFriction::stateRate(const FrictionInput& in, std::span<const double> s, std::span<double> rate) const {
  std::fill(rate.begin(), rate.end(), 0.0);
  rate[kDeflection] = zRate(in, s[kDeflection], hysteresisForce(in.normal_force, s));
}

void LeuvenFriction::settle(const FrictionInput& in, std::span<double> s) const {
  const double v = in.velocity;
  if (in.normal_force == 0.0) {
    s[kDepth] = 0.0;  // unloaded: the junctions and their memory are gone
    s[kDirection] = sgn(v);
    return;
  }
  int depth = openDepth(s);
  s[kDepth] = depth;
  if (v == 0.0) return;
  if (s[kDirection] != 0.0 && sgn(v) != s[kDirection]) {
    const double fh = hysteresisForce(in.normal_force, s);
    if (depth == kMemory) {  // forget the two points below the top (file comment)
      s[std::size_t(kPoints + 2 * (depth - 3))] = pointZ(s, depth);
      s[std::size_t(kPoints + 2 * (depth - 3) + 1)] = pointF(s, depth);
      depth -= 2;
    }
    ++depth;
    s[std::size_t(kPoints + 2 * (depth - 1))] = s[kDeflection];
    s[std::size_t(kPoints + 2 * (depth - 1) + 1)] = fh;
    s[kDepth] = depth;
  }
  s[kDirection] = sgn(v);
}

double LeuvenFriction::steadyForce(double v, double n) const {
  return -(stribeckCoefficient(p_, v) * n * sgn(v) + p_.sigma2 * v);
}

}  // namespace stickslip::dynamics
