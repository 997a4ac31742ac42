#pragma once
/// \file A Python value as the text of a setting (`--set KEY=VALUE`'s VALUE): a float by its
/// shortest round-trip repr, an int or a string as written, a bool as true/false; any other
/// type raises TypeError.

#include <pybind11/pybind11.h>

#include <optional>
#include <string>

namespace stickslip::python {

std::string settingText(pybind11::handle value);

/// The text of an int or a float, NumPy's included (0-d arrays too; a float by its shortest
/// round-trip repr); nothing for any other value. TypeError for a complex number or an array.
std::optional<std::string> numberText(pybind11::handle value);

/// Whether `value` is a complex number, or a NumPy value or array of complex dtype: NumPy would
/// drop the imaginary parts where a real number is read, with only a warning.
bool holdsComplex(pybind11::handle value);

}  // namespace stickslip::python
