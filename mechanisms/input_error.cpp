#include "mechanisms/input_error.hpp"

#include <algorithm>
#include <cctype>

namespace stickslip::mechanisms {

std::string Location::text() const {
  std::string s;
  if (!file.empty()) s += file + ":";
  if (line > 0) s += std::to_string(line) + ":";
  if (!s.empty()) s += " ";
  if (!key.empty()) s += key + ": ";
  return s + reason;
}

Location located(std::string_view file, int line, std::string_view key, std::string_view what) {
  return {std::string(file), line, std::string(key), std::string(what)};
}

bool mentions(std::string_view message, std::string_view name) {
  const auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (name.empty()) return false;
  for (std::size_t at = message.find(name); at != std::string_view::npos; at = message.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at == 0 || !part(message[at - 1])) && (end == message.size() || !part(message[end]))) return true;
  }
  return false;
}

namespace {

/// Insertions, deletions, substitutions and swaps of neighbours ("blet" → "belt": 1).
std::size_t editDistance(std::string_view a, std::string_view b) {
  const std::size_t w = b.size() + 1;
  std::vector<std::size_t> d((a.size() + 1) * w);
  for (std::size_t i = 0; i <= a.size(); ++i) d[i * w] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t& x = d[i * w + j];
      x = std::min({d[(i - 1) * w + j] + 1, d[i * w + j - 1] + 1,
                    d[(i - 1) * w + j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        x = std::min(x, d[(i - 2) * w + j - 2] + 1);
    }
  return d.back();
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
