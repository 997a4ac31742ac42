#pragma once
/// \file Compliant normal contact force laws of the regularized route (DESIGN §2), and the
/// Hertz stiffness K from materials and radii.
///
/// All laws act on the penetration δ [m] (δ > 0: the surfaces overlap), its rate δ̇ [m/s]
/// (δ̇ > 0: approaching) and the initial impact velocity δ̇⁽⁻⁾ > 0 [m/s], the value of δ̇ when
/// the present contact began (the caller records it when δ turns positive):
///   Hertz [Hertz 1881; thesis eq. 1.1]:        F = K δⁿ
///   Hunt–Crossley [thesis eq. 1.2 with m = n]:  F = K δⁿ + χ δⁿ δ̇,  χ = 3 K (1 − cₑ) / (2 δ̇⁽⁻⁾)
///   Lankarani–Nikravesh [thesis eqs. 4.35–4.37; review eq. 26; Muvengei eqs. 21–23]:
///                                              F = K δⁿ [1 + 3 (1 − cₑ²) / 4 · δ̇ / δ̇⁽⁻⁾]
///   Flores et al. [Flores, Machado, Silva & Martins 2011, Multibody Syst. Dyn. 25:357–375;
///   named, without the formula, in thesis §1.2.2]:
///                                              F = K δⁿ [1 + 8 (1 − cₑ) / (5 cₑ) · δ̇ / δ̇⁽⁻⁾]
/// with K [N/m^n] the contact stiffness, n the exponent (1.5 for metals, parabolic pressure
/// distribution) and cₑ ∈ [0, 1] the coefficient of restitution.
///
/// The thesis and the seeds give the Hunt–Crossley law only in its general form with a
/// factor χ; its value 3K(1 − cₑ)/(2δ̇⁽⁻⁾) is the standard published one [Hunt & Crossley
/// 1975; e.g. in the review of Machado et al. 2012, Mech. Mach. Theory 53]. Zheng et al. 2018
/// (eqs. 11–14) use F = Kδⁿ + χδⁿδ̇ too, but the extracted seed lost their χ.
///
/// Every law returns F = 0 for δ ≤ 0 and never pulls: F = max(0, ·). (Without the clamp the
/// bracket of Hunt–Crossley turns negative in a fast separation, δ̇ < −2δ̇⁽⁻⁾/(3(1 − cₑ)).)
/// Hunt–Crossley and Lankarani–Nikravesh derive χ from an energy balance that assumes little
/// dissipation, so they reproduce cₑ only for high restitution (thesis §1.2.2). Measured on a
/// 1-DoF impact (tests/dynamics/contact_normal_law_test.cpp; the outcome depends on cₑ only),
/// the rebound restitution for cₑ = 0.9 / 0.7 / 0.5 is: Hunt–Crossley 0.909 / 0.768 / 0.663,
/// Lankarani–Nikravesh 0.913 / 0.796 / 0.725, Flores et al. 0.894 / 0.683 / 0.470. Use the
/// last one for low restitution (e.g. cₑ = 0.4 of the Flores–Leine–Glocker slider-crank).
/// Each law has derivatives() (∂F/∂δ, ∂F/∂δ̇) for implicit integrators. The laws do not check
/// their parameters on every call: call validate() once when building the model.
///
/// Units: SI throughout. The laws are valid for impact velocities well below the speed of
/// elastic waves, δ̇⁽⁻⁾ ≤ 10⁻⁵ √(E/ρ) (thesis §1.2.2; Muvengei after eq. 23).

#include <string_view>
#include <variant>

namespace stickslip::dynamics {

/// Partial derivatives of a normal force F(δ, δ̇; δ̇⁽⁻⁾), for the Jacobians of implicit (BDF)
/// integrators. Where F is not differentiable (δ = 0 for n = 1, the onset of the clamp) they
/// are the one-sided values from the side where F = 0 or, for δ > 0, from inside the contact.
struct NormalForceDerivatives {
  double d_penetration = 0.0;  ///< ∂F/∂δ [N/m]
  double d_rate = 0.0;         ///< ∂F/∂δ̇ [N·s/m]
};

/// Material of one contacting body.
struct ContactMaterial {
  double young_modulus = 207e9;  ///< E [Pa], > 0 (default: steel, review Table 5)
  double poisson_ratio = 0.3;    ///< ν, in (−1, 0.5]

