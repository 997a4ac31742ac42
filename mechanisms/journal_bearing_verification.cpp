#include "mechanisms/journal_bearing_verification.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dynamics/routes/penalty/penalty_route.hpp"
#include "mechanisms/journal_bearing.hpp"

namespace stickslip::mechanisms {
namespace {

constexpr const char* kCase = "journal-bearing";

dynamics::RunResult drop(const JournalBearing& jb, const std::string& law, double t_end, double output_dt) {
  dynamics::PenaltyRouteOptions o;
  o.friction_law = law;
  o.friction_parameters = journalBearingFrictionParameters(jb);
  o.passive = true;
  o.integration.integrator = dynamics::PenaltyIntegrationOptions::Integrator::kBdf;
  o.integration.t_end = t_end;
  o.integration.output_dt = output_dt;
  return dynamics::simulatePenaltyRoute(journalBearingRigid(jb), o);
}

// History columns of the penalty route: t, q = (x, y, θ), v = (ẋ, ẏ, θ̇), N, F.
constexpr Eigen::Index kNormal = 7, kFriction = 8;

VerificationRow ofRun(const std::string& method, const std::string& quantity, Check check, double reference,
                      double obtained, double tolerance, const dynamics::RunResult& run, bool relative = false) {
  return makeRow(kCase, method, quantity, check, reference, obtained, tolerance, run.ok(),
                 run.ok() ? "" : run.message, relative);
}

}  // namespace

std::vector<VerificationRow> journalBearingVerification() {
  std::vector<VerificationRow> rows;
  const JournalBearing jb;  // Table 5, no friction
  const dynamics::RunResult fall = drop(jb, "none", 0.006, 1e-7);  // the first impact at 4.5 ms
  double peak = 0.0;
  for (Eigen::Index i = 0; i < fall.history.rows(); ++i) peak = std::max(peak, fall.history(i, kNormal));
  const double v = std::sqrt(2.0 * jb.gravity * jb.clearance()), k = jb.contactStiffness();
  const double hertz = k * std::pow(5.0 * jb.mass * v * v / (4.0 * k), 0.6);
  rows.push_back(ofRun("penalty/bdf, no friction",
                       "first impact's peak N against Hertz's elastic impact after the fall through c (" +
                           std::to_string(std::lround(hertz / (jb.mass * jb.gravity))) +
                           " weights; the review reads ~100) [N]",
                       Check::kWithin, hertz, peak, 0.06, fall, true));

  const JournalBearingPhases phases = journalBearingPhases(jb, fall);
  rows.push_back(ofRun("penalty/bdf, no friction", "first impact's energy ratio (v_out/v_in)^2 against c_e^2",
                       Check::kWithin, jb.restitution * jb.restitution,
                       phases.impacts.empty() ? NAN : phases.impacts.front().energy_ratio, 0.05, fall, true));

  JournalBearing rough = jb;  // the review's Table 3 friction
  rough.mu_static = 0.15;
  rough.mu_kinetic = 0.1;
  const dynamics::RunResult brown = drop(rough, "brown-mcphee", 0.25, 1e-5);
  double ratio = 0.0;
  for (Eigen::Index i = 0; i < brown.history.rows(); ++i)
    if (brown.history(i, kNormal) > 0.0)
      ratio = std::max(ratio, std::abs(brown.history(i, kFriction) / brown.history(i, kNormal)));
  rows.push_back(ofRun("penalty/bdf, brown-mcphee", "largest |F|/N over 0.25 s, at most mu_s = 0.15 (review Fig. 12)",
                       Check::kAtMost, NAN, ratio, rough.mu_static + 1e-6, brown));
  return rows;
}

}  // namespace stickslip::mechanisms
