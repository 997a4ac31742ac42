// stickslip bench eom | friction: the thesis' comparisons as tables (docs/benchmarks.md keeps them).
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "cli/bench.hpp"
#include "dynamics/eom_methods/eom_statistics.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/eom_methods/model_slider_crank.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/builtin_models.hpp"

namespace stickslip::cli {

int benchEom(std::string_view mechanism, double h, double t_end, double series_dt, bool json, std::ostream& out,
             std::ostream& err) {
  // The thesis' comparison runs on its spatial slider-crank (the built-in model file); the
  // planar counterpart with the same data is kept.
  std::optional<dynamics::SliderCrank> planar;
  std::optional<mechanisms::SpatialScenario> spatial;
  const dynamics::MultibodySystem* system = nullptr;
  const Eigen::VectorXd *q0 = nullptr, *v0 = nullptr;
  std::string title;
  if (mechanism == "slider-crank") {
    planar = dynamics::buildSliderCrank();
    if (!planar->assembly.ok()) {
      err << "stickslip bench eom: slider-crank assembly failed: " << planar->assembly.message << "\n";
      return kExitFailure;
    }
    system = &planar->model;
    q0 = &planar->q0;
    v0 = &planar->v0;
    title = "planar slider-crank (thesis §2.4 data in the plane)";
  } else if (mechanism == "spatial-slider-crank") {
    spatial = mechanisms::builtinSpatialModel(mechanism);
    system = &spatial->model;
    q0 = &spatial->q0;
    v0 = &spatial->v0;
    title = "spatial slider-crank (thesis §2.4, Tables 2.1–2.3)";
  } else {
    throw std::invalid_argument("--mechanism: expected spatial-slider-crank or slider-crank, got '" +
                                std::string(mechanism) + "'");
  }
  const double e0 = system->kineticEnergy(*v0) + system->potentialEnergy(*q0);
  // Warm-up, so that the first timed method does not pay for cold caches.
  dynamics::runWithStatistics(*system, *q0, *v0, dynamics::EomMethod::kLagrange, h, std::min(t_end, 1.0));
  std::map<dynamics::EomMethod, dynamics::EomRunStatistics> stats;
  bool ok = true;
  for (dynamics::EomMethod m : dynamics::allEomMethods()) {
    stats[m] = dynamics::runWithStatistics(*system, *q0, *v0, m, h, t_end, {}, series_dt);
    ok &= stats[m].run.ok();
  }
  const double base = stats[dynamics::EomMethod::kLagrange].cpu_seconds;
  if (json) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& [m, s] : stats) {
      rows.push_back({{"method", std::string(dynamics::toString(m))},
                      {"status", std::string(dynamics::toString(s.run.status))},
                      {"max_phi", s.max_phi},
                      {"max_phi_dot", s.max_phi_dot},
                      {"max_energy_change", s.max_drift},
                      {"final_energy_change", s.final_drift},
                      {"cpu_seconds", s.cpu_seconds},
                      {"cpu_relative", s.cpu_seconds / base}});
      if (s.series.rows() > 0) {
        nlohmann::json series;
        const char* names[] = {"t", "phi2", "phi_dot2", "energy_change"};
        for (Eigen::Index c = 0; c < 4; ++c)
          series[names[c]] = std::vector<double>(s.series.col(c).data(), s.series.col(c).data() + s.series.rows());
        rows.back()["series"] = series;
      }
    }
    out << nlohmann::json{{"status", ok ? "ok" : "failed"}, {"mechanism", mechanism}, {"h", h},
                          {"t_end", t_end},     {"energy_initial", e0},        {"rows", rows}}
               .dump()
        << "\n";
  } else {
    char line[256];
    out << title << ", RK4 h = " << h << " s, " << t_end << " s; ΔE = E − E0 [J] (E0 = " << e0
        << " J), CPU relative to standard Lagrange\n\n"
        << "| method | max ‖Φ‖ | max ‖Φ̇‖ | max |ΔE| J | ΔE(end) J | CPU s | CPU / Lagrange |\n"
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
