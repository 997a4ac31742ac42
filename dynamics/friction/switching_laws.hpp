#pragma once
/// \file Friction laws with discrete states: a stick/slide mode, bonds that break and re-form,
/// a memory of velocity reversals (friction_law.hpp: settle()).
///
/// Sources: Marques (2015) thesis §3.2.9 (Armstrong), §3.2.11 (Wojewoda et al.), §3.3.2 (the
/// bristle model of Haessig & Friedland), §3.3.8 (Leuven, in Lampaert et al.'s 2002 form,
/// eq. 3.59). Notation as dynamic_laws.hpp: Fc = μk N, Fs = μs N, R the force the surface
/// resists with, F = −R on the body. The thesis gives these laws without parameter values:
/// each uses Table 3.2's where they carry over (σ0, σ1, σ2, vs, Fv, τdw, vd) and says which are
/// ours. A discrete state is stored as a double (a mode ±1/0, a count, a stack depth).

#include <array>
#include <span>
#include <string_view>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"

namespace stickslip::dynamics {

/// Base of the laws that commit discrete switches after each step (friction_law.hpp).
class SettlingLaw : public FrictionLaw {
 public:
  bool settlesBetweenSteps() const override { return true; }
};

/// `armstrong`, the seven-parameter model, Armstrong-Hélouvry, Dupont & Canudas de Wit (1994)
/// (eqs. 3.19–3.21), two regimes and the switch between them:
///   stick:  R = σ0 x + σ1 v,   ẋ = v  (x the pre-sliding displacement since the stick began);
///   slide:  R = (Fc + (F_S − Fc)/(1 + (u/vs)²)) m + Fv v,   τL u̇ = |v| − u,
///   F_S = F_S,a + (Fs − F_S,a) td/(td + γ),
/// m = ±1 the sliding direction, u the speed lagged by the frictional memory τL (the thesis'
/// delay v(t − τL), ours as a first-order lag), td the dwell time of the last stick, γ = τdw,
/// F_S,a the Stribeck level when that stick began (fully aged at the start: F_S = Fs).
/// The switch (the eighth parameter, vd = `threshold_velocity`): stick → slide when σ0 |x|
/// reaches F_S; slide → stick when v reverses against m, or falls back below vd after once
/// exceeding it. Ours: the damping σ1 in the stick (eq. 3.19 has none; without it the
/// pre-sliding spring rings undamped), and u = 0 at break-away (sliding starts at F_S).
/// In the stick the spring's force is held at F_S until settle() switches.
/// Steady state (fully aged): R = (Fc + (Fs − Fc)/(1 + (v/vs)²)) sgn(v) + Fv v.
/// Pre-sliding stiffness σ0; break-away F_S, Fs after a long stick.
/// State: mode m (0 stick), x [m], u [m/s], a = td/(td + γ) [-] (ȧ = (1 − a)²/γ in the stick),
/// F_S,a/N [-], armed (1 once |v| ≥ vd in this slide).
class ArmstrongFriction final : public SettlingLaw {
 public:
  explicit ArmstrongFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "armstrong"; }
  int stateSize() const override { return 6; }
  void initialState(const FrictionInput& in, std::span<double> s) const override;
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s, std::span<double> rate) const override;
  void settle(const FrictionInput& in, std::span<double> s) const override;
  double steadyForce(double v, double n) const override;

 private:
  double staticLevel(double n, std::span<const double> s) const;
  double slideLevel(double n, double lagged_speed, std::span<const double> s) const;
  FrictionParameters p_;
};

/// `wojewoda`, Wojewoda, Stefański, Wiercigroch & Kapitaniak (2008) (eqs. 3.23–3.27): a stick
/// branch and two sliding branches, higher while the speed rises than while it falls:
///   R = clamp(σ0 z, −F_lim, F_lim),   F_lim = F_d− if v·v̇ < 0 and |v| ≥ vd, F_d+ otherwise,
///   F_d+ = Fc + (F_S(v) − Fc) g,   F_d− = max(Fc − (Fs − Fc) g, 0),
///   F_S(v) = Fs + ΔFs/(1 + |v|/vs),   g = exp(−(|v|/vs)^δσ),
/// with ż = v while the junction holds (σ0 |z| < F_lim, or z v < 0), the clamp committed by
/// settle() while it slides. The stick branch F_st = k_S v²/(2|v̇|) − F0 is k_S times the
/// displacement since motion began under a constant acceleration; ours integrates that
/// displacement (z, a junction that holds a body at rest) with k_S = σ0 and F0 = 0. Ours also:
/// v̇ sensed as (v − w)/τL with τL w' = v − w (falling once |v − w| > 1e-3 vd, above the
/// round-off at which w settles on a steady v); below vd = `threshold_velocity` the contact counts
/// as sticking, where the sign of v̇ is noise, not a slide that slows (the junction re-grips on
/// the rising branch); ΔFs = `breakaway_rise` N (0); F_d− floored at 0
/// (it would drive the body when μs > 2 μk), and the stochastic term f_R left out: the law is
/// deterministic. Steady state: R = (Fc + (F_S(v) − Fc) g) sgn(v). Pre-sliding stiffness σ0;
/// break-away Fs + ΔFs. State: w [m/s], z [m].
class WojewodaFriction final : public SettlingLaw {
 public:
  explicit WojewodaFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "wojewoda"; }
  int stateSize() const override { return 2; }
  void initialState(const FrictionInput& in, std::span<double> s) const override;
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s, std::span<double> rate) const override;
  void settle(const FrictionInput& in, std::span<double> s) const override;
  double steadyForce(double v, double n) const override;

 private:
  double limit(const FrictionInput& in, double filtered_velocity) const;
  double risingLimit(double speed, double n) const;
  double shape(double speed) const;  ///< g = exp(−(|v|/vs)^δσ)
  FrictionParameters p_;
};

