#pragma once
/// \file Static friction laws of the catalogue: F depends on v, N (and Fₑ) only.
///
/// Sources: Marques (2015) thesis ch. 3.2, eq. numbers below; Brown & McPhee (2016) as
/// written in Marques, Flores, Claro & Lankarani (2018) eq. (6). Notation: Fc = μk N,
/// Fs = μs N, sgn(0) = 0. Each law is written as the magnitude R(|v|) the thesis gives and
/// returned as F = −R sgn(v) (opposing sliding). The set-valued laws resolve v = 0 exactly
/// (which only happens when a simulation starts or is held at rest) by
/// F = −clamp(Fₑ, −F_lim, F_lim). All static laws but karnopp, switch and awrejcewicz (whose
/// force depends on Fₑ inside their band) give ∂F/∂v through velocityDerivative().

#include <algorithm>
#include <cmath>
#include <string_view>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"

namespace stickslip::dynamics {
namespace friction_detail {
inline double sgn(double x) { return double(x > 0.0) - double(x < 0.0); }
/// The force that holds a body at rest against Fₑ, saturated at ±limit.
inline double holdingForce(double applied, double limit) {
  return -std::clamp(applied, -limit, limit);
}
/// Bo–Pavelescu Stribeck curve Fc + (Fs − Fc) exp(−(|v|/vs)^δ) per unit normal force.
inline double stribeckCoefficient(const FrictionParameters& p, double v) {
  return p.mu_k + (p.mu_s - p.mu_k) *
                      std::exp(-std::pow(std::abs(v) / p.stribeck_velocity, p.stribeck_exponent));
}
}  // namespace friction_detail

/// `coulomb` (thesis eq. 3.1): F = −Fc sgn(v) for v ≠ 0; at v = 0 F = −clamp(Fₑ, ±Fc).
/// Parameter: μk [-].
class CoulombFriction final : public FrictionLaw {
 public:
  explicit CoulombFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "coulomb"; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double fc = p_.mu_k * in.normal_force;
    if (in.velocity == 0.0) return friction_detail::holdingForce(in.applied_force, fc);
    return -fc * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput&, std::span<const double>) const override {
    return 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `coulomb-viscous` (eq. 3.6): F = −(Fc sgn(v) + Fv v) for v ≠ 0; at v = 0 −clamp(Fₑ, ±Fc).
/// Parameters: μk [-], Fv = `viscous` [N·s/m].
class CoulombViscousFriction final : public FrictionLaw {
 public:
  explicit CoulombViscousFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "coulomb-viscous"; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double fc = p_.mu_k * in.normal_force;
    if (in.velocity == 0.0) return friction_detail::holdingForce(in.applied_force, fc);
    return -fc * friction_detail::sgn(in.velocity) - p_.viscous * in.velocity;
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput&, std::span<const double>) const override {
    return -p_.viscous;
  }

 private:
  FrictionParameters p_;
};

/// `coulomb-stiction` (eq. 3.4): F = −Fc sgn(v) for v ≠ 0; at v = 0 F = −clamp(Fₑ, ±Fs).
/// Parameters: μs, μk [-].
class CoulombStictionFriction final : public FrictionLaw {
 public:
  explicit CoulombStictionFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "coulomb-stiction"; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    if (in.velocity == 0.0)
      return friction_detail::holdingForce(in.applied_force, p_.mu_s * in.normal_force);
    return -p_.mu_k * in.normal_force * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput&, std::span<const double>) const override {
    return 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `stribeck`, Bo & Pavelescu (1982) (eq. 3.10):
///   F = −(Fc + (Fs − Fc) exp(−(|v|/vs)^δσ)) sgn(v) − Fv v  for v ≠ 0;  −clamp(Fₑ, ±Fs) at v = 0.
/// Parameters: μs, μk [-], vs [m/s], δσ [-], Fv [N·s/m].
class StribeckFriction final : public FrictionLaw {
 public:
  explicit StribeckFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "stribeck"; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double v = in.velocity;
    if (v == 0.0) return friction_detail::holdingForce(in.applied_force, p_.mu_s * in.normal_force);
    return -friction_detail::stribeckCoefficient(p_, v) * in.normal_force * friction_detail::sgn(v) -
           p_.viscous * v;
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double r = std::abs(in.velocity) / p_.stribeck_velocity, d = p_.stribeck_exponent;
    const double dmu = -(p_.mu_s - p_.mu_k) * d / p_.stribeck_velocity * std::pow(r, d - 1.0) *
                       std::exp(-std::pow(r, d));
    return -dmu * in.normal_force - p_.viscous;
  }

 private:
  FrictionParameters p_;
};

/// `hess-soom`, Hess & Soom (1990) (eq. 3.9):
///   F = −(Fc + (Fs − Fc)/(1 + (|v|/vs)²)) sgn(v) − Fv v  for v ≠ 0;  −clamp(Fₑ, ±Fs) at v = 0.
/// Parameters: μs, μk [-], vs [m/s], Fv [N·s/m].
class HessSoomFriction final : public FrictionLaw {
 public:
  explicit HessSoomFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "hess-soom"; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double v = in.velocity;
    if (v == 0.0) return friction_detail::holdingForce(in.applied_force, p_.mu_s * in.normal_force);
    const double r = v / p_.stribeck_velocity;
    const double mu = p_.mu_k + (p_.mu_s - p_.mu_k) / (1.0 + r * r);
    return -mu * in.normal_force * friction_detail::sgn(v) - p_.viscous * v;
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double vs = p_.stribeck_velocity, r = std::abs(in.velocity) / vs, q = 1.0 + r * r;
    const double dmu = -(p_.mu_s - p_.mu_k) * 2.0 * r / (vs * q * q);
    return -dmu * in.normal_force - p_.viscous;
  }

