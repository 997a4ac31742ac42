#pragma once
/// \file A progress bar on stderr for long runs (DESIGN.md §6): drawn only when stderr is a
/// terminal, only once the work has lasted a second, redrawn at most four times a second,
/// and erased when the work ends, so that what stays on the terminal is the program's output.

#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace stickslip::cli {

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  /// A bar on stderr, or nothing when stderr is not a terminal (a pipe, a file, a test).
  explicit ProgressBar(std::string label);
  /// A bar on `sink` whatever it is (tests): shown from `delay` on, redrawn every `interval`.
  ProgressBar(std::string label, std::ostream& sink, Clock::duration delay, Clock::duration interval);
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  ~ProgressBar() { finish(); }

  /// False when nothing will ever be drawn; callers may then skip computing the fraction.
  bool enabled() const { return sink_ != nullptr; }
  /// Whether update() would draw now; callers may skip formatting the detail otherwise.
  bool due() const { return sink_ != nullptr && Clock::now() >= next_draw_; }
  /// Work done as a fraction in [0, 1] (clamped), with a short text after the bar
  /// ("3/40 points", "t = 1.25 s"). Cheap when disabled (one branch) and when not due (one
  /// clock read).
  void update(double fraction, std::string_view detail = {});
  /// Erases the bar if it was drawn; later updates draw nothing.
  void finish();

 private:
  std::string label_;
  std::ostream* sink_ = nullptr;
  Clock::time_point start_, next_draw_;
  Clock::duration interval_{};
  std::size_t drawn_width_ = 0;  ///< characters of the last line drawn, 0: none on screen
};

/// A callback that draws `bar` from the simulated time t of a run to `t_end`; empty (nothing
/// to call) when the bar is disabled.
std::function<void(double)> simulatedTimeProgress(ProgressBar& bar, double t_end);

}  // namespace stickslip::cli
