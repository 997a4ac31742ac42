#include "cli/command.hpp"

namespace stickslip::cli {
namespace {
void declare(po::options_description&, po::positional_options_description&) {}
int run(const po::variables_map&, std::ostream&, std::ostream&) { return kExitFailure; }
}  // namespace
const Command& benchCommand() {
  static const Command c{"bench", "benchmarks: our solvers against Siconos, same run", declare, run};
  return c;
}
}  // namespace stickslip::cli
