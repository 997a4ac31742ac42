#include "cli/compare_data.hpp"

#include "mechanisms/input_error.hpp"
#include "mechanisms/rigid_scenarios.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <limits>

namespace stickslip::cli {
namespace {


bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

int Series::column(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return int(i);
  return -1;
}

Series readSeriesCsv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw mechanisms::InputError(mechanisms::located(path, 0, "", "cannot be read"));
  Series s;
  std::vector<double> values;
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    if (text.empty() || text[0] == '#') continue;
    std::stringstream cells(text);
    std::vector<std::string> row;
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(cell);
    if (s.names.empty()) {
      if (row.empty() || row[0] != "t")
        throw mechanisms::InputError(mechanisms::located(path, line, "", "expected a header whose first column is t"));
      s.names = row;
      continue;
    }
    if (row.size() != s.names.size())
      throw mechanisms::InputError(mechanisms::located(
          path, line, "", "expected " + std::to_string(s.names.size()) + " values, got " + std::to_string(row.size())));
    for (std::size_t c = 0; c < row.size(); ++c) {
      char* end = nullptr;
      const double x = std::strtod(row[c].c_str(), &end);
      if (row[c].empty() || *end != '\0')
        throw mechanisms::InputError(mechanisms::located(path, line, s.names[c], "expected a number, got '" + row[c] + "'"));
      if (std::isinf(x) || (c == 0 && std::isnan(x)))
        throw mechanisms::InputError(mechanisms::located(path, line, s.names[c],
                                                         std::string("expected a finite number") +
                                                             (c ? " or nan" : "") + ", got '" +
                                                             row[c] + "'"));
      if (c == 0 && !values.empty() && x < values[values.size() - s.names.size()])
        throw mechanisms::InputError(
            mechanisms::located(path, line, "t", "the time goes back, to " + row[c]));
      values.push_back(x);
    }
  }
  if (s.names.empty()) throw mechanisms::InputError(mechanisms::located(path, line, "", "no header"));
  const Eigen::Index cols = Eigen::Index(s.names.size());
  s.data = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), Eigen::Index(values.size()) / cols, cols);
  return s;
}

Deviation deviation(const Series& reference, const Series& other, const std::string& column) {
  Deviation d{NAN, NAN, 0};
  const int cr = reference.column(column), co = other.column(column);
  if (cr < 0 || co < 0 || reference.rows() == 0 || other.rows() == 0) return d;
  const auto tr = reference.data.col(0), to = other.data.col(0);
  const auto yr = reference.data.col(cr), yo = other.data.col(co);
  const double lo = std::max(tr(0), to(0)), hi = std::min(tr(tr.size() - 1), to(to.size() - 1));
  const double* tb = to.data();
  const double* te = tb + to.size();
  double max_abs = 0.0, sum2 = 0.0;
  long n = 0;
  Eigen::Index first_equal = 0;  // first reference row with the current time
  for (Eigen::Index i = 0; i < tr.size(); ++i) {
    if (i == 0 || tr(i) != tr(i - 1)) first_equal = i;
    const double t = tr(i);
    if (t < lo || t > hi) continue;
    double y = NAN;
    const auto j = Eigen::Index(std::lower_bound(tb, te, t) - tb);
    if (j < to.size() && to(j) == t) {
      // Rows at a repeated time pair up in order (the k-th with the k-th).
      Eigen::Index k = j + (i - first_equal);
      while (k > j && (k >= to.size() || to(k) != t)) --k;
      y = yo(k);
    } else if (j > 0 && j < to.size()) {
      const double w = (t - to(j - 1)) / (to(j) - to(j - 1));
      y = (1.0 - w) * yo(j - 1) + w * yo(j);
    }
    const double diff = yr(i) - y;
    if (!std::isfinite(diff)) continue;
    max_abs = std::max(max_abs, std::abs(diff));
    sum2 += diff * diff;
    ++n;
  }
  if (n > 0) d = {max_abs, std::sqrt(sum2 / double(n)), n};
  return d;
}

std::vector<std::string> contactsWith(const Series& s, const std::vector<std::string>& suffixes) {
  std::vector<std::string> out;
  for (const auto& name : s.names) {
    if (suffixes.empty() || !endsWith(name, "." + suffixes.front())) continue;
    const std::string c = name.substr(0, name.size() - suffixes.front().size() - 1);
    bool all = true;
    for (const auto& suffix : suffixes) all = all && s.column(c + "." + suffix) >= 0;
    if (all && std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

double frictionWork(const Series& s) {
  const auto contacts = contactsWith(s, {"F", "v_t"});
  if (contacts.empty()) return NAN;
  double work = 0.0;
  for (const auto& c : contacts) {
    const auto f = s.data.col(s.column(c + ".F")), v = s.data.col(s.column(c + ".v_t"));
    for (Eigen::Index i = 0; i + 1 < s.rows(); ++i) {
      const double dt = s.data(i + 1, 0) - s.data(i, 0);
      const double p = -0.5 * (f(i) * v(i) + f(i + 1) * v(i + 1));
      if (std::isfinite(p) && dt > 0.0) work += p * dt;
    }
  }
  return work;
}

std::string columnUnit(std::string_view name) {
  if (name == "t") return "s";
  for (std::string_view tail : {".x", ".y", ".z", ".e_x", ".e_y"})
    if (endsWith(name, tail)) return "m";
  if (endsWith(name, ".theta")) return "rad";
  for (std::string_view tail : {".vx", ".vy", ".vz", ".v_t"})
    if (endsWith(name, tail)) return "m/s";
  for (std::string_view tail : {".omega", ".wx", ".wy", ".wz"})  // a spatial body's ω′, body axes
    if (endsWith(name, tail)) return "rad/s";
  for (std::string_view tail : {".ax", ".ay", ".az"})  // the penalty route's accelerations
    if (endsWith(name, tail)) return "m/s^2";
  for (std::string_view tail : {".N", ".F", ".reaction"})
    if (endsWith(name, tail)) return "N";
  if (name == "energy") return "J";
  return "";
}

void requireOutputs(const std::vector<std::string>& outputs, const std::vector<std::vector<std::string>>& columns,
                    const std::string& first_label) {
  for (const std::string& o : outputs) {
    const bool found = std::any_of(columns.begin(), columns.end(), [&](const std::vector<std::string>& c) {
      return std::find(c.begin(), c.end(), o) != c.end();
    });
    if (found) continue;
    std::string list;
    for (std::size_t c = 1; c < columns.front().size(); ++c) list += (c > 1 ? ", " : "") + columns.front()[c];
    throw std::invalid_argument("--outputs: no method writes a column '" + o + "' (" + first_label + " writes " +
                                list + ")");
  }
}

std::vector<std::string> defaultOutputs(const mechanisms::Scenario& scenario, const Series& reference) {
  std::vector<std::string> out;
  if (scenario.builtin)
    for (const auto& o : mechanisms::rigidScenarioInfo(scenario.name).compare_outputs)
      if (reference.column(o) >= 0) out.push_back(o);
  if (!out.empty()) return out;
  for (std::size_t c = 1; c < reference.names.size() && out.size() < 6; ++c) {
    const std::string& n = reference.names[c];
    const bool coordinate = n.ends_with(".x") || n.ends_with(".y") || n.ends_with(".z") || n.ends_with(".theta");
    const auto col = reference.data.col(Eigen::Index(c));
    if (coordinate && reference.rows() > 0 && col.maxCoeff() - col.minCoeff() > 0.0) out.push_back(n);
  }
  return out;
}

}  // namespace stickslip::cli
