#pragma once
/// \file An initial state with clearance joints carrying the mechanism's static load, as
/// Zheng, Zhang & Wang (2018) start their slider-crank "in permanent contact": a journal
/// merely touching its bearing would start with no normal force, hence no friction, and a
/// centred one with a fall across the clearance.
///
/// For every contact with RigidContact::preloaded (journal-in-bearing), at t = 0:
/// 1. The load. The clearance joints are locked (welded where the journal sits) in the
///    passive mechanism (no drivers) at rest; the weld's reaction on the journal is the force
///    F and the torque M the joint carries.
/// 2. The placement. The bearing pushes the journal with F = −N n + F_t t at the contact
///    point r_J + R_J n, n = e/|e| (e = r_J − r_B): the moment about r_J is R_J F_t. A
///    mechanism started in motion takes the load with N alone (F_t = 0); one started at rest
///    (every initial velocity 0) also carries M by friction, F_t = M / R_J, N = √(|F|² − F_t²):
///    the sticking equilibrium, where the contact force passes off the journal centre as the
///    friction circle allows. Then |e| = c + δ, δ = (N/K)^(1/n) the static penetration of the
///    compliant law K δⁿ (0 for a rigid contact), in the direction that gives F.
/// 3. The other coordinates are assembled to that eccentricity, the held ones kept
///    (RigidScenario::initial_held); steps 1–3 are repeated until e no longer changes.
/// 4. At rest with compliant contacts, Gauss–Newton on the eccentricities makes the
///    acceleration of the real model vanish with the preloaded contacts stuck
///    (a = a₀ + G Σ J_nᵀ N + G J_tᵀ F_t, F_t from J_t a = 0): the state is an equilibrium.
/// 5. Velocities: the joints, drivers and bilateral contacts closed, each preloaded journal
///    rolling in its bearing (ġ = v_t = 0), the held velocities kept; the least change of the
///    given ones (model_assembly.hpp's rule).
///
/// The load is the static one (centripetal and inertial loads of a mechanism started in
/// motion are not in it); forces of other contacts are not in it either.

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::dynamics {

/// Sets s.q0 and s.v0 as above from their current values (the positions a guess of the
/// assembled configuration). Does nothing when no contact is preloaded. Throws
/// std::invalid_argument naming the contact when a step fails: a locked mechanism that is not
/// rigid or not determinate (singular), an assembly that does not converge, a load the
/// friction circle cannot carry.
void preloadClearanceJoints(RigidScenario& s);

}  // namespace stickslip::dynamics
