#pragma once
/// \file Runs of the roller–crank (roller_crank.hpp) and the comparison of the review's six
/// friction models (review §4, Figs. 5–8, Table 4).
///
/// Integration: fixed-step RK4 (the discontinuous laws: a variable-step integrator cannot
/// proceed through their jump at v_s = 0, review §4) or CVODE BDF (smooth and dynamic laws).
/// Samples: every output_dt into the history, and every chatter_dt during the initial stick
/// window [0, stick_window] (every step for RK4 when dt ≥ chatter_dt), where the chatter of the
/// discontinuous laws is counted as sign changes of the sliding velocity v_s and of F.

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dynamics/friction/friction_law.hpp"
#include "mechanisms/roller_crank.hpp"

namespace stickslip::mechanisms {

struct RollerCrankOptions {
  enum class Integrator { kRk4, kBdf } integrator = Integrator::kBdf;
  double t_end = 2.0;                 ///< [s], > 0 (review: 2 s)
  double dt = 1e-5;                   ///< RK4 step [s], > 0
  double relative_tolerance = 1e-6;   ///< BDF (review Table 4: RelTol 1e-6), > 0
  /// BDF, > 0. Ours, below review Table 4's 1e-6: the bristle deflection z is ~1e-6 m.
  double absolute_tolerance = 1e-10;
  double max_step = 0.0;              ///< BDF largest step [s], ≥ 0 (0: unlimited)
  double output_dt = 1e-4;            ///< history sampling [s], > 0
  double stick_window = 0.05;         ///< initial stick phase examined for chatter [s], ≥ 0
  double chatter_dt = 1e-5;           ///< sampling inside the window [s], > 0
  double ratio_limit = 0.15;          ///< F/N bound watched (Table 3's μs), > 0
  double breakaway_velocity = 1e-3;   ///< |v_s| that ends the initial stick (Table 3's vs) [m/s], > 0

  /// Throws std::invalid_argument("RollerCrankOptions: expected …, got …").
  void validate() const;
};

/// History columns (scoped: other mechanisms name their columns alike).
struct RollerCrankColumn {
  enum Index : int {
    kTime, kCrankAngle, kRollerRate, kRollerAcceleration, kSlidingVelocity, kNormalForce,
    kFrictionForce, kFrictionRatio, kEnergy, kFrictionWork, kConstraintResidual, kColumnCount
  };
};
/// Names of the history columns, for CSV headers.
const std::vector<std::string>& rollerCrankColumnNames();

struct RollerCrankRun {
  bool ok = true;
  std::string message;        ///< why, when !ok
  double t = 0.0;             ///< time reached [s]
  long steps = 0;             ///< RK4 steps or CVODE internal steps
  long rhs_evaluations = 0;   ///< derivative() calls by the integrator
  double cpu_seconds = 0.0;
  Eigen::MatrixXd history;    ///< one row per output sample, RollerCrankColumn columns
  Eigen::VectorXd final_state;
  /// Over all samples.
  double max_friction_ratio = 0.0;       ///< max |F| / |N|
  double max_energy_balance_error = 0.0; ///< max |E − E(0) − W_f| [J]
  double max_constraint_residual = 0.0;  ///< max ‖Φ‖∞ [m]
  double max_velocity_residual = 0.0;    ///< max ‖D v + Φt‖∞ [m/s]
  double min_normal_force = 0.0;         ///< min N (a negative value would mean lift-off) [N]
  int max_loop_iterations = 0;           ///< law evaluations of the F ↔ N loop
  /// First sample where |v_s| > breakaway_velocity: the end of the initial stick (−1: never) [s].
  double breakaway_time = -1.0;
  /// First sample where |F|/|N| > ratio_limit (−1: never) [s].
  double first_ratio_exceedance = -1.0;
  /// In [0, stick_window].
  int sliding_sign_changes = 0;          ///< chatter count: sign changes of v_s
  int friction_sign_changes = 0;         ///< sign changes of F
  double max_window_sliding = 0.0;       ///< max |v_s| [m/s]
};

/// Integrates from RollerCrankSystem::initialState(). Throws std::invalid_argument for
/// invalid data or options; integration failures are reported in ok/message.
RollerCrankRun simulateRollerCrank(const RollerCrank& rc,
                                   std::shared_ptr<const dynamics::FrictionLaw> friction,
                                   const RollerCrankOptions& options);

/// One of the review's six friction models: its label, the catalogue law, the integrator.
struct RollerCrankModel {
  std::string label, law;
  RollerCrankOptions::Integrator integrator;
};
/// Discontinuous Coulomb (coulomb, RK4), regularized Coulomb (tanh, BDF), discontinuous
/// Stribeck (stribeck, RK4), Brown–McPhee, Dahl, LuGre (BDF).
const std::vector<RollerCrankModel>& rollerCrankModels();

struct RollerCrankTableRow {
  RollerCrankModel model;
  std::string integrator;    ///< the one that ran: "rk4" or "bdf"
  std::string bdf_failure;   ///< why BDF was abandoned for RK4, if it was
  RollerCrankRun run;
  double relative_cpu = 0.0; ///< cpu / the fastest model's cpu
};

/// The review's Table 4 analogue: every model of rollerCrankModels() with the friction
/// parameters `p` (default Table 3's); a BDF run that fails is redone with RK4.
std::vector<RollerCrankTableRow> rollerCrankTable(
    const RollerCrank& rc, const RollerCrankOptions& options,
    const dynamics::FrictionParameters& p = rollerCrankFrictionParameters());

std::string_view toString(RollerCrankOptions::Integrator i);

}  // namespace stickslip::mechanisms
