#include "mechanisms/roller_crank_verification.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "mechanisms/roller_crank_simulation.hpp"

namespace stickslip::mechanisms {
namespace {

using T = RollerCrankThresholds;
constexpr double kNever = 1e300;  // a stick that never ends

// A row whose pass is an inequality: `error` is by how much the bound is missed (0 if met).
VerificationRow bound(const std::string& method, const std::string& quantity, double limit,
                      double obtained, bool at_least, const RollerCrankRun& run) {
  const double miss = at_least ? std::max(0.0, limit - obtained) : std::max(0.0, obtained - limit);
  VerificationRow r{"roller-crank", method, quantity, limit, obtained, miss, 0.0, miss == 0.0, ""};
  if (!run.ok) {
    r.pass = false;
    r.note = run.message;
  }
  return r;
}

// max |E − E(0) − W_f| over the history rows with t ≤ t_max.
double balanceUntil(const RollerCrankRun& run, double t_max) {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < run.history.rows() && run.history(i, RollerCrankColumn::kTime) <= t_max; ++i)
    worst = std::max(worst, std::abs(run.history(i, RollerCrankColumn::kEnergy) - run.history(0, RollerCrankColumn::kEnergy) -
                                     run.history(i, RollerCrankColumn::kFrictionWork)));
  return worst;
}

}  // namespace

std::vector<VerificationRow> rollerCrankVerification() {
  const RollerCrank rc;
  RollerCrankOptions o;
  std::vector<VerificationRow> rows;

  // Frictionless: nothing turns the roller about its centre (the rod's pin is there), so
  // θ̇_r = 8 rad/s for ever, and T + V is conserved.
  RollerCrankOptions tight = o;
  tight.relative_tolerance = 1e-10;
  const RollerCrankRun free = simulateRollerCrank(rc, nullptr, tight);
  double spin_error = 0.0;
  for (Eigen::Index i = 0; i < free.history.rows(); ++i)
    spin_error = std::max(spin_error, std::abs(free.history(i, RollerCrankColumn::kRollerRate) - rc.crank_rate * 2.0));
  rows.push_back(bound("bdf, no friction", "max |omega_roller - 8| (closed form: constant) [rad/s]",
                       1e-9, spin_error, false, free));
  rows.push_back(bound("bdf, no friction", "max |E - E(0)| [J]", T::kEnergyBalance,
                       free.max_energy_balance_error, false, free));

  const std::vector<RollerCrankTableRow> table = rollerCrankTable(rc, o);
  // The laws without static friction leave the initial stick before those with it.
  double latest_without = 0.0, earliest_with = kNever;
  bool all_ok = true;
  for (const RollerCrankTableRow& r : table) {
    const bool stiction = r.model.law == "stribeck" || r.model.law == "brown-mcphee" ||
                          r.model.law == "lugre";
    const double t = r.run.breakaway_time < 0.0 ? kNever : r.run.breakaway_time;
    if (stiction) earliest_with = std::min(earliest_with, t);
    else latest_without = std::max(latest_without, t);
    all_ok = all_ok && r.run.ok;
  }
  rows.push_back(bound("all six", "end of stick (|v_s| > vs): latest without stiction < earliest with it (" +
                                      std::to_string(earliest_with) + " s) [s]",
                       earliest_with, latest_without, false, table.front().run));
  rows.back().pass = rows.back().pass && latest_without < earliest_with && all_ok;
  for (const RollerCrankTableRow& r : table) {
    const std::string method = r.model.law + "/" + r.integrator;
    if (r.model.law == "lugre") {
      rows.push_back(bound(method, "max |E - E(0) - W_f| for t <= " +
                                       std::to_string(T::kLuGreBalanceWindow) + " s (before the fold) [J]",
                           T::kEnergyBalance, balanceUntil(r.run, T::kLuGreBalanceWindow), false, r.run));
    } else {
      rows.push_back(bound(method, "max |E - E(0) - W_f| [J]", T::kEnergyBalance,
                           r.run.max_energy_balance_error, false, r.run));
    }
    rows.push_back(bound(method, "max |Phi| [m]", T::kConstraint, r.run.max_constraint_residual,
                         false, r.run));
    const bool jump = r.model.integrator == RollerCrankOptions::Integrator::kRk4;
    rows.push_back(bound(method,
                         std::string(jump ? "chatter: sign changes of v_s in [0, " : "rolling: sign changes of v_s in [0, ") +
                             std::to_string(o.stick_window) + "] s",
                         jump ? T::kDiscontinuousChatter : T::kSmoothChatter,
                         r.run.sliding_sign_changes, jump, r.run));
    const double mu_s = rollerCrankFrictionParameters().mu_s;
    if (r.model.law == "lugre")
      rows.push_back(bound(method, "max F/N exceeds mu_s (review Fig. 7f); first at t = " +
                                       std::to_string(r.run.first_ratio_exceedance) + " s",
                           mu_s, r.run.max_friction_ratio, true, r.run));
    if (r.model.law == "brown-mcphee")
      rows.push_back(bound(method, "max F/N <= mu_s", mu_s + T::kRatioTolerance,
                           r.run.max_friction_ratio, false, r.run));
  }
  return rows;
}

}  // namespace stickslip::mechanisms
