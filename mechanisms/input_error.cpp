#include "mechanisms/input_error.hpp"

#include <algorithm>
#include <numeric>

namespace stickslip::mechanisms {

std::string located(std::string_view file, int line, std::string_view key, std::string_view what) {
  std::string s;
  if (!file.empty()) s += std::string(file) + ":";
  if (line > 0) s += std::to_string(line) + ":";
  if (!s.empty()) s += " ";
  if (!key.empty()) s += std::string(key) + ": ";
  return s + std::string(what);
}

namespace {

std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string nearestName(std::string_view given, const std::vector<std::string>& valid) {
  std::string best;
  std::size_t best_distance = given.size() / 3 + 1;  // "close enough" to be a typo
  for (const std::string& v : valid) {
    const std::size_t d = editDistance(given, v);
    if (d < best_distance) best_distance = d, best = v;
  }
  return best;
}

std::string didYouMean(std::string_view given, const std::vector<std::string>& valid) {
  const std::string n = nearestName(given, valid);
  return n.empty() ? "" : "; did you mean '" + n + "'?";
}

}  // namespace stickslip::mechanisms
