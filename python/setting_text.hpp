#pragma once
/// \file A Python value as the text of a setting (`--set KEY=VALUE`'s VALUE): a float by its
/// shortest round-trip repr, an int or a string as written, a bool as true/false; any other
/// type raises TypeError.

#include <pybind11/pybind11.h>

#include <string>

namespace stickslip::python {

std::string settingText(pybind11::handle value);

}  // namespace stickslip::python
