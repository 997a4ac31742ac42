#pragma once
/// \file The planar roller–crank mechanism of Marques, Flores, Claro & Lankarani 2018 (review
/// §4, Tables 1–3): crank, connecting rod and roller, with friction at the roller–ground
/// contact only.
///
/// Model (absolute coordinates, planar_model.hpp): three bodies, revolutes ground–crank (at the
/// origin), crank–rod and rod–roller (at the roller's centre), and a point-on-line constraint
/// holding the roller's centre at height h (it rolls on the ground line y = h − R). 9
/// coordinates, 7 constraints: 2 DoF, the loop and the roller's spin. Gravity along −y.
///
/// Contact: the normal force is the reaction of the vertical constraint, N = −λ_y (the
/// constraint force on the roller is −λ_y along y; N > 0 when the ground pushes up). The
/// sliding velocity of the roller's material point in contact is v_s = ẋ_r + R θ̇_r, so the
/// tangential row is J_t = (1, 0, R) on (x_r, y_r, θ_r) and the friction force F along +x at
/// the contact point adds J_tᵀ F to Q. The law gets v_s, |N| (the review's ‖F_N‖) and Fₑ = 0:
/// in the multibody setting the tangential force of the other loads depends on the unknown
/// accelerations; the set-valued branch of the discontinuous laws at exactly v_s = 0 is then
/// sgn(0) = 0 (review eq. 3), reached only at t = 0.
///
/// The algebraic loop F ↔ N is resolved exactly at every evaluation. With Baumgarte's
/// stabilized Lagrange equations (review eq. 17; W = D M⁻¹ Dᵀ)
///   λ = W⁻¹ (D M⁻¹ (Q + J_tᵀ F) − γ̃),   v̇ = M⁻¹ (Q + J_tᵀ F − Dᵀ λ),
/// λ and v̇ are affine in F: λ = λ₀ + F λ₁, v̇ = v̇₀ + F v̇₁ (one factorization of W, two
/// right-hand sides), so N = a + b F with a = −λ₀,y, b = −λ₁,y, and F = law(v_s, |N|, z) is
/// one scalar equation, solved to round-off by solveFrictionLoop() (friction_loop.hpp).
/// For LuGre with a load-independent σ1 the equation can have three roots; as N falls the
/// physical one merges with a second and vanishes (a fold, t ≈ 0.28 s with Table 2's start):
/// the solution then jumps to a remote root, where F/N ≫ μs. Near the fold the secant from
/// the frictionless reaction may already land on the remote root (no continuation).
/// The converged F gives v̇, λ and, for dynamic laws, ż at the same N. The state also
/// carries the friction work W_f = ∫ F v_s dt, so that E(t) − E(0) = W_f(t) can be checked.

#include <Eigen/Dense>
#include <memory>
#include <string>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/friction/friction_parameters.hpp"
#include "dynamics/nonsmooth/rigid_contact.hpp"
#include "dynamics/planar_model.hpp"

namespace stickslip::mechanisms {

/// Data of review Tables 1–2 (lengths, masses, inertias about the centroids).
struct RollerCrank {
  double crank_length = 0.10, crank_mass = 0.12, crank_inertia = 0.002;  ///< [m], [kg], [kg·m²]
  double rod_length = 0.30, rod_mass = 0.30, rod_inertia = 0.002;
  double roller_radius = 0.05, roller_mass = 0.10, roller_inertia = 0.001;
  double roller_height = 0.10;  ///< h: height of the roller's centre (Table 2) [m], > R
  double gravity = 9.81;        ///< along −y [m/s²], ≥ 0
  double crank_angle = 1.5707963267948966;  ///< θ₁(0) (Table 2: π/2) [rad]
  double crank_rate = 4.0;                  ///< θ̇₁(0), anticlockwise [rad/s]
  double baumgarte_alpha = 5.0, baumgarte_beta = 5.0;  ///< [1/s], ≥ 0 (review eq. 17)

