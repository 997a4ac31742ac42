#include "cli/command.hpp"

namespace stickslip::cli {
namespace {
void declare(po::options_description&, po::positional_options_description&) {}
int run(const po::variables_map&, std::ostream&, std::ostream&) { return kExitFailure; }
}  // namespace
const Command& lcpCommand() {
  static const Command c{"lcp", "solve a Siconos-format LCP/MLCP/FC2D file", declare, run};
  return c;
}
}  // namespace stickslip::cli