 private:
  FrictionParameters p_;
};

/// `karnopp`, Karnopp (1985) (eq. 3.11) with Coulomb sliding:
///   F = −Fc sgn(v) for |v| > Dv;  F = −clamp(Fₑ, ±Fs) for |v| ≤ Dv.
/// Parameters: μs, μk [-], Dv = `karnopp_velocity` [m/s].
class KarnoppFriction final : public FrictionLaw {
 public:
  explicit KarnoppFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "karnopp"; }
  bool usesAppliedForce() const override { return true; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    if (std::abs(in.velocity) <= p_.karnopp_velocity)
      return friction_detail::holdingForce(in.applied_force, p_.mu_s * in.normal_force);
    return -p_.mu_k * in.normal_force * friction_detail::sgn(in.velocity);
  }

 private:
  FrictionParameters p_;
};

/// `switch`, Leine, van Campen, de Kraker & van den Steen (1998) (thesis §3.2.6):
///   slip      |v| > Dv:                  F = −Fc sgn(v)
///   stick     |v| ≤ Dv and |Fₑ| ≤ Fs:    F = −Fₑ − c v   (drives v to 0: v̇ = −v √(k/m), eq. 3.12)
///   transition |v| ≤ Dv and |Fₑ| > Fs:   F = −Fs sgn(Fₑ)
/// The thesis states the stick phase as an acceleration; as a force law it needs the damping
/// c = m √(k/m) = `switch_damping` [N·s/m] of the body it acts on (ours: the belt's √2).
/// Parameters: μs, μk [-], Dv = `karnopp_velocity` [m/s], c [N·s/m].
class SwitchFriction final : public FrictionLaw {
 public:
  explicit SwitchFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "switch"; }
  bool usesAppliedForce() const override { return true; }
  bool jumpsAtZero() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double fs = p_.mu_s * in.normal_force;
    if (std::abs(in.velocity) > p_.karnopp_velocity)
      return -p_.mu_k * in.normal_force * friction_detail::sgn(in.velocity);
    if (std::abs(in.applied_force) <= fs) return -in.applied_force - p_.switch_damping * in.velocity;
    return -fs * friction_detail::sgn(in.applied_force);
  }

 private:
  FrictionParameters p_;
};

/// `linear` (eq. 3.13): F = −Fc min(|v|/v0, 1) sgn(v), i.e. the thesis' slope k = 1/v0.
/// Parameters: μk [-], v0 = `tolerance_velocity` [m/s] (the thesis gives no k; ours: 1/v0).
class LinearFriction final : public FrictionLaw {
 public:
  explicit LinearFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "linear"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    return -p_.mu_k * in.normal_force * std::clamp(in.velocity / p_.tolerance_velocity, -1.0, 1.0);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    return std::abs(in.velocity) < p_.tolerance_velocity
               ? -p_.mu_k * in.normal_force / p_.tolerance_velocity
               : 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `tanh` (eq. 3.14): F = −Fc tanh(v/v0), the thesis' k = 1/v0.
/// Parameters: μk [-], v0 = `tolerance_velocity` [m/s] (ours: k = 1/v0).
class TanhFriction final : public FrictionLaw {
 public:
  explicit TanhFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "tanh"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    return -p_.mu_k * in.normal_force * std::tanh(in.velocity / p_.tolerance_velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double t = std::tanh(in.velocity / p_.tolerance_velocity);
    return -p_.mu_k * in.normal_force * (1.0 - t * t) / p_.tolerance_velocity;
  }

