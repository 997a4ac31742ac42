#pragma once
/// \file Dynamic (state-variable) friction laws of the catalogue.
///
/// Sources: Marques (2015) thesis ch. 3.3 (eq. numbers below); Marques, Flores, Claro &
/// Lankarani (2018) eqs. (29)–(31) for Wojtyra's LuGre; Muvengei, Kihiu & Ikua, eqs. (27)–(30)
/// for the nondimensional LuGre. Notation: Fc = μk N, Fs = μs N,
/// g(v) = (μk + (μs − μk) exp(−(|v|/vs)^δσ)) N the Stribeck curve (eq. 3.47), z the average
/// bristle deflection [m]. The thesis writes the force the surface resists with, R; the body
/// receives F = −R (friction_law.hpp).
///
/// Unloaded contact (N = 0) for the laws whose state equation divides by the friction level
/// (Dahl, LuGre, elasto-plastic, GMS): ours, the force is the viscous term only and the
/// bristles relax as ż = −z/τ with the bristle time constant τ = σ1/σ0 (1 ms if σ1 = 0).

#include <array>
#include <cmath>
#include <span>
#include <string_view>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/friction/static_laws.hpp"

namespace stickslip::dynamics {

/// Base of the laws with one internal state, a bristle deflection z that starts at zero
/// (unloaded, undeflected contact).
class SingleStateLaw : public FrictionLaw {
 public:
  int stateSize() const override { return 1; }
  void initialState(const FrictionInput&, std::span<double> s) const override { s[0] = 0.0; }
};

/// `dahl`, Dahl (1968) with α = 1 (eqs. 3.30–3.31):
///   ż = (1 − σ0 z sgn(v)/Fc) v,   R = σ0 z.
/// Steady state: R = Fc sgn(v). Pre-sliding stiffness σ0. Parameters: μk [-], σ0 [N/m].
/// State: z [m].
class DahlFriction final : public SingleStateLaw {
 public:
  explicit DahlFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "dahl"; }
  double force(const FrictionInput&, std::span<const double> s) const override {
    return -p_.sigma0 * s[0];
  }
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override {
    return -p_.mu_k * n * friction_detail::sgn(v);
  }
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;

 private:
  FrictionParameters p_;
};

/// `lugre`, Canudas de Wit, Olsson, Åström & Lischinsky (1995) (eqs. 3.45–3.48), constant σ1:
///   ż = v − σ0 |v| z / g(v),   R = σ0 z + σ1 ż + σ2 v.
/// Steady state (eq. 3.50): R = g(v) sgn(v) + σ2 v, the Stribeck curve of eq. 3.10.
/// Pre-sliding stiffness σ0. Parameters: μs, μk [-], vs [m/s], δσ [-], σ0 [N/m], σ1, σ2 [N·s/m].
/// State: z [m].
class LuGreFriction final : public SingleStateLaw {
 public:
  explicit LuGreFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "lugre"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;

 private:
  double zRate(double v, double n, double z) const;
  FrictionParameters p_;
};

/// `lugre-wojtyra`, LuGre scaled by the normal load, Wojtyra (2017) as written in Marques et
/// al. (2018) eqs. (29)–(31), with the constant equivalent load N_E:
///   ż = (1 − σ0 z sgn(v) / (N_E gμ(v))) v,   R = (σ0 z + σ1 ż) N / N_E + σ2 v,
/// gμ(v) = g(v)/N. The review neglects the viscous term; we keep σ2 v so that the law equals
/// `lugre` when N = N_E. Steady state: R = g(v) sgn(v) + σ2 v for any N, and the bristle
/// state no longer depends on N. Pre-sliding stiffness σ0 N/N_E. Parameters: those of
/// `lugre` and N_E = `reference_normal_force` [N]. State: z [m].
class LuGreWojtyraFriction final : public SingleStateLaw {
 public:
  explicit LuGreWojtyraFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "lugre-wojtyra"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;

 private:
  double zRate(double v, double z) const;
  FrictionParameters p_;
};

