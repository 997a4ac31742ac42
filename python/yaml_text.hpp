#pragma once
/// \file Python values as the YAML text of a scenario file, for Scenario.from_dict: a dict is
/// a map (string keys, in their order), a list or a tuple (or any sequence, NumPy arrays
/// included) a sequence, None null, a bool true/false, an int as written, a float by its
/// shortest round-trip repr, a str as a scalar. Any other value, a key that is not a string
/// and a float that is not finite raise TypeError / ValueError naming the value's dotted path
/// (`model.bodies[1].mass`), the path the file's own errors use.

#include <pybind11/pybind11.h>

#include <string>

namespace stickslip::python {

std::string yamlText(pybind11::handle value);

}  // namespace stickslip::python
