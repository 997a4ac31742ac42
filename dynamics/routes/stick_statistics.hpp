#pragma once
/// \file How much of a run the contacts spend sticking, and how often they enter or leave
/// stick: the figures `stickslip compare` tabulates for every method.

#include <utility>
#include <vector>

#include "dynamics/routes/run_result.hpp"

namespace stickslip::dynamics {

struct StickStatistics {
  /// Entries into stick plus exits from it, summed over the contacts. A slip reversal
  /// (slip+ → slip− without sticking) is not a transition; a stick left by an opening or an
  /// impact is.
  long transitions = 0;
  /// Times when at least one contact sticks (the union over contacts), merged and sorted.
  std::vector<std::pair<double, double>> intervals;
  double stick_time = 0.0;      ///< total length of `intervals` [s]
  double stick_fraction = 0.0;  ///< stick_time / (t_end − t_begin); 0 for an empty span
};

/// Replays an event list (any route that reports ContactEvents: event-driven, Moreau–Jean,
/// minimal form) from the modes at t_begin: contact c sticks at the start iff
/// initially_sticking[c] (a contact index beyond its size starts not sticking). A stick event
/// enters stick; slip±, open and impact events leave it; close events change nothing.
/// Throws std::invalid_argument when t_end < t_begin.
StickStatistics stickStatistics(const std::vector<ContactEvent>& events,
                                const std::vector<bool>& initially_sticking, double t_begin,
                                double t_end);

/// The same figures from stick intervals known directly (e.g. MinimalFormRun), each
/// counting an entry when it starts after t_begin and an exit when it ends before t_end.
StickStatistics stickStatistics(std::vector<std::pair<double, double>> intervals, double t_begin,
                                double t_end);

}  // namespace stickslip::dynamics
