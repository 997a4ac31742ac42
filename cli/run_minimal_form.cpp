#include "cli/run_minimal_form.hpp"
#include "cli/run_options.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/output.hpp"
#include "dynamics/minimal_form.hpp"
#include "dynamics/nonsmooth/stick_statistics.hpp"
#include "mechanisms/blajer.hpp"
#include "mechanisms/dupont.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {

int runMinimalForm(const po::variables_map& vm, const mechanisms::Scenario& scenario, std::ostream& out,
                   std::ostream& err) {
  const std::string& name = scenario.name;
  const mechanisms::MinimalFormScenario s = scenario.model ? dynamics::minimalFormModel(*scenario.model)
                                                           : mechanisms::buildMinimalForm(name, scenario.data);
  dynamics::MinimalFormSimulationOptions o;
  o.t_end = !vm["t-end"].defaulted() ? vm["t-end"].as<double>()
            : scenario.model         ? 1.0
                                     : mechanisms::rigidScenarioInfo(name).t_end;
  o.relative_tolerance = vm["tolerance"].as<double>();
  o.absolute_tolerance = 1e-2 * o.relative_tolerance;
  const std::string csv = outputPath(vm);
  dynamics::MinimalForm form(s.model, s.friction, s.options, s.x0);
  const dynamics::MinimalFormRun r = dynamics::simulateMinimalForm(form, s.x0, s.u0, o);
  const dynamics::ReductionDimensions& d = r.dimensions;

  if (!csv.empty()) {
    std::ofstream f = openCsv(csv);
    writeStateHeader(f, s.model);
    for (Eigen::Index c = 0; c < d.k; ++c) f << ",udot" << c;
    for (Eigen::Index c = 0; c < d.m; ++c) f << ",lambda" << c;
    for (const auto& j : s.friction) f << ',' << j.name << ".reaction," << j.name << ".friction";
    for (const auto& j : s.friction) f << ',' << j.name << ".v_t";  // the sliding rate ṡ
    f << "\n# lambda, reactions and friction are NaN while the mechanism sticks (indeterminate)\n";
    for (Eigen::Index i = 0; i < r.run.history.rows(); ++i) {
      for (Eigen::Index j = 0; j < r.run.history.cols(); ++j) f << (j ? "," : "") << r.run.history(i, j);
      const Eigen::VectorXd x = r.run.history.row(i).segment(1, d.n).transpose();
      const Eigen::VectorXd xdot = r.run.history.row(i).segment(1 + d.n, d.n).transpose();
      for (std::size_t j = 0; j < s.friction.size(); ++j) f << ',' << form.slidingRate(j, x, xdot);
      f << '\n';
    }
    markIncomplete(f, r.run.ok(), r.run.message);
  }

  // Dupont: compare the slot's stick/slip changes with the closed form.
  std::vector<std::pair<double, std::string>> reference;
  if (const auto* dupont = std::get_if<mechanisms::Dupont>(&scenario.data))
    reference = mechanisms::dupontReference(*dupont, r.run.t_end);
  std::vector<const dynamics::ContactEvent*> modes;
  for (const auto& e : r.run.events)
    if (e.contact == 0) modes.push_back(&e);
  bool matched = !reference.empty() && modes.size() == reference.size();
  double max_error = NAN;
  if (matched) {
    max_error = 0.0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
      matched = matched && std::string(dynamics::toString(modes[i]->kind)) == reference[i].second;
      max_error = std::max(max_error, std::abs(modes[i]->t - reference[i].first));
    }
  }
  const dynamics::StickStatistics stick =
      dynamics::stickStatistics(r.stick_intervals, 0.0, r.run.t_end);
  const double mean_iterations =
      r.rhs_evaluations > 0 ? double(r.reaction_iterations) / double(r.rhs_evaluations) : 0.0;

  if (vm["json"].as<bool>()) {
    nlohmann::json events = nlohmann::json::array(), sticks = nlohmann::json::array();
    for (const auto& e : r.run.events)
      events.push_back({{"t", e.t}, {"contact", s.friction[std::size_t(e.contact)].name},
                        {"kind", std::string(dynamics::toString(e.kind))}});
    for (const auto& [a, b] : r.stick_intervals) sticks.push_back({a, b});
    nlohmann::json j{{"scenario", name},
                     {"method", "minimal-form"},
                     {"status", r.run.ok() ? "ok" : "failed"},
                     {"message", r.run.message},
                     {"t", r.run.t_end},
                     {"dimensions", {{"absolute", d.absolute()}, {"minimal", d.minimal()}, {"n", d.n},
                                     {"m", d.m}, {"k", d.k}, {"m2", d.m2}, {"k1", d.k1}}},
                     {"steps", r.run.steps},
                     {"rhs_evaluations", r.rhs_evaluations},
                     {"reaction_iterations_mean", mean_iterations},
                     {"reaction_iterations_max", r.max_reaction_iterations},
                     {"reaction_failures", r.reaction_failures},
                     {"cpu_seconds", r.run.cpu_seconds},
                     {"events", events},
                     {"stick_intervals", sticks},
                     {"transitions", stick.transitions},
                     {"stick_fraction", stick.stick_fraction},
                     {"final_q", toJson(r.run.final_q)},
                     {"final_v", toJson(r.run.final_v)}};
    if (!reference.empty()) {
      nlohmann::json ref = nlohmann::json::array();
      for (const auto& [t, kind] : reference) ref.push_back({{"t", t}, {"kind", kind}});
      j["reference"] = {{"events", ref}, {"matched", matched}, {"max_time_error", finiteOrNull(max_error)}};
    }
    out << j.dump() << "\n";
  } else {
    out << name << " — minimal form (Blajer & Markiewicz)\n"
        << "status      " << (r.run.ok() ? "ok" : "failed: " + r.run.message) << "\n"
        << "dimensions  absolute DAE " << d.absolute() << " (2n + m, n = " << d.n << ", m = " << d.m
        << "), minimal " << d.minimal() << " (k1 + k + m, k1 = " << d.k1 << ", k = " << d.k << ")\n"
        << "t           " << r.run.t_end << " s\n"
        << "steps       " << r.run.steps << ", " << r.rhs_evaluations << " evaluations\n"
        << "reactions   " << (s.options.reaction_newton ? "Newton" : "fixed point") << ": mean " << mean_iterations << ", max " << r.max_reaction_iterations
        << " iterations, " << r.reaction_failures << " not converged\n"
        << "cpu         " << r.run.cpu_seconds << " s\n"
        << "stiction    " << r.stick_intervals.size() << " intervals\n";
    for (const auto& [a, b] : r.stick_intervals)
      out << "  " << std::setprecision(10) << a << " – " << b << " s\n";
    out << "events      " << r.run.events.size() << "\n";
    const std::size_t shown = std::min<std::size_t>(r.run.events.size(), 40);
    for (std::size_t i = 0; i < shown; ++i)
      out << "  " << std::setw(14) << std::setprecision(10) << r.run.events[i].t << " s  "
          << s.friction[std::size_t(r.run.events[i].contact)].name << "  "
          << dynamics::toString(r.run.events[i].kind) << "\n";
    if (shown < r.run.events.size()) out << "  … " << r.run.events.size() - shown << " more (--json lists all)\n";
    if (!reference.empty()) {
      if (matched)
        out << "reference   " << reference.size() << " stick/slip changes matched, max |dt| = " << max_error << " s\n";
      else
        out << "reference   " << reference.size() << " stick/slip changes, not matched one to one\n";
    }
  }
  if (!r.run.ok()) err << "stickslip run: " << r.run.message << "\n";
  return r.run.ok() ? kExitOk : kExitFailure;
}

}  // namespace stickslip::cli