/// `lugre-nondimensional`, the LuGre friction coefficient μ in Muvengei et al.'s
/// nondimensional form (their eqs. (27)–(30)):
///   μ = σ0' z + σ1' ż + σ2' v,   ż = v − σ0' |v| z / gμ(v),   F = −μ N,
/// written with  z̄ = σ0' z/μk,  v̄ = v/vs,  ḡ = gμ/μk = 1 + (μs/μk − 1) exp(−|v̄|^δσ),
/// β̄ = |v̄|/ḡ,  σ̄1 = σ1' vs/μk,  σ̄2 = σ2' vs/μk  as
///   dz̄/dt = (σ0' vs/μk) (v̄ − |v̄| z̄/ḡ),   μ/μk = (1 − β̄ σ̄1) z̄ + (σ̄1 + σ̄2) v̄.
/// (The extracted paper lost the minus sign in the exponent of ḡ and the absolute value in
/// β̄; we use the standard LuGre form.) The per-unit-load coefficients are ours:
/// σi' = σi / N_E with N_E = `reference_normal_force`, so that the law equals `lugre` when
/// N = N_E. Steady state: R = g(v) sgn(v) + σ2 v N/N_E. Pre-sliding stiffness σ0 N/N_E.
/// Requires μk > 0. State: z̄ [-] (O(1) in sliding, which is the point of the form).
class LuGreNondimensionalFriction final : public SingleStateLaw {
 public:
  explicit LuGreNondimensionalFriction(const FrictionParameters& p);
  std::string_view name() const override { return "lugre-nondimensional"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;

 private:
  double gBar(double vbar) const;
  FrictionParameters p_;
  double rate_scale_;  // σ0' vs / μk [1/s]
  double sigma1_bar_, sigma2_bar_;
};

/// `elasto-plastic`, Dupont, Hayward, Armstrong & Altpeter (2002) (eqs. 3.51–3.53):
///   ż = v (1 − α(z, v) σ0 z sgn(v) / g(v)),   R = σ0 z + σ1 ż + σ2 v,
/// α = 0 if v z < 0 or |z| ≤ z_ba;  ½ (sin(π (|z| − (z_max + z_ba)/2)/(z_max − z_ba)) + 1)
/// between;  1 if |z| ≥ z_max;  with z_max = g(v)/σ0 (the steady-state deflection) and
/// z_ba = r z_max, r = `breakaway_ratio` (Dupont et al.: ≈ 0.7). Below z_ba the response is
/// purely elastic: true stiction, no drift. Steady state as `lugre`. Pre-sliding stiffness σ0.
/// State: z [m].
class ElastoPlasticFriction final : public SingleStateLaw {
 public:
  explicit ElastoPlasticFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "elasto-plastic"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;

 private:
  double zRate(double v, double n, double z) const;
  FrictionParameters p_;
};

/// `reset-integrator`, Haessig & Friedland (1991) (eqs. 3.34–3.35) with constant σ0:
///   ż = 0 if |z| ≥ z0 and z v > 0, else ż = v;
///   R = σ0 (1 + a) z + σ1 ż  if |z| < z0,   R = σ0 z0 sgn(z)  if |z| ≥ z0,
/// with z0 = Fc/σ0 (ours: so that sliding gives Coulomb's Fc; the break-away is then
/// (1 + a) Fc, = Fs for the Table 3.2 values). Steady state: R = Fc sgn(v).
/// Pre-sliding stiffness σ0 (1 + a). Parameters: μk [-], a [-], σ0 [N/m], σ1 [N·s/m].
/// State: z [m].
class ResetIntegratorFriction final : public SingleStateLaw {
 public:
  explicit ResetIntegratorFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "reset-integrator"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override {
    return -p_.mu_k * n * friction_detail::sgn(v);
  }

 private:
  double zRate(double v, double n, double z) const;
  FrictionParameters p_;
};

/// `bliman-sorine-1`, Bliman & Sorine (1995), first order (eqs. 3.38–3.41): in the path
/// variable s (ds = |v| dt), dx/ds = −x/εf + f1 sgn(v)/εf, R = x, i.e.
///   ẋ = (f1 v − |v| x)/εf,   f1 = Fc.
/// A Dahl law with σ = f1/εf. Steady state: R = Fc sgn(v). Pre-sliding stiffness Fc/εf.
/// Parameters: μk [-], εf = `bliman_sorine_length` [m] (ours: 0.1 mm). State: x = R [N].
class BlimanSorine1Friction final : public SingleStateLaw {
 public:
  explicit BlimanSorine1Friction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "bliman-sorine-1"; }
  double force(const FrictionInput&, std::span<const double> s) const override { return -s[0]; }
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override {
    const double f1 = p_.mu_k * in.normal_force;
    rate[0] = (f1 * in.velocity - std::abs(in.velocity) * s[0]) / p_.bliman_sorine_length;
  }
  double steadyForce(double v, double n) const override {
    return -p_.mu_k * n * friction_detail::sgn(v);
  }
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;

 private:
  FrictionParameters p_;
};

