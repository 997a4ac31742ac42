#include "cli/run_output.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <string>

#include "cli/output.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::cli {
namespace {

/// A joint drift printed as a warning [m or rad]: a millimetre, a milliradian, where a route's
/// own drift is 1e-6 or less at its default step (Moreau–Jean's κ feedback, moreau_jean.hpp).
constexpr double kDriftShown = 1e-3;
/// RK4's created energy printed as a warning, as a fraction of the energy that flowed: a run its
/// step resolves stays below 1e-3; a bounce the step cannot resolve makes 1e-2 or more (the run
/// fails at PenaltyIntegrationOptions::max_created_energy).
constexpr double kCreatedShown = 1e-2;

const std::string& elementName(const mechanisms::ScenarioRun& run, int index) {
  static const std::string unknown = "?";
  return index >= 0 && std::size_t(index) < run.elements.size() ? run.elements[std::size_t(index)] : unknown;
}

}  // namespace

nlohmann::json runJson(const mechanisms::ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  nlohmann::json events = nlohmann::json::array();
  for (const auto& e : r.events) {
    events.push_back({{"t", e.t}, {"contact", elementName(run, e.contact)}, {"kind", std::string(dynamics::toString(e.kind))}});
    if (e.approximate) events.back()["approximate"] = true;
  }
  nlohmann::json j{{"scenario", run.scenario},
                   {"method", std::string(mechanisms::toString(run.route))},
                   {"solver", run.solver},
                   {"contact_solver", r.contact_solver},
                   {"status", std::string(dynamics::toString(r.status))},
                   {"message", r.message},
                   {"t", r.t_end},
                   {"t_end", run.t_end},
                   {"steps", r.steps},
                   {"lcp_solves", r.lcp_solves},
                   {"pivots", r.pivots},
                   {"mode_checks", r.mode_checks},
                   {"mode_mismatches", r.mode_mismatches},
                   {"cpu_seconds", r.cpu_seconds},
                   {"events", events},
                   {"friction_work", finiteOrNull(r.friction_work)},
                   {"energy_initial", finiteOrNull(run.energy_initial)},
                   {"energy_final", finiteOrNull(run.energy_final)},
                   {"final_q", toJson(r.final_q)},
                   {"final_v", toJson(r.final_v)},
                   {"transitions", run.stick.transitions},
                   {"stick_fraction", run.stick.stick_fraction},
                   {"columns", r.columns}};
  if (r.status == dynamics::RunStatus::kContactSolverFailure) {
    j["solver_status"] = std::string(lcp::toString(r.solver_status));
    j["solver_residual"] = finiteOrNull(r.solver_residual);
  }
  if (!std::isnan(run.joint_drift)) j["joint_drift"] = finiteOrNull(run.joint_drift);
  if (run.route == mechanisms::Route::kEventDriven) {
    j["max_penetration"] = finiteOrNull(r.max_penetration);
    j["impact_law"] = run.impact_law;
  }
  if (run.route == mechanisms::Route::kMoreauJean) {
    j["h"] = run.h;
    j["us_per_step"] = r.steps > 0 ? 1e6 * r.cpu_seconds / double(r.steps) : 0.0;
  }
  if (run.penalty) {  // its modes are estimated from the samples' |v_t|
    j["friction"] = run.penalty->law;
    j["integrator"] = run.penalty->integrator;
    j["stick_velocity"] = run.penalty->stick_velocity;
    j["relaxed_steps"] = r.relaxed_steps;
    if (!std::isnan(r.energy_created)) {
      j["energy_created"] = finiteOrNull(r.energy_created);
      j["energy_flowed"] = finiteOrNull(r.energy_flowed);
    }
    if (!run.penalty->bdf_failure.empty()) j["bdf_failure"] = run.penalty->bdf_failure;
  }
  if (const auto& m = run.minimal_form) {
    nlohmann::json sticks = nlohmann::json::array();
    for (const auto& [a, b] : m->stick_intervals) sticks.push_back({a, b});
    j["dimensions"] = {{"absolute", m->absolute}, {"minimal", m->minimal}, {"n", m->n}, {"m", m->m},
                       {"k", m->k},               {"m2", m->m2},           {"k1", m->k1}};
    j["rhs_evaluations"] = m->rhs_evaluations;
    j["reaction_iterations_mean"] = m->reaction_iterations_mean;
    j["reaction_iterations_max"] = m->reaction_iterations_max;
    j["reaction_failures"] = m->reaction_failures;
    j["stick_intervals"] = sticks;
  }
  for (const auto& a : run.analyses) j.update(a.figures);
  return j;
}

