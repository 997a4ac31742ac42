#pragma once
/// \file The slider-crank of Muvengei, Kihiu & Ikua with a revolute clearance joint at the
/// crank–connecting-rod (c-cr) joint and LuGre friction in it, on the regularized route
/// (their Table I, Figs. 6–10).
///
/// Data (Table I): crank OA = 0.05 m, 17.9 kg, 0.460327 kg·m²; rod AB = 0.3 m, 1.13 kg,
/// 0.0153 kg·m²; slider 1.013 kg; nominal bearing diameter 10 mm (R_B = 5 mm) with radial
/// clearance 0.5 mm (R_J = 4.5 mm); E = 207 GPa, ν = 0.3, cₑ = 0.9. The crank turns at a
/// constant 2500 rpm (a rheonomic driver θ = ω t). Ours, where the paper is silent: the
/// crank's centroid at O and the rod's at its middle, the slider's centroid at B (inertia
/// nominal: the guide holds its angle), gravity 9.81 m/s² along −y (≈ 0.2 % of the slider's
/// inertial load at 2500 rpm). Initial state (paper): crank and rod collinear along +x
/// (θ = 0), journal and bearing centres coincident, velocities of the ideal mechanism.
///
/// Contact: Lankarani–Nikravesh, F = K δ^1.5 [1 + 3(1 − cₑ²)/4 · δ̇/δ̇⁽⁻⁾] (paper eq. 23) with
/// the Hertz stiffness of the internal cylinder contact from E, ν and the radii (eq. 19 with
/// the concave bearing radius negative). Friction: LuGre on the friction coefficient (paper
/// eqs. 27–31), μ = σ0 z + σ1 ż + σ2 v_t with ż = v_t − σ0 |v_t| z / gμ(v_t), F = μ N,
/// μk = 0.1, μs = 0.2, σ0 = 1e5, σ1 = 400, σ2 = 0 (dry), γ = 2. The paper puts σ0, σ1 into the
/// coefficient equation directly; the catalogue's load-scaled forms (`lugre-nondimensional`,
/// `lugre-wojtyra`) use σi / N_E, so N_E = 1 N reproduces the paper. The Stribeck velocity
/// is 1 % of the maximum tangential velocity (paper §III-B2), taken here from the ideal
/// mechanism over one revolution, max |R_J ω_crank − R_B ω_rod| (the clearance run's own
/// maximum in contact is reported next to it).

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::mechanisms {

struct MuvengeiSliderCrank {
  double crank_length = 0.05, crank_mass = 17.9, crank_inertia = 0.460327;
  double rod_length = 0.3, rod_mass = 1.13, rod_inertia = 0.0153;
  double slider_mass = 1.013, slider_inertia = 1e-4;
  double bearing_radius = 5e-3;  ///< R_B [m]
  double clearance = 0.5e-3;     ///< c = R_B − R_J [m], in (0, R_B)
  double young_modulus = 207e9, poisson_ratio = 0.3, restitution = 0.9;
  double crank_speed = 2500.0 * 2.0 * 3.14159265358979323846 / 60.0;  ///< ω [rad/s], > 0
  double gravity = 9.81;                                              ///< along −y [m/s²], ≥ 0
  double mu_k = 0.1, mu_s = 0.2, sigma0 = 1e5, sigma1 = 400.0, sigma2 = 0.0;
  double stribeck_exponent = 2.0;   ///< γ
  double stribeck_fraction = 0.01;  ///< vs / max tangential velocity, > 0
  bool ideal = false;               ///< an ideal revolute at A instead of the clearance joint

  /// Throws std::invalid_argument("MuvengeiSliderCrank: expected …, got …").
  void validate() const;
  double journalRadius() const { return bearing_radius - clearance; }
  double period() const;            ///< one crank revolution 2π/ω [s]
  double contactStiffness() const;  ///< K [N/m^1.5]
  /// max over one revolution of the ideal mechanism of |R_J ω_crank − R_B ω_rod| [m/s].
  double idealMaxTangentialVelocity() const;
  double stribeckVelocity() const { return stribeck_fraction * idealMaxTangentialVelocity(); }
};

/// The paper's LuGre parameters as catalogue parameters (N_E = 1 N, see the file comment).
dynamics::FrictionParameters muvengeiFrictionParameters(const MuvengeiSliderCrank& data);

/// The ideal slider-crank at constant crank speed in closed form, crank angle θ = ω t:
/// x = r cos θ + √(l² − r² sin² θ) and its first two time derivatives.
struct SliderKinematics {
  double x = 0.0, v = 0.0, a = 0.0;
};
SliderKinematics idealSlider(const MuvengeiSliderCrank& data, double t);

/// The mechanism every route runs: the clearance joint a unilateral journal-in-bearing contact
/// with Newton's e = restitution and set-valued Coulomb friction at the LuGre parameters' μs,
/// μk for the nonsmooth routes, and the paper's Lankarani–Nikravesh law (`compliant_law`) for
/// the penalty route, whose friction law (lugre-nondimensional with
/// muvengeiFrictionParameters) the scenario names; `ideal`: the ideal revolute. Its joints are
/// plain Lagrange multipliers (no Baumgarte terms), as the paper's.
dynamics::RigidScenario muvengeiRigid(const MuvengeiSliderCrank& d);
/// The values of a mechanism loaded from muvengei-lugre.yaml (ideal: it has no clearance
/// joint); throws std::invalid_argument when it lacks one.
MuvengeiSliderCrank muvengeiOf(const dynamics::RigidScenario& s);

/// Columns of MuvengeiTable::table.
enum MuvengeiColumn {
  kTime,
  kCrankAngle,
  kSliderX,
  kSliderV,
  kSliderA,
  kEccentricityX,
  kEccentricityY,
  kPenetration,
  kNormalForce,
  kFrictionForce,
  kTangentialVelocity,
  kDriverPower,
  kContactPower,
  kMechanicalEnergy,
  kBristleCoefficient,
  kColumnCount
};

/// The quantities of the paper's figures, one row per sample of a run (MuvengeiColumn): the
/// slider's x, v and acceleration, the journal's eccentricity and penetration, the contact's
/// forces, sliding velocity and power −Fₙ δ̇ + Fₜ v_t, the driver's power −λ ω, T + V, and the
/// LuGre state as a friction coefficient σ0 z (0 without it); muvengei_analysis.hpp makes it.
struct MuvengeiTable {
  Eigen::MatrixXd table;
  double stribeck_velocity = 0.0;  ///< the vs of the run's law [m/s]
};

/// What the steady cycle [t0, t0 + period] of a run shows (paper Figs. 7–10).
struct MuvengeiCycle {
  double t_begin = 0.0, t_end = 0.0;
  long samples = 0, contact_samples = 0;
  double max_acceleration = 0.0;              ///< max |ẍ| of the run [m/s²]
  double max_ideal_acceleration = 0.0;        ///< max |ẍ| of the closed form at the same samples
  double max_position_deviation = 0.0;        ///< max |x − x_ideal| [m]
  double max_ideal_acceleration_error = 0.0;  ///< max |ẍ − ẍ_ideal| [m/s²]
  double max_tangential_velocity = 0.0;       ///< max |v_t| in contact [m/s]
  double min_tangential_velocity = 0.0;       ///< min |v_t| in contact [m/s] (0 without contact)
  double max_penetration = 0.0;               ///< max δ [m]
  double max_normal_force = 0.0;              ///< [N]
  double max_friction_ratio = 0.0;            ///< max |Fₜ| / (μs Fₙ) in contact
  double max_bristle_ratio = 0.0;             ///< max |σ0 z| / μs (≤ 1: LuGre's bristle bound)
  /// max |Fₜ| / (Fₙ (μs + (1 + μs/μk) σ1 |v_t|)) in contact: ≤ 1 when |σ0 z| ≤ μs (the
  /// LuGre force with its damping term, bounded by the bristle bound and |ż| ≤ |v|(1 + μs/μk)).
  double max_damped_bound_ratio = 0.0;
  long stick_samples = 0;    ///< in contact, |v_t| < vs and |Fₜ| > 0.01 μk Fₙ (presliding)
  long stick_intervals = 0;  ///< maximal runs of consecutive stick samples
  double driver_work = 0.0;  ///< ∫ −λ ω dt [J]
  double contact_work = 0.0;  ///< ∫ (−Fₙ δ̇ + Fₜ v_t) dt [J] (≤ 0: the contact dissipates)
  double energy_change = 0.0;    ///< ΔE of T + V over the cycle [J]
  double energy_residual = 0.0;  ///< |ΔE − W_driver − W_contact| / ∫|λ ω| dt
};

/// Analyses the rows of `r.table` with t in [t_begin, t_begin + period]; vs is the run's.
MuvengeiCycle analyseMuvengeiCycle(const MuvengeiSliderCrank& data, const MuvengeiTable& r, double t_begin);

}  // namespace stickslip::mechanisms
