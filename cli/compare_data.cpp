#include "cli/compare_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <stdexcept>

namespace stickslip::cli {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool endsWith(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::vector<std::string> splitCsvLine(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      fields.emplace_back();
    else if (c != '\r')
      fields.back() += c;
  }
  return fields;
}

}  // namespace

int Series::column(std::string_view name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return int(i);
  return -1;
}

std::string canonicalColumn(std::string_view file_name) {
  std::string n(file_name);
  std::erase(n, '"');
  if (endsWith(n, ".F_n")) return n.substr(0, n.size() - 4) + ".N";
  if (endsWith(n, ".F_t")) return n.substr(0, n.size() - 4) + ".F";
  // The minimal form's joint friction (same sign as the rigid routes' F); its ".reaction" is
  // |N| and keeps its name.
  if (endsWith(n, ".friction")) return n.substr(0, n.size() - 9) + ".F";
  return n;
}

Series readSeries(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::invalid_argument(path + ": cannot open");
  Series s;
  std::string line;
  long line_no = 0;
  std::vector<std::vector<double>> rows;
  while (std::getline(f, line)) {
    ++line_no;
    if (line.empty() || line[0] == '#') continue;
    const auto fields = splitCsvLine(line);
    if (s.names.empty()) {
      for (const auto& name : fields) {
        s.file_names.push_back(name);
        s.names.push_back(canonicalColumn(name));
      }
      if (s.names.front() != "t")
        throw std::invalid_argument(path + ": expected the first column to be t, got '" +
                                    s.names.front() + "'");
      continue;
    }
    if (fields.size() != s.names.size())
      throw std::invalid_argument(path + ":" + std::to_string(line_no) + ": expected " +
                                  std::to_string(s.names.size()) + " fields, got " +
                                  std::to_string(fields.size()));
    std::vector<double> row;
    for (const auto& field : fields) {
      char* end = nullptr;
      const double x = std::strtod(field.c_str(), &end);
      if (end == field.c_str())
        throw std::invalid_argument(path + ":" + std::to_string(line_no) + ": not a number: '" +
                                    field + "'");
      row.push_back(x);
    }
    rows.push_back(std::move(row));
  }
  if (s.names.empty()) throw std::invalid_argument(path + ": no header");
  s.data.resize(Eigen::Index(rows.size()), Eigen::Index(s.names.size()));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < rows[i].size(); ++j)
      s.data(Eigen::Index(i), Eigen::Index(j)) = rows[i][j];
  return s;
}

Deviation deviation(const Series& reference, const Series& other, const std::string& column) {
  Deviation d{kNaN, kNaN, 0};
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
    double y = kNaN;
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
  if (contacts.empty()) return kNaN;
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

SampledStick sampledStick(const Series& s, double v_stick) {
  SampledStick out;
  const auto contacts = contactsWith(s, {"v_t"});
  if (contacts.empty() || s.rows() == 0) return out;
  out.transitions = 0;
  std::vector<char> previous(contacts.size(), 0);
  double stick_time = 0.0;
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    bool any = false;
    for (std::size_t c = 0; c < contacts.size(); ++c) {
      const int cn = s.column(contacts[c] + ".N");
      const bool loaded = cn < 0 || std::abs(s.data(i, cn)) > 0.0;
      const bool stick = loaded && std::abs(s.data(i, s.column(contacts[c] + ".v_t"))) < v_stick;
      if (i > 0 && stick != bool(previous[c])) ++out.transitions;
      previous[c] = stick;
      any = any || stick;
    }
    if (any && i + 1 < s.rows()) stick_time += s.data(i + 1, 0) - s.data(i, 0);
  }
  const double span = s.data(s.rows() - 1, 0) - s.data(0, 0);
  out.fraction = span > 0.0 ? stick_time / span : 0.0;
  return out;
}

std::string columnUnit(std::string_view name) {
  if (name == "t") return "s";
  for (std::string_view tail : {".x", ".y", ".e_x", ".e_y", "ecc_x", "ecc_y", "penetration"})
    if (endsWith(name, tail)) return "m";
  if (endsWith(name, ".theta") || name == "crank_angle") return "rad";
  for (std::string_view tail : {".vx", ".vy", ".v_t", "v_t"})
    if (endsWith(name, tail)) return "m/s";
  if (endsWith(name, ".omega")) return "rad/s";
  for (std::string_view tail : {".N", ".F", "F_n", "F_t"})
    if (endsWith(name, tail)) return "N";
  return "";
}

}  // namespace stickslip::cli
