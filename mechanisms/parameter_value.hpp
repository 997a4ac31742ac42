#pragma once
/// \file A value given from outside a model file for one of its model.parameters.

#include <string>

namespace stickslip::mechanisms {

/// A value given from outside the file for one of its model.parameters (--set, a scenario
/// file's `parameters:`); `origin`, `line` and `key` locate it in an error.
struct ParameterValue {
  std::string name;   ///< the parameter's name
  std::string value;  ///< an expression, as written
  std::string origin;
  int line = 0;
  std::string key;    ///< as the user wrote it, e.g. "parameters.mass"
};

}  // namespace stickslip::mechanisms
