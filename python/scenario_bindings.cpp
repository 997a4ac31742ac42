// stickslip.Scenario and stickslip.InputError (python/bindings.hpp).
#include <pybind11/stl.h>

#include <string>

#include "cli/run_options.hpp"
#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/scenario_file.hpp"
#include "python/bindings.hpp"
#include "python/setting_text.hpp"
#include "python/yaml_text.hpp"

namespace py = pybind11;

namespace stickslip::python {

bool holdsComplex(py::handle value) {
  return PyComplex_Check(value.ptr()) ||
         (py::hasattr(value, "dtype") && py::str(value.attr("dtype").attr("kind")).cast<std::string>() == "c");
}

std::optional<std::string> numberText(py::handle value) {
  // A complex number's imaginary part would be dropped, an array's other entries ignored.
  const auto repr = [&] { return py::repr(value).cast<std::string>(); };
  const bool numpy = py::hasattr(value, "dtype") && py::hasattr(value, "ndim");
  if (holdsComplex(value)) throw py::type_error("a setting's value must be real, got " + repr());
  if (numpy && value.attr("ndim").cast<int>() > 0)
    throw py::type_error("a setting's value must be one number, got an array " + repr());
  // int and NumPy's integers; a NumPy float, even a 0-d array, is no index (PyNumber_Index
  // refuses it): it is read as a float below.
  if (PyIndex_Check(value.ptr())) {
    if (PyObject* index = PyNumber_Index(value.ptr()))
      return py::str(py::reinterpret_steal<py::object>(index)).cast<std::string>();
    PyErr_Clear();
  }
  if (PyFloat_Check(value.ptr()) || py::hasattr(value, "__float__"))  // float, NumPy's floats: round-trips
    return py::repr(py::float_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  return std::nullopt;
}

std::string settingText(py::handle value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (const std::optional<std::string> number = numberText(value)) return *number;
  throw py::type_error("a setting's value must be a number, a string or a bool, got " +
                       py::repr(value).cast<std::string>());
}

mechanisms::Scenario scenarioArgument(const py::handle& scenario) {
  if (py::isinstance<py::str>(scenario)) return mechanisms::loadScenario(scenario.cast<std::string>());
  if (!py::isinstance<mechanisms::Scenario>(scenario))
    throw py::type_error("expected a stickslip.Scenario, a built-in's name or a scenario file, got " +
                         std::string(py::str(py::type::of(scenario).attr("__name__"))));
  return scenario.cast<mechanisms::Scenario>();
}

namespace {

// A run: section's keys and value types as the scenario loads, as Scenario.set checks them; the
// values against each other when it runs.
mechanisms::Scenario withRunKeysChecked(mechanisms::Scenario s) {
  cli::checkRunKeys(s);
  return s;
}

}  // namespace

void bindScenario(py::module_& m) {
  static py::exception<mechanisms::InputError> input_error(m, "InputError", PyExc_ValueError);
  input_error.doc() =
      "Bad input (a scenario file, a setting): a ValueError whose message is 'FILE:LINE: KEY: "
      "REASON', with attributes file (None for a setting), line (None when unknown), key (the "
      "dotted path, None when none) and reason.";
  // Messages are decoded with U+FFFD for bytes that are not UTF-8 (a file's Latin-1 name or
  // text, quoted back): pybind11's own translation would raise UnicodeDecodeError or lose them.
  py::register_exception_translator([](std::exception_ptr p) {
    const auto text = [](const std::string& s) {
      const Py_ssize_t size = static_cast<Py_ssize_t>(s.size());
      return py::reinterpret_steal<py::str>(PyUnicode_DecodeUTF8(s.data(), size, "replace"));
    };
    try {
      if (p) std::rethrow_exception(p);
    } catch (const mechanisms::InputError& e) {
      const mechanisms::Location& w = e.where();
      const py::object type = py::reinterpret_borrow<py::object>(input_error.ptr());
      const py::object error = type(text(e.what()));
      const auto optional = [&](const std::string& s) {
        return s.empty() ? py::object(py::none()) : py::object(text(s));
      };
      error.attr("file") = optional(w.file == "--set" ? std::string() : w.file);  // a setting: no file
      error.attr("line") = w.line > 0 ? py::object(py::int_(w.line)) : py::none();
      error.attr("key") = optional(w.key);
      error.attr("reason") = text(w.reason.empty() ? std::string(e.what()) : w.reason);
      PyErr_SetObject(input_error.ptr(), error.ptr());
    } catch (const std::invalid_argument& e) {
      PyErr_SetObject(PyExc_ValueError, text(e.what()).ptr());
    }
  });

  using mechanisms::Scenario;
  py::class_<Scenario>(m, "Scenario",
                       "A mechanism with its parameters and run settings: a built-in (stickslip.builtins()), "
                       "a scenario or model file (.yaml), such a file's text (Scenario.from_yaml) or its values "
                       "(Scenario.from_dict).")
      .def(py::init([](const std::string& name_or_file) {
             return withRunKeysChecked(mechanisms::loadScenario(name_or_file));
           }),
           py::arg("name_or_file"))
      .def_static(
          "from_yaml",
          [](const std::string& text, const std::string& label) {
            return withRunKeysChecked(mechanisms::loadScenarioText(text, label));
          },
          py::arg("text"), py::arg("label") = "<string>", "A scenario from a file's text; `label` names it in errors.")
      .def_static(
          "from_dict",
          [](py::handle values, const std::string& label) {
            try {
              return withRunKeysChecked(mechanisms::loadScenarioText(yamlText(values), label));
            } catch (const mechanisms::InputError& e) {
              if (e.where().reason.empty()) throw;
              mechanisms::Location where = e.where();
              where.line = 0;  // a line of the text made from the dict would mean nothing to the caller
              throw mechanisms::InputError(where);
            }
          },
          py::arg("values"), py::arg("label") = "<dict>",
          "A scenario from Python values with a scenario file's keys and schema (dicts, lists, numbers, "
          "strings): {'model': {...}, 'run': {...}} or {'scenario': NAME, 'parameters': {...}}. Raises "
          "InputError naming the key path (line None), as a file's errors do; TypeError for a value YAML "
          "cannot hold.")
      .def_readonly("name", &Scenario::name)
      .def_property_readonly("source", [](const Scenario& s) -> py::object {
        return s.source.empty() ? py::object(py::none()) : py::object(py::str(s.source));
      }, "The file it was read from (the label for from_yaml); None for a built-in.")
      .def_readonly("builtin", &Scenario::builtin)
      .def_property_readonly(
          "parameters",
          [](const Scenario& s) {
            py::dict out;
            for (const auto& [name, value] : mechanisms::modelParameters(s)) out[py::str(name)] = value;
            return out;
          },
          "The model's constants (model.parameters, evaluated, with the values set), name → value.")
      .def(
          "set",
          [](Scenario& s, const std::string& key, py::handle value) -> Scenario& {
            Scenario changed = s;  // unchanged when refused
            mechanisms::applySettings(changed, {key + "=" + settingText(value)});
            if (key.starts_with("run.")) cli::checkRunKeys(changed);
            s = std::move(changed);
            return s;
          },
          py::arg("key"), py::arg("value"), py::return_value_policy::reference_internal,
          "Sets parameters.NAME, friction_parameters.NAME or run.NAME as `--set KEY=VALUE` does, "
          "with the same checks; returns the scenario. Raises InputError: at once for an unknown "
          "key or a value of the wrong type, at run() for run values that do not go together.")
      .def("copy", [](const Scenario& s) { return Scenario(s); })
      .def("show", &mechanisms::showScenario,
           "A built-in scenario as a file (YAML), as `stickslip show` prints it.")
      .def("__repr__", [](const Scenario& s) {
        return "<stickslip.Scenario '" + s.name + "'" + (s.source.empty() ? "" : " from " + s.source) + ">";
      });

  m.def("builtins", [] { return mechanisms::builtinScenarioNames(); }, "The built-in scenarios' names.");
}

}  // namespace stickslip::python
