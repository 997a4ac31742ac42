#pragma once
/// \file Dupont's two-mass problem (Blajer & Markiewicz §3, Fig. 4; Dupont 1993): in a
/// horizontal plane, mass m2 moves along y (an ideal prismatic guide) and carries a slot in
/// which mass m1 slides along x with Coulomb friction (μs, μk) against the slot's walls. F1(t)
/// pushes m1 along x, F2(t) pushes m2 along y. The normal force between the masses is the
/// inertial one, N = m1 F2 / (m1 + m2), which changes sign with F2: friction is bounded by
/// μ |N| and the slot's wall that carries the load switches.
///
/// As a planar model (mechanisms/scenarios/dupont.yaml): body m2 on a translational joint with the ground along y; body m1 with
/// a bilateral frictional contact of its centre on the slot line (x axis of m2). Both are
/// point masses (small inertias; no torque acts). Starts at rest at the origin.

#include <string>
#include <utility>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct Dupont {
  double m1 = 10.0, m2 = 30.0;            ///< [kg], > 0
  double f1_amplitude = 7.0, f1_frequency = 2.4;   ///< F1 = 7 sin 2.4 t [N, rad/s]
  double f2_amplitude = 50.0, f2_frequency = 0.8;  ///< F2 = 50 cos 0.8 t [N, rad/s]
  double mu_static = 0.5, mu_kinetic = 0.3;
  void validate() const;  ///< throws std::invalid_argument
};

/// The built-in dupont (mechanisms/scenarios/dupont.yaml) with these values.
dynamics::RigidScenario dupontRigid(const Dupont& d);
/// The values of a mechanism loaded from dupont.yaml; throws std::invalid_argument when it
/// lacks one.
Dupont dupontOf(const dynamics::RigidScenario& s);

/// Mode changes of m1 up to t_end by coulombReference (coulomb_reference.hpp), with
/// f = F1 and N = m1 |F2| / (m1 + m2): (t, "stick" | "slip+" | "slip-"), slip± meaning ẋ ≷ 0.
std::vector<std::pair<double, std::string>> dupontReference(const Dupont& d, double t_end);

}  // namespace stickslip::mechanisms
