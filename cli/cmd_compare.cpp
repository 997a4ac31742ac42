// stickslip compare SCENARIO --methods M1,M2[,..] [--out-dir D] [--plot] [--json]
//                            [--outputs C1,C2,..] [--t-end T] [--solver S] [--set K=V]... [--force]
// Runs each method through `stickslip run` in this process (its --json and --out), then reads
// the CSVs back: a table of the methods' figures, the deviations of the chosen outputs from the
// first method, and with --plot gnuplot figures (scripts beside them).
#include <unistd.h>

#include <atomic>
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
#include "cli/output.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {
namespace {

namespace fs = std::filesystem;

/// Velocity below which a penalty (regularized) run counts as sticking when it reports no
/// stick modes itself; the penalty route estimates its modes with the same value
/// (PenaltyRouteOptions::stick_velocity).
constexpr double kStickVelocity = 1e-3;  // [m/s]
/// Length of the trial run that checks each method is available before any real run [s].
constexpr double kProbeTime = 1e-4;

const std::vector<std::string>& methodNames() {
  static const std::vector<std::string> names{"event-driven", "moreau-jean", "penalty",
                                              "minimal-form"};
  return names;
}

struct MethodSpec {
  std::string label;     ///< as given: "penalty:ambrosio"
  std::string method;    ///< "penalty"
  std::string friction;  ///< "ambrosio", or "" for the scenario's default
  std::string file;      ///< CSV file name in the output directory
};

std::vector<MethodSpec> parseMethods(const std::string& list, const std::string& scenario) {
  std::vector<MethodSpec> specs;
  std::map<std::string, int> seen;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    MethodSpec s;
    s.label = item;
    const auto colon = item.find(':');
    s.method = item.substr(0, colon);
    if (colon != std::string::npos) s.friction = item.substr(colon + 1);
    if (std::find(methodNames().begin(), methodNames().end(), s.method) == methodNames().end())
      throw std::invalid_argument("--methods: unknown method '" + s.method +
                                  "' (expected event-driven, moreau-jean, penalty[:LAW] or "
                                  "minimal-form; a friction law follows a colon)");
    if (colon != std::string::npos && s.friction.empty())
      throw std::invalid_argument("--methods: '" + item + "': expected a friction law after ':'");
    std::string stem = scenario + "-" + item;
    std::replace(stem.begin(), stem.end(), ':', '-');
    const int n = ++seen[stem];
    s.file = stem;
    if (n > 1) s.file.append("-").append(std::to_string(n));
    s.file.append(".csv");
    if (n > 1) s.label.append(" (").append(std::to_string(n)).append(")");
    specs.push_back(std::move(s));
  }
  if (specs.empty()) throw std::invalid_argument("--methods: expected at least one method");
  return specs;
}

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

/// Without a default list: the first run's coordinates that move, at most six.
std::vector<std::string> movingCoordinates(const Series& s) {
  std::vector<std::string> out;
  for (std::size_t c = 1; c < s.names.size() && out.size() < 6; ++c) {
    const std::string& n = s.names[c];
    const bool coordinate = n.ends_with(".x") || n.ends_with(".y") || n.ends_with(".theta");
    const auto col = s.data.col(Eigen::Index(c));
    if (coordinate && s.rows() > 0 && col.maxCoeff() - col.minCoeff() > 0.0) out.push_back(n);
  }
  return out;
}

struct Outcome {
  MethodSpec spec;
  int code = 0;
  bool ok = false;
  std::string message;
  nlohmann::json json;  ///< the run's own JSON object (null if it printed none)
  std::optional<Series> series;
  std::string status;
  double cpu = NAN, friction_work = NAN, stick_fraction = NAN;
  long steps = -1, events = -1, lcp_solves = -1, transitions = -1;
  bool stick_exact = false;
  bool friction_work_from_run =
      false;  ///< reported by the run, not estimated from its CSV  ///< stick figures from the
              ///< run's own modes, not a velocity threshold
  std::map<std::string, Deviation> deviations;
};

/// `stickslip run` arguments for one method.
std::vector<std::string> runArgs(const po::variables_map& vm, const MethodSpec& m,
                                 std::optional<double> t_end, const std::string& csv) {
  std::vector<std::string> a{
      "run",    vm["scenario"].as<std::string>(), "--method", m.method, "--json", "--out", csv,
      "--force"};
  if (!m.friction.empty()) a.insert(a.end(), {"--friction", m.friction});
  if (t_end) {
    std::ostringstream t;
    t << std::setprecision(17) << *t_end;
    a.insert(a.end(), {"--t-end", t.str()});
  }
  if (vm.count("solver")) a.insert(a.end(), {"--solver", vm["solver"].as<std::string>()});
  if (vm.count("set"))
    for (const auto& kv : vm["set"].as<std::vector<std::string>>())
      a.insert(a.end(), {"--set", kv});
  return a;
}

