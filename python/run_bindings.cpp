// stickslip.run, stickslip.compare, stickslip.animate and stickslip.Result (python/bindings.hpp).
//
// A Result owns its run. Its arrays are read-only NumPy views into the run's history (no
// copy; the Result stays alive as long as a view does): `history` (samples × columns,
// column-major), `t`, `column(name)` and the per-contact `N`, `F`, `v_t`. `q` and `v` gather
// the bodies' coordinates, which the history interleaves per body, so they are owned copies.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/animation.hpp"
#include "cli/animation_html.hpp"
#include "cli/compare_data.hpp"
#include "cli/method_list.hpp"
#include "cli/run_options.hpp"
#include "cli/run_output.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/run_scenario.hpp"
#include "python/bindings.hpp"
#include "python/setting_text.hpp"

namespace py = pybind11;

namespace stickslip::python {
namespace {

struct Result {
  mechanisms::ScenarioRun run;
  std::string method;  ///< as asked: "penalty:ambrosio"
};

/// `stickslip run` arguments: the method's (its --method, --friction, --ideal; cli/method_list.hpp)
/// and each keyword as its option (t_end → --t-end); `ideal` takes a bool, the only switch.
std::vector<std::string> runArgs(const cli::MethodSpec& method, const py::kwargs& settings) {
  std::vector<std::string> args = cli::methodArgs(method);
  bool ideal = method.ideal;
  for (const auto& [key, value] : settings) {
    const std::string name = key.cast<std::string>();
    std::string option = "--" + name;
    std::replace(option.begin(), option.end(), '_', '-');
    if (name == "out" || name == "force" || name == "json" || name == "set")
      throw py::type_error(name +
                           ": not a keyword of the Python API (a Result holds the arrays and the "
                           "JSON's figures; Scenario.set changes a setting)");
    const bool is_bool = py::isinstance<py::bool_>(value);
    if (name == "ideal") {  // run's one switch here
      if (!is_bool)
        throw py::type_error("ideal: expected True or False, got " +
                             py::repr(value).cast<std::string>());
      if (method.ideal && !value.cast<bool>())
        throw py::value_error("ideal=False contradicts the method's /ideal: give one or the other");
      ideal = ideal || value.cast<bool>();
      continue;
    }
    // A bool elsewhere reaches the option's own check, which refuses it by name.
    args.insert(args.end(),
                {option, is_bool ? (value.cast<bool>() ? "True" : "False") : settingText(value)});
  }
  if (ideal && !method.ideal) args.push_back("--ideal");
  return args;
}

/// The methods as `stickslip compare --methods` reads them: route[:LAW][/ideal], a repeat
/// labelled " (2)"; "" alone is the scenario's own method.
std::vector<cli::MethodSpec> methodSpecs(const std::vector<std::string>& methods, const mechanisms::Scenario& scenario,
                                         const std::string& what) {
  if (methods.size() == 1 && methods.front().empty()) return {cli::MethodSpec{}};
  std::string list;
  for (const std::string& m : methods) {
    if (m.empty() || m.find(',') != std::string::npos)
      throw py::value_error(what + ": expected a method, got '" + m + "'");
    list += (list.empty() ? "" : ",") + m;
  }
  return cli::parseMethods(list, scenario.name, what);
}

std::shared_ptr<Result> runOne(const mechanisms::Scenario& scenario, const cli::MethodSpec& method,
                               const py::kwargs& settings) {
  auto result = std::make_shared<Result>();
  result->method = method.label;
  // Its own mechanism: the same Scenario may be running on another thread.
  const mechanisms::Scenario own = mechanisms::withOwnModel(scenario);
  const std::unique_ptr<mechanisms::ScenarioRunner> runner = cli::plannedRunner(own, runArgs(method, settings));
  py::gil_scoped_release release;  // other Python threads run meanwhile
  result->run = runner->run();
  return result;
}

/// A read-only view of `rows` contiguous doubles from `data`, kept alive by `owner`.
py::array view(const double* data, py::ssize_t rows, py::handle owner) {
  py::array a(py::dtype::of<double>(), {rows}, {py::ssize_t(sizeof(double))}, data, owner);
  a.attr("flags").attr("writeable") = false;
  return a;
}

py::array columnView(const Result& r, py::handle owner, const std::string& name) {
  const auto& cols = r.run.result.columns;
  const auto it = std::find(cols.begin(), cols.end(), name);
  if (it == cols.end()) throw py::key_error("no column '" + name + "' in this run");
  const Eigen::MatrixXd& h = r.run.result.history;
  return view(h.data() + h.rows() * (it - cols.begin()), h.rows(), owner);
}

/// Contact name → view of its column "NAME.suffix", for every contact that has one.
py::dict perContact(const Result& r, py::handle owner, const std::string& suffix) {
  py::dict out;
  for (const std::string& c : r.run.result.columns)
    if (c.size() > suffix.size() && c.ends_with(suffix))
      out[py::str(c.substr(0, c.size() - suffix.size()))] = columnView(r, owner, c);
  return out;
}

/// Every body's columns "B.s" for the suffixes s of the first of `layouts` the history has
/// (planar, then spatial), as an owned samples × (bodies · suffixes) array in the history's body
/// order.
py::array_t<double> bodyColumns(const Result& r, const std::vector<std::vector<std::string>>& layouts) {
  std::vector<Eigen::Index> picked;
  const auto& cols = r.run.result.columns;
  for (const std::vector<std::string>& suffixes : layouts) {
    for (std::size_t c = 1; c + suffixes.size() <= cols.size(); ++c) {
      const std::size_t dot = cols[c].rfind('.');
      if (dot == std::string::npos) continue;
      const std::string body = cols[c].substr(0, dot + 1);
      bool all = true;
      for (std::size_t k = 0; k < suffixes.size() && all; ++k) all = cols[c + k] == body + suffixes[k];
      if (all)
        for (std::size_t k = 0; k < suffixes.size(); ++k) picked.push_back(Eigen::Index(c + k));
    }
    if (!picked.empty()) break;
  }
  const Eigen::MatrixXd& h = r.run.result.history;
  py::array_t<double> out({py::ssize_t(h.rows()), py::ssize_t(picked.size())});
  auto o = out.mutable_unchecked<2>();
  for (py::ssize_t j = 0; j < py::ssize_t(picked.size()); ++j)
    for (py::ssize_t i = 0; i < py::ssize_t(h.rows()); ++i) o(i, j) = h(i, picked[std::size_t(j)]);
  return out;
}

py::object fromJson(const nlohmann::json& j) {
  return py::module_::import("json").attr("loads")(j.dump());
}

}  // namespace

void bindRun(py::module_& m) {
  py::class_<Result, std::shared_ptr<Result>>(m, "Result", "One run of a scenario (stickslip.run).")
      .def_property_readonly("scenario", [](const Result& r) { return r.run.scenario; })
      .def_property_readonly("method", [](const Result& r) { return r.method; })
      .def_property_readonly("status", [](const Result& r) { return std::string(dynamics::toString(r.run.result.status)); },
                             "ok (t_end reached), contact-solver-failure, integrator-failure, no-consistent-mode, "
                             "not-converged, energy-increase, limit-reached, lift-off or incomplete")
      .def_property_readonly("ok", [](const Result& r) { return r.run.result.ok(); })
      .def_property_readonly("message", [](const Result& r) { return r.run.result.message; })
      .def_property_readonly("columns", [](const Result& r) { return r.run.result.columns; })
      .def_property_readonly(
          "history",
          [](py::object self) {
            const Result& r = self.cast<const Result&>();
            const Eigen::MatrixXd& h = r.run.result.history;
            py::array a(py::dtype::of<double>(), {py::ssize_t(h.rows()), py::ssize_t(h.cols())},
                        {py::ssize_t(sizeof(double)), py::ssize_t(sizeof(double) * h.rows())}, h.data(), self);
            a.attr("flags").attr("writeable") = false;
            return a;
          },
          "Samples × columns (read-only view, column-major).")
      .def_property_readonly("t", [](py::object self) { return columnView(self.cast<const Result&>(), self, "t"); })
      .def("column", [](py::object self, const std::string& name) { return columnView(self.cast<const Result&>(), self, name); },
           py::arg("name"), "One history column by name (read-only view).")
      .def_property_readonly(
          "q",
          [](const Result& r) { return bodyColumns(r, {{"x", "y", "theta"}, {"x", "y", "z", "e0", "e1", "e2", "e3"}}); },
          "Body positions, samples × coordinates (an owned copy): x, y, θ per body of a planar mechanism; x, y, z "
          "and the unit quaternion e0 … e3 per body of a spatial one.")
      .def_property_readonly(
          "v",
          [](const Result& r) {
            return bodyColumns(r, {{"vx", "vy", "omega"}, {"vx", "vy", "vz", "wx", "wy", "wz"}});
          },
          "Body velocities, samples × velocities (an owned copy): vx, vy, ω per body of a planar mechanism; vx, vy, "
          "vz and ω in body axes (wx, wy, wz) per body of a spatial one.")
      .def_property_readonly("N", [](py::object self) { return perContact(self.cast<const Result&>(), self, ".N"); },
                             "Contact name → normal force [N] (read-only views).")
      .def_property_readonly("F", [](py::object self) { return perContact(self.cast<const Result&>(), self, ".F"); },
                             "Contact name → friction force [N] (read-only views).")
      .def_property_readonly("v_t", [](py::object self) { return perContact(self.cast<const Result&>(), self, ".v_t"); },
                             "Contact name → sliding velocity [m/s] (read-only views).")
      .def_property_readonly("events", [](const Result& r) { return fromJson(cli::runJson(r.run)["events"]); },
                             "[{t, contact, kind, approximate}], as `stickslip run --json` writes them.")
      .def_property_readonly("energy_initial", [](const Result& r) { return r.run.energy_initial; })
      .def_property_readonly("energy_final", [](const Result& r) { return r.run.energy_final; })
      .def_property_readonly("friction_work", [](const Result& r) { return r.run.result.friction_work; })
      .def_property_readonly("cpu_seconds", [](const Result& r) { return r.run.result.cpu_seconds; })
      .def_property_readonly("steps", [](const Result& r) { return r.run.result.steps; })
      .def("json", [](const Result& r) { return fromJson(cli::runJson(r.run)); },
           "Everything `stickslip run --json` prints, as a dict.")
      .def("__repr__", [](const Result& r) {
        return "<stickslip.Result " + r.run.scenario + " by " + r.method + ": " +
               std::string(dynamics::toString(r.run.result.status)) + ", " + std::to_string(r.run.result.history.rows()) +
               " samples>";
      });

  m.def(
      "run",
      [](const py::object& scenario, const std::string& method, const py::kwargs& settings) {
        const mechanisms::Scenario s = scenarioArgument(scenario);
        return runOne(s, methodSpecs({method}, s, "method").front(), settings);
      },
      py::arg("scenario"), py::arg("method") = "",
      "Runs the scenario (a Scenario, or a built-in's name or a file) by a route: event-driven, moreau-jean, "
      "penalty[:LAW] or minimal-form, /ideal after it for the clearance joints made ideal (\"\": the scenario's "
      "default). Keywords are `stickslip run`'s options "
      "(t_end=2, dt=1e-4, output_dt, tolerance, solver, facets, impact_law, friction, projection, theta, "
      "integrator, ideal=True, max_steps, max_samples, max_history_mb, max_events); the scenario's run: settings "
      "apply under them. The GIL is released while it runs. Raises InputError / ValueError for bad input; a "
      "run that fails returns with its status and message.");

  m.def(
      "compare",
      [](const py::object& scenario_argument, const std::vector<std::string>& methods,
         std::optional<std::vector<std::string>> outputs, const py::kwargs& settings) {
        const mechanisms::Scenario scenario = scenarioArgument(scenario_argument);
        if (methods.empty()) throw py::value_error("compare: expected at least one method");
        const std::vector<cli::MethodSpec> specs = methodSpecs(methods, scenario, "methods");
        std::vector<std::shared_ptr<Result>> runs;
        for (const cli::MethodSpec& method : specs) runs.push_back(runOne(scenario, method, settings));
        std::vector<cli::Series> series;
        std::vector<std::vector<std::string>> written;
        for (const auto& r : runs) {
          series.push_back({r->run.result.columns, r->run.result.history});
          written.push_back(r->run.result.columns);
        }
        if (outputs) cli::requireOutputs(*outputs, written, specs.front().label);
        const std::vector<std::string> columns = outputs ? *outputs : cli::defaultOutputs(scenario, series.front());
        py::list summary, deviations;
        for (std::size_t i = 0; i < runs.size(); ++i) {
          const mechanisms::ScenarioRun& run = runs[i]->run;
          const double work = std::isfinite(run.result.friction_work) ? run.result.friction_work
                                                                      : cli::frictionWork(series[i]);
          summary.append(py::dict(py::arg("method") = specs[i].label,
                                  py::arg("status") = std::string(dynamics::toString(run.result.status)),
                                  py::arg("cpu_seconds") = run.result.cpu_seconds, py::arg("steps") = run.result.steps,
                                  py::arg("events") = run.result.events.size(),
                                  py::arg("lcp_solves") = run.result.lcp_solves,
                                  py::arg("transitions") = run.stick.transitions,
                                  py::arg("transitions_estimated") = run.penalty.has_value(),
                                  py::arg("stick_fraction") = run.stick.stick_fraction, py::arg("friction_work") = work));
          for (const std::string& o : columns) {
            const cli::Deviation d = cli::deviation(series.front(), series[i], o);
            deviations.append(py::dict(py::arg("method") = specs[i].label, py::arg("output") = o,
                                       py::arg("max") = d.max_abs, py::arg("rms") = d.rms,
                                       py::arg("samples") = d.samples));
          }
        }
        py::dict by_method;
        for (std::size_t i = 0; i < runs.size(); ++i) by_method[py::str(specs[i].label)] = runs[i];
        return py::dict(py::arg("runs") = by_method, py::arg("summary") = summary,
                        py::arg("deviations") = deviations);
      },
      py::arg("scenario"), py::arg("methods"), py::arg("outputs") = py::none(),
      "Runs the scenario by each method and sets them side by side as `stickslip compare` does: "
      "{'runs': {method: Result}, 'summary': [one row per method], 'deviations': [{method, output, max, "
      "rms, samples}] from the first method}. Keywords go to every run.");

  m.def(
      "animate",
      [](const py::object& scenario_argument, const std::vector<std::shared_ptr<Result>>& runs,
         std::optional<std::string> path, bool force, int max_frames) {
        const mechanisms::Scenario scenario = scenarioArgument(scenario_argument);
        if (runs.empty()) throw py::value_error("animate: expected at least one Result");
        if (std::find(runs.begin(), runs.end(), nullptr) != runs.end())
          throw py::type_error("animate: expected Results, got None among them");
        if (max_frames < 2) throw py::value_error("animate: max_frames: expected at least 2, got " + std::to_string(max_frames));
        if (path && !force && std::filesystem::exists(*path))
          throw py::value_error("animate: " + *path + " exists; pass force=True to overwrite it");
        const double zero = scenario.builtin ? mechanisms::rigidScenarioInfo(scenario.name).zero_velocity : 1e-8;
        std::vector<cli::AnimationTrack> tracks;
        for (const auto& r : runs)
          tracks.push_back(cli::scenarioTrack(scenario, r->method.empty() ? std::string(mechanisms::toString(r->run.route)) : r->method,
                                              r->run.result.columns, r->run.result.history, &r->run.result,
                                              std::size_t(max_frames), zero));
        std::ostringstream page;
        cli::writeScenarioAnimationHtml(page, cli::animationTitle(scenario.name, tracks), scenario, tracks);
        if (path) {
          std::ofstream f(*path);
          if (!(f << page.str())) throw py::value_error("animate: " + *path + " cannot be written");
        }
        return page.str();
      },
      py::arg("scenario"), py::arg("runs"), py::arg("path") = py::none(), py::arg("force") = false,
      py::arg("max_frames") = 4000,
      "The page `stickslip animate` writes (a self-contained HTML string) for these runs of the scenario, "
      "overlaid; written to `path` too when given (an existing file only with force=True).");
}

}  // namespace stickslip::python
