#pragma once
// Runs the stickslip command in-process, as the tests of tests/cli/ do.
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.hpp"

struct Run {
  int code;
  std::string out, err;
};

inline Run cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = stickslip::cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}
