// stickslip merge OUT.csv SHARD.csv... [--force]
// Joins the tables of `stickslip sweep --shard i/N` runs into the table the unsharded sweep
// writes: same parameters, every grid point exactly once, rows sorted by index, figure
// columns the union of the shards' (a shard whose points lack a figure has empty cells).
#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cli/command.hpp"
#include "cli/output_file.hpp"
#include "cli/sweep_table.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("output", po::value<std::string>()->required(), "the joined table (CSV)")(
      "shards", po::value<std::vector<std::string>>()->required(), "the shards' tables (stickslip sweep --shard i/N --out)")(
      "force", po::bool_switch(), "overwrite OUT if it exists");
  p.add("output", 1).add("shards", -1);
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

/// "3, 5, 7-9": a list of indices, shortened.
std::string ranges(const std::vector<std::size_t>& v, std::size_t max_items = 8) {
  std::string s;
  std::size_t items = 0;
  for (std::size_t a = 0; a < v.size() && items < max_items; ++items) {
    std::size_t b = a;
    while (b + 1 < v.size() && v[b + 1] == v[b] + 1) ++b;
    s += (s.empty() ? "" : ", ") + std::to_string(v[a]) + (b > a ? "-" + std::to_string(v[b]) : "");
    a = b + 1;
  }
  return s + (items == max_items ? ", ..." : "");
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  (void)err;
  const std::string path = vm["output"].as<std::string>();
  const auto shards = vm["shards"].as<std::vector<std::string>>();
  checkOutputPath("OUT", path, vm["force"].as<bool>());
  for (const auto& s : shards)  // the same file under another spelling too
    if (s == path || (std::filesystem::exists(path) && std::filesystem::exists(s) &&
                      std::filesystem::equivalent(s, path)))
      throw std::invalid_argument(s + ": is both OUT and a shard");

  SweepTable merged;
  std::set<std::string> figures;
  std::map<std::size_t, std::string> owner;  // index -> the file that has it
  std::size_t grid_size = 0;
  std::string grid_file, sweep_file;
  for (std::size_t k = 0; k < shards.size(); ++k) {
    SweepTable t = SweepTable::read(shards[k]);
    if (merged.sweep.empty()) merged.sweep = t.sweep, sweep_file = shards[k];  // no points: none
    if (k == 0) {
      merged.keys = t.keys;
    } else if (!t.rows.empty() && t.sweep != merged.sweep) {
      throw std::invalid_argument(shards[k] + ": sweep '" + t.sweep + "' differs from " +
                                  sweep_file + "'s '" + merged.sweep +
                                  "'; these are not shards of one sweep");
    } else if (t.keys != merged.keys)
      throw std::invalid_argument(shards[k] + ": swept parameters " + joined(t.keys) + " differ from " + shards[0] +
                                  "'s " + joined(merged.keys) + "; these are not shards of one sweep");
    figures.insert(t.figures.begin(), t.figures.end());
    for (auto& row : t.rows) {
      if (grid_size == 0) grid_size = row.grid_size, grid_file = shards[k];
      if (row.grid_size != grid_size)
        throw std::invalid_argument(shards[k] + ": point " + std::to_string(row.index) + " is from a grid of " +
                                    std::to_string(row.grid_size) + " points, " + grid_file + "'s of " +
                                    std::to_string(grid_size) + "; these are not shards of one sweep");
      if (row.index >= row.grid_size)
        throw std::invalid_argument(shards[k] + ": point " + std::to_string(row.index) + " is outside its grid of " +
                                    std::to_string(row.grid_size) + " points");
      if (const auto [it, fresh] = owner.emplace(row.index, shards[k]); !fresh)
        throw std::invalid_argument(shards[k] + ": point " + std::to_string(row.index) + " is also in " + it->second +
                                    " (overlapping shards: each --shard i/N once)");
      merged.rows.push_back(std::move(row));
    }
  }
  std::vector<std::size_t> missing;
  for (std::size_t i = 0; i < grid_size; ++i)
    if (!owner.count(i)) missing.push_back(i);
  if (!missing.empty())
    throw std::invalid_argument("the shards hold " + std::to_string(owner.size()) + " of the grid's " +
                                std::to_string(grid_size) + " points; missing " + std::to_string(missing.size()) +
                                ": " + ranges(missing) + " (a shard not given, or not finished)");
  if (grid_size == 0)
    throw std::invalid_argument("the shards hold no points; nothing to merge");
  merged.figures.assign(figures.begin(), figures.end());
  std::ostringstream csv;
  merged.write(csv);
  writeFileAtomically(path, csv.str());
  std::size_t failed = 0;
  for (const auto& r : merged.rows) failed += r.outcome != "ok";
  out << "merged " << shards.size() << " tables: " << merged.rows.size() << " points, " << failed
      << " not ok -> " << path << "\n";
  return kExitOk;
}

}  // namespace

const Command& mergeCommand() {
  static const Command c{"merge", "join the tables of a sharded sweep (stickslip sweep --shard i/N)", declare, run};
  return c;
}

}  // namespace stickslip::cli
