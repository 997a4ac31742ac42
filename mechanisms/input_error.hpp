#pragma once
/// \file Errors in what the user wrote (scenario files, --set, --param): one line naming the
/// file, the line, the key path, what was expected, and the fix when there is an obvious one.

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stickslip::mechanisms {

/// Where an input error is and what is wrong there: file (may be empty: "--set"), 1-based
/// line (0 when unknown: the command line), dotted key path ("parameters.mu_static"), reason.
struct Location {
  std::string file;
  int line = 0;
  std::string key;
  std::string reason;
  /// "FILE:LINE: KEY: REASON", the parts that are known.
  std::string text() const;
};

/// std::invalid_argument, so the commands turn it into exit code 2 like every input error.
/// Built from a Location it keeps its parts (the Python module raises them as attributes).
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;  ///< a message with no location
  explicit InputError(Location where) : std::invalid_argument(where.text()), where_(std::move(where)) {}
  const Location& where() const { return where_; }  ///< empty parts when not located

 private:
  Location where_;
};

/// The location of an error: `line` is 1-based, 0 when unknown (command line); `file` may be
/// empty ("--set"), and `key` is the dotted path ("parameters.mu_static").
Location located(std::string_view file, int line, std::string_view key, std::string_view what);

/// The entry of `valid` nearest to `given` by edit distance, or "" when none is close enough
/// (more than a third of the letters differ) to be a likely misspelling.
std::string nearestName(std::string_view given, const std::vector<std::string>& valid);

/// "; did you mean 'X'?" for nearestName's answer, "" without one.
std::string didYouMean(std::string_view given, const std::vector<std::string>& valid);

/// Whether `message` names `name` as a whole word (not inside a longer name): how an error from
/// below the reader is tied to the key the user wrote.
bool mentions(std::string_view message, std::string_view name);

}  // namespace stickslip::mechanisms
