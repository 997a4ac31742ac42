#pragma once
/// \file Subcommands of the `stickslip` executable and their shared plumbing.

#include <boost/program_options.hpp>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace stickslip::cli {

namespace po = boost::program_options;

/// Exit codes of DESIGN.md §6.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  ///< a solver or a verification reported failure
inline constexpr int kExitInput = 2;    ///< usage, input or validation error

/// Options are taken by their whole names: boost's default would take any unambiguous prefix
/// (--forc for --force), so that a misspelling could mean another option.
inline constexpr int kOptionStyle =
    po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

struct Command {
  std::string_view name, summary;
  void (*declare)(po::options_description&, po::positional_options_description&);
  int (*run)(const po::variables_map&, std::ostream& out, std::ostream& err);
};

const Command& lcpCommand();
const Command& benchCommand();
const Command& runCommand();
const Command& verifyCommand();
const Command& listCommand();
const Command& showCommand();
const Command& compareCommand();
const Command& sweepCommand();
const Command& mergeCommand();
const Command& holdCommand();
const Command& animateCommand();

/// Parses `args` for `cmd` and runs it; bad usage → kExitInput, std::invalid_argument from
/// the library (bad files, bad values) → kExitInput with its message, and so a path that
/// cannot be used (std::filesystem_error, a stream's failure) or a problem too large for the
/// memory (std::bad_alloc).
int runCommand(const Command& cmd, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err);

/// `stickslip COMMAND ...`: picks the subcommand; `stickslip --help-markdown` prints every
/// command's options as Markdown (the manual's docs/reference/options.md).
int dispatch(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int dispatch(int argc, char** argv);

}  // namespace stickslip::cli