 private:
  FrictionParameters p_;
};

/// `threlfall`, Threlfall (1978) (eq. 3.15):
///   F = −Fc (1 − exp(−3|v|/v0)) sgn(v) for |v| ≤ v0;  −Fc sgn(v) for |v| > v0.
/// As published it jumps by Fc e⁻³ ≈ 5 % of Fc at |v| = v0.
/// Parameters: μk [-], v0 = `tolerance_velocity` [m/s].
class ThrelfallFriction final : public FrictionLaw {
 public:
  explicit ThrelfallFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "threlfall"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity);
    const double shape = a <= p_.tolerance_velocity ? 1.0 - std::exp(-3.0 * a / p_.tolerance_velocity)
                                                    : 1.0;
    return -p_.mu_k * in.normal_force * shape * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.tolerance_velocity;
    return a <= v0 ? -p_.mu_k * in.normal_force * 3.0 / v0 * std::exp(-3.0 * a / v0) : 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `linear-stiction` (eq. 3.16): a peak Fs at |v| = v0 reached linearly, then linearly down
/// to Fc at v1:
///   R = Fs |v|/v0 (|v| ≤ v0);  Fs − (|v| − v0)/(v1 − v0) (Fs − Fc) (v0 < |v| < v1);  Fc (|v| ≥ v1).
/// F = −R sgn(v). Parameters: μs, μk [-]; the thesis gives no v0, v1 for this law, ours are
/// Ambrósio's pair v0 = `modified_v0`, v1 = `modified_v1` [m/s].
class LinearStictionFriction final : public FrictionLaw {
 public:
  explicit LinearStictionFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "linear-stiction"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.modified_v0, v1 = p_.modified_v1;
    const double fs = p_.mu_s * in.normal_force, fc = p_.mu_k * in.normal_force;
    double r = fc;
    if (a <= v0)
      r = v0 > 0.0 ? fs * a / v0 : fs;
    else if (a < v1)
      r = fs - (a - v0) / (v1 - v0) * (fs - fc);
    return -r * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.modified_v0, v1 = p_.modified_v1;
    const double fs = p_.mu_s * in.normal_force, fc = p_.mu_k * in.normal_force;
    if (a < v0) return -fs / v0;
    if (a < v1) return (fs - fc) / (v1 - v0);
    return 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `bengisu-akay`, Bengisu & Akay (1994) (eq. 3.17):
///   R = Fs − Fs (|v| − v0)²/v0² (|v| < v0);  Fc + (Fs − Fc) exp(−ξ (|v| − v0)) (|v| ≥ v0).
/// F = −R sgn(v). Parameters: μs, μk [-], v0 = `tolerance_velocity` [m/s], ξ [s/m].
class BengisuAkayFriction final : public FrictionLaw {
 public:
  explicit BengisuAkayFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "bengisu-akay"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.tolerance_velocity;
    const double fs = p_.mu_s * in.normal_force, fc = p_.mu_k * in.normal_force;
    const double r = a < v0 ? fs - fs * (a - v0) * (a - v0) / (v0 * v0)
                            : fc + (fs - fc) * std::exp(-p_.xi * (a - v0));
    return -r * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.tolerance_velocity;
    const double fs = p_.mu_s * in.normal_force, fc = p_.mu_k * in.normal_force;
    const double dr = a < v0 ? -2.0 * fs * (a - v0) / (v0 * v0)
                             : -p_.xi * (fs - fc) * std::exp(-p_.xi * (a - v0));
    return -dr;
  }

