#pragma once
/// \file The slider-crank with a translational clearance joint of Flores, Leine & Glocker
/// (Multibody Syst. Dyn. 23 (2010) 165–190, §5; also Siconos' SliderCrank example): data in
/// DESIGN.md §7.
///
/// Built in absolute coordinates (planar_model.hpp) with three bodies:
///  - crank, length l1, pivoted at the ground origin: its centroid is the bar's midpoint
///    (revolute ground (0, 0) – crank (−l1/2, 0));
///  - rod, length l2, revolute crank (l1/2, 0) – rod (−l2/2, 0), centroid at its midpoint;
///  - slider, a 2a × 2b rectangle whose centre is the rod's end (revolute rod (l2/2, 0) –
///    slider (0, 0)), free to rotate; no joint to the ground.
/// The given J1, J2, J3 are taken as centroidal inertias: the paper's mass matrix (and
/// Siconos' plugin) has J1 + m1 l1²/4 for the crank about O, i.e. J1 about the midpoint.
/// The guide is the strip |y| ≤ b + c. Four unilateral point contacts: the slider's
/// corners (−a, +b), (+a, +b) against the upper wall y = b + c (normal −y) and (−a, −b),
/// (+a, −b) against the lower wall y = −(b + c) (normal +y); Newton restitution e, Coulomb μ
/// (μs = μk). At q = 0 every corner is at distance c from its wall.
/// No driver: the mechanism starts with the generalized rates (θ̇1, θ̇2, θ̇3) = (150, −75,
/// −0.01) rad/s at θ = 0 and runs free under gravity (−y).

#include <Eigen/Dense>
#include <string>
#include <utility>
#include <vector>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {

struct FloresTranslational {
  double l1 = 0.1530, l2 = 0.3060;               ///< crank and rod lengths [m]
  double a = 0.05, b = 0.025;                    ///< slider half-length and half-width [m]
  double c = 0.001;                              ///< radial clearance of the guide [m], > 0
  double m1 = 0.038, m2 = 0.038, m3 = 0.076;     ///< [kg]
  double J1 = 7.4e-5, J2 = 5.9e-4, J3 = 2.7e-6;  ///< centroidal [kg·m²]
  double gravity = 9.81;                         ///< along −y [m/s²], ≥ 0
  double restitution = 0.4;                      ///< e of the four corner contacts
  double mu = 0.01;                              ///< Coulomb coefficient (μs = μk)
  /// Generalized initial state: absolute angles of crank, rod, slider and their rates.
  Eigen::Vector3d theta0 = Eigen::Vector3d::Zero();
  Eigen::Vector3d theta_rate0 = Eigen::Vector3d(150.0, -75.0, -0.01);

  /// Throws std::invalid_argument("FloresTranslational: expected …, got …").
  void validate() const;
};

/// Body indices in the scenario's model.
inline constexpr dynamics::BodyIndex kFloresCrank = 0, kFloresRod = 1, kFloresSlider = 2;

/// The built-in (mechanisms/scenarios/flores-translational.yaml) with these values and the
/// file's corner compliance (flores_compliant.hpp): q0, v0 consistent with the joints (the
/// slider's centre at the rod's end). Contacts in the order: upper-left, upper-right,
/// lower-left, lower-right corner.
dynamics::RigidScenario floresTranslational(const FloresTranslational& data = {});
/// The values of `data` by the file's parameter names.
std::vector<std::pair<std::string, double>> floresParameters(const FloresTranslational& data);

/// Corners of the slider in its body frame, in the contacts' order.
Eigen::Matrix<double, 2, 4> floresCorners(const FloresTranslational& data);

}  // namespace stickslip::mechanisms