/// `bliman-sorine-2`, Bliman & Sorine (1995), second order (eq. 3.42): a fast and a slow
/// first-order model in parallel,
///   ẋ1 = (f1 v − |v| x1)/(η εf),   ẋ2 = (−f2 v − |v| x2)/εf,   R = x1 + x2,
/// steady state R = (f1 − f2) sgn(v), with a stiction peak in the path variable s.
/// Ours: f2 = f1 − Fc, and f1 = φ N with φ solved (bisection, once per law) so that the peak
/// over s is exactly Fs; the break-away is therefore Fs whatever the rate.
/// Pre-sliding stiffness f1/(η εf) − f2/εf. Parameters: μs, μk [-], εf [m], η [-].
/// State: x1, x2 [N].
class BlimanSorine2Friction final : public FrictionLaw {
 public:
  explicit BlimanSorine2Friction(const FrictionParameters& p);
  std::string_view name() const override { return "bliman-sorine-2"; }
  int stateSize() const override { return 2; }
  void initialState(const FrictionInput&, std::span<double> s) const override {
    s[0] = s[1] = 0.0;
  }
  double force(const FrictionInput&, std::span<const double> s) const override {
    return -(s[0] + s[1]);
  }
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override {
    return -p_.mu_k * n * friction_detail::sgn(v);
  }
  bool linearBristles(double speed, double normal_force, std::span<BristleCoefficients> bristles,
                      double& viscous) const override;
  /// f1/N: the fast model's level per unit normal force [-].
  double fastCoefficient() const { return phi_; }

 private:
  FrictionParameters p_;
  double phi_;
};

/// `gms`, generalized Maxwell-slip, Lampaert, Al-Bender & Swevers (2003); Al-Bender,
/// Lampaert & Swevers (2005) (eqs. 3.60–3.63), with n = 4 elements (Piatkowski 2014b):
/// element i has stiffness kᵢ = σ0/4, damping σᵢ = σ1/4, share αᵢ = (0.1, 0.2, 0.3, 0.4)
/// of the Stribeck curve and slip deflection Δᵢ(v) = αᵢ g(v)/kᵢ;
///   sticking:  żᵢ = v,
///   slipping:  żᵢ = C (sgn(v) − zᵢ/Δᵢ)    (eq. 3.61 with gᵢ = Δᵢ sgn(v)),
///   R = Σ (kᵢ zᵢ + σᵢ żᵢ) + σ2 v.
/// The thesis keeps a stick/slip mode per element (slip until v changes sign). Ours, so that
/// the state stays continuous: an element slips when zᵢ v > 0 and |zᵢ| ≥ (1 − ε) Δᵢ with
/// ε = 0.01; inside that band the slip rate attracts zᵢ to Δᵢ sgn(v), so the mode does not
/// chatter. Steady state as `lugre`; break-away Fs when all elements have slipped;
/// pre-sliding stiffness σ0. Parameters: μs, μk, vs, δσ, σ0, σ1, σ2, C = `gms_attraction`
/// [m/s]. State: z1…z4 [m].
class GmsFriction final : public FrictionLaw {
 public:
  static constexpr int kElements = 4;
  explicit GmsFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "gms"; }
  int stateSize() const override { return kElements; }
  bool jumpsWithState() const override { return true; }
  void initialState(const FrictionInput&, std::span<double> s) const override {
    for (double& z : s) z = 0.0;
  }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;

 private:
  static constexpr std::array<double, kElements> kShare = {0.1, 0.2, 0.3, 0.4};
  double elementRate(int i, double v, double g, double z) const;
  FrictionParameters p_;
};

/// `gonthier`, Gonthier, McPhee, Lange & Piedbœuf (2004), one-dimensional (eqs. 3.64–3.71):
///   s = exp(−(v/vs)²),   ż = s v + (1 − s)(Fc dir_ε(v) − σ0 z)/σ1,   F_br = σ0 z + σ1 ż,
///   ṡ_dw = (s − s_dw)/τdw if s ≥ s_dw, (s − s_dw)/τbr otherwise (τbr = σ1/σ0),
///   F_max = Fc + (Fs − Fc) s_dw,   R = clamp(F_br, −F_max, F_max) + σ2 v,
/// dir_ε(v) = sgn(v) for |v| ≥ v_ε, (v/v_ε)(3/2 − ½ (v/v_ε)²) below, v_ε = 0.01 vs.
/// Steady state: σ0 z = Fc dir_ε(v) + σ1 s v/(1 − s), s_dw = s. Pre-sliding stiffness σ0.
/// The break-away rises with the dwell time: F_max → Fs after a long stick.
/// Parameters: μs, μk [-], vs [m/s], σ0 [N/m], σ1 > 0, σ2 [N·s/m], τdw [s].
/// State: z [m], s_dw [-] (initialState: s_dw = s(v), fully aged at rest).
class GonthierFriction final : public FrictionLaw {
 public:
  explicit GonthierFriction(const FrictionParameters& p);
  std::string_view name() const override { return "gonthier"; }
  int stateSize() const override { return 2; }
  void initialState(const FrictionInput& in, std::span<double> s) const override {
    s[0] = 0.0;
    s[1] = slipFactor(in.velocity);
  }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;

