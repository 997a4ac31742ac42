#pragma once
// What the peer benchmarks share: their command lines (options read one at a time, each value
// checked; a missing or bad value goes to the program's usage(), which prints and exits 2) and
// their alternating rounds of full runs, ours then Siconos'.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

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

/// `rounds` rounds of ours() then theirs(), each returning a run with ok, message and
/// usPerStep(); their µs per step are appended to us_ours and us_theirs, the last runs kept in
/// last_ours and last_theirs. Each round is printed on stderr unless `quiet`. False (the
/// failure printed, prefixed by `program`) when a run fails.
template <class Run, class Ours, class Theirs>
bool alternateRounds(int rounds, bool quiet, const char* program, Ours ours, Theirs theirs,
                     Run& last_ours, Run& last_theirs, std::vector<double>& us_ours,
                     std::vector<double>& us_theirs) {
  for (int round = 0; round < rounds; ++round) {
    last_ours = ours();
    last_theirs = theirs();
    if (!last_ours.ok || !last_theirs.ok) {
      std::cerr << program << ": " << (last_ours.ok ? last_theirs.message : last_ours.message)
                << "\n";
      return false;
    }
    us_ours.push_back(last_ours.usPerStep());
    us_theirs.push_back(last_theirs.usPerStep());
    if (!quiet)
      std::fprintf(stderr, "round %d: ours %.3f µs/step, Siconos %.3f µs/step\n", round + 1,
                   us_ours.back(), us_theirs.back());
  }
  return true;
}

}  // namespace stickslip::bench
