// Hostile run options (issue's commands and the fuzz target's findings): every one exits 2
// with a message naming the option, or runs and reports a status; a run says ok (exit 0)
// only when it reached t_end.
#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_run.hpp"

namespace {

/// Exit 2 with one line on stderr that contains `what`, nothing on stdout.
void refused(const std::vector<std::string>& args, const std::string& what) {
  std::vector<std::string> all{"run"};
  all.insert(all.end(), args.begin(), args.end());
  const Run r = cli(all);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find(what) != std::string::npos);
}

}  // namespace

TEST_CASE("hostile options: a step, a sampling or an end time beyond the budget is refused before the run",
          "[cli][hostile]") {
  const auto start = std::chrono::steady_clock::now();
  refused({"belt", "--method", "moreau-jean", "--dt", "1e-300"},
          "--t-end 20 --dt 1e-300 needs 2e+301 steps, more than --max-steps 1e+08");
  refused({"belt", "--method", "penalty", "--t-end", "1e300"}, "history samples, more than --max-samples");
  refused({"belt", "--method", "moreau-jean", "--t-end", "1e300", "--dt", "1e-300"}, "needs inf steps");
  refused({"belt", "--method", "event-driven", "--output-dt", "1e-12"},
          "--t-end 20 --output-dt 1e-12 needs 2e+13 history samples, more than --max-samples 1e+07");
  refused({"belt", "--method", "penalty", "--integrator", "rk4", "--dt", "1e-12"}, "more than --max-steps");
  refused({"blajer-1", "--method", "minimal-form", "--output-dt", "1e-9"}, "more than --max-samples");
  refused({"zheng-torque", "--method", "moreau-jean", "--output-dt", "1e-6", "--max-history-mb", "1"},
          "MiB of history, more than --max-history-mb 1");
  // Moreau–Jean samples at most every step, however fine the output.
  const Run every = cli({"run", "belt", "--method", "moreau-jean", "--t-end", "0.01", "--output-dt", "1e-12", "--json"});
  CHECK(every.code == 0);
  CHECK(nlohmann::json::parse(every.out)["status"] == "ok");
  // Refused at once: nothing was run.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}

TEST_CASE("hostile options: inf, nan, denormals and overflow are refused naming the option", "[cli][hostile]") {
  refused({"belt", "--t-end", "inf"}, "--t-end: expected a number > 0, got inf");
  refused({"belt", "--dt", "nan"}, "--dt: expected a number > 0, got nan");
  refused({"belt", "--method", "moreau-jean", "--dt", "4.9e-324"}, "--dt: 5e-324 is denormal");
  refused({"belt", "--output-dt", "1e-310"}, "--output-dt: 1e-310 is denormal");
  refused({"belt", "--theta", "nan"}, "--theta");
  refused({"spatial-slider-crank", "--tolerance", "1e308"}, "--tolerance: expected a relative tolerance below 1");
  refused({"belt", "--set", "run.tolerance=1"}, "run.tolerance");
  refused({"belt", "--t-end", "1e400"}, "--t-end");
  refused({"belt", "--set", "run.t_end=-inf"}, "run.t_end");
  refused({"belt", "--set", "parameters.mass=1e-310"}, "parameters.mass");
  refused({"belt", "--set", "parameters.mass=1e400"}, "parameters.mass");
  refused({"belt", "--max-steps", "0"}, "--max-steps: expected a number in [1, 1e18], got 0");
  refused({"belt", "--max-events", "inf"}, "--max-events");
  refused({"zheng-torque", "--method", "moreau-jean", "--facets", "100000"}, "--facets: expected an integer in [3, 256]");
  refused({"spatial-slider-crank-clearance", "--method", "moreau-jean", "--facets", "16"},
          "--facets: the faceted cone is --solver lemke's (spatial contacts); --solver auto does not use it");
  // A route that takes no contact solver still refuses a name no route takes (compare gives
  // every method the same --solver, so a known one is let through).
  refused({"belt", "--method", "penalty", "--solver", "lemk"},
          "--solver: expected auto, lemke, nsgs, newton, trial-and-error or siconos-<fc2d solver>, "
          "got 'lemk'");
  refused({"blajer-1", "--method", "minimal-form", "--solver", "siconos-nope"},
          "got 'siconos-nope'");
  CHECK(cli({"run", "belt", "--method", "penalty", "--solver", "lemke", "--t-end", "0.01"}).code ==
        0);
  // An argument without an option name beyond those the command takes is named.
  refused({"belt", "0.5"},
          "unexpected argument '0.5': it takes 1 (scenario) without an option name");
  // An option is taken by its whole name only: a prefix may be a misspelling of another one.
  refused({"belt", "--t-en", "1"}, "unrecognised option '--t-en'");
  const Run merge = cli({"merge", "m.csv", "a.csv", "--forc"});
  CHECK(merge.code == 2);
  CHECK(merge.err.find("unrecognised option '--forc'") != std::string::npos);
}

TEST_CASE("hostile options: a run cut short by its budget says so (exit 1), never ok", "[cli][hostile]") {
  // By the penalty route's BDF, event-driven's and the minimal form's CVODE.
  for (const auto& [scenario, method] : {std::pair{"belt", "event-driven"}, {"belt", "penalty"}, {"blajer-1", "minimal-form"}}) {
    INFO(method);
    const Run r = cli({"run", scenario, "--method", method, "--max-steps", "50", "--json"});
    REQUIRE(r.code == 1);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["status"] == "limit-reached");
    CHECK(j["t"].get<double>() < j["t_end"].get<double>());
    CHECK(r.err.find("limit-reached") != std::string::npos);
  }
  // BDF asked for by name: the budget, not a failure of the integrator (RK4's is refused before
  // it runs, its steps being known).
  const Run bdf = cli({"run", "belt", "--method", "penalty", "--integrator", "bdf", "--max-steps", "50", "--json"});
  CHECK(bdf.code == 1);
  CHECK(nlohmann::json::parse(bdf.out)["status"] == "limit-reached");
  CHECK(bdf.err.find("more than max_steps = 50 integrator steps") != std::string::npos);
  // Found by fuzz_run_options: a link 3e-5 m long makes the minimal form's ODE stiff, and
  // CVODE took its 500 000 steps per output interval before the budget was looked at (minutes
  // under the sanitizers). CVODE now stops at the budget itself.
  const Run stiff = cli({"run", "blajer-1", "--method", "minimal-form", "--set", "run.output_dt=3", "--set",
                         "parameters.a1=3.0514769605360922e-05", "--max-steps", "3", "--json"});
  CHECK(stiff.code == 1);
  const nlohmann::json s = nlohmann::json::parse(stiff.out);
  CHECK(s["status"] == "limit-reached");
  CHECK(s["steps"].get<long>() <= 6);
  const Run events = cli({"run", "belt", "--method", "event-driven", "--max-events", "2", "--json"});
  CHECK(events.code == 1);
  CHECK(nlohmann::json::parse(events.out)["status"] == "limit-reached");
  // A finished run: ok at t_end, exit 0.
  const Run ok = cli({"run", "belt", "--method", "event-driven", "--json"});
  REQUIRE(ok.code == 0);
  const nlohmann::json j = nlohmann::json::parse(ok.out);
  CHECK(j["status"] == "ok");
  CHECK(j["t"].get<double>() == Approx(j["t_end"].get<double>()).epsilon(1e-12));
}

