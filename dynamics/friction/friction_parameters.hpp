#pragma once
/// \file Parameters of the friction law catalogue, with the defaults of the belt benchmark.
///
/// Defaults: Marques (2015), thesis "Frictional contacts in multibody dynamics", Table 3.2
/// (also the review Marques, Flores, Claro & Lankarani 2018, Table 3). Parameters that the
/// thesis does not give (marked "ours") are chosen so that the law's defining property
/// matches the Table 3.2 set: its kinetic level is μk N and its stiction level μs N.
/// Every field can be set by its name (set()), and validate() checks all of them.

#include <span>
#include <string>
#include <string_view>

namespace stickslip::dynamics {

/// The largest eccentricity of a lubricated journal (Harnoy–Friedland): the film's thinnest,
/// 0.1 % of the clearance, so that its viscous term v/√(1 − ε²) stays finite at rest.
inline constexpr double kMaxEccentricity = 0.999;

struct FrictionParameters {
  double mu_s = 0.15;                  ///< static coefficient μs [-], μs ≥ μk
  double mu_k = 0.1;                   ///< kinetic coefficient μk [-]
  double viscous = 0.1;                ///< viscous coefficient Fv [N·s/m]
  double stribeck_velocity = 1e-3;     ///< Stribeck velocity vs [m/s]
  double stribeck_exponent = 2.0;      ///< geometry factor δσ of the Stribeck curve [-]
  double karnopp_velocity = 1e-3;      ///< zero-velocity band Dv (Karnopp, switch) [m/s]
  double tolerance_velocity = 1e-3;    ///< v0 (Threlfall, Bengisu–Akay, Awrejcewicz; ours: linear, tanh) [m/s]
  double modified_v0 = 1e-4;           ///< v0 of Ambrósio's modified Coulomb (ours: linear-stiction) [m/s]
  double modified_v1 = 1e-3;           ///< v1 of Ambrósio's modified Coulomb (ours: linear-stiction) [m/s]
  double xi = 50.0;                    ///< curve-shape factor ξ (Bengisu–Akay) [s/m]
  double stiction_coefficient = 0.5;   ///< a (reset integrator) [-]
  double sigma0 = 1e5;                 ///< bristle stiffness σ0 [N/m]
  double sigma1 = 316.22776601683796;  ///< bristle damping σ1 = √1e5 [N·s/m]
  double sigma2 = 0.1;                 ///< viscous coefficient σ2 of the bristle laws [N·s/m]
  double dwell_time = 2.0;             ///< dwell-time constant τdw (Gonthier) [s]
  double bristle_stiffness = 5e4;      ///< kb (Liang) [N/m]
  double threshold_velocity = 1e-3;    ///< vd, stick/slip threshold (Liang) [m/s]
  double bristle_damping = 80.0;       ///< cb (Liang) [N·s/m], > 0
  /// Ours: damping c of the switch model's stick phase, F = −Fₑ − c v, so that a body of mass m
  /// sees v̇ = −v √(k/m) (thesis eq. 3.12); default √(k m) of the belt (k = 2 N/m, m = 1 kg).
  double switch_damping = 1.4142135623730951;  ///< [N·s/m]
  /// Ours: the constant equivalent normal load N_E of Wojtyra's LuGre and of the coefficient
  /// form (Muvengei); default the belt block's weight 1 kg·9.81 m/s² [N].
  double reference_normal_force = 9.81;
  double breakaway_ratio = 0.7;        ///< z_ba / z_max (elasto-plastic; Dupont et al. 2000) [-]
  double bliman_sorine_length = 1e-4;  ///< ours: εf, pre-sliding length (Bliman–Sorine) [m]
  double bliman_sorine_eta = 0.1;      ///< ours: η, fast/slow length ratio (Bliman–Sorine 2) [-]
  double gms_attraction = 0.01;        ///< ours: attraction C of the Maxwell-slip elements [m/s]
  /// Ours: the frictional memory τL: Armstrong's lag of the Stribeck speed, the time over which
  /// Wojewoda's law senses acceleration, Harnoy–Friedland's lag of the film's eccentricity [s].
  double lag_time = 5e-3;
  double breakaway_rise = 0.0;         ///< ours: ΔFs/N, Wojewoda's break-away variation [-]
  double transition_eccentricity = 0.8;  ///< ours: εtr, asperities touch above it (Harnoy–Friedland) [-]
  double transition_exponent = 1.0;    ///< ours: n, shape of Leuven's transition (LuGre's 1) [-]

  /// Sets the field called `name` (the field names above). Throws std::invalid_argument
  /// listing the valid names if there is no such field; does not validate the value.
  void set(std::string_view name, double value);
  /// The value of the field called `name`; throws std::invalid_argument if unknown.
  double get(std::string_view name) const;
  /// Throws std::invalid_argument "who: expected …, got …" on a non-finite value, a negative
  /// coefficient, μk > μs, a non-positive velocity scale or stiffness, v0 ≥ v1, …
  void validate(std::string_view who = "FrictionParameters") const;
};

/// The names accepted by FrictionParameters::set(), in declaration order.
std::span<const std::string_view> frictionParameterNames();

}  // namespace stickslip::dynamics
