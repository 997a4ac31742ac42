// stickslip compare SCENARIO --methods M1,M2[,..] [--out-dir D] [--plot] [--json]
//                            [--outputs C1,C2,..] [--t-end T] [--solver S] [--set K=V]... [--force]
// Runs each method on the scenario in this process (mechanisms/run_scenario.hpp) and keeps the
// results in memory: a table of the methods' figures, the deviations of the chosen outputs from
// the first method, each run's CSV, and with --plot gnuplot figures (scripts beside them).
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/compare_data.hpp"
#include "cli/compare_plots.hpp"
#include "cli/method_list.hpp"
#include "cli/output.hpp"
#include "cli/run_options.hpp"
#include "cli/run_output.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::cli {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  MethodSpec spec;
  bool ok = false;
  std::string status, message;
  std::optional<mechanisms::ScenarioRun> run;
  std::optional<Series> series;
  double friction_work = NAN;
  bool friction_work_from_run = false;  ///< reported by the run, not estimated from its samples
  std::map<std::string, Deviation> deviations;
};

std::string fixed(double x, int precision) {
  if (!std::isfinite(x)) return "-";
  std::ostringstream s;
  s << std::fixed << std::setprecision(precision) << x;
  return s.str();
}
std::string sci(double x) {
  if (!std::isfinite(x)) return "-";
  std::ostringstream s;
  s << std::scientific << std::setprecision(3) << x;
  return s.str();
}
/// '~' marks a count estimated from the samples (the penalty route's modes).
std::string transitionsText(const Outcome& r) {
  if (!r.run) return "-";
  return (r.run->penalty ? "~" : "") + std::to_string(r.run->stick.transitions);
}

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(),
                  "built-in scenario (stickslip list) or scenario file (stickslip show NAME)")(
      "methods", po::value<std::string>()->required(),
      "comma-separated: event-driven, moreau-jean, penalty, minimal-form; a friction law after a "
      "colon is passed as --friction (penalty:ambrosio), /ideal as --ideal (penalty/ideal: the clearance "
      "joints made ideal); the first is the reference of the "
      "deviations")("out-dir", po::value<std::string>(),
                    "directory of the CSVs and figures (default compare-SCENARIO)")(
      "outputs", po::value<std::string>(),
      "comma-separated CSV columns to compare (default per scenario, e.g. belt: block.x, block.vx, "
      "block-belt.F)")("t-end", po::value<double>(),
                       "end time of every run [s] (default: the scenario's)")(
      "solver", po::value<std::string>(), "contact problems of the nonsmooth methods (see run)")(
      "impact-law", po::value<std::string>(), "the event-driven runs' impact law: newton or newton-tangential (see run)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE passed to every run (repeatable)")(
      "plot", po::bool_switch(),
      "draw PNG and SVG figures with gnuplot (scripts written beside them)")(
      "force", po::bool_switch(), "overwrite files in the output directory")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}

/// What `compare` reports: the runs in the order asked (the first the reference), the
/// outputs compared, and the figures drawn.
struct Comparison {
  std::string argument;  ///< the scenario as given
  const mechanisms::Scenario& scenario;
  std::string name;      ///< files are named after it: the built-in's name or the file's stem
  std::string dir;
  std::vector<std::string> outputs;
  std::vector<Outcome> results;
  std::vector<std::string> figures, plot_failures;
  bool allOk() const {
    return plot_failures.empty() &&
           std::all_of(results.begin(), results.end(), [](const Outcome& r) { return r.ok; });
  }
};

/// Every method resolved before anything runs: a route that cannot take the mechanism (and any
/// other bad input) is reported at once, and the columns each will write are known.
std::vector<std::unique_ptr<mechanisms::ScenarioRunner>> resolveMethods(const po::variables_map& vm,
                                                                       const mechanisms::Scenario& sc,
                                                                       const std::string& scenario,
                                                                       const std::vector<MethodSpec>& specs,
                                                                       const std::optional<double>& t_end) {
  std::vector<std::unique_ptr<mechanisms::ScenarioRunner>> runners;
  std::vector<std::string> unavailable;
  for (const auto& s : specs) {
    try {
      runners.push_back(plannedRunner(sc, runArgs(vm, s, t_end)));
    } catch (const mechanisms::InputError&) {
      throw;  // the scenario's run: section, not the method
    } catch (const std::invalid_argument& e) {
      unavailable.push_back(s.label + ": " + e.what());
    }
  }
  if (!unavailable.empty()) {
    std::string msg = "--methods: not available for '" + scenario + "':";
    for (const auto& u : unavailable) msg += "\n  " + u;
    throw std::invalid_argument(msg);
  }
  return runners;
}

