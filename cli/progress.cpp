#include "cli/progress.hpp"

#include <iomanip>
#include <sstream>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace stickslip::cli {

namespace {
constexpr int kBarWidth = 30;
}

ProgressBar::ProgressBar(std::string label) : label_(std::move(label)) {
  if (::isatty(STDERR_FILENO)) {
    sink_ = &std::cerr;
    start_ = Clock::now();
    next_draw_ = start_ + std::chrono::seconds(1);
    interval_ = std::chrono::milliseconds(250);
  }
}

ProgressBar::ProgressBar(std::string label, std::ostream& sink, Clock::duration delay,
                         Clock::duration interval)
    : label_(std::move(label)), sink_(&sink), start_(Clock::now()), next_draw_(start_ + delay),
      interval_(interval) {}

void ProgressBar::update(double fraction, std::string_view detail) {
  if (!sink_) return;
  const Clock::time_point now = Clock::now();
  if (now < next_draw_) return;
  next_draw_ = now + interval_;
  fraction = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  const int filled = int(std::lround(fraction * kBarWidth));
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::string line = label_ + " [" + std::string(std::size_t(filled), '#') +
                     std::string(std::size_t(kBarWidth - filled), '.') + "] " +
                     std::to_string(int(std::floor(100.0 * fraction))) + "%";
  if (!detail.empty()) line += "  " + std::string(detail);
  line += "  " + std::to_string(long(elapsed)) + " s";
  // '\r' and spaces over the previous line: it may have been longer.
  const std::size_t width = line.size();
  if (width < drawn_width_) line += std::string(drawn_width_ - width, ' ');
  *sink_ << '\r' << line << std::flush;
  drawn_width_ = std::max(width, drawn_width_);
}

void ProgressBar::finish() {
  if (sink_ && drawn_width_ > 0) *sink_ << '\r' << std::string(drawn_width_, ' ') << '\r' << std::flush;
  sink_ = nullptr;
  drawn_width_ = 0;
}

std::function<void(double)> simulatedTimeProgress(ProgressBar& bar, double t_end) {
  if (!bar.enabled()) return {};
  return [&bar, t_end](double t) {
    if (!bar.due()) return;  // called every step: format only what is drawn
    std::ostringstream detail;
    detail << "t = " << std::setprecision(4) << t << " of " << t_end << " s";
    bar.update(t / t_end, detail.str());
  };
}

}  // namespace stickslip::cli
