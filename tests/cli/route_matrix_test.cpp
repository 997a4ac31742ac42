// Every scenario by every route (the built-ins and the shipped model files × event-driven,
// Moreau–Jean, penalty, minimal form), as Siconos' data × solvers collections: each pair
// either runs and reports the one JSON schema, or exits 2 with the reason it cannot. The
// pairs that cannot are listed here, so that a route lost or gained shows as a failure.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "cli/cli_run.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace {

const std::string kScenarios = STICKSLIP_SCENARIOS;

std::vector<std::string> allScenarios() {
  std::vector<std::string> all = stickslip::mechanisms::builtinScenarioNames();
  for (const char* file : {"belt", "incline", "journal_bearing", "slider_crank", "guided_slider_crank", "box_on_slope"})
    all.push_back(kScenarios + "/" + file + ".yaml");
  return all;
}

/// The pairs that exit 2. The minimal form takes the mechanisms whose constraints are closed
/// at the start and whose friction slides with one velocity (dynamics/routes/minimal_form/minimal_form_route.hpp).
const std::set<std::pair<std::string, std::string>>& refused() {
  static const std::set<std::pair<std::string, std::string>> pairs = [] {
    std::set<std::pair<std::string, std::string>> p;
    const std::set<std::string> minimal{"belt", "incline", "dupont", "blajer-1", "blajer-2", "blajer-2-slider",
                                        "spatial-slider-crank", "spatial-slider-crank-friction",
                                        kScenarios + "/belt.yaml", kScenarios + "/incline.yaml",
                                        kScenarios + "/guided_slider_crank.yaml"};
    for (const std::string& s : allScenarios())
      if (!minimal.count(s)) p.insert({s, "minimal-form"});
    return p;
  }();
  return pairs;
}

/// Runs every scenario by `method` for a short time and checks the outcome of each.
void checkRoute(const std::string& method) {
  int ran = 0;
  for (const std::string& scenario : allScenarios()) {
    INFO(scenario << " by " << method);
    const Run r = cli({"run", scenario, "--method", method, "--t-end", "0.02", "--json"});
    INFO(r.err);
    if (refused().count({scenario, method})) {
      CHECK(r.code == 2);
      CHECK(r.err.find("stickslip run: ") == 0);
      // A mechanism the minimal form examines says which element it cannot take, and why.
      if (method == "minimal-form" && !refused().count({scenario, "event-driven"}))
        CHECK(r.err.find("the minimal form cannot take '" +
                         (scenario.find('/') == std::string::npos ? scenario : std::string()) ) != std::string::npos);
      continue;
    }
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["status"] == "ok");
    CHECK(j["method"] == method);
    // One schema for every route.
    for (const char* key : {"scenario", "solver", "status", "message", "t", "steps", "lcp_solves", "pivots",
                            "cpu_seconds", "events", "friction_work", "energy_initial", "energy_final", "final_q",
                            "final_v", "transitions", "stick_fraction", "columns"})
      CHECK(j.contains(key));
    CHECK(j["columns"].front() == "t");
    CHECK(j["columns"].back() == "energy");
    CHECK(j["final_q"].is_array());
    if (scenario.starts_with("spatial-")) {  // spatial bodies: r and p, ṙ and ω′ each
      CHECK(j["final_q"].size() == 21);
      CHECK(j["final_v"].size() == 18);
    } else if (scenario.ends_with("box_on_slope.yaml")) {
      CHECK(j["final_q"].size() == 7);
      CHECK(j["final_v"].size() == 6);
    } else {
      CHECK(j["final_q"].size() == j["final_v"].size());
      CHECK(j["final_q"].size() % 3 == 0);  // planar bodies: x, y, θ each
    }
    CHECK(j["events"].is_array());
    CHECK(j["steps"].get<long>() > 0);
    CHECK(j["cpu_seconds"].get<double>() >= 0.0);
    ++ran;
  }
  int expected = 0;
  for (const std::string& s : allScenarios()) expected += refused().count({s, method}) == 0;
  CHECK(ran == expected);
}

}  // namespace

