#pragma once
/// \file Blajer & Markiewicz's examples ("The minimal-form modelling of mechanisms with
/// friction", §6) for the minimal form
/// (dynamics/routes/minimal_form/minimal_form.hpp), and Dupont's two masses (§3) in the same form.
///
/// Each example is one mechanism (a RigidScenario) that every route runs: the bodies, the
/// revolute joints with RevoluteFriction, the guide's rotation held (PlanarModel::addAngle)
/// and its normal direction a bilateral RigidContact with μs, μk. The minimal form takes it
/// through dynamics/routes/minimal_form/minimal_form_route.hpp (the guide becomes a point-on-line joint with
/// prismatic friction μ |N|, the joints' friction μ d |R|; Example 2's pin in its slot the
/// pin-in-slot joint). Each is a model file, mechanisms/scenarios/blajer-1.yaml, blajer-2.yaml
/// (the pin) and blajer-2-slider.yaml (a slider body at B): the builders below load it with
/// their structs' values.
/// Blajer writes the revolute friction torque as μ d |R| with d = 0.05 m called the bearing
/// diameter; we keep his formula, so the lever arm is d itself (radius field = d).
///
/// Example 1 (Fig. 5, eqs. 6.1–6.8): crank 1 (length 2a1) pivoted at O, coupler 2 (2a2) from
/// the crank tip A to B, and link 3, a bar of length 2a3 held vertical (θ3 = −π/2) whose top
/// is pinned to B and whose foot slides along the x axis (prismatic, friction μt |f7|).
/// Gravity −y, torque τ on link 1. Data of the paper: m = (3, 7, 2) kg, a = (0.3, 0.7, 0.2) m,
/// J_i = m_i a_i²/3, μts = 0.3, μtk = 0.2, μrs = 0.15, μrk = 0.1, d = 0.05 m. The extracted
/// text lost τ(t) and the initial state of Fig. 6; we use τ ≡ 0 and release from rest at
/// θ1 = 0 (crank horizontal), so the mechanism swings under gravity: without friction it
/// oscillates with constant energy, with friction it loses energy and comes to rest.
/// Cutting joint B (constraints 5 and 6, as Blajer does) gives k1 = 3 joint coordinates.
///
/// Example 2 (Fig. 7–8): slider-crank with gravity along +x; crank OA (2a1), rod AB (2a2),
/// slider B on the x axis. Paper's data: m1 = 2.5 kg, m2 = 4 kg, a1 = 0.25 m, a2 = 0.4 m,
/// J_i = m_i a_i²/3, μts = 0.3, μtk = 0.2, μrs = 0.15, μrk = 0.1, d = 0.05 m. The paper gives
/// no slider mass: by default B is Blajer's pin-in-slot joint (no slider body); the variant
/// with a slider body (m3 = 1 kg, our choice) is the one the event-driven build shares. It starts
/// at rest in the unforced equilibrium, hanging along gravity (θ1 = θ2 = 0, a dead centre of
/// the slider), driven by τ = τ0 sin Ωt; the text lost τ0 and Ω: τ0 = 6 N·m, Ω = 3 rad/s
/// give both stick intervals and reversals without stick over 10 s.

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "dynamics/routes/minimal_form/minimal_form_route.hpp"
#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/dupont.hpp"

namespace stickslip::mechanisms {

/// A mechanism in Blajer's terms (model, frictional joints, reduction options, assembled
/// initial state).
using MinimalFormScenario = dynamics::MinimalFormModel;

/// Which joints of a Blajer example carry friction (all in the paper).
struct BlajerFriction {
  bool O = true, A = true, B = true, guide = true;
};

struct Blajer1 {
  double m1 = 3.0, m2 = 7.0, m3 = 2.0;     ///< [kg]
  double a1 = 0.3, a2 = 0.7, a3 = 0.2;     ///< half lengths [m]
  double g = 9.81;                         ///< [m/s²], along −y
  double mu_ts = 0.3, mu_tk = 0.2, mu_rs = 0.15, mu_rk = 0.1, d = 0.05;
  BlajerFriction frictional;
  bool friction = true;                    ///< false: Blajer's "μ = 0" run
  double theta1 = 0.0;                     ///< initial crank angle [rad], at rest
  std::function<double(double)> torque;    ///< τ(t) on link 1 [N·m]; empty: 0
  void validate() const;                   ///< throws std::invalid_argument
};

struct Blajer2 {
  double m1 = 2.5, m2 = 4.0, m3 = 1.0;     ///< [kg]; m3 (slider, only without pin_in_slot) is ours
  double a1 = 0.25, a2 = 0.4;              ///< half lengths [m]
  double g = 9.81;                         ///< [m/s²], along +x
  double mu_ts = 0.3, mu_tk = 0.2, mu_rs = 0.15, mu_rk = 0.1, d = 0.05;
  BlajerFriction frictional;
  double torque_amplitude = 6.0, torque_frequency = 3.0;  ///< τ = τ0 sin Ωt [N·m, rad/s]
  /// true: no slider body; the rod's end B is a pin in a slot along x (Blajer's pin-in-slot
  /// joint, eq. 2.5: slot friction μt |f| (`guide`), pin friction μr d |R| (`B`), R the
  /// resultant of f and the slot friction, √(1 + μt²) |f| while the slot slides).
  /// false: a slider of mass m3 on the guide, pinned to the rod at B.
  bool pin_in_slot = true;
  void validate() const;
};

/// The minimal form of the build below (dynamics/routes/minimal_form/minimal_form_route.hpp).
MinimalFormScenario blajer1MinimalForm(const Blajer1& b);
MinimalFormScenario blajer2MinimalForm(const Blajer2& b);
/// The build every route runs (file comment): the guide's angle held (PlanarModel::addAngle)
/// and its normal direction a bilateral contact. Elements that come to rest together stick
/// as one group (Blajer's criterion, in the event-driven route too); event-driven agrees with
/// the minimal form with friction in one element or in all (tests/mechanisms).
dynamics::RigidScenario blajer2Rigid(const Blajer2& b);
dynamics::RigidScenario blajer1Rigid(const Blajer1& b);
/// Dupont's two masses by the minimal form of dupontRigid: independent (x1, y2, θ1) or
/// equivalent; friction is carried by ẋ1 alone.
MinimalFormScenario dupontMinimalForm(const Dupont& d);

}  // namespace stickslip::mechanisms
