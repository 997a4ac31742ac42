#include "cli/sweep_table.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace stickslip::cli {
namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

double parseNumber(std::string_view text, std::string_view where) {
  const std::string t = trim(text);
  double x = 0.0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), x);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(x))
    throw std::invalid_argument(std::string(where) + ": '" + t + "' is not a finite number");
  return x;
}

std::size_t parseCount(std::string_view text, std::string_view where, std::string_view what) {
  const std::string t = trim(text);
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    throw std::invalid_argument(std::string(where) + ": " + std::string(what) + " must be a whole number, got '" + t + "'");
  return n;
}

}  // namespace

std::string roundTrip(double x) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

GridParameter parseGridParameter(std::string_view text) {
  const std::string where = "--param " + std::string(text);
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || trim(text.substr(0, eq)).empty() || trim(text.substr(eq + 1)).empty())
    throw std::invalid_argument(where + ": expected KEY=A:B:N (N points from A to B) or KEY=V1,V2,... "
                                "with KEY a key of run --set, e.g. parameters.mu_static=0.1:0.13:4");
  GridParameter p{trim(text.substr(0, eq)), {}};
  const std::string_view spec = text.substr(eq + 1);
  if (spec.find(':') != std::string_view::npos) {
    std::vector<std::string_view> parts;
    for (std::size_t b = 0;;) {
      const std::size_t c = spec.find(':', b);
      parts.push_back(spec.substr(b, c == std::string_view::npos ? std::string_view::npos : c - b));
      if (c == std::string_view::npos) break;
      b = c + 1;
    }
    if (parts.size() != 3)
      throw std::invalid_argument(where + ": expected A:B:N (three fields), got " + std::to_string(parts.size()));
    const double a = parseNumber(parts[0], where), b = parseNumber(parts[1], where);
    const std::size_t n = parseCount(parts[2], where, "N");
    if (n < 1) throw std::invalid_argument(where + ": N must be at least 1, got 0");
    if (n > kMostGridPoints)  // refused before its values are written out
      throw std::invalid_argument(where + ": N must be at most " + std::to_string(kMostGridPoints) + ", got " +
                                  std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
      // The ends exactly as written; in between a + (b − a)·i/(n − 1).
      const double s = double(i) / double(n - 1), d = b - a;
      const double x = i == 0 ? a : i + 1 == n ? b : std::isfinite(d) ? a + d * s : a * (1.0 - s) + b * s;
      p.values.push_back(roundTrip(x));
    }
  } else {
    for (std::size_t b = 0;;) {
      const std::size_t c = spec.find(',', b);
      const std::string v = trim(spec.substr(b, c == std::string_view::npos ? std::string_view::npos : c - b));
      if (v.empty()) throw std::invalid_argument(where + ": empty value in the list");
      p.values.push_back(v);
      if (c == std::string_view::npos) break;
      b = c + 1;
    }
  }
  return p;
}

Grid::Grid(std::vector<GridParameter> parameters, std::size_t limit) : parameters_(std::move(parameters)) {
  std::set<std::string> keys;
  for (const auto& p : parameters_) {
    if (!keys.insert(p.key).second) throw std::invalid_argument("--param " + p.key + ": given twice");
    if (p.values.empty() || size_ > limit / p.values.size())
      throw std::invalid_argument("--param: the grid has more than " + std::to_string(limit) + " points");
    size_ *= p.values.size();
  }
}

std::vector<std::string> Grid::point(std::size_t index) const {
  std::vector<std::string> v(parameters_.size());
  for (std::size_t k = parameters_.size(); k-- > 0;) {  // the last parameter varies fastest
    const std::size_t n = parameters_[k].values.size();
    v[k] = parameters_[k].values[index % n];
    index /= n;
  }
  return v;
}

Shard parseShard(std::string_view text) {
  const std::string where = "--shard " + std::string(text);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos)
    throw std::invalid_argument(where + ": expected i/N (shard i of N, 1 <= i <= N), e.g. 1/4");
  Shard s{parseCount(text.substr(0, slash), where, "i"), parseCount(text.substr(slash + 1), where, "N")};
  if (s.n < 1 || s.i < 1 || s.i > s.n)
    throw std::invalid_argument(where + ": expected 1 <= i <= N, got i = " + std::to_string(s.i) +
                                ", N = " + std::to_string(s.n));
  return s;
}

namespace {
void flattenInto(const nlohmann::json& node, const std::string& prefix, std::map<std::string, std::string>& out) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
    const nlohmann::json& value = it.value();
    if (value.is_object())
      flattenInto(value, name, out);
    else if (value.is_string())
      out[name] = value.get<std::string>();
    else if (value.is_null())
      out[name] = "";
    else if (value.is_number_float())
      out[name] = roundTrip(value.get<double>());
    else if (!value.is_array())
      out[name] = value.dump();  // integers, booleans
  }
}
}  // namespace

std::map<std::string, std::string> flattenScalars(const nlohmann::json& j) {
  std::map<std::string, std::string> out;
  if (j.is_object()) flattenInto(j, "", out);
  return out;
}

