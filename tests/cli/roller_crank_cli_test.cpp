// `stickslip run roller-crank` (review §4) by the penalty route: one law with JSON (its analysis)
// and CSV, the defaulted integrators, the six models side by side by compare, and the errors.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_run.hpp"

TEST_CASE("run roller-crank: one law, JSON and CSV columns", "[cli][roller-crank]") {
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_roller_crank.csv";
  std::filesystem::remove(csv);
  const Run r = cli({"run", "roller-crank", "--friction", "brown-mcphee", "--t-end", "0.2",
                     "--json", "--out", csv.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["scenario"] == "roller-crank");
  CHECK(j["method"] == "penalty");
  CHECK(j["friction"] == "brown-mcphee");
  CHECK(j["integrator"] == "bdf");  // smooth law: BDF by default
  CHECK(j["status"] == "ok");
  CHECK(j["roller"]["sliding_sign_changes"].get<int>() == 0);
  CHECK(j["roller"]["max_friction_ratio"].get<double>() <= 0.15 + 1e-6);
  CHECK(j["friction_work"].get<double>() > 0.0);
  CHECK(j["final_q"].size() == 9);
  CHECK(j["final_v"].size() == 9);
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  // Every route's columns, then the penalty route's own.
  CHECK(header.rfind("t,crank.x,crank.y,crank.theta,", 0) == 0);
  for (const char* column : {",roller-ground.N,roller-ground.F,", ",roller.alpha,", ",roller-ground.lambda,",
                             ",roller-ground.v_t,", ",energy", ",friction_work"})
    CHECK(header.find(column) != std::string::npos);
  std::string first;
  std::getline(f, first);
  CHECK(first.rfind("0,", 0) == 0);
  CHECK(first.find(",1.5707963267") != std::string::npos);  // the crank at θ₁ = π/2 (Table 2)
  f.close();
  std::filesystem::remove(csv);
}

TEST_CASE("run roller-crank: discontinuous laws default to RK4 and chatter", "[cli][roller-crank]") {
  const Run r = cli({"run", "roller-crank", "--friction", "coulomb", "--t-end", "0.05", "--output-dt", "1e-5", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["integrator"] == "rk4");
  CHECK(j["steps"].get<long>() == 5000);  // 0.05 s / 1e-5 s
  CHECK(j["roller"]["sliding_sign_changes"].get<int>() >= 100);
  const Run none = cli({"run", "roller-crank", "--friction", "none", "--t-end", "0.1", "--json"});
  REQUIRE(none.code == 0);
  CHECK(nlohmann::json::parse(none.out)["roller"]["max_friction_ratio"].get<double>() == 0.0);
}

TEST_CASE("compare roller-crank: the six models of review Table 4 side by side", "[cli][roller-crank]") {
  const auto dir = std::filesystem::temp_directory_path() / "stickslip_cli_roller_crank_table";
  std::filesystem::remove_all(dir);
  const Run r = cli({"compare", "roller-crank", "--methods",
                     "penalty:coulomb,penalty:tanh,penalty:stribeck,penalty:brown-mcphee,penalty:dahl,penalty:lugre",
                     "--t-end", "0.1", "--out-dir", dir.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["methods"].size() == 6);
  for (const auto& m : j["methods"]) {
    CHECK(m["status"] == "ok");
    CHECK(m["analyses"]["roller"].contains("breakaway_time"));
  }
  CHECK(j["methods"][0]["friction"] == "coulomb");
  CHECK(j["methods"][5]["friction"] == "lugre");
  std::filesystem::remove_all(dir);
}

TEST_CASE("roller-crank: listed, and bad input exits 2", "[cli][roller-crank]") {
  CHECK(cli({"list"}).out.find("roller-crank") != std::string::npos);
  CHECK(cli({"run", "roller-crank", "--integrator", "euler"}).code == 2);
  CHECK(cli({"run", "roller-crank", "--friction", "nosuchlaw"}).code == 2);
  CHECK(cli({"run", "roller-crank", "--dt", "-1"}).code == 2);
}