TEST_CASE("route matrix: every scenario by event-driven", "[cli][matrix][slow]") { checkRoute("event-driven"); }
TEST_CASE("route matrix: every scenario by moreau-jean", "[cli][matrix]") { checkRoute("moreau-jean"); }
TEST_CASE("route matrix: every scenario by penalty", "[cli][matrix]") { checkRoute("penalty"); }
TEST_CASE("route matrix: every scenario by minimal-form", "[cli][matrix]") { checkRoute("minimal-form"); }

// The tools over the same list: `hold` at each scenario's initial positions taken at rest
// gives a verdict, except where rest is not a state of the mechanism; `animate` draws every
// one (the scenario's own method, 3D for a spatial one).
TEST_CASE("route matrix: every scenario by hold at its initial positions and by animate", "[cli][matrix]") {
  // Where rest is impossible: a belt moving under its block, a joint driven in time.
  const std::map<std::string, std::string> no_rest{{"belt", "its surface moves"},
                                                   {kScenarios + "/belt.yaml", "its surface moves"},
                                                   {"zheng-rheonomic", "is driven"},
                                                   {"muvengei-lugre", "is driven"},
                                                   {kScenarios + "/slider_crank.yaml", "is driven"}};
  const ScratchDir dir("route_matrix_tools");
  int held = 0, drawn = 0;
  for (const std::string& scenario : allScenarios()) {
    INFO(scenario);
    const Run h = cli({"hold", scenario, "--at", "start", "--no-margins", "--json"});
    INFO(h.err);
    if (const auto reason = no_rest.find(scenario); reason != no_rest.end()) {
      CHECK(h.code == 2);
      CHECK(h.err.find(reason->second) != std::string::npos);
    } else {
      REQUIRE((h.code == 0 || h.code == 1));  // holds, or breaks away
      const auto j = nlohmann::json::parse(h.out);
      CHECK(j["holds"].get<bool>() == (h.code == 0));
      held += 1;
    }
    const std::string page = dir / ("page" + std::to_string(drawn) + ".html");
    const Run a = cli({"animate", scenario, "--t-end", "0.02", "--out", page});
    INFO(a.err);
    CHECK(a.code == 0);
    CHECK(std::filesystem::file_size(page) > 1000);
    drawn += a.code == 0;
  }
  CHECK(held == 19);
  CHECK(drawn == 24);
}

TEST_CASE("route matrix: 83 of the 96 pairs run — blajer-2 with its pin-in-slot joint or a slider body by every route",
          "[cli][matrix]") {
  const std::size_t pairs = allScenarios().size() * 4;
  CHECK(pairs == 96);
  CHECK(pairs - refused().size() == 83);
  for (const bool pin : {true, false})
    for (const char* method : {"event-driven", "moreau-jean", "penalty", "minimal-form"}) {
      INFO(method << (pin ? ", pin in slot" : ", slider"));
      const Run r = cli({"run", pin ? "blajer-2" : "blajer-2-slider", "--method", method, "--t-end", "0.5", "--json"});
      INFO(r.err);
      REQUIRE(r.code == 0);
      CHECK(nlohmann::json::parse(r.out)["final_q"].size() == (pin ? 6 : 9));  // crank, rod (, slider)
    }
}