/// --outputs, each written by some method; empty when not given (the scenario's defaults then).
std::vector<std::string> givenOutputs(const po::variables_map& vm,
                                      const std::vector<std::unique_ptr<mechanisms::ScenarioRunner>>& runners,
                                      const std::vector<MethodSpec>& specs) {
  if (!vm.count("outputs")) return {};
  const std::vector<std::string> outputs = splitList(vm["outputs"].as<std::string>());
  std::vector<std::vector<std::string>> columns;
  for (const auto& r : runners) columns.push_back(r->columns());
  requireOutputs(outputs, columns, specs.front().label);
  return outputs;
}

/// Runs one method and writes its CSV; its friction work is the run's own when it reports one,
/// else the samples' trapezoidal estimate.
Outcome runMethod(const MethodSpec& spec, mechanisms::ScenarioRunner& runner, const std::string& dir,
                  std::ostream& err) {
  Outcome r;
  r.spec = spec;
  // Progress only for a person watching (DESIGN 6: stderr, when it is a terminal).
  if (&err == &std::cerr && isatty(STDERR_FILENO) != 0) err << "compare: running " << r.spec.label << " …\n";
  r.run = runner.run();
  const dynamics::RunResult& result = r.run->result;
  r.ok = result.ok();
  r.status = std::string(dynamics::toString(result.status));
  r.message = result.message;
  writeRunCsv((fs::path(dir) / r.spec.file).string(), *r.run);
  r.series = Series{result.columns, result.history};
  r.friction_work = result.friction_work;
  r.friction_work_from_run = std::isfinite(r.friction_work);
  if (!r.friction_work_from_run) r.friction_work = frictionWork(*r.series);
  return r;
}

/// --plot: gnuplot's figures of the outputs, and the ones it failed to draw.
void drawFigures(Comparison& c) {
  std::vector<PlotSource> sources;
  for (const auto& r : c.results) sources.push_back({r.spec.label, r.spec.file, &*r.series});
  if (sources.empty()) return;
  for (const auto& name : writePlotScripts(c.dir, c.name, sources, c.outputs)) {
    std::string log;
    if (renderPlot(c.dir, name, log))
      c.figures.push_back(name);
    else
      c.plot_failures.push_back(name + ": " + log);
  }
}

/// --json: one object, a method per entry with its figures and deviations.
nlohmann::json comparisonJson(const Comparison& c) {
  const mechanisms::Scenario& sc = c.scenario;
  const std::vector<Outcome>& results = c.results;
  const std::vector<std::string>& figures = c.figures;
  const std::vector<std::string>& outputs = c.outputs;
  const std::vector<std::string>& plot_failures = c.plot_failures;
  const std::string& dir = c.dir;
  const bool all_ok = c.allOk();
  nlohmann::json methods = nlohmann::json::array();
  for (const auto& r : results) {
    nlohmann::json dev = nlohmann::json::object();
    for (const auto& [name, d] : r.deviations)
      dev[name] = {
          {"max", finiteOrNull(d.max_abs)}, {"rms", finiteOrNull(d.rms)}, {"samples", d.samples}};
    const dynamics::RunResult& res = r.run->result;
    nlohmann::json m{{"label", r.spec.label},
                     {"method", r.spec.method},
                     {"friction", r.spec.friction},
                     {"csv", (fs::path(dir) / r.spec.file).string()},
                     {"status", r.status},
                     {"message", r.message},
                     {"cpu_seconds", res.cpu_seconds},
                     {"steps", res.steps},
                     {"events", res.events.size()},
                     {"lcp_solves", res.lcp_solves},
                     {"contact_solver", res.contact_solver},
                     {"transitions", r.run->stick.transitions},
                     {"stick_fraction", r.run->stick.stick_fraction},
                     {"stick_from", r.run->penalty ? "velocity-threshold" : "modes"},
                     {"friction_work", finiteOrNull(r.friction_work)},
                     {"friction_work_from", r.friction_work_from_run ? "run" : "samples"},
                     {"energy_initial", finiteOrNull(r.run->energy_initial)},
                     {"energy_final", finiteOrNull(r.run->energy_final)},
                     {"deviations", dev}};
    if (r.run->penalty) m["stick_velocity"] = r.run->penalty->stick_velocity;
    for (const auto& a : r.run->analyses) m["analyses"].update(a.figures);
    methods.push_back(std::move(m));
  }
  nlohmann::json figs = nlohmann::json::array();
  for (const auto& f : figures)
    figs.push_back({{"script", (fs::path(dir) / (f + ".gp")).string()},
                    {"png", (fs::path(dir) / (f + ".png")).string()},
                    {"svg", (fs::path(dir) / (f + ".svg")).string()}});
  return nlohmann::json{{"scenario", c.argument},
                        {"built_in", sc.builtin ? sc.name : std::string()},
                        {"status", all_ok ? "ok" : "failed"},
                        {"out_dir", dir},
                        {"reference", results.front().spec.label},
                        {"outputs", outputs},
                        {"methods", methods},
                        {"figures", figs},
                        {"plot_failures", plot_failures}};
}

