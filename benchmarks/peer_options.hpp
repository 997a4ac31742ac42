#pragma once
// The peer benchmarks' command lines: options read one at a time, each value checked; a
// missing or bad value goes to the program's usage(), which prints and exits 2.
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

 private:
  int argc_;
  char** argv_;
  void (*usage_)(const std::string&);
  int i_ = 0;
  std::string option_;
};

}  // namespace stickslip::bench