TEST_CASE("route matrix: journal-bearing and roller-crank by the nonsmooth routes, on the penalty models' data",
          "[cli][matrix]") {
  // The journal dropped from the centre meets the rigid wall after falling the clearance c.
  const Run jb = cli({"run", "journal-bearing", "--method", "event-driven", "--t-end", "0.015", "--json"});
  INFO(jb.err);
  REQUIRE(jb.code == 0);
  const auto events = nlohmann::json::parse(jb.out)["events"];
  REQUIRE(!events.empty());
  const double c = 10e-3 - 9.9e-3, g = 9.81;  // review Table 5
  CHECK(events[0]["t"].get<double>() == Approx(std::sqrt(2.0 * c / g)).margin(1e-9));
  // The penalty route makes the wall compliant (the review's Lankarani-Nikravesh law): the
  // same first contact, then bounces whose timing differs by the law's rebound (0.913 for
  // c_e = 0.9) and the ~0.1 ms contact times.
  const Run pj = cli({"run", "journal-bearing", "--method", "penalty", "--t-end", "0.015", "--json"});
  REQUIRE(pj.code == 0);
  const auto impacts = nlohmann::json::parse(pj.out)["impacts"];
  REQUIRE(impacts.size() >= 2);
  REQUIRE(events.size() >= 2);
  CHECK(impacts[0]["t_close"].get<double>() == Approx(events[0]["t"].get<double>()).margin(1e-8));
  CHECK(impacts[1]["t_close"].get<double>() == Approx(events[1]["t"].get<double>()).margin(5e-4));
  // The roller starts rolling and breaks into a slip when its friction reaches mu_s N:
  // event-driven and Moreau-Jean (h = 1e-4 s) at the same instant, to a step.
  double slip[2];
  int i = 0;
  for (const char* method : {"event-driven", "moreau-jean"}) {
    const Run r = cli({"run", "roller-crank", "--method", method, "--t-end", "0.5", "--json"});
    INFO(method << ": " << r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(!j["events"].empty());
    CHECK(j["events"][0]["kind"] == "slip+");
    slip[i++] = j["events"][0]["t"].get<double>();
  }
  CHECK(slip[0] == Approx(0.2282).margin(1e-4));
  CHECK(std::abs(slip[0] - slip[1]) <= 2e-4);
}

TEST_CASE("penalty route: a law with a jump at v = 0 starts on RK4 instead of stalling BDF first",
          "[cli][matrix]") {
  // BDF spent about 20 s on the guided slider-crank with `coulomb` before giving up.
  const std::string file = kScenarios + "/guided_slider_crank.yaml";
  const Run jump = cli({"run", file, "--method", "penalty", "--friction", "coulomb", "--t-end", "0.2", "--json"});
  INFO(jump.err);
  REQUIRE(jump.code == 0);
  const auto j = nlohmann::json::parse(jump.out);
  CHECK(j["integrator"] == "rk4");
  CHECK_FALSE(j.contains("bdf_failure"));
  const Run smooth = cli({"run", file, "--method", "penalty", "--friction", "tanh", "--t-end", "0.2", "--json"});
  REQUIRE(smooth.code == 0);
  CHECK(nlohmann::json::parse(smooth.out)["integrator"] == "bdf");
}

TEST_CASE("muvengei-lugre by event-driven: its two revolutions with the impact law newton-tangential (its default), "
          "Newton's law stopping at the first impact that would add energy",
          "[cli][matrix][slow]") {
  const Run run = cli({"run", "muvengei-lugre", "--method", "event-driven", "--output-dt", "1e-4", "--json"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  const auto j = nlohmann::json::parse(run.out);
  CHECK(j["impact_law"] == "newton-tangential");
  CHECK(j["t"].get<double>() == Approx(0.048));  // 2 revolutions at 2500 rpm
  int impacts = 0;
  for (const auto& e : j["events"]) impacts += e["kind"] == "impact";
  CHECK(impacts > 100);  // every one checked: an impact that adds energy stops the run
  const Run newton = cli({"run", "muvengei-lugre", "--method", "event-driven", "--impact-law", "newton", "--json"});
  CHECK(newton.code == 1);
  const auto n = nlohmann::json::parse(newton.out);
  CHECK(n["status"] == "no-consistent-mode");
  CHECK(n["message"].get<std::string>().find("Kane's paradox") != std::string::npos);
  CHECK(n["t"].get<double>() == Approx(0.0022115).margin(1e-6));
}