bool isTiming(std::string_view figure) {
  const std::size_t dot = figure.rfind('.');
  const std::string_view leaf = dot == std::string_view::npos ? figure : figure.substr(dot + 1);
  return leaf == "cpu_seconds" || leaf == "us_per_step" || leaf == "wall_seconds";
}

std::string csvCell(std::string_view text) {
  if (text.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(text);
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::vector<std::string> SweepTable::header() const {
  std::vector<std::string> h{std::string(kIndexColumn), std::string(kGridSizeColumn),
                             std::string(kSweepColumn)};
  h.insert(h.end(), keys.begin(), keys.end());
  h.insert(h.end(), statusColumns().begin(), statusColumns().end());
  h.insert(h.end(), figures.begin(), figures.end());
  return h;
}

void SweepTable::write(std::ostream& os) {
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.index < b.index; });
  std::sort(figures.begin(), figures.end());
  const auto line = [&os](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) os << (c ? "," : "") << csvCell(cells[c]);
    os << '\n';
  };
  line(header());
  for (const Row& r : rows) {
    std::vector<std::string> cells{std::to_string(r.index), std::to_string(r.grid_size), sweep};
    cells.insert(cells.end(), r.values.begin(), r.values.end());
    cells.insert(cells.end(), {r.exit_code, r.outcome, r.error});
    for (const auto& f : figures) {
      const auto it = r.figures.find(f);
      cells.push_back(it == r.figures.end() ? std::string() : it->second);
    }
    line(cells);
  }
}

SweepTable SweepTable::read(const std::string& path) {
  if (std::filesystem::is_directory(path))
    throw std::invalid_argument(path + ": is a directory, not a table");
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::invalid_argument(path + ": cannot open for reading");
  const std::string text{std::istreambuf_iterator<char>(f), {}};
  // RFC 4180 records; `lines[k]` is the line on which record k starts.
  std::vector<std::vector<std::string>> records;
  std::vector<std::size_t> lines;
  std::size_t line = 1;
  {
    std::vector<std::string> record;
    std::string cell;
    bool quoted = false, at_start = true;
    for (std::size_t k = 0; k < text.size(); ++k) {
      const char c = text[k];
      if (at_start) lines.push_back(line), at_start = false;
      if (quoted) {
        if (c == '"' && k + 1 < text.size() && text[k + 1] == '"') cell += '"', ++k;
        else if (c == '"') quoted = false;
        else cell += c, line += c == '\n';
      } else if (c == '"' && cell.empty()) {
        quoted = true;
      } else if (c == ',') {
        record.push_back(std::move(cell)), cell.clear();
      } else if (c == '\n') {
        if (!cell.empty() && cell.back() == '\r') cell.pop_back();
        record.push_back(std::move(cell)), cell.clear();
        records.push_back(std::move(record)), record.clear();
        ++line, at_start = true;
      } else {
        cell += c;
      }
    }
    if (quoted) throw std::invalid_argument(path + ":" + std::to_string(lines.back()) + ": unterminated quoted cell");
    if (!at_start) record.push_back(std::move(cell)), records.push_back(std::move(record));
  }
  const auto fail = [&](std::size_t k, const std::string& what) {
    return std::invalid_argument(path + ":" + std::to_string(lines[k]) + ": " + what);
  };
  if (records.empty()) throw std::invalid_argument(path + ": empty file, expected a stickslip sweep table");
  const std::vector<std::string>& h = records[0];
  const auto error_col = std::find(h.begin(), h.end(), "error");
  if (h.size() < 6 || h[0] != kIndexColumn || h[1] != kGridSizeColumn || h[2] != kSweepColumn ||
      error_col == h.end() || error_col - h.begin() < 6 || *(error_col - 1) != "outcome" ||
      *(error_col - 2) != "exit_code")
    throw fail(0,
               "not a stickslip sweep table (expected the header "
               "index,grid_size,sweep,<parameters>,exit_code,outcome,error,...)");
  SweepTable t;
  t.keys.assign(h.begin() + 3, error_col - 2);
  t.figures.assign(error_col + 1, h.end());
  const std::size_t p = t.keys.size();
  for (std::size_t k = 1; k < records.size(); ++k) {
    const auto& r = records[k];
    if (r.size() != h.size())
      throw fail(k, "expected " + std::to_string(h.size()) + " cells as in the header, got " + std::to_string(r.size()));
    Row row;
    row.index = parseCount(r[0], path + ":" + std::to_string(lines[k]), "index");
    row.grid_size = parseCount(r[1], path + ":" + std::to_string(lines[k]), "grid_size");
    if (k == 1) t.sweep = r[2];
    if (r[2] != t.sweep)
      throw fail(k, "sweep '" + r[2] + "' differs from the first row's '" + t.sweep +
                        "'; a table holds one sweep");
    row.values.assign(r.begin() + 3, r.begin() + 3 + std::ptrdiff_t(p));
    row.exit_code = r[3 + p], row.outcome = r[4 + p], row.error = r[5 + p];
    for (std::size_t c = 0; c < t.figures.size(); ++c)
      if (!r[6 + p + c].empty()) row.figures[t.figures[c]] = r[6 + p + c];
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace stickslip::cli
