#include "mechanisms/muvengei_verification.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "dynamics/friction/make_friction_law.hpp"
#include "mechanisms/muvengei.hpp"

namespace stickslip::mechanisms {
namespace {

// A row of a penalty-route run: it fails with the run's message when the run failed.
VerificationRow penaltyRow(std::string quantity, double reference, double obtained,
                           double tolerance, const dynamics::PenaltyRun& run,
                           Check check = Check::kWithin) {
  const bool ok = run.status == dynamics::PenaltyStatus::kSuccess;
  return makeRow("muvengei", "penalty/bdf", std::move(quantity), check, reference, obtained, tolerance, ok,
                 ok ? "" : run.message);
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

std::vector<VerificationRow> verifyMuvengei() {
  std::vector<VerificationRow> rows;
  MuvengeiSliderCrank d;
  dynamics::PenaltyIntegrationOptions o;
  o.t_end = 2.0 * d.period();
  o.output_dt = 1e-6;
  const dynamics::FrictionParameters p = muvengeiFrictionParameters(d);
  d.ideal = true;
  const MuvengeiRun ideal = simulateMuvengei(d, nullptr, o);
  const MuvengeiCycle ci = analyseMuvengeiCycle(d, ideal, d.period());
  rows.push_back(
      penaltyRow("ideal joint: max |a - a(closed form)| / max |a| over the 2nd revolution", 0.0,
                 ci.max_ideal_acceleration_error / ci.max_ideal_acceleration, 1e-6, ideal.run));
  d.ideal = false;
  const MuvengeiRun lugre =
      simulateMuvengei(d, dynamics::makeFrictionLaw("lugre-nondimensional", p), o);
  const MuvengeiCycle c = analyseMuvengeiCycle(d, lugre, d.period());
  const double ratio = c.max_acceleration / ci.max_acceleration;
  rows.push_back(penaltyRow("clearance 0.5 mm, LuGre: impact spikes, max |a| / max |a(ideal)|, >= 1.5", kNaN,
                            ratio, 1.5, lugre.run, Check::kAtLeast));
  const double l = d.rod_length, r = d.crank_length;
  rows.push_back(penaltyRow(
      "max |x - x(ideal)|, <= (c + max penetration) l / sqrt(l^2 - r^2) (+0.1%) [m]", kNaN,
      c.max_position_deviation,
      (d.clearance + c.max_penetration) * l / std::sqrt(l * l - r * r) * (1.0 + 1e-3), lugre.run,
      Check::kAtMost));
  rows.push_back(penaltyRow("bristle bound: max |sigma0 z| / mu_s, <= 1", kNaN, c.max_bristle_ratio, 1.0,
                            lugre.run, Check::kAtMost));
  rows.push_back(penaltyRow("max |F_t| / (mu_s F_n), <= 1", kNaN, c.max_friction_ratio, 1.0, lugre.run,
                            Check::kAtMost));
  rows.push_back(penaltyRow("presliding samples (|v_t| < v_s, F_t != 0) (count, must be 0); min |v_t| in contact " +
                                std::to_string(c.min_tangential_velocity) + " m/s",
                            0.0, double(c.stick_samples), 0.0, lugre.run, Check::kCount));
  rows.push_back(penaltyRow("work balance |dE - W_driver - W_contact| / int |P_driver| dt", 0.0,
                            c.energy_residual, 1e-5, lugre.run));
  o.t_end = 0.005;
  const MuvengeiRun woj = simulateMuvengei(d, dynamics::makeFrictionLaw("lugre-wojtyra", p), o);
  double diff = 0.0;
  for (Eigen::Index i = 0; i < woj.table.rows(); ++i)
    diff = std::max(diff, std::abs(woj.table(i, kSliderX) - lugre.table(i, kSliderX)));
  rows.push_back(
      penaltyRow("lugre-wojtyra = lugre-nondimensional (N_E = 1 N): max |dx| [m] over 5 ms", 0.0,
                 diff, 1e-7, woj.run));
  return rows;
}

}  // namespace stickslip::mechanisms