/// The deviations from the reference, per method and output.
void printDeviations(std::ostream& out, const Comparison& c, std::size_t w) {
  const std::vector<Outcome>& results = c.results;
  const std::vector<std::string>& outputs = c.outputs;
  std::size_t wo = 8;
  for (const auto& o : outputs) wo = std::max(wo, o.size() + columnUnit(o).size() + 3);
  out << "\ndeviation from " << results.front().spec.label
      << " (linear interpolation on its samples, common time span)\n"
      << std::left << std::setw(int(w)) << "method" << std::setw(int(wo + 2)) << "output"
      << std::right << std::setw(12) << "max" << std::setw(12) << "RMS"
      << "\n";
  for (std::size_t i = 1; i < results.size(); ++i) {
    const auto& r = results[i];
    bool first = true;
    for (const auto& o : outputs) {
      const auto it = r.deviations.find(o);
      const Deviation d = it == r.deviations.end() ? Deviation{NAN, NAN, 0} : it->second;
      const std::string unit = columnUnit(o);
      out << std::left << std::setw(int(w)) << (first ? r.spec.label : "")
          << std::setw(int(wo + 2)) << (unit.empty() ? o : o + " [" + unit + "]") << std::right
          << std::setw(12) << sci(d.max_abs) << std::setw(12) << sci(d.rms) << "\n";
      first = false;
    }
  }
}

