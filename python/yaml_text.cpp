// Python values as YAML text (python/yaml_text.hpp), by yaml-cpp's emitter.
#include "python/yaml_text.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <optional>

#include "python/setting_text.hpp"

namespace py = pybind11;

namespace stickslip::python {
namespace {

std::string pathText(const std::string& path) { return path.empty() ? "the scenario" : path; }

/// Deeper than any scenario: a value that contains itself, or a runaway nesting, stops here
/// rather than exhausting the stack.
constexpr int kMaxDepth = 64;

void emit(YAML::Emitter& out, py::handle value, const std::string& path, int depth = 0) {
  if (depth > kMaxDepth)
    throw py::value_error(pathText(path) + ": nested more than " + std::to_string(kMaxDepth) +
                          " deep (a dict or list that contains itself?)");
  if (value.is_none()) {
    out << YAML::Null;
  } else if (py::isinstance<py::bool_>(value)) {
    out << (value.cast<bool>() ? "true" : "false");
  } else if (py::isinstance<py::str>(value)) {
    out << YAML::DoubleQuoted << value.cast<std::string>();
  } else if (py::isinstance<py::dict>(value)) {
    out << YAML::BeginMap;
    for (const auto& [key, item] : value.cast<py::dict>()) {
      if (!py::isinstance<py::str>(key))
        throw py::type_error(pathText(path) + ": keys must be strings, got " + py::repr(key).cast<std::string>());
      const std::string name = key.cast<std::string>();
      out << YAML::Key << name << YAML::Value;
      emit(out, item, path.empty() ? name : path + "." + name, depth + 1);
    }
    out << YAML::EndMap;
  } else if (py::isinstance<py::sequence>(value) && !py::isinstance<py::bytes>(value)) {
    out << YAML::BeginSeq;
    std::size_t k = 0;
    for (const py::handle item : value)
      emit(out, item, path + "[" + std::to_string(k++) + "]", depth + 1);
    out << YAML::EndSeq;
  } else if (const std::optional<std::string> number = numberText(value)) {  // after the arrays (__index__ too)
    const bool integer = PyIndex_Check(value.ptr());
    if (!integer && !std::isfinite(py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>()))
      throw py::value_error(pathText(path) + ": expected a finite number, got " + py::repr(value).cast<std::string>());
    out << *number;
  } else {
    throw py::type_error(pathText(path) + ": expected a dict, a list, a number, a string, a bool or None, got " +
                         std::string(py::str(py::type::of(value).attr("__name__"))));
  }
}

}  // namespace

std::string yamlText(py::handle value) {
  if (!py::isinstance<py::dict>(value))
    throw py::type_error("Scenario.from_dict: expected a dict (a scenario file's keys: scenario or model, "
                         "parameters, run), got " + std::string(py::str(py::type::of(value).attr("__name__"))));
  YAML::Emitter out;
  emit(out, value, "");
  return out.c_str();
}

}  // namespace stickslip::python