TEST_CASE("hostile options: a motion that overflows double precision is a failure, not ok", "[cli][hostile]") {
  // A torque of 1e200 N m: Moreau–Jean's steps stay finite while the energy overflows.
  const Run r = cli({"run", std::string(STICKSLIP_SCENARIOS) + "/guided_slider_crank.yaml", "--method", "moreau-jean",
                     "--t-end", "0.01", "--set", "parameters.tau0=1e200", "--json"});
  INFO(r.err);
  CHECK(r.code == 1);
  CHECK(nlohmann::json::parse(r.out)["status"] == "integrator-failure");
  CHECK(r.err.find("the motion overflowed double precision: the energy is inf at t = ") != std::string::npos);
}

TEST_CASE("hostile options: values a paper's closed form does not cover run, and say there is no reference",
          "[cli][hostile]") {
  // A belt without its spring is a mechanism (the block rides the belt); the closed form of the
  // stick-slip cycle needs k > 0. Before, the finished run ended in "Belt: expected stiffness > 0"
  // with exit 2 and no place.
  const Run r = cli({"run", "belt", "--set", "parameters.stiffness=0", "--t-end", "1", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "ok");
  CHECK(j["analysis_unavailable"] == "Belt: expected stiffness > 0, got 0");
  CHECK(!j.contains("reference"));
  CHECK(j["final_v"][0].get<double>() == Approx(0.1).margin(1e-12));  // it sticks to the belt
}

TEST_CASE("hostile options: joints that a too long step lets drift apart are reported, not hidden",
          "[cli][hostile]") {
  // A torque of 1e6 N m spins the crank so fast that Moreau–Jean's step of 1e-4 s leaves its
  // joints 0.07 apart; at the default torque they hold to round-off.
  const std::string file = std::string(STICKSLIP_SCENARIOS) + "/guided_slider_crank.yaml";
  const Run wild = cli({"run", file, "--method", "moreau-jean", "--t-end", "0.2", "--set", "parameters.tau0=1e6"});
  const Run wild_json = cli({"run", file, "--method", "moreau-jean", "--t-end", "0.2", "--set",
                             "parameters.tau0=1e6", "--json"});
  const Run calm = cli({"run", file, "--method", "moreau-jean", "--t-end", "0.2", "--json"});
  REQUIRE(wild_json.code == 0);
  REQUIRE(calm.code == 0);
  CHECK(nlohmann::json::parse(wild_json.out)["joint_drift"].get<double>() > 0.01);
  CHECK(wild.out.find("warning     the joints drifted apart: |Phi| = ") != std::string::npos);
  CHECK(nlohmann::json::parse(calm.out)["joint_drift"].get<double>() < 1e-12);
}

TEST_CASE("hostile options: an RK4 step too large for the contacts is a failure, a coarse one a warning",
          "[cli][hostile]") {
  // The incline is driven (8 sin 2t N), so the passive energy guard does not apply. At 1 ms RK4
  // kicks the block off its contact: it ended at 20 555 J from 0 J, and said ok. At 0.1 ms its
  // energy account holds: E + W matches the forces' work to 1e-9 of the energy that flowed.
  const Run coarse = cli({"run", "incline", "--method", "penalty", "--integrator", "rk4", "--dt", "1e-3", "--json"});
  INFO(coarse.err);
  CHECK(coarse.code == 1);
  CHECK(nlohmann::json::parse(coarse.out)["status"] == "energy-increase");
  CHECK(coarse.err.find("RK4 created ") != std::string::npos);
  CHECK(coarse.err.find("The step dt = 0.001 s is too large for this system") != std::string::npos);
  const Run fine = cli({"run", "incline", "--method", "penalty", "--integrator", "rk4", "--dt", "1e-4", "--json"});
  INFO(fine.err);
  CHECK(fine.code == 0);
  const nlohmann::json account = nlohmann::json::parse(fine.out);
  CHECK(std::abs(account["energy_created"].get<double>()) < 1e-9 * account["energy_flowed"].get<double>());
  // The ball's bounces last 15 steps of 10 µs: RK4 chatters on the stiff friction in them, and
  // its friction work comes out 1.18 J where it is 2/3 J (BDF: 0.666667 J). The motion is right
  // (the rolling speed follows from the angular momentum), so the run stands, with a warning.
  const Run ball = cli({"run", "ball", "--method", "penalty", "--friction", "coulomb"});
  const Run ball_json = cli({"run", "ball", "--method", "penalty", "--friction", "coulomb", "--json"});
  INFO(ball.err);
  REQUIRE(ball_json.code == 0);
  const nlohmann::json j = nlohmann::json::parse(ball_json.out);
  CHECK(j["energy_created"].get<double>() > 0.01 * j["energy_flowed"].get<double>());  // the warning's
  CHECK(j["friction_work"].get<double>() > 1.1);
  CHECK(ball.out.find("warning     RK4 created ") != std::string::npos);
}
