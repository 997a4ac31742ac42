#pragma once
/// \file The coupled-contact benchmark: a chain of N links hanging from the ground, each joint a
/// revolute clearance joint (a rigid journal–bearing contact with Coulomb friction). Contact k
/// joins link k − 1 (the ground for k = 0) to link k, so contacts k and k + 1 share link k and
/// W = J M⁻¹ Jᵀ is block-tridiagonal: every contact is coupled, through the chain, to all the
/// others — unlike the belt chain, whose contacts meet only through springs.
///
/// Link k: length L, mass m, inertia m L² / 12, its axis along the body y-axis; the journal
/// (radius R) at its top (0, L/2), the bearing (radius R + c) at its bottom (0, −L/2) and, for
/// link 0, at the ground's origin. At t = 0 the chain hangs straight down in tension: each
/// journal rests at the bottom of its bearing (gap 0), and every link moves sideways at v0, a
/// rigid translation the joints allow, so that gravity swings it and the joints turn and slide.
///
/// With clearance_every = K > 1 only joints 0, K, 2K, … have clearance; the others are ideal
/// revolute joints ("pin-<k>") at the same points. The contacts are then coupled through the
/// ideal joints' reactions (G of constrained_response.hpp), and the chain has 2 (N − ⌈N/K⌉)
/// joint rows: the benchmark of a mechanism with many joints and few contacts.

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct ClearanceChain {
  int links = 8;               ///< N ≥ 1
  double length = 0.1;         ///< L [m], > 0
  double mass = 0.1;           ///< m [kg], > 0
  double journal_radius = 0.01;  ///< R [m], 0 < R < L / 2
  double clearance = 1e-4;     ///< c [m], > 0
  double mu_static = 0.15, mu_kinetic = 0.1;  ///< 0 ≤ μk ≤ μs
  double speed = 0.5;          ///< v0 [m/s], sideways
  double gravity = 9.81;       ///< [m/s²], ≥ 0
  int clearance_every = 1;     ///< K ≥ 1: joint k has clearance when K divides k

  /// Throws std::invalid_argument("ClearanceChain: expected …, got …").
  void validate() const;
};

/// The chain as a planar model with N bodies ("link-<k>"), a contact "joint-<k>" per clearance
/// joint and a revolute joint "pin-<k>" per ideal one.
dynamics::RigidScenario clearanceChainRigid(const ClearanceChain& chain);

}  // namespace stickslip::mechanisms