 private:
  FrictionParameters p_;
};

/// `ambrosio`, Ambrósio's modified Coulomb (2003) (eq. 3.18): no force below v0, a linear
/// ramp to Fc between v0 and v1:
///   R = 0 (|v| ≤ v0);  Fc (|v| − v0)/(v1 − v0) (v0 < |v| < v1);  Fc (|v| ≥ v1).
/// Parameters: μk [-], v0 = `modified_v0`, v1 = `modified_v1` [m/s].
class AmbrosioFriction final : public FrictionLaw {
 public:
  explicit AmbrosioFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "ambrosio"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.modified_v0, v1 = p_.modified_v1;
    const double ramp = std::clamp((a - v0) / (v1 - v0), 0.0, 1.0);
    return -p_.mu_k * in.normal_force * ramp * friction_detail::sgn(in.velocity);
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double a = std::abs(in.velocity), v0 = p_.modified_v0, v1 = p_.modified_v1;
    return a > v0 && a < v1 ? -p_.mu_k * in.normal_force / (v1 - v0) : 0.0;
  }

 private:
  FrictionParameters p_;
};

/// `awrejcewicz`, Awrejcewicz, Grzelczyk & Pyryev (2008) (eq. 3.22), with Coulomb sliding:
///   |v| > v0:                           R = Fc sgn(v)
///   |v| ≤ v0, |Fₑ| > Fs, Fₑ v ≥ 0:       R = Fs sgn(Fₑ)
///   |v| ≤ v0, |Fₑ| > Fs, Fₑ v < 0:       R = (2A − 1) Fs sgn(v)
///   |v| ≤ v0, |Fₑ| ≤ Fs:                 R = A (−Fₑ + Fs sgn(v)) + Fₑ
/// with A = (|v|/v0)² (3 − 2|v|/v0), and F = −R. (The extracted eq. writes ‖v‖² for ‖v_T‖²
/// in A; we read it as the sliding velocity.) Parameters: μs, μk [-], v0 = `tolerance_velocity`.
class AwrejcewiczFriction final : public FrictionLaw {
 public:
  explicit AwrejcewiczFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "awrejcewicz"; }
  bool usesAppliedForce() const override { return true; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    using friction_detail::sgn;
    const double v = in.velocity, fe = in.applied_force, v0 = p_.tolerance_velocity;
    const double fs = p_.mu_s * in.normal_force;
    if (std::abs(v) > v0) return -p_.mu_k * in.normal_force * sgn(v);
    const double r = std::abs(v) / v0, A = r * r * (3.0 - 2.0 * r);
    if (std::abs(fe) > fs) return fe * v >= 0.0 ? -fs * sgn(fe) : -(2.0 * A - 1.0) * fs * sgn(v);
    return -(A * (-fe + fs * sgn(v)) + fe);
  }

 private:
  FrictionParameters p_;
};

/// `brown-mcphee`, Brown & McPhee (2016), as in Marques et al. (2018) eq. (6) plus the
/// published viscous term:
///   F = −(Fc tanh(4|v|/vs) + (Fs − Fc) (|v|/vs) / ((|v|/vs)²/4 + 3/4)²) sgn(v) − Fv v.
/// Its peak, ≈ Fs, is at |v| = vs. Smooth everywhere. Parameters: μs, μk [-], vs [m/s],
/// Fv [N·s/m] (the review sets Fv = 0).
class BrownMcPheeFriction final : public FrictionLaw {
 public:
  explicit BrownMcPheeFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "brown-mcphee"; }
  double force(const FrictionInput& in, std::span<const double>) const override {
    const double r = in.velocity / p_.stribeck_velocity;
    const double d = 0.25 * r * r + 0.75;
    // r/d² is odd in v: no sgn needed, and the law is smooth through v = 0.
    const double mu = p_.mu_k * std::tanh(4.0 * r) + (p_.mu_s - p_.mu_k) * r / (d * d);
    return -mu * in.normal_force - p_.viscous * in.velocity;
  }
  bool hasVelocityDerivative() const override { return true; }
  double velocityDerivative(const FrictionInput& in, std::span<const double>) const override {
    const double vs = p_.stribeck_velocity, r = in.velocity / vs, d = 0.25 * r * r + 0.75;
    const double t = std::tanh(4.0 * r);
    const double dmu = p_.mu_k * 4.0 * (1.0 - t * t) + (p_.mu_s - p_.mu_k) * (d - r * r) / (d * d * d);
    return -dmu * in.normal_force / vs - p_.viscous;
  }

 private:
  FrictionParameters p_;
};

}  // namespace stickslip::dynamics
