// `stickslip run … --method minimal-form`: dimensions, Dupont's reference, stiction in the
// CSV as NaN reactions, and the errors for scenarios it does not run.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_run.hpp"

TEST_CASE("run blajer-1 defaults to the minimal form and reports 26 / 12", "[cli][minimal-form]") {
  const Run r = cli({"run", "blajer-1", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["method"] == "minimal-form");
  CHECK(j["dimensions"]["absolute"] == 26);
  CHECK(j["dimensions"]["minimal"] == 12);
  CHECK(j["reaction_failures"] == 0);
}

TEST_CASE("list names the minimal-form scenarios", "[cli][minimal-form]") {
  const Run r = cli({"list"});
  CHECK(r.out.find("blajer-1") != std::string::npos);
  CHECK(r.out.find("blajer-2") != std::string::npos);
  // The starred method is the one a run without --method takes.
  for (const std::string name : {"belt", "dupont", "blajer-1"}) {
    const auto line = r.out.find("  " + name + " ");
    REQUIRE(line != std::string::npos);
    const auto star = r.out.find('*', line);
    const auto start = r.out.find_last_of(" ,", star) + 1;
    const Run run = cli({"run", name, "--t-end", "0.01", "--json"});
    REQUIRE(run.code == 0);
    CHECK(nlohmann::json::parse(run.out)["method"] == r.out.substr(start, star - start));
  }
}

TEST_CASE("run dupont --method minimal-form matches the closed form", "[cli][minimal-form]") {
  const Run r = cli({"run", "dupont", "--method", "minimal-form", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["reference"]["matched"] == true);
  CHECK(j["reference"]["max_time_error"].get<double>() < 1e-6);
  CHECK(j["stick_intervals"].size() == 3);
}

TEST_CASE("run blajer-2 writes reactions as NaN while stuck", "[cli][minimal-form]") {
  const auto path = std::filesystem::temp_directory_path() / "stickslip_cli_blajer2.csv";
  std::filesystem::remove(path);
  const Run r = cli({"run", "blajer-2", "--t-end", "2", "--out", path.string()});
  REQUIRE(r.code == 0);
  std::ifstream f(path);
  std::string header, line;
  std::getline(f, header);
  CHECK(header.find("O.reaction") != std::string::npos);
  int nan_rows = 0, rows = 0;
  while (std::getline(f, line)) {
    if (line.empty() || line[0] == '#') continue;
    ++rows;
    nan_rows += line.find("nan") != std::string::npos;
  }
  CHECK(rows > 1000);
  CHECK(nan_rows > 10);
  CHECK(nan_rows < rows);
  std::filesystem::remove(path);
  CHECK(cli({"run", "ball", "--method", "minimal-form"}).code == 2);
}
