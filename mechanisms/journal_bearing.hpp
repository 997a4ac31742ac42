#pragma once
/// \file A journal in a fixed bearing (revolute clearance joint): the example of Marques,
/// Flores, Claro & Lankarani 2018 (review §5, Table 5), one mechanism for every route.
///
/// Data (review Table 5): bearing radius R_B = 10 mm, journal radius R_J = 9.9 mm (radial
/// clearance c = 0.1 mm), E = 207 GPa, ν = 0.3 for both, restitution cₑ = 0.9, journal mass
/// 0.05 kg and moment of inertia 2.45·10⁻⁶ kg·m². The bearing is fixed in the ground; the
/// journal is a free body (x, y, θ) under gravity (9.81 m/s² along −y; the review gives no
/// value) with no driver. It starts concentric with the bearing, at rest in translation and
/// spinning at 2π rad/s clockwise (review §5), and the review simulates 2 s.
/// Contact: a unilateral journal-bearing contact (gap c − |e| ≥ 0) with Newton's impact law
/// (e = cₑ) and set-valued Coulomb friction (μs, μk; Table 5 has none) on the nonsmooth
/// routes; on the penalty route Lankarani–Nikravesh, F = K δ^1.5 [1 + 3(1 − cₑ²)/4 · δ̇/δ̇⁽⁻⁾],
/// with the Hertz stiffness of the internal cylinder contact, K = 4/(3(σ_B + σ_J)) ·
/// √(R_B R_J / c) (review eqs. 26–28), and any catalogue law in place of Coulomb. Friction
/// laws scaled by a reference normal load (LuGre variants) take the journal's weight, as the
/// review does.
///
/// The journal falls through the clearance (free flight), bounces (impacts: contacts
/// shorter than a few Hertz contact times) and settles at the bottom of the bearing
/// (continuous contact, penetration (m g / K)^(2/3) ≈ 22 nm on the penalty route).

#include <string_view>
#include <vector>

#include <Eigen/Dense>

#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/routes/run_result.hpp"
#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct JournalBearing {
  double bearing_radius = 10e-3;   ///< R_B [m], > R_J
  double journal_radius = 9.9e-3;  ///< R_J [m], > 0
  double young_modulus = 207e9;    ///< E [Pa] of journal and bearing, > 0
  double poisson_ratio = 0.3;      ///< ν, in (−1, 0.5]
  double restitution = 0.9;        ///< cₑ, in (0, 1]
  double mass = 0.05;              ///< journal mass [kg], > 0
  double inertia = 2.45e-6;        ///< journal moment of inertia [kg·m²], > 0
  double gravity = 9.81;           ///< along −y [m/s²], ≥ 0
  double initial_spin = -6.283185307179586;  ///< θ̇(0) [rad/s] (clockwise 2π)
  double mu_static = 0.0;          ///< μs of the contact, ≥ mu_kinetic (Table 5: none)
  double mu_kinetic = 0.0;         ///< μk of the contact, ≥ 0
  Eigen::Vector2d initial_position = Eigen::Vector2d::Zero();  ///< journal centre (0) [m]
  Eigen::Vector2d initial_velocity = Eigen::Vector2d::Zero();  ///< [m/s]
  /// A contact lasting longer than this is continuous contact, a shorter one an impact [s]
  /// (the Hertz contact time of the first impact is ≈ 0.1 ms).
  double continuous_contact_time = 2e-3;

  /// Throws std::invalid_argument("JournalBearing: expected …, got …").
  void validate() const;
  double clearance() const { return bearing_radius - journal_radius; }
  /// K [N/m^1.5] of the internal cylinder contact.
  double contactStiffness() const;
};

/// The review's Table 3 friction parameters (§5 uses those of the roller–crank; dry, no
/// viscous term) with the journal's weight as reference normal load.
dynamics::FrictionParameters journalBearingFrictionParameters(const JournalBearing& jb);

/// The built-in journal-bearing (mechanisms/scenarios/journal-bearing.yaml) with these values:
/// the journal and the contact of the file comment, its compliant law the review's
/// Lankarani–Nikravesh. Throws std::invalid_argument on invalid data.
dynamics::RigidScenario journalBearingRigid(const JournalBearing& jb);
/// The values of a mechanism loaded from journal-bearing.yaml; throws std::invalid_argument
/// when it lacks one.
JournalBearing journalBearingOf(const dynamics::RigidScenario& s);

enum class ContactMode { kFreeFlight, kImpact, kContinuousContact };
std::string_view toString(ContactMode m);

/// One interval of the classified motion.
struct ModeInterval {
  double t_begin = 0.0, t_end = 0.0;
  ContactMode mode = ContactMode::kFreeFlight;
};

/// One closed-then-opened contact: δ̇ at closing (> 0) and at opening (< 0), and the ratio of
/// the normal kinetic energies after and before, (δ̇_out/δ̇_in)², which Newton's law
/// predicts as cₑ².
struct ImpactRecord {
  double t_close = 0.0, t_open = 0.0;
  double velocity_in = 0.0, velocity_out = 0.0;
  double energy_ratio = 0.0;
};

/// The journal's motion classified from a penalty-route run of journalBearingRigid(jb), by
/// its contact events: free flight between contacts, impacts (contacts shorter than
/// continuous_contact_time) and continuous contact (longer, or still closed at the end and
/// closed for longer than that). Times are the integrator's crossings, hence approximate.
struct JournalBearingPhases {
  std::vector<ModeInterval> modes;    ///< consecutive, covering [0, run.t_end]
  std::vector<ImpactRecord> impacts;  ///< every contact that opened again
};
JournalBearingPhases journalBearingPhases(const JournalBearing& jb, const dynamics::RunResult& run);

}  // namespace stickslip::mechanisms
