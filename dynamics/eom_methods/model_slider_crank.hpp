#pragma once
/// \file The planar slider-crank of the thesis' comparison of EOM methods (thesis §2.4).
///
/// The thesis uses a spatial slider-crank (Table 2.1); this is its planar counterpart with
/// the same lengths, masses and the inertias about the axis normal to the plane of motion:
///   crank   L1 = 0.10 m, m1 = 0.12 kg, J1 = 1e-4 kg·m² (pivot at the origin, centroid at L1/2)
///   rod     L2 = 0.29 m, m2 = 0.50 kg, J2 = 4e-3 kg·m² (centroid at L2/2)
///   slider  m3 = 0.50 kg, J3 = 1e-4 kg·m², on the x-axis (no offset)
/// Joints: revolute ground–crank at O, revolute crank–rod at the crank tip, revolute
/// rod–slider at the slider's centroid, translational ground–slider along x (8 equations,
/// 9 coordinates, 1 DoF). Gravity 9.81 m/s² along −y, no other force, so T + V is constant.
/// Initial state (thesis Table 2.2, planar): crank at θ1(0) rad, θ̇1(0) = 2π rad/s; the other
/// coordinates and velocities come from kinematic assembly with θ1, θ̇1 held.

#include <Eigen/Dense>

#include "dynamics/model/model_assembly.hpp"
#include "dynamics/model/planar_model.hpp"

namespace stickslip::dynamics {

struct SliderCrankData {
  double crank_length = 0.10, crank_mass = 0.12, crank_inertia = 1e-4;
  double rod_length = 0.29, rod_mass = 0.5, rod_inertia = 4e-3;
  double slider_mass = 0.5, slider_inertia = 1e-4;
  double gravity = 9.81;                      ///< along −y [m/s²]
  double crank_angle = 1.5707963267948966;    ///< θ1(0) [rad], crank pointing up
  double crank_speed = 6.283185307179586;     ///< θ̇1(0) [rad/s]
};

struct SliderCrank {
  PlanarModel model;
  BodyIndex crank = 0, rod = 1, slider = 2;
  Eigen::VectorXd q0, v0;   ///< assembled initial state
  AssemblyResult assembly;  ///< how q0, v0 were obtained
};

/// Builds the mechanism and assembles its initial state.
SliderCrank buildSliderCrank(const SliderCrankData& data = {});

}  // namespace stickslip::dynamics