/// `bristle`, the bristle model of Haessig & Friedland (1991) (eq. 3.33): n = 10 bonds in
/// parallel, each of stiffness σ0/n with strain e_i (ė_i = v), R = Σ (σ0/n) e_i; a bond whose
/// strain passes δ = Fs/σ0 breaks and re-forms strained by ρ δ, of the old strain's sign when
/// ρ > 0 and against it when ρ < 0 (μk < 0.458 μs) (its force held at σ0 δ/n until settle()
/// breaks it after the step).
/// The thesis draws the new bond's place at random; ours is deterministic: the k-th break of
/// the run takes ρ_k = ρ̄ + w (2 frac(k φ) − 1), φ = (√5 − 1)/2 (an equidistributed sequence),
/// w = (1 − ρ̄)/2 and ρ̄ = (24 μk/μs − 11)/13, so that the force's mean in steady sliding,
/// σ0 δ E[1 − ρ²]/(2 E[1 − ρ]), is Fc. Since a bond's force saws between its re-forming and
/// breaking strains, sliding needs μk below μs: 0.3 μs ≤ μk ≤ 0.9 μs (checked).
/// The force oscillates about Fc in steady sliding (steadyForce() gives that mean). Break-away
/// Fs from a rested contact (every bond unstrained); pre-sliding stiffness σ0.
/// State: e_1…e_n [m], the count k of breaks so far.
class BristleFriction final : public SettlingLaw {
 public:
  static constexpr int kBonds = 10;
  explicit BristleFriction(const FrictionParameters& p);
  std::string_view name() const override { return "bristle"; }
  int stateSize() const override { return kBonds + 1; }
  void initialState(const FrictionInput&, std::span<double> s) const override;
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s, std::span<double> rate) const override;
  void settle(const FrictionInput& in, std::span<double> s) const override;
  double steadyForce(double v, double n) const override;

 private:
  /// Bond strains after the breaks they have passed, into `strain`; returns the break count.
  double broken(double n, std::span<const double> s, std::span<double> strain) const;
  FrictionParameters p_;
  double mean_reset_, spread_;
};

/// `leuven`, Swevers, Al-Bender, Ganseman & Prajogo (2000) in the form of Lampaert, Swevers &
/// Al-Bender (2002) (eqs. 3.56, 3.58, 3.59):
///   ż = v (1 − sgn(F_h/g) |F_h/g|^n),   R = F_h(z) + σ1 ż + σ2 v,   g = g(v) sgn(v),
/// g(v) the Stribeck curve (eq. 3.57, eq. 3.47's with exponent δσ). F_h(z) = F_b + F_d(z) is
/// the hysteresis force with nonlocal memory: a virgin curve F_vir(z) = 2 Fs tanh(σ0 z/(2 Fs))
/// (ours: stiffness σ0, above every g(v)) and, from the last reversal point (z_b, F_b), Masing's
/// transition curve
/// F_d = 2 F_vir((z − z_b)/2). The reversal points form a stack: a reversal of v pushes one;
/// a transition curve that reaches the point before its own (z passes it; the virgin curve's
/// mirror −z_1 for the first) closes that inner loop, both points are popped and the outer
/// curve goes on, the wiping-out property. The stack holds 8 points; a 9th nested reversal
/// forgets the 6th and 7th (the current curve keeps its origin, the 8th): when that curve later
/// closes, it goes on along the 5th's, and the force may jump by the forgotten loop's height.
/// The points keep their force in newtons: under a changing load a closing loop may jump too.
/// Ours: n = `transition_exponent` (1, LuGre's). Steady state as `lugre`; pre-sliding
/// stiffness σ0.
/// State: z [m], the direction of v, the depth, 8 points (z_b [m], F_b [N]).
class LeuvenFriction final : public SettlingLaw {
 public:
  static constexpr int kMemory = 8;
  explicit LeuvenFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "leuven"; }
  int stateSize() const override { return 3 + 2 * kMemory; }
  void initialState(const FrictionInput& in, std::span<double> s) const override;
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s, std::span<double> rate) const override;
  void settle(const FrictionInput& in, std::span<double> s) const override;
  double steadyForce(double v, double n) const override;
  /// The hysteresis force F_h at the state (the points its curve has closed removed) [N].
  double hysteresisForce(double n, std::span<const double> s) const;

 private:
  /// The stack depth once the loops that z has closed are popped.
  int openDepth(std::span<const double> s) const;
  /// ż at deflection z with hysteresis force F_h.
  double zRate(const FrictionInput& in, double z, double hysteresis) const;
  FrictionParameters p_;
};

}  // namespace stickslip::dynamics
