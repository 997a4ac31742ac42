// stickslip bench eom | friction: the thesis' comparisons as tables (docs/benchmarks.md keeps them).
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/bench.hpp"
#include "dynamics/eom_statistics.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/model_slider_crank.hpp"
#include "mechanisms/belt.hpp"

namespace stickslip::cli {

int benchEom(double h, double t_end, bool json, std::ostream& out, std::ostream& err) {
  const dynamics::SliderCrank sc = dynamics::buildSliderCrank();
  if (!sc.assembly.ok()) {
    err << "stickslip bench eom: slider-crank assembly failed\n";
    return kExitFailure;
  }
  // Warm-up, so that the first timed method does not pay for cold caches.
  dynamics::runWithStatistics(sc.model, sc.q0, sc.v0, dynamics::EomMethod::kLagrange, h,
                              std::min(t_end, 1.0));
  std::map<dynamics::EomMethod, dynamics::EomRunStatistics> stats;
  bool ok = true;
  for (dynamics::EomMethod m : dynamics::allEomMethods()) {
    stats[m] = dynamics::runWithStatistics(sc.model, sc.q0, sc.v0, m, h, t_end);
    ok &= stats[m].run.ok();
  }
  const double base = stats[dynamics::EomMethod::kLagrange].cpu_seconds;
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& [m, s] : stats)
      rows.push_back({{"method", std::string(dynamics::toString(m))},
                      {"status", std::string(dynamics::toString(s.run.status))},
                      {"max_phi", s.max_phi},
                      {"max_phi_dot", s.max_phi_dot},
                      {"max_energy_drift", s.max_drift},
                      {"final_energy_drift", s.final_drift},
                      {"cpu_seconds", s.cpu_seconds},
                      {"cpu_relative", s.cpu_seconds / base}});
    out << nlohmann::json{{"status", ok ? "ok" : "failed"}, {"h", h}, {"t_end", t_end}, {"rows", rows}}.dump()
        << "\n";
  } else {
    char line[256];
    out << "planar slider-crank (thesis §2.4 data), RK4 h = " << h << " s, " << t_end
        << " s; energy drift relative to E0, CPU relative to standard Lagrange\n\n"
        << "| method | max ‖Φ‖ | max ‖Φ̇‖ | max ‖ΔE‖/E0 | ΔE(end)/E0 | CPU s | CPU / Lagrange |\n"
        << "|---|---:|---:|---:|---:|---:|---:|\n";
    for (dynamics::EomMethod m : dynamics::allEomMethods()) {
      const auto& s = stats[m];
      std::snprintf(line, sizeof line, "| %s | %.1e | %.1e | %.1e | %+.1e | %.3f | %.2f |\n",
                    std::string(dynamics::toString(m)).c_str(), s.max_phi, s.max_phi_dot,
                    s.max_drift, s.final_drift, s.cpu_seconds, s.cpu_seconds / base);
      out << line;
    }
  }
  return ok ? kExitOk : kExitFailure;
}

int benchFriction(double t_end, bool json, std::ostream& out, std::ostream&) {
  const mechanisms::Belt belt;
  mechanisms::PenaltyOptions o;
  o.t_end = t_end;
  struct Row {
    std::string law;
    mechanisms::PenaltyRun run;
  };
  std::vector<Row> rows;
  double base = 0.0;
  for (std::string_view name : dynamics::frictionLawNames()) {
    const auto law = dynamics::makeFrictionLaw(name);
    rows.push_back({std::string(name), mechanisms::simulateBeltPenalty(belt, *law, o)});
    if (name == "linear") base = rows.back().run.cpu_seconds;
  }
  bool ok = true;
  for (const Row& r : rows) ok &= r.run.ok;
  auto first_slip = [](const mechanisms::PenaltyRun& r) {
    for (const auto& [t, kind] : r.mode_changes)
      if (kind == "slip") return t;
    return -1.0;
  };
  if (json) {
    nlohmann::json j = nlohmann::json::array();
    for (const Row& r : rows)
      j.push_back({{"law", r.law},
                   {"status", r.run.ok ? "ok" : "failed"},
                   {"cpu_seconds", r.run.cpu_seconds},
                   {"cpu_relative_to_linear", r.run.cpu_seconds / base},
                   {"stick_fraction", r.run.stick_fraction},
                   {"first_slip", first_slip(r.run)}});
    out << nlohmann::json{{"status", ok ? "ok" : "failed"}, {"t_end", t_end}, {"rows", j}}.dump()
        << "\n";
  } else {
    char line[256];
    out << "belt (thesis Table 3.1), penalty route, RK4 h = " << o.dt << " s, " << t_end
        << " s; closed-form Coulomb: first break-away "
        << mechanisms::beltClosedForm(belt).first_breakaway << " s\n\n"
        << "| law | CPU s | CPU / linear | stick fraction | first slip [s] |\n"
        << "|---|---:|---:|---:|---:|\n";
    for (const Row& r : rows) {
      std::snprintf(line, sizeof line, "| %s | %.3f | %.2f | %.3f | %.3f |\n", r.law.c_str(),
                    r.run.cpu_seconds, r.run.cpu_seconds / base, r.run.stick_fraction,
                    first_slip(r.run));
      out << line;
    }
  }
  return ok ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
