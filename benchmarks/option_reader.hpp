#pragma once
// The benchmark programs' command lines: options read one at a time, each value checked whole
// (no trailing characters, in range); a missing or bad value goes to the program's usage(),
// which prints the reason and exits 2.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace stickslip::bench {

class OptionReader {
 public:
  /// `usage` is called with the reason and must not return.
  OptionReader(int argc, char** argv, void (*usage)(const std::string&))
      : argc_(argc), argv_(argv), usage_(usage) {}
  /// Moves to the next option; false after the last.
  bool next() {
    if (++i_ >= argc_) return false;
    option_ = argv_[i_];
    return true;
  }
  const std::string& option() const { return option_; }
  /// -h or --help.
  bool help() const { return option_ == "-h" || option_ == "--help"; }
  /// The option's value, the next argument.
  std::string value() {
    if (i_ + 1 >= argc_) usage_(option_ + " needs a value");
    return argv_[++i_];
  }
  /// The option's value as a finite number > 0.
  double positive() {
    const std::string s = value();
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !std::isfinite(x) || x <= 0.0)
      usage_(option_ + " expects a positive number, got '" + s + "'");
    return x;
  }
  /// The option's value as a whole number in [lo, hi].
  long integer(long lo, long hi) {
    const std::string s = value();
    char* end = nullptr;
    errno = 0;
    const long x = std::strtol(s.c_str(), &end, 10);
    if (end == s.c_str() || *end != '\0' || errno == ERANGE || x < lo || x > hi)
      usage_(option_ + " expects an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
             "], got '" + s + "'");
    return x;
  }

 private:
  int argc_;
  char** argv_;
  void (*usage_)(const std::string&);
  int i_ = 0;
  std::string option_;
};

}  // namespace stickslip::bench
