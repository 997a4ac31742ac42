#pragma once
// Runs the stickslip command in-process, as the tests of tests/cli/ do.
#include <fcntl.h>

#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "cli/command.hpp"

struct Run {
  int code;
  std::string out, err;
};

/// The entry of `compare --json`'s output for the method labelled `label`; fails the test
/// when there is none.
inline const nlohmann::json& method(const nlohmann::json& j, const std::string& label) {
  for (const auto& m : j["methods"])
    if (m["label"] == label) return m;
  FAIL("no method " << label);
  static const nlohmann::json none;
  return none;
}

inline Run cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = stickslip::cli::dispatch(args, out, err);
  return {code, out.str(), err.str()};
}

#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

extern char** environ;

/// A file's contents.
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

/// A scratch directory for one test, emptied first and removed at its end.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("stickslip_cli_" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& file) const { return (path / file).string(); }
  /// Writes `text` to `file` in the directory; returns its path.
  std::string write(const std::string& file, const std::string& text) const {
    std::ofstream(path / file) << text;
    return (path / file).string();
  }
};

/// A history written by `run --out` (CSV with a header row), its columns by name.
struct History {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  std::vector<double> column(const std::string& name) const {
    const auto at = std::find(names.begin(), names.end(), name);
    REQUIRE(at != names.end());
    std::vector<double> c;
    for (const auto& r : rows) c.push_back(r[std::size_t(at - names.begin())]);
    return c;
  }
};

inline History readHistory(const std::string& path) {
  History h;
  std::ifstream f(path);
  std::string line, cell;
  std::getline(f, line);
  for (std::istringstream header(line); std::getline(header, cell, ',');) h.names.push_back(cell);
  while (std::getline(f, line)) {
    std::vector<double> row;
    for (std::istringstream values(line); std::getline(values, cell, ',');) row.push_back(std::stod(cell));
    h.rows.push_back(std::move(row));
  }
  return h;
}

/// Runs the stickslip executable as a child process, as a user would; `dir` holds its
/// captured stdout and stderr.
inline Run process(std::vector<std::string> args, const std::filesystem::path& dir) {
  const std::string out_path = (dir / "stdout.txt").string(), err_path = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  args.insert(args.begin(), STICKSLIP_EXECUTABLE);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int status = -1;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) waitpid(pid, &status, 0);
  posix_spawn_file_actions_destroy(&actions);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out_path), slurp(err_path)};
}
