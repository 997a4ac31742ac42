#pragma once
/// \file The pieces of `stickslip sweep` and `stickslip merge` that do not run anything: the
/// parameter grid (--param), the shards (--shard), the CSV table they write and read.
///
/// The table: one row per grid point, sorted by its index, columns
///   index, grid_size, sweep, <each --param key>, exit_code, outcome, error, <figures...>
/// where `sweep` is the sweep's definition, the same on every row (so that merge joins only
/// shards of one sweep), and
/// the figures are the scalars of the point's `run --json` object (nested objects
/// flattened as "a.b", arrays left out, null as an empty cell), sorted by name; a figure
/// some points lack is an empty cell there. Cells are RFC 4180 CSV (quoted when they hold
/// a comma, a quote or a line break).

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace stickslip::cli {

/// One --param: a key of `run --set` and its values, as text passed to the run verbatim.
struct GridParameter {
  std::string key;
  std::vector<std::string> values;
};

/// The most points a grid may have.
inline constexpr std::size_t kMostGridPoints = 10'000'000;

/// "KEY=A:B:N" (N points from A to B inclusive, evenly spaced; N = 1 gives A, at most
/// kMostGridPoints) or "KEY=V1,V2,..." (the values as written). Throws std::invalid_argument
/// naming --param.
GridParameter parseGridParameter(std::string_view text);

/// The shortest text that reads back as the same double (std::to_chars).
std::string roundTrip(double x);

/// The Cartesian product of the parameters, row-major in their order (the last varies
/// fastest). Throws std::invalid_argument when it has more than `limit` points.
class Grid {
 public:
  explicit Grid(std::vector<GridParameter> parameters, std::size_t limit = kMostGridPoints);
  std::size_t size() const { return size_; }
  const std::vector<GridParameter>& parameters() const { return parameters_; }
  /// The values of point `index` (< size()), one per parameter.
  std::vector<std::string> point(std::size_t index) const;

 private:
  std::vector<GridParameter> parameters_;
  std::size_t size_ = 1;
};

/// --shard i/N: the points whose index % N == i − 1 (round-robin, so that a grid whose cost
/// grows along a parameter spreads evenly over the shards).
struct Shard {
  std::size_t i = 1, n = 1;
  bool contains(std::size_t index) const { return index % n == i - 1; }
};
/// "i/N" with 1 ≤ i ≤ N; throws std::invalid_argument naming --shard.
Shard parseShard(std::string_view text);

/// A `run --json` object's scalars, flattened ("reference.matched"); arrays are left out,
/// strings as they are, numbers in their shortest round-trip form, null as "".
std::map<std::string, std::string> flattenScalars(const nlohmann::json& j);

/// True for the figures that measure the computer rather than the mechanism (cpu_seconds,
/// us_per_step): they differ from run to run, so a sweep leaves them out unless asked.
bool isTiming(std::string_view figure);

/// The fixed columns that precede the parameters and those that follow them.
inline constexpr std::string_view kIndexColumn = "index", kGridSizeColumn = "grid_size",
                                  kSweepColumn = "sweep";
inline const std::vector<std::string>& statusColumns() {
  static const std::vector<std::string> c{"exit_code", "outcome", "error"};
  return c;
}

/// A sweep table in memory.
struct SweepTable {
  /// What the points are: "SCENARIO --command C --param ... --set ...", all but the options
  /// that only say how or where they run (--shard, --jobs, --out, ...).
  std::string sweep;
  std::vector<std::string> keys;     ///< the --param keys, in order
  std::vector<std::string> figures;  ///< sorted
  /// Per row: index, grid size, (the sweep,) parameter values, exit code, outcome, error, then
  /// figures by name (absent: empty cell).
  struct Row {
    std::size_t index = 0, grid_size = 0;
    std::vector<std::string> values;
    std::string exit_code, outcome, error;
    std::map<std::string, std::string> figures;
  };
  std::vector<Row> rows;  ///< sorted by index by write()

  std::vector<std::string> header() const;
  /// Sorts the rows by index and the figures by name, then writes header and rows.
  void write(std::ostream& os);
  /// Reads a table written by write(); throws std::invalid_argument naming `path` and the
  /// line for anything else.
  static SweepTable read(const std::string& path);
};

/// One CSV cell, quoted when needed.
std::string csvCell(std::string_view text);

}  // namespace stickslip::cli