  /// Throws std::invalid_argument("RollerCrank: expected …, got …").
  void validate() const;
};

/// Review Table 3: μs = 0.15, μk = 0.1, vs = 1 mm/s, δσ = 2, σ0 = 1e5 N/m, σ1 = √1e5 N·s/m,
/// σ2 = 0; the dry contact has no viscous term (Fv = 0, review §2). Other fields: the
/// catalogue defaults.
dynamics::FrictionParameters rollerCrankFrictionParameters();

/// The contact at one evaluation of the equations of motion.
struct RollerContact {
  double sliding_velocity = 0.0;     ///< v_s [m/s]
  double normal_force = 0.0;         ///< N = −λ_y [N] (signed)
  double friction_force = 0.0;       ///< F along +x on the roller [N]
  double roller_acceleration = 0.0;  ///< θ̈_r [rad/s²]
  int loop_iterations = 0;           ///< secant iterates of the F ↔ N loop
  double loop_residual = 0.0;        ///< |F − law(v_s, |N(F)|, z)| at the solution [N]
};

/// State y = [q (9); v (9); z (the law's states); W_f]. Bodies 0 crank, 1 rod, 2 roller.
class RollerCrankSystem {
 public:
  /// `friction` null: frictionless contact. Throws std::invalid_argument on invalid data.
  RollerCrankSystem(const RollerCrank& rc, std::shared_ptr<const dynamics::FrictionLaw> friction);
  RollerCrankSystem(const RollerCrankSystem&) = delete;
  RollerCrankSystem& operator=(const RollerCrankSystem&) = delete;

  static constexpr dynamics::BodyIndex kCrank = 0, kRod = 1, kRoller = 2;
  Eigen::Index stateSize() const { return 18 + nz_ + 1; }
  Eigen::Index frictionStateSize() const { return nz_; }
  const dynamics::PlanarModel& model() const { return model_; }
  const RollerCrank& data() const { return rc_; }
  const dynamics::FrictionLaw* friction() const { return friction_.get(); }

  /// Positions from θ₁(0) (roller to the right of the crank, rod end at height h), velocities
  /// from θ̇₁(0), the constraints and pure rolling (v_s = 0), undeflected friction states,
  /// W_f = 0. Reproduces review Table 2 for the default data.
  Eigen::VectorXd initialState() const;

  /// ẏ at (t, y); false if W is singular or the friction loop does not converge (then
  /// lastContact().loop_iterations is the cap). Allocates nothing.
  bool derivative(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                  Eigen::Ref<Eigen::VectorXd> ydot);
  /// The contact of the last derivative() call.
  const RollerContact& lastContact() const { return contact_; }

  /// T + V (gravity) [J].
  double mechanicalEnergy(const Eigen::Ref<const Eigen::VectorXd>& y) const;
  /// ‖Φ(q)‖∞ [m].
  double constraintResidual(const Eigen::Ref<const Eigen::VectorXd>& y) const;
  /// ‖D v + Φt‖∞ [m/s].
  double velocityResidual(const Eigen::Ref<const Eigen::VectorXd>& y) const;

 private:
  double lawForce(double v, double n, const Eigen::Ref<const Eigen::VectorXd>& z) const;

  RollerCrank rc_;
  std::shared_ptr<const dynamics::FrictionLaw> friction_;
  dynamics::PlanarModel model_;
  Eigen::Index nz_ = 0;
  Eigen::Index row_y_ = 0;  ///< the roller-height constraint's row in Φ
  RollerContact contact_;
  // Workspace.
  mutable Eigen::VectorXd phi_, phi_t_, gamma_, q_force_, jt_, rhs_, lambda0_, lambda1_, mass_inv_;
  mutable Eigen::MatrixXd jac_, jac_minv_, w_;
  Eigen::LDLT<Eigen::MatrixXd> ldlt_;
};

/// The same mechanism for the nonsmooth routes: the roller's height held by a bilateral
/// contact of the roller (a disk of radius R) on the ground line y = h − R, with set-valued
/// Coulomb friction at Table 3's μs, μk, instead of a constraint plus a friction law; the
/// initial state of RollerCrankSystem (rolling, θ̇₁ given).
dynamics::RigidScenario rollerCrankRigid(const RollerCrank& rc);

}  // namespace stickslip::mechanisms
