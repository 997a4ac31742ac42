#include "cli/command.hpp"

#include <array>
#include <iostream>
#include <stdexcept>

namespace stickslip::cli {
namespace {

std::array<const Command*, 11> allCommands() {
  return {&listCommand(),  &showCommand(),   &runCommand(),  &compareCommand(), &animateCommand(), &sweepCommand(),
          &mergeCommand(), &verifyCommand(), &holdCommand(), &lcpCommand(),     &benchCommand()};
}

void printCommandList(std::ostream& os) {
  os << "usage: stickslip COMMAND [options]   (stickslip COMMAND --help for its options)\n\n"
        "commands:\n";
  for (const Command* c : allCommands())
    os << "  " << c->name << std::string(10 - std::min<std::size_t>(c->name.size(), 9), ' ')
       << c->summary << "\n";
}

}  // namespace

int runCommand(const Command& cmd, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err) {
  po::options_description opts("stickslip " + std::string(cmd.name) + " options");
  po::positional_options_description pos;
  po::variables_map vm;
  opts.add_options()("help,h", "show this help");
  cmd.declare(opts, pos);
  try {
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
      out << cmd.summary << "\n\n" << opts;
      return kExitOk;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    err << "stickslip " << cmd.name << ": " << e.what() << "\n" << opts;
    return kExitInput;
  }
  try {
    return cmd.run(vm, out, err);
  } catch (const std::invalid_argument& e) {
    err << "stickslip " << cmd.name << ": " << e.what() << "\n";
    return kExitInput;
  }
}

int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] == "-h" || args[0] == "--help") {
    printCommandList(args.empty() ? err : out);
    return args.empty() ? kExitInput : kExitOk;
  }
  for (const Command* c : allCommands())
    if (c->name == args[0]) return runCommand(*c, {args.begin() + 1, args.end()}, out, err);
  err << "stickslip: unknown command '" << args[0] << "'\n";
  printCommandList(err);
  return kExitInput;
}

int dispatch(int argc, char** argv) {
  return dispatch(std::vector<std::string>(argv + 1, argv + argc), std::cout, std::cerr);
}

}  // namespace stickslip::cli