/// The message of a run's stderr: its first line without the "stickslip run: " prefix.
std::string firstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  const std::string prefix = "stickslip run: ";
  if (line.starts_with(prefix)) line = line.substr(prefix.size());
  return line;
}

nlohmann::json lastJsonLine(const std::string& out) {
  std::istringstream in(out);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty() && line.front() == '{') last = line;
  if (last.empty()) return nullptr;
  try {
    return nlohmann::json::parse(last);
  } catch (const nlohmann::json::exception&) {
    return nullptr;
  }
}

template <class T>
T field(const nlohmann::json& j, const char* key, T fallback) {
  if (j.is_object() && j.contains(key) && j[key].is_number()) return j[key].get<T>();
  return fallback;
}

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
std::string count(long n) { return n < 0 ? "-" : std::to_string(n); }
/// '~' marks a count from the velocity threshold rather than the run's own modes.
std::string transitionsText(const Outcome& r) {
  std::string s = r.stick_exact || r.transitions < 0 ? std::string() : std::string("~");
  return s.append(count(r.transitions));
}

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(),
                  "built-in scenario (stickslip list) or scenario file (stickslip show NAME)")(
      "methods", po::value<std::string>()->required(),
      "comma-separated: event-driven, moreau-jean, penalty, minimal-form; a friction law after a "
      "colon is passed as --friction (penalty:ambrosio); the first is the reference of the "
      "deviations")("out-dir", po::value<std::string>(),
                    "directory of the CSVs and figures (default compare-SCENARIO)")(
      "outputs", po::value<std::string>(),
      "comma-separated CSV columns to compare (default per scenario, e.g. belt: block.x, block.vx, "
      "block-belt.F)")("t-end", po::value<double>(),
                       "end time of every run [s] (default: the scenario's)")(
      "solver", po::value<std::string>(), "contact problems of the nonsmooth methods (see run)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE passed to every run (repeatable)")(
      "plot", po::bool_switch(),
      "draw PNG and SVG figures with gnuplot (scripts written beside them)")(
      "force", po::bool_switch(), "overwrite files in the output directory")(
      "json", po::bool_switch(), "print one JSON object on stdout");
  p.add("scenario", 1);
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  // Files are named after the scenario, or after a scenario file's stem; the built-in kind it
  // runs (its run JSON's "scenario") picks the column names and default outputs.
  const std::string argument = vm["scenario"].as<std::string>();
  const fs::path as_path(argument);
  const bool is_file = argument.find('/') != std::string::npos || as_path.extension() == ".yaml" ||
                       as_path.extension() == ".yml";
  const std::string scenario = is_file ? as_path.stem().string() : argument;
  std::string kind;
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

  // A short trial run of every method finds unavailable methods (and other bad input) before
  // anything runs; its CSV header gives the columns the outputs are checked against.
  static std::atomic<int> probe_counter{0};
  std::vector<std::string> unavailable;
  std::vector<std::vector<std::string>> probe_columns;
  for (const auto& s : specs) {
    const fs::path probe =
        fs::temp_directory_path() / ("stickslip-compare-" + std::to_string(getpid()) + "-" +
                                     std::to_string(probe_counter++) + ".csv");
    std::ostringstream o, e;
    const double t = t_end ? std::min(*t_end, kProbeTime) : kProbeTime;
    const int code = dispatch(runArgs(vm, s, t, probe.string()), o, e);
    if (code == kExitInput) unavailable.push_back(s.label + ": " + firstLine(e.str()));
    const nlohmann::json pj = lastJsonLine(o.str());
    if (kind.empty() && pj.is_object() && pj.contains("scenario") && pj["scenario"].is_string())
      kind = pj["scenario"].get<std::string>();
    probe_columns.emplace_back();
    try {
      if (fs::exists(probe))
        probe_columns.back() = readSeries(probe.string()).names;
    } catch (const std::invalid_argument&) {
    }
    std::error_code ec;
    fs::remove(probe, ec);
  }
  if (kind.empty()) kind = scenario;
  if (!unavailable.empty()) {
    std::string msg = "--methods: not available for '" + scenario + "':";
    for (const auto& u : unavailable) msg += "\n  " + u;
    throw std::invalid_argument(msg);
  }
  std::vector<std::string> outputs;
  const bool outputs_given = vm.count("outputs") > 0;
  if (outputs_given) {
    outputs = splitList(vm["outputs"].as<std::string>());
    for (const auto& o : outputs) {
      bool found = false;
      for (const auto& cols : probe_columns)
        found = found || std::find(cols.begin(), cols.end(), o) != cols.end();
      if (!found) {
        std::string cols;
        for (std::size_t c = 1; c < probe_columns.front().size(); ++c)
          cols += (c > 1 ? ", " : "") + probe_columns.front()[c];
        throw std::invalid_argument("--outputs: no method writes a column '" + o + "' (" +
                                    specs.front().label + " writes " + cols + ")");
      }
    }
  } else {  // the built-in's own choice, where the runs write it
    const auto& builtins = mechanisms::rigidScenarios();
    const auto info = std::find_if(builtins.begin(), builtins.end(), [&](const auto& i) { return i.name == kind; });
    if (info != builtins.end())
      for (const auto& o : info->compare_outputs)
        if (std::find(probe_columns.front().begin(), probe_columns.front().end(), o) != probe_columns.front().end())
          outputs.push_back(o);
  }

  try {
    fs::create_directories(dir);
  } catch (const fs::filesystem_error& e) {
    throw std::invalid_argument("--out-dir " + dir + ": " + e.code().message());
  }
  std::vector<Outcome> results;
  for (const auto& s : specs) {
    Outcome r;
    r.spec = s;
    const std::string csv = (fs::path(dir) / s.file).string();
    // Progress only for a person watching (DESIGN 6: stderr, when it is a terminal).
    if (&err == &std::cerr && isatty(STDERR_FILENO) != 0)
      err << "compare: running " << s.label << " …\n";
    std::ostringstream o, e;
    r.code = dispatch(runArgs(vm, s, t_end, csv), o, e);
    r.json = lastJsonLine(o.str());
    r.ok = r.code == kExitOk && !r.json.is_null();
    r.status = r.json.is_object() && r.json.contains("status")
                   ? r.json["status"].get<std::string>()
                   : std::string(r.ok ? "ok" : "failed");
    if (!r.ok) r.status = "failed (" + r.status + ")";
    r.message = r.json.is_object() && r.json.contains("message")
                    ? r.json["message"].get<std::string>()
                    : "";
    if (r.message.empty() && !r.ok) r.message = firstLine(e.str());
    r.cpu = field<double>(r.json, "cpu_seconds", NAN);
    r.steps = field<long>(r.json, "steps", -1);
    r.lcp_solves = field<long>(r.json, "lcp_solves", -1);
    if (r.json.is_object() && r.json.contains("events") && r.json["events"].is_array())
      r.events = long(r.json["events"].size());
    else
      r.events = field<long>(r.json, "contact_events", field<long>(r.json, "closings", -1));
    try {
      if (fs::exists(csv)) r.series = readSeries(csv);
    } catch (const std::invalid_argument& ex) {
      r.ok = false;
      r.message += (r.message.empty() ? "" : "; ") + std::string(ex.what());
    }
    if (r.json.is_object() && r.json.contains("transitions")) {
      r.transitions = field<long>(r.json, "transitions", -1);
      r.stick_fraction = field<double>(r.json, "stick_fraction", NAN);
      r.stick_exact = !r.json.contains("stick_velocity");  // the penalty route estimates its modes
    } else if (r.series) {
      const SampledStick st = sampledStick(*r.series, kStickVelocity);
      r.transitions = st.transitions;
      if (st.transitions >= 0) r.stick_fraction = st.fraction;
    }
    // The run's own friction work when it reports one (Moreau–Jean: every step), else the
    // CSV samples' trapezoidal estimate.
    r.friction_work = field<double>(r.json, "friction_work", NAN);
    r.friction_work_from_run = std::isfinite(r.friction_work);
    if (!r.friction_work_from_run && r.series) r.friction_work = frictionWork(*r.series);
    results.push_back(std::move(r));
  }
  const Series* reference = results.front().series ? &*results.front().series : nullptr;
  if (!outputs_given && outputs.empty() && reference) outputs = movingCoordinates(*reference);
  for (auto& r : results)
    if (reference && r.series)
      for (const auto& o : outputs) r.deviations[o] = deviation(*reference, *r.series, o);

  // Figures.
  std::vector<std::string> figures, plot_failures;
  if (plot) {
    std::vector<PlotSource> sources;
    for (const auto& r : results)
      if (r.series) sources.push_back({r.spec.label, r.spec.file, &*r.series});
    if (!sources.empty()) {
      for (const auto& name : writePlotScripts(dir, scenario, sources, outputs)) {
        std::string log;
        if (renderPlot(dir, name, log))
          figures.push_back(name);
        else
          plot_failures.push_back(name + ": " + log);
      }
    }
  }

  bool all_ok = true;
  for (const auto& r : results) all_ok = all_ok && r.ok;
  if (json) {
    nlohmann::json methods = nlohmann::json::array();
    for (const auto& r : results) {
      nlohmann::json dev = nlohmann::json::object();
      for (const auto& [name, d] : r.deviations)
        dev[name] = {
            {"max", finiteOrNull(d.max_abs)}, {"rms", finiteOrNull(d.rms)}, {"samples", d.samples}};
      methods.push_back(
          {{"label", r.spec.label},
           {"method", r.spec.method},
           {"friction", r.spec.friction},
           {"csv", (fs::path(dir) / r.spec.file).string()},
           {"status", r.ok ? "ok" : "failed"},
           {"run_status", r.status},
           {"message", r.message},
           {"exit_code", r.code},
           {"cpu_seconds", finiteOrNull(r.cpu)},
           {"steps", r.steps < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.steps)},
           {"events", r.events < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.events)},
           {"lcp_solves",
            r.lcp_solves < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.lcp_solves)},
           {"transitions",
            r.transitions < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.transitions)},
           {"stick_fraction", finiteOrNull(r.stick_fraction)},
           {"stick_from", r.stick_exact ? "modes" : "velocity-threshold"},
           {"friction_work", finiteOrNull(r.friction_work)},
           {"friction_work_from", r.friction_work_from_run ? "run" : "csv-samples"},
           {"deviations", dev}});
    }
    nlohmann::json figs = nlohmann::json::array();
    for (const auto& f : figures)
      figs.push_back({{"script", (fs::path(dir) / (f + ".gp")).string()},
                      {"png", (fs::path(dir) / (f + ".png")).string()},
                      {"svg", (fs::path(dir) / (f + ".svg")).string()}});
    out << nlohmann::json{{"scenario", argument},
                          {"built_in", kind},
                          {"status", all_ok && plot_failures.empty() ? "ok" : "failed"},
                          {"out_dir", dir},
                          {"reference", results.front().spec.label},
                          {"outputs", outputs},
                          {"stick_velocity", kStickVelocity},
                          {"methods", methods},
                          {"figures", figs},
                          {"plot_failures", plot_failures}}
               .dump()
        << "\n";
  } else {
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
          << (r.ok ? "ok" : "FAILED") << std::setw(10) << fixed(r.cpu, 3) << std::setw(10)
          << count(r.steps) << std::setw(8) << count(r.events) << std::setw(12)
          << count(r.lcp_solves) << std::setw(13) << transitionsText(r) << std::setw(8)
          << fixed(r.stick_fraction, 4) << std::setw(19) << sci(r.friction_work) << "\n";
    for (const auto& r : results)
      if (!r.ok) out << "  " << r.spec.label << " failed: " << r.message << "\n";
    out << "stick: share of the run with a contact sticking, from the run's stick/slip modes; '~': "
           "from |v_t| < "
        << kStickVelocity
        << " m/s (regularized friction)\nfriction work: -integral of F v_t dt; "
           "Moreau-Jean: -sum of P_t v_t+ over its steps; others: trapezoidal rule on the CSV "
           "samples (impulses at impacts not included)\n";
    if (results.size() > 1 && reference && !outputs.empty()) {
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
    if (!figures.empty()) {
      out << "\nfigures (PNG, SVG; gnuplot scripts beside them):\n";
      for (const auto& f : figures)
        out << "  " << (fs::path(dir) / f).string() << ".{png,svg,gp}\n";
    }
  }
  for (const auto& f : plot_failures) err << "stickslip compare: gnuplot failed on " << f << "\n";
  for (const auto& r : results)
    if (!r.ok) err << "stickslip compare: " << r.spec.label << " failed: " << r.message << "\n";
  return all_ok && plot_failures.empty() ? kExitOk : kExitFailure;
}

}  // namespace

const Command& compareCommand() {
  static const Command c{"compare",
                         "run several methods on one scenario: table, deviations, CSVs, plots",
                         declare, run};
  return c;
}

}  // namespace stickslip::cli