  /// σ = (1 − ν²)/E [1/Pa] (review eq. 28; Muvengei eq. 20).
  double compliance() const;
  /// Throws std::invalid_argument for a non-finite entry, E ≤ 0 or ν outside (−1, 0.5].
  void validate(std::string_view who = "dynamics::ContactMaterial") const;
};

/// Hertz stiffness for an effective radius R* [m]:
///   K = 4 / (3 (σ₁ + σ₂)) · √R*   [N/m^1.5]   (review eq. 27; Muvengei eq. 19).
/// Throws std::invalid_argument for R* ≤ 0 or an invalid material.
double hertzStiffness(const ContactMaterial& a, const ContactMaterial& b, double effective_radius);

/// Effective radius of two convex surfaces (spheres, or cylinders in the planar reduction):
/// R* = R₁ R₂ / (R₁ + R₂); R₂ = ∞ (a plane) is not representable, use R* = R₁ directly.
/// Throws std::invalid_argument unless R₁, R₂ > 0.
double effectiveRadiusExternal(double r1, double r2);

/// Effective radius of a journal of radius R_J inside a bearing of radius R_B (internal,
/// conformal contact; the concave bearing counts with a negative radius in Muvengei eq. 19):
/// R* = R_B R_J / (R_B − R_J) = R_B R_J / c   (review eq. 27).
/// Throws std::invalid_argument unless R_B > R_J > 0.
double effectiveRadiusInternal(double bearing_radius, double journal_radius);

/// K for a journal (radius R_J, material `journal`) in a bearing (R_B, `bearing`), the
/// revolute clearance joint: hertzStiffness with effectiveRadiusInternal(R_B, R_J).
double journalBearingStiffness(double bearing_radius, double journal_radius,
                               const ContactMaterial& bearing, const ContactMaterial& journal);

/// F = K δⁿ. Conservative: loading and unloading follow the same curve.
struct HertzLaw {
  double stiffness = 0.0;  ///< K [N/m^n], > 0
  double exponent = 1.5;   ///< n, ≥ 1

  /// Throws std::invalid_argument for a non-finite entry, K ≤ 0 or n < 1.
  void validate(std::string_view who = "dynamics::HertzLaw") const;
  /// Normal force [N]; the rates are accepted (and ignored) so that all laws share one call.
  double force(double penetration, double penetration_rate = 0.0,
               double impact_velocity = 0.0) const;
  /// ∂F/∂δ = n K δⁿ⁻¹ (δ > 0), ∂F/∂δ̇ = 0.
  NormalForceDerivatives derivatives(double penetration, double penetration_rate = 0.0,
                                     double impact_velocity = 0.0) const;
};

/// Common parameters of the dissipative Hertz-type laws.
struct DissipativeHertzParameters {
  double stiffness = 0.0;    ///< K [N/m^n], > 0
  double exponent = 1.5;     ///< n, ≥ 1
  double restitution = 0.9;  ///< cₑ ∈ [0, 1]
  /// δ̇⁽⁻⁾ is replaced by max(δ̇⁽⁻⁾, this) [m/s], > 0. Our numerical safeguard, not from
  /// the sources: a contact that closes with δ̇⁽⁻⁾ → 0 (resting or following contact) would
  /// otherwise get an unbounded χ. The default 1e-4 m/s suits impacts of mm/s and above; a
  /// contact kept closed for long (Zheng et al.'s following mode) should set it to the speed
  /// scale of the motion.
  double min_impact_velocity = 1e-4;

