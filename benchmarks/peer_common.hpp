#pragma once
// What the peer benchmarks share: their command lines (option_reader.hpp) and their
// alternating rounds of full runs, ours then Siconos'.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "option_reader.hpp"

namespace stickslip::bench {

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
