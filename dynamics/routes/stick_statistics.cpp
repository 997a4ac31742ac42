#include "dynamics/routes/stick_statistics.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace stickslip::dynamics {
namespace {

// Sorts, merges overlapping or touching intervals, and sums their lengths.
void finish(StickStatistics& s, double t_begin, double t_end) {
  auto& iv = s.intervals;
  std::sort(iv.begin(), iv.end());
  std::vector<std::pair<double, double>> merged;
  for (const auto& [a, b] : iv) {
    if (!merged.empty() && a <= merged.back().second)
      merged.back().second = std::max(merged.back().second, b);
    else
      merged.emplace_back(a, b);
  }
  iv = std::move(merged);
  s.stick_time = 0.0;
  for (const auto& [a, b] : iv) s.stick_time += b - a;
  s.stick_fraction = t_end > t_begin ? s.stick_time / (t_end - t_begin) : 0.0;
}

void checkSpan(double t_begin, double t_end) {
  if (!(t_end >= t_begin))
    throw std::invalid_argument("dynamics::stickStatistics: expected t_end >= t_begin, got [" +
                                std::to_string(t_begin) + ", " + std::to_string(t_end) + "]");
}

}  // namespace

StickStatistics stickStatistics(const std::vector<ContactEvent>& events,
                                const std::vector<bool>& initially_sticking, double t_begin,
                                double t_end) {
  checkSpan(t_begin, t_end);
  int contacts = int(initially_sticking.size());
  for (const auto& e : events) contacts = std::max(contacts, e.contact + 1);
  std::vector<double> since(std::size_t(contacts),
                            -1.0);  // stick start, or < t_begin: not sticking
  std::vector<char> sticking(std::size_t(contacts), 0);
  for (std::size_t c = 0; c < initially_sticking.size(); ++c)
    if (initially_sticking[c]) sticking[c] = 1, since[c] = t_begin;
  StickStatistics s;
  for (const auto& e : events) {
    if (e.contact < 0) continue;
    const auto c = std::size_t(e.contact);
    const double t = std::clamp(e.t, t_begin, t_end);
    if (e.kind == EventKind::kStick) {
      if (!sticking[c]) ++s.transitions, sticking[c] = 1, since[c] = t;
    } else if (e.kind != EventKind::kClose && sticking[c]) {
      ++s.transitions;
      sticking[c] = 0;
      if (t > since[c]) s.intervals.emplace_back(since[c], t);
    }
  }
  for (std::size_t c = 0; c < sticking.size(); ++c)
    if (sticking[c] && t_end > since[c]) s.intervals.emplace_back(since[c], t_end);
  finish(s, t_begin, t_end);
  return s;
}

StickStatistics stickStatistics(std::vector<std::pair<double, double>> intervals, double t_begin,
                                double t_end) {
  checkSpan(t_begin, t_end);
  StickStatistics s;
  for (auto [a, b] : intervals) {
    a = std::clamp(a, t_begin, t_end);
    b = std::clamp(b, t_begin, t_end);
    s.transitions += (a > t_begin ? 1 : 0) + (b < t_end ? 1 : 0);
    if (b > a) s.intervals.emplace_back(a, b);
  }
  finish(s, t_begin, t_end);
  return s;
}

}  // namespace stickslip::dynamics