  void validate(std::string_view who) const;
};

/// F = max(0, K δⁿ + χ δⁿ δ̇), χ = 3K(1 − cₑ)/(2 δ̇⁽⁻⁾) [Hunt & Crossley 1975].
struct HuntCrossleyLaw : DissipativeHertzParameters {
  /// Throws std::invalid_argument for a non-finite entry, K ≤ 0, n < 1, cₑ ∉ [0, 1] or
  /// min_impact_velocity ≤ 0.
  void validate(std::string_view who = "dynamics::HuntCrossleyLaw") const {
    DissipativeHertzParameters::validate(who);
  }
  /// χ [N·s/m^(n+1)] for the impact velocity δ̇⁽⁻⁾ (clamped by min_impact_velocity).
  double hysteresisFactor(double impact_velocity) const;
  /// χ/K [s/m], the factor of δ̇ in the bracket.
  double dampingRatio(double impact_velocity) const;
  /// Normal force [N] ≥ 0; zero for δ ≤ 0.
  double force(double penetration, double penetration_rate, double impact_velocity) const;
  /// ∂F/∂δ = n K δⁿ⁻¹ (1 + (χ/K) δ̇), ∂F/∂δ̇ = χ δⁿ where F > 0; both 0 elsewhere.
  NormalForceDerivatives derivatives(double penetration, double penetration_rate,
                                     double impact_velocity) const;
};

/// F = max(0, K δⁿ [1 + 3(1 − cₑ²)/4 · δ̇/δ̇⁽⁻⁾]) [Lankarani & Nikravesh 1990].
struct LankaraniNikraveshLaw : DissipativeHertzParameters {
  /// Throws as HuntCrossleyLaw::validate.
  void validate(std::string_view who = "dynamics::LankaraniNikraveshLaw") const {
    DissipativeHertzParameters::validate(who);
  }
  /// χ = 3K(1 − cₑ²)/(4 δ̇⁽⁻⁾) [N·s/m^(n+1)] (thesis eq. 4.36; Muvengei eq. 22 with D = χδⁿ).
  double hysteresisFactor(double impact_velocity) const;
  /// χ/K [s/m], the factor of δ̇ in the bracket.
  double dampingRatio(double impact_velocity) const;
  /// Normal force [N] ≥ 0; zero for δ ≤ 0.
  double force(double penetration, double penetration_rate, double impact_velocity) const;
  /// ∂F/∂δ = n K δⁿ⁻¹ (1 + (χ/K) δ̇), ∂F/∂δ̇ = χ δⁿ where F > 0; both 0 elsewhere.
  NormalForceDerivatives derivatives(double penetration, double penetration_rate,
                                     double impact_velocity) const;
};

/// F = max(0, K δⁿ [1 + 8(1 − cₑ)/(5cₑ) · δ̇/δ̇⁽⁻⁾]) [Flores et al. 2011], meant for the
/// whole range of cₑ; cₑ = 0 (fully plastic) is excluded, as χ ∝ 1/cₑ.
struct FloresLaw : DissipativeHertzParameters {
  /// Throws as HuntCrossleyLaw::validate, and also for cₑ = 0.
  void validate(std::string_view who = "dynamics::FloresLaw") const;
  /// χ = 8K(1 − cₑ)/(5 cₑ δ̇⁽⁻⁾) [N·s/m^(n+1)].
  double hysteresisFactor(double impact_velocity) const;
  /// χ/K [s/m], the factor of δ̇ in the bracket.
  double dampingRatio(double impact_velocity) const;
  /// Normal force [N] ≥ 0; zero for δ ≤ 0.
  double force(double penetration, double penetration_rate, double impact_velocity) const;
  /// ∂F/∂δ = n K δⁿ⁻¹ (1 + (χ/K) δ̇), ∂F/∂δ̇ = χ δⁿ where F > 0; both 0 elsewhere.
  NormalForceDerivatives derivatives(double penetration, double penetration_rate,
                                     double impact_velocity) const;
};

/// One of the compliant normal laws above.
using NormalLaw = std::variant<HertzLaw, HuntCrossleyLaw, LankaraniNikraveshLaw, FloresLaw>;

/// Normal force of any law [N] (δ, δ̇ [m, m/s], δ̇⁽⁻⁾ [m/s]).
double normalForce(const NormalLaw& law, double penetration, double penetration_rate,
                   double impact_velocity);
/// Elastic energy stored by the conservative part K δⁿ of any law: K δⁿ⁺¹/(n + 1) for δ > 0 [J].
double normalLawPotential(const NormalLaw& law, double penetration);
/// Its derivative, the conservative force K δⁿ for δ > 0 (0 otherwise) [N].
double normalLawElasticForce(const NormalLaw& law, double penetration);

}  // namespace stickslip::dynamics