void writeRunCsv(const std::string& path, const mechanisms::ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  std::ofstream f = openCsv(path);
  for (std::size_t c = 0; c < r.columns.size(); ++c) f << (c ? "," : "") << r.columns[c];
  f << '\n';
  if (run.minimal_form) f << "# lambda, reactions and friction are NaN while the mechanism sticks (indeterminate)\n";
  writeRows(f, r.history);
  markIncomplete(f, r.ok(), std::string(dynamics::toString(r.status)) + ": " + r.message);
  f.close();  // a full disk shows on the flush
  if (!f) throw std::invalid_argument("--out " + path + ": cannot be written");
}

void printRun(std::ostream& out, const mechanisms::ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  out << run.scenario << " — " << run.summary << "\n" << mechanisms::toString(run.route);
  if (run.penalty)
    out << " (friction law " << run.penalty->law << ", " << run.penalty->integrator
        << (run.penalty->bdf_failure.empty() ? "" : "; BDF failed: " + run.penalty->bdf_failure) << ")";
  else if (!run.minimal_form)
    out << " (solver " << run.solver << ")";
  if (run.route == mechanisms::Route::kMoreauJean) out << ", h = " << run.h << " s";
  out << "\nstatus      " << (r.ok() ? "ok" : std::string(dynamics::toString(r.status)) + ": " + r.message) << "\n"
      << "t           " << r.t_end << " s\n"
      << "steps       " << r.steps;
  if (run.route == mechanisms::Route::kMoreauJean && r.steps > 0)
    out << "  (" << 1e6 * r.cpu_seconds / double(r.steps) << " us/step)";
  if (r.relaxed_steps > 0) out << "  (" << r.relaxed_steps << " with bristles relaxed exactly)";
  out << "\n";
  if (std::isfinite(r.max_penetration)) out << "penetration " << r.max_penetration << " m at most (rigid contacts)\n";
  if (r.energy_created > kCreatedShown * r.energy_flowed)
    out << "warning     RK4 created " << r.energy_created << " J of energy, "
        << 100.0 * r.energy_created / r.energy_flowed << " % of the " << r.energy_flowed
        << " J that flowed: the energy and the friction work may be off by as much (a smaller --dt)\n";
  if (run.joint_drift > kDriftShown)
    out << "warning     the joints drifted apart: |Phi| = " << run.joint_drift
        << " (m or rad) at the end; a shorter step (--dt) or a tighter --tolerance holds them\n";
  if (const auto& m = run.minimal_form) {
    out << "dimensions  absolute DAE " << m->absolute << " (2n + m, n = " << m->n << ", m = " << m->m << "), minimal "
        << m->minimal << " (k1 + k + m, k1 = " << m->k1 << ", k = " << m->k << ")\n"
        << "reactions   " << (m->reaction_newton ? "Newton" : "fixed point") << ": mean " << m->reaction_iterations_mean
        << ", max " << m->reaction_iterations_max << " iterations, " << m->reaction_failures << " not converged, "
        << m->rhs_evaluations << " evaluations\n";
  } else {
    out << "LCP solves  " << r.lcp_solves << " (" << r.pivots
        << (r.contact_solver == "nsgs" ? " sweeps" : " pivots") << ", solver " << r.contact_solver << ")\n";
  }
  if (r.mode_checks > 0)
    out << "LCP vs trial-and-error: " << r.mode_mismatches << " mismatches in " << r.mode_checks << " decisions\n";
  out << "cpu         " << r.cpu_seconds << " s\n"
      << "energy      " << run.energy_initial << " J at the start, " << run.energy_final << " J at the end (T + V)\n";
  if (std::isfinite(r.friction_work)) out << "friction    " << r.friction_work << " J dissipated\n";
  out << "stick       " << run.stick.stick_fraction << " of the run, " << run.stick.transitions
      << " transitions into or out of stick"
      << (run.penalty ? " (estimated: |v_t| < " + mechanisms::exactNumber(run.penalty->stick_velocity) +
                            " m/s at the samples)"
                      : std::string())
      << "\n";
  if (run.minimal_form)
    for (const auto& [a, b] : run.minimal_form->stick_intervals)
      out << "  " << std::setprecision(10) << a << " – " << b << " s\n" << std::setprecision(6);
  out << "events      " << r.events.size() << "\n";
  const std::size_t shown = std::min<std::size_t>(r.events.size(), 40);
  for (std::size_t i = 0; i < shown; ++i)
    out << "  " << std::setw(14) << std::setprecision(10) << r.events[i].t << " s  " << elementName(run, r.events[i].contact)
        << "  " << dynamics::toString(r.events[i].kind) << "\n";
  out << std::setprecision(6);
  if (shown < r.events.size()) out << "  … " << r.events.size() - shown << " more (--json lists all)\n";
  for (const auto& a : run.analyses)
    for (const auto& line : a.lines) out << line << "\n";
}

}  // namespace stickslip::cli
