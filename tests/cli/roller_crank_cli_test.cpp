// `stickslip run roller-crank` (review §4): one law with JSON and CSV, the defaulted
// integrators, the six-model table, the listing and the errors.
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
  CHECK(j["friction"] == "brown-mcphee");
  CHECK(j["integrator"] == "bdf");  // smooth law: BDF by default
  CHECK(j["status"] == "ok");
  CHECK(j["chatter_count"].get<int>() == 0);
  CHECK(j["max_friction_ratio"].get<double>() <= 0.15 + 1e-6);
  CHECK(j["final_q"].size() == 9);
  CHECK(j["final_v"].size() == 9);
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  CHECK(header == "t,crank_angle,roller_omega,roller_alpha,sliding_velocity,normal_force,"
                  "friction_force,friction_ratio,energy,friction_work,constraint_residual");
  std::string first;
  std::getline(f, first);
  CHECK(first.rfind("0,1.5707963267", 0) == 0);  // t = 0, θ₁ = π/2 (Table 2)
  f.close();
  std::filesystem::remove(csv);
}

TEST_CASE("run roller-crank: discontinuous laws default to RK4 and chatter", "[cli][roller-crank]") {
  const Run r = cli({"run", "roller-crank", "--friction", "coulomb", "--t-end", "0.05", "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["integrator"] == "rk4");
  CHECK(j["steps"].get<long>() == 5000);  // 0.05 s / 1e-5 s
  CHECK(j["chatter_count"].get<int>() >= 100);
  const Run none = cli({"run", "roller-crank", "--friction", "none", "--t-end", "0.1", "--json"});
  REQUIRE(none.code == 0);
  CHECK(nlohmann::json::parse(none.out)["max_friction_ratio"].get<double>() == 0.0);
}

TEST_CASE("run roller-crank --table: the six models of review Table 4", "[cli][roller-crank]") {
  const Run r = cli({"run", "roller-crank", "--table", "--t-end", "0.1", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["models"].size() == 6);
  double fastest = 1e300;
  for (const auto& m : j["models"]) fastest = std::min(fastest, m["relative_cpu"].get<double>());
  CHECK(fastest == Approx(1.0));
  CHECK(j["models"][0]["friction"] == "coulomb");
  CHECK(j["models"][5]["friction"] == "lugre");
  const Run text = cli({"run", "roller-crank", "--table", "--t-end", "0.02"});
  REQUIRE(text.code == 0);
  CHECK(text.out.find("discontinuous Stribeck") != std::string::npos);
  CHECK(text.out.find("chatter") != std::string::npos);
}

TEST_CASE("roller-crank: listed, and bad input exits 2", "[cli][roller-crank]") {
  CHECK(cli({"list"}).out.find("roller-crank") != std::string::npos);
  CHECK(cli({"run", "roller-crank", "--integrator", "euler"}).code == 2);
  CHECK(cli({"run", "roller-crank", "--friction", "nosuchlaw"}).code == 2);
  CHECK(cli({"run", "roller-crank", "--method", "moreau-jean", "--table"}).code == 2);
  CHECK(cli({"run", "roller-crank", "--dt", "-1"}).code == 2);
  // --table runs its own six models: a law or integrator given with it is refused, not ignored.
  const Run both = cli({"run", "roller-crank", "--table", "--friction", "dahl"});
  CHECK(both.code == 2);
  CHECK(both.err.find("--table") != std::string::npos);
}
