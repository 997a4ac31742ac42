#pragma once
/// \file The scaling benchmark: a chain of N blocks on one moving belt. Block 0 is tied to a
/// wall by a spring k, block i to block i − 1 by another spring k; every block rests on the
/// belt (speed v_b, gravity g) through one frictional rigid contact with μs, μk:
///   m_i ẍ_i = −k (x_i − x_{i−1} − L) + k (x_{i+1} − x_i − L) + F_i,   x_{−1} = −L (the wall),
/// the last block having no right-hand spring. With N = 1 it is the belt of belt.hpp, whose
/// closed-form cycle it reproduces.
///
/// Variety, so that the N contacts do not switch at the same instants: block i has the mass
///   m_i = m (1 + mass_spread u_i),   u_i = frac(i φ),  φ = (√5 − 1) / 2,
/// a low-discrepancy sequence (u_0 = 0, 0.618, 0.236, 0.854, 0.472, …): no two blocks
/// alike, none far from m, block 0 exactly m. Optionally (offset_amplitude a > 0) block
/// i ≥ 1 starts displaced by a (2 u_i − 1) from its rest position i L, which pre-loads the
/// springs; once k a is comparable to μs m g some blocks slide from t = 0 (with the belt's
/// data, a = 1.5 m needs L > 3 m). Block 0 always starts at rest length.
/// With a = 0 the chain moves rigidly with the belt until block 0 — the only block whose
/// spring stretches — breaks away at the belt's t₁ = μs m g / (k v_b), for every N.

#include <Eigen/Dense>

#include "dynamics/contact/rigid_contact.hpp"
#include "mechanisms/belt.hpp"

namespace stickslip::mechanisms {

struct BeltChain {
  Belt belt;                      ///< m, v_b, k, g, μs, μk of every block and spring
  int blocks = 4;                 ///< N ≥ 1
  double spacing = 1.0;           ///< L, rest length of every spring [m], > 0
  double mass_spread = 0.2;       ///< m_i / m − 1 ∈ [0, mass_spread), ≥ 0
  double offset_amplitude = 0.0;  ///< a [m], 0 ≤ a < L / 2 (see the file comment)

  /// Throws std::invalid_argument("BeltChain: expected …, got …").
  void validate() const;
  double blockMass(int i) const;      ///< m_i [kg]
  double initialOffset(int i) const;  ///< x_i(0) − i L [m]
};

/// The chain as a planar model: body i is block i (a point mass at (x_i, 0), inertia
/// m_i (0.1 m)², as the belt's block), the springs as one generalized force on the x
/// coordinates, contact i ("block-<i>") its centre on the ground line y = 0 moving at v_b.
/// q0 = (i L + offset_i, 0, 0) per block, v0 = (v_b, 0, 0): every block starts with the belt.
dynamics::RigidScenario beltChainRigid(const BeltChain& chain);

/// Kinetic, spring and gravity energy of the chain at (q, v) [J] (gravity measured from
/// y = 0), for energy balances.
double beltChainEnergy(const BeltChain& chain, const Eigen::Ref<const Eigen::VectorXd>& q,
                       const Eigen::Ref<const Eigen::VectorXd>& v);

}  // namespace stickslip::mechanisms
