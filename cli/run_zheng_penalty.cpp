#include "cli/run_zheng_penalty.hpp"

#include <cmath>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "cli/run_options.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/zheng.hpp"

namespace stickslip::cli {

int runZhengPenalty(const po::variables_map& vm, const mechanisms::Scenario& scenario,
                    std::ostream& out, std::ostream& err) {
  const std::string& name = scenario.name;
  if (vm["ideal"].as<bool>())
    throw std::invalid_argument("--ideal: the penalty route of " + name +
                                " has the clearance joint only (the ideal joint: event-driven)");
  const mechanisms::ZhengSliderCrank& z = mechanisms::scenarioDataOf<mechanisms::ZhengSliderCrank>(scenario.data, name);
  // Zheng's modified Coulomb by default, with the scenario's μ and tolerances v0, v1; any
  // other law of the catalogue takes the same μk, μs (and Table 3.2 for the rest).
  const std::string law_name =
      vm["friction"].defaulted() ? std::string("ambrosio") : vm["friction"].as<std::string>();
  std::shared_ptr<const dynamics::FrictionLaw> law;
  if (law_name != "none") {
    dynamics::FrictionParameters p;
    p.mu_k = z.mu_kinetic;
    p.mu_s = z.mu_static;
    p.modified_v0 = z.modified_v0;
    p.modified_v1 = z.modified_v1;
    law = frictionLawOption(law_name, p);
  }
  dynamics::PenaltyIntegrationOptions opts;
  std::string integrator =
      vm["integrator"].defaulted() ? std::string("bdf") : vm["integrator"].as<std::string>();
  opts.integrator = penaltyIntegrator(integrator);
  opts.t_end = vm["t-end"].defaulted() ? mechanisms::rigidScenarioInfo(name).t_end : vm["t-end"].as<double>();
  // RK4: 1e-5 s resolves the contact (stiffness ∂F/∂δ ≈ 3e7 N/m under the static load,
  // ω ≈ 8e3 rad/s, hω ≈ 0.08) and the dry laws' jump at v_t = 0 well enough to follow the
  // event-driven θ1 (coulomb-stiction: 3e-5 rad at 2 s).
  opts.dt = vm["dt"].defaulted() ? 1e-5 : vm["dt"].as<double>();
  opts.output_dt = vm.count("output-dt") ? vm["output-dt"].as<double>() : 1e-3;
  if (!(opts.output_dt > 0.0 && std::isfinite(opts.output_dt)))
    throw std::invalid_argument("--output-dt: expected a time step > 0 [s], got " + std::to_string(opts.output_dt));
  const std::string csv = outputPath(vm);

  mechanisms::ZhengPenaltySystem s = mechanisms::zhengPenalty(z, law);
  ProgressBar bar("run " + name);
  opts.progress = simulatedTimeProgress(bar, opts.t_end);
  dynamics::PenaltyRun r = dynamics::simulatePenalty(*s.system, s.y0, opts);
  // A law BDF cannot take (a jump at v_t = 0: coulomb-stiction, karnopp, …) is redone with
  // RK4 when no integrator was asked for, as journal-bearing does; BDF's reason is reported.
  std::string bdf_failure;
  if (r.status == dynamics::PenaltyStatus::kIntegratorFailure && vm["integrator"].defaulted()) {
    bdf_failure = r.message;
    integrator = "rk4";
    opts.integrator = penaltyIntegrator(integrator);
    s.system.reset();  // it refers to the model, which the assignment replaces
    s = mechanisms::zhengPenalty(z, law);
    r = dynamics::simulatePenalty(*s.system, s.y0, opts);
  }
  bar.finish();
  const bool ok = r.status == dynamics::PenaltyStatus::kSuccess;
  const Eigen::Index ny = s.system->stateSize(), nq = s.model->positionSize();
  // History columns: t, y (q, v, z), then δ, v_t, Fₙ, Fₜ of the joint, then the energy.
  const Eigen::Index c_pen = 1 + ny, c_vt = c_pen + 1;
  long closings = 0, openings = 0, reversals = 0, band_crossings = 0;
  double deepest = 0.0, max_impact = 0.0;
  for (const auto& e : r.events) {
    (e.closing ? closings : openings) += 1;
    if (e.closing) max_impact = std::max(max_impact, e.penetration_rate);
  }
  // Approximate mode changes of the regularized joint, from the sampled history: sign
  // changes of v_t (slip reversals) and crossings of |v_t| = v1, the modified Coulomb's
  // full-friction speed (in and out of its low-speed band).
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    deepest = std::max(deepest, r.history(i, c_pen));
    if (i == 0) continue;
    const double a = r.history(i - 1, c_vt), b = r.history(i, c_vt);
    if ((a > 0.0 && b < 0.0) || (a < 0.0 && b > 0.0)) ++reversals;
    if ((std::abs(a) < z.modified_v1) != (std::abs(b) < z.modified_v1)) ++band_crossings;
  }

  if (!csv.empty()) {
    std::ofstream file = openCsv(csv);
    writeStateHeader(file, *s.model);
    for (Eigen::Index i = 2 * nq; i < ny; ++i) file << ",z" << i - 2 * nq;
    const std::string c = s.system->contacts()[0].name;
    file << ',' << c << ".penetration," << c << ".v_t," << c << ".N," << c << ".F,energy\n";
    writeRows(file, r.history);
    markIncomplete(file, ok, r.message);
  }
  const double theta1 = r.final_state.size() > 2 ? r.final_state(2) : NAN;
  if (vm["json"].as<bool>()) {
    nlohmann::json j{{"scenario", name},
                     {"method", "penalty"},
                     {"normal_law", "hunt-crossley"},
                     {"friction", law_name},
                     {"integrator", integrator},
                     {"bdf_failure", bdf_failure},
                     {"message", r.message},
                     {"t", r.t},
                     {"steps", r.steps},
                     {"rhs_evaluations", r.rhs_evaluations},
                     {"cpu_seconds", r.cpu_seconds},
                     {"closings", closings},
                     {"openings", openings},
                     {"max_impact_velocity", max_impact},
                     {"slip_reversals", reversals},
                     {"low_speed_band_crossings", band_crossings},
                     {"max_penetration", deepest},
                     {"theta1_end", finiteOrNull(theta1)}};
    addPenaltyRunFields(j, r, nq, s.model->velocitySize(), {s.system->contacts()[0].name});
    out << j.dump() << "\n";
  } else {
    out << name << ", penalty route: compliant clearance joint (Hunt-Crossley, c_e = " << z.restitution
        << ", impact velocity held at " << z.impact_velocity << " m/s), friction '" << law_name << "' ("
        << integrator << ")\n"
        << (bdf_failure.empty() ? "" : "bdf failed       " + bdf_failure + " (redone with rk4)\n")
        << "status           " << dynamics::toString(r.status) << "\n"
        << "t                " << r.t << " s\n"
        << "steps            " << r.steps << "\n"
        << "cpu              " << r.cpu_seconds << " s\n"
        << "joint            " << closings << " closings, " << openings << " openings after the start"
        << " (fastest closing " << max_impact << " m/s)\n"
        << "approx. modes    " << reversals << " slip reversals, " << band_crossings
        << " crossings of |v_t| = " << z.modified_v1 << " m/s (sampled every " << opts.output_dt << " s)\n"
        << "max penetration  " << deepest << " m\n"
        << "theta1(" << r.t << " s)  " << theta1 << " rad\n";
  }
  if (!ok) err << "stickslip run: " << r.message << "\n";
  return ok ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