 private:
  double slipFactor(double v) const;
  double direction(double v) const;
  double zRate(double v, double n, double z) const;
  FrictionParameters p_;
};

/// `harnoy-friedland`, the lubricated journal of Harnoy & Friedland (1994) (eqs. 3.43–3.44):
///   R = K1 (ε − εtr)² Δ sgn(v) + K2 v/√(1 − ε²),   Δ = 1 if ε > εtr, else 0,
/// the asperities' shear and the film's viscous drag, ε the journal's eccentricity. The thesis
/// leaves ε to the film's pressure equation; ours is the short-bearing (Ocvirk) equilibrium
/// reached with the frictional memory τL:
///   τL ε̇ = ε_ss − ε,   h(ε_ss) = N/(κ |v|),   h(ε) = ε √(π²(1 − ε²) + 16 ε²)/(1 − ε²)²,
/// so the film thins as the load rises or the speed falls (ε_ss = 0.999, the thinnest, at
/// rest). Ours: κ such that at the reference load N_E the asperities lift off (ε_ss = εtr) at
/// the Stribeck velocity vs, K1 = Fs/(0.999 − εtr)² so that the rested journal breaks away at
/// Fs, K2 = Fv. No μk: the film carries the sliding, the asperity term falls to zero (a
/// Stribeck curve) and the viscous one rises. At v = 0 it holds up to the asperity force.
/// Steady state: ε = ε_ss. No pre-sliding (no bristle). Parameters: μs, vs, Fv, N_E, τL,
/// εtr = `transition_eccentricity` [-]. State: ε [-].
class HarnoyFriedlandFriction final : public FrictionLaw {
 public:
  explicit HarnoyFriedlandFriction(const FrictionParameters& p);
  std::string_view name() const override { return "harnoy-friedland"; }
  int stateSize() const override { return 1; }
  bool jumpsAtZero() const override { return true; }
  void initialState(const FrictionInput& in, std::span<double> s) const override {
    s[0] = steadyEccentricity(in.velocity, in.normal_force);
  }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override {
    rate[0] = (steadyEccentricity(in.velocity, in.normal_force, s[0]) - s[0]) / p_.lag_time;
  }
  double steadyForce(double v, double n) const override;
  /// ε_ss at sliding velocity v and load N (0 unloaded, 0.999 at rest), solved from `guess`.
  double steadyEccentricity(double v, double n, double guess = -1.0) const;

 private:
  FrictionParameters p_;
  double film_;  // κ [N·s/m]
};

/// `liang`, Liang, Fillmore & Ma (2012) bristle model, one-dimensional (eqs. 3.72–3.75):
///   ż = v while |z| < z_max (or z moves back inward), z clamped to z_max sgn(v) otherwise,
///   z_max = Fc/kb if |v| > vd,  Fs/kb if |v| ≤ vd,   R = kb z + cb ż.
/// Ours, so that z stays a continuous ODE state: the clamp is a relaxation with the bristle
/// time constant τ = cb/kb, ż = −(z − z_max sgn(z))/τ, under which R = kb z + cb ż equals
/// kb z_max sgn(z) exactly, i.e. the clamped force. Steady state: R = Fc sgn(v) for |v| > vd,
/// Fs sgn(v) for 0 < |v| ≤ vd. Pre-sliding stiffness kb. Parameters: μs, μk [-],
/// kb [N/m], cb > 0 [N·s/m], vd [m/s]. State: z [m].
class LiangFriction final : public SingleStateLaw {
 public:
  explicit LiangFriction(const FrictionParameters& p) : p_(p) {}
  std::string_view name() const override { return "liang"; }
  double force(const FrictionInput& in, std::span<const double> s) const override;
  void stateRate(const FrictionInput& in, std::span<const double> s,
                 std::span<double> rate) const override;
  double steadyForce(double v, double n) const override;

 private:
  double zRate(double v, double n, double z) const;
  FrictionParameters p_;
};

}  // namespace stickslip::dynamics