/// The report: a line per method, its failures and analyses, the deviations, the figures.
void printComparison(std::ostream& out, const Comparison& c) {
  const std::vector<Outcome>& results = c.results;
  const std::vector<std::string>& figures = c.figures;
  const std::string& dir = c.dir;
  const std::string& scenario = c.name;
  std::size_t w = 6;
  for (const auto& r : results) w = std::max(w, r.spec.label.size());
  w += 2;
  out << scenario << ": " << results.size() << " methods, CSVs in " << dir << "/\n\n"
      << std::left << std::setw(int(w)) << "method" << std::right << std::setw(9) << "status"
      << std::setw(10) << "cpu [s]" << std::setw(10) << "steps" << std::setw(8) << "events"
      << std::setw(12) << "LCP solves" << std::setw(13) << "transitions" << std::setw(8)
      << "stick" << std::setw(19) << "friction work [J]"
      << "\n";
  for (const auto& r : results)
    out << std::left << std::setw(int(w)) << r.spec.label << std::right << std::setw(9)
        << (r.ok ? "ok" : "FAILED") << std::setw(10) << fixed(r.run->result.cpu_seconds, 3) << std::setw(10)
        << r.run->result.steps << std::setw(8) << r.run->result.events.size() << std::setw(12)
        << r.run->result.lcp_solves << std::setw(13) << transitionsText(r) << std::setw(8)
        << fixed(r.run->stick.stick_fraction, 4) << std::setw(19) << sci(r.friction_work) << "\n";
  for (const auto& r : results)
    if (!r.ok) out << "  " << r.spec.label << " failed: " << r.message << "\n";
  for (const auto& r : results)
    for (const auto& a : r.run->analyses)
      for (const auto& line : a.lines) out << r.spec.label << ": " << line << "\n";
  out << "stick: share of the run with a contact sticking, from the run's stick/slip modes; '~': "
         "estimated from |v_t| at the samples (regularized friction)\nfriction work: -integral of "
         "F v_t dt as the run reports it (Moreau-Jean: -sum of P_t v_t+ over its steps), else the "
         "trapezoidal rule on the samples (impulses at impacts not included)\n";
  if (results.size() > 1 && !c.outputs.empty()) printDeviations(out, c, w);
  if (!figures.empty()) {
    out << "\nfigures (PNG, SVG; gnuplot scripts beside them):\n";
    for (const auto& f : figures)
      out << "  " << (fs::path(dir) / f).string() << ".{png,svg,gp}\n";
  }
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  // Files are named after the scenario, or after a scenario file's stem.
  const std::string argument = vm["scenario"].as<std::string>();
  mechanisms::Scenario sc = mechanisms::loadScenario(argument);
  if (vm.count("set")) mechanisms::applySettings(sc, vm["set"].as<std::vector<std::string>>());
  const std::string scenario = sc.source.empty() ? argument : fs::path(argument).stem().string();
  std::vector<MethodSpec> specs = parseMethods(vm["methods"].as<std::string>(), scenario);
  const std::string dir =
      vm.count("out-dir") ? vm["out-dir"].as<std::string>() : "compare-" + scenario;
  const bool plot = vm["plot"].as<bool>(), json = vm["json"].as<bool>(),
             force = vm["force"].as<bool>();
  std::optional<double> t_end;
  if (vm.count("t-end")) {
    t_end = vm["t-end"].as<double>();
    if (!(*t_end > 0.0) || !std::isfinite(*t_end))
      throw std::invalid_argument("--t-end: expected a time > 0 [s], got " +
                                  std::to_string(*t_end));
  }
  if (plot && !gnuplotAvailable()) {
    err << "stickslip compare: --plot needs gnuplot, which was not found on PATH (Debian: "
           "apt-get install gnuplot-nox); nothing was run\n";
    return kExitFailure;
  }

  // Nothing the user wrote is overwritten without --force.
  std::vector<std::string> files;
  for (const auto& s : specs) files.push_back(s.file);
  if (plot)
    for (const auto& f : figureNames(scenario))
      for (const char* ext : {".gp", ".png", ".svg"}) files.push_back(f + ext);
  if (!force)
    for (const auto& f : files)
      if (fs::exists(fs::path(dir) / f))
        throw std::invalid_argument("--out-dir " + dir + ": " + f +
                                    " exists; pass --force to overwrite it");

  const std::vector<std::unique_ptr<mechanisms::ScenarioRunner>> runners = resolveMethods(vm, sc, scenario, specs, t_end);
  Comparison c{argument, sc, scenario, dir, givenOutputs(vm, runners, specs), {}, {}, {}};
  try {
    fs::create_directories(dir);
  } catch (const fs::filesystem_error& e) {
    throw std::invalid_argument("--out-dir " + dir + ": " + e.code().message());
  }
  for (std::size_t i = 0; i < specs.size(); ++i) c.results.push_back(runMethod(specs[i], *runners[i], dir, err));
  const Series& reference = *c.results.front().series;
  if (c.outputs.empty()) c.outputs = defaultOutputs(sc, reference);
  for (auto& r : c.results)
    for (const auto& o : c.outputs) r.deviations[o] = deviation(reference, *r.series, o);
  if (plot) drawFigures(c);

  if (json)
    out << jsonLine(comparisonJson(c)) << "\n";
  else
    printComparison(out, c);
  for (const auto& f : c.plot_failures) err << "stickslip compare: gnuplot failed on " << f << "\n";
  for (const auto& r : c.results)
    if (!r.ok) err << "stickslip compare: " << r.spec.label << " failed: " << r.message << "\n";
  return c.allOk() ? kExitOk : kExitFailure;
}

}  // namespace

const Command& compareCommand() {
  static const Command c{"compare",
                         "run several methods on one scenario: table, deviations, CSVs, plots",
                         declare, run};
  return c;
}

}  // namespace stickslip::cli
