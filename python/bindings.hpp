#pragma once
/// \file The parts of the Python module `stickslip` (module.cpp puts them together):
///   stickslip.Scenario, InputError       scenario_bindings.cpp
///   stickslip.run, compare, Result       run_bindings.cpp
///   stickslip.lcp                        lcp_bindings.cpp
/// Errors: mechanisms::InputError becomes stickslip.InputError (a ValueError with attributes
/// file, line, key and reason), any other std::invalid_argument a ValueError.

#include <pybind11/pybind11.h>

#include "mechanisms/scenario_file.hpp"

namespace stickslip::python {

void bindScenario(pybind11::module_& m);
/// What run, compare and animate take as their scenario: a stickslip.Scenario, or a built-in's
/// name or a file, loaded as Scenario(name) does (its InputError raised as such); TypeError else.
mechanisms::Scenario scenarioArgument(const pybind11::handle& scenario);
void bindRun(pybind11::module_& m);
void bindLcp(pybind11::module_& lcp);

}  // namespace stickslip::python
