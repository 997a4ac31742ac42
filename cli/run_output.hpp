#pragma once
/// \file What `stickslip run` writes of a run, the same for every route: one JSON object, the
/// history as CSV, and a text report.
///
/// JSON: scenario, method, solver, status (dynamics::RunStatus: ok, contact-solver-failure,
/// integrator-failure, no-consistent-mode, not-converged, energy-increase, limit-reached),
/// message, solver_status and solver_residual (a contact problem not solved), t, steps,
/// lcp_solves, pivots, mode_checks, mode_mismatches, cpu_seconds, events [{t, contact, kind,
/// approximate}], friction_work, energy_initial, energy_final, final_q, final_v, transitions,
/// stick_fraction, columns (the CSV's), then the route's own (event-driven: max_penetration;
/// Moreau–Jean: h, us_per_step;
/// penalty: friction, integrator, stick_velocity, relaxed_steps, energy_created and energy_flowed (RK4),
/// bdf_failure; minimal form: dimensions,
/// rhs_evaluations, reaction_iterations_mean, reaction_iterations_max, reaction_failures,
/// stick_intervals) and the scenario's analyses (mechanisms/scenario_analyses.hpp).

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "mechanisms/run_scenario.hpp"

namespace stickslip::cli {

nlohmann::json runJson(const mechanisms::ScenarioRun& run);

/// The history with a header of its column names; a run that failed ends with
/// "# incomplete: <reason>". Throws std::invalid_argument naming --out when `path` cannot be
/// written.
void writeRunCsv(const std::string& path, const mechanisms::ScenarioRun& run);

/// The text report: status, counters, events (the first 40), analyses.
void printRun(std::ostream& out, const mechanisms::ScenarioRun& run);

}  // namespace stickslip::cli
