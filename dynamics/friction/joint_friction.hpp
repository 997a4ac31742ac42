#pragma once
/// \file Coulomb friction in a mechanism's joint as every route reads it (mechanism.hpp): the
/// planar revolute and pin-in-slot friction (contact/revolute_friction.hpp) and the spatial
/// revolute and translational friction (spatial_mechanism.hpp) alike.

#include <string>

namespace stickslip::dynamics {

/// Coulomb friction in one of a mechanism's joints, as the routes read it: the friction torque
/// (or force) is bounded by μ · lever · |R|, with |R| the joint's load
/// (Mechanism::jointFrictionReaction), and does work on its sliding rate ṡ.
struct JointFriction {
  std::string name = "joint friction";
  double mu_static = 0.0;   ///< μs ≥ μk
  double mu_kinetic = 0.0;  ///< μk ≥ 0
  double lever = 1.0;       ///< a pin's radius r [m] (a torque), 1 for a slider (a force)
  /// ≥ 0: its load is the force of that contact of the mechanism (a pin in a slot); −1: the
  /// joints' multipliers carry it.
  int load_contact = -1;
};

}  // namespace stickslip::dynamics
