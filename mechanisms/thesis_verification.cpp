#include "mechanisms/thesis_verification.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dynamics/eom_methods/eom_integration.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {
namespace {

constexpr const char* kCase = "thesis";

/// The spatial slider-crank (thesis §2.4) by one EOM method and RK4 step h over t_end: the
/// largest ‖Φ‖ up to t_split and up to t_end, and E(t_end) − E0.
struct EomRun {
  dynamics::EomRunResult run;
  double phi_early = 0.0, phi_late = 0.0, energy_change = NAN;
};

EomRun eomRun(dynamics::EomMethod method, double h, double t_split = 5.0, double t_end = 20.0) {
  const SpatialScenario s = builtinSpatialModel("spatial-slider-crank");
  Eigen::VectorXd q = s.q0, v = s.v0, phi(s.model.constraintCount());
  const double e0 = s.model.kineticEnergy(v) + s.model.potentialEnergy(q);
  dynamics::EomSolver solver(s.model, method);
  EomRun out;
  out.run = dynamics::integrateRk4(solver, 0.0, t_end, h, q, v,
                                   [&](double t, const Eigen::Ref<const Eigen::VectorXd>& qs,
                                       const Eigen::Ref<const Eigen::VectorXd>&) {
                                     s.model.constraints(t, qs, phi);
                                     double& largest = t <= t_split ? out.phi_early : out.phi_late;
                                     largest = std::max(largest, phi.norm());
                                   });
  out.phi_late = std::max(out.phi_late, out.phi_early);
  if (out.run.ok()) out.energy_change = s.model.kineticEnergy(v) + s.model.potentialEnergy(q) - e0;
  return out;
}

VerificationRow eomRow(const std::string& method, const std::string& quantity, Check check, double obtained,
                       double bound, const EomRun& r) {
  return makeRow(kCase, method, quantity, check, NAN, obtained, bound, r.run.ok(), r.run.ok() ? "" : r.run.message);
}

/// The belt (thesis Table 3.1) by the penalty route with `law` over 20 s: the samples of
/// [10, 20] s, the steady stick-slip cycle.
ScenarioRun beltRun(const std::string& law) {
  RunSettings settings;
  settings.route = Route::kPenalty;
  settings.friction = law;
  settings.t_end = 20.0;
  return runScenario(loadScenario("belt"), settings);
}

}  // namespace

std::vector<VerificationRow> thesisVerification() {
  std::vector<VerificationRow> rows;
  const EomRun lagrange = eomRun(dynamics::EomMethod::kLagrange, 1e-3);
  rows.push_back(eomRow("lagrange, rk4 h=1e-3", "Fig. 2.7: max |Phi| over 20 s / max |Phi| over 5 s (the violation grows)",
                        Check::kAtLeast, lagrange.phi_late / lagrange.phi_early, 4.0, lagrange));
  const EomRun baumgarte = eomRun(dynamics::EomMethod::kBaumgarte, 1e-3);
  rows.push_back(eomRow("baumgarte, rk4 h=1e-3", "Fig. 2.7: max |Phi| over 20 s (held)", Check::kAtMost,
                        baumgarte.phi_late, 1e-6, baumgarte));
  const EomRun penalty = eomRun(dynamics::EomMethod::kPenalty, 5e-4);
  rows.push_back(eomRow("penalty, rk4 h=5e-4", "Fig. 2.9: E0 - E at 20 s (the penalty method dissipates) [J]",
                        Check::kAtLeast, -penalty.energy_change, 5e-5, penalty));

  for (const std::string law : {"dahl", "lugre", "elasto-plastic", "gonthier"}) {
    const ScenarioRun run = beltRun(law);
    const dynamics::RunResult& r = run.result;
    const Eigen::Index v = r.column("block-belt.v_t");
    double least = INFINITY, stuck = 0.0;
    for (Eigen::Index i = 1; i < r.history.rows(); ++i) {
      if (r.history(i - 1, 0) < 10.0 || v < 0) continue;
      least = std::min(least, std::abs(r.history(i, v)));
      if (std::abs(r.history(i, v)) <= 1e-4 && std::abs(r.history(i - 1, v)) <= 1e-4)
        stuck += r.history(i, 0) - r.history(i - 1, 0);
    }
    const bool dahl = law == "dahl";
    rows.push_back(makeRow(kCase, "penalty/" + law,
                           dahl ? "Fig. 3.22: Dahl does not stick: least |v_t| over [10, 20] s [m/s]"
                                : "Fig. 3.22: time within 1e-4 m/s of the belt over [10, 20] s (it sticks) [s]",
                           Check::kAtLeast, NAN, dahl ? least : stuck, dahl ? 1e-4 : 5.0, r.ok(),
                           r.ok() ? "" : r.message));
  }
  return rows;
}

}  // namespace stickslip::mechanisms
