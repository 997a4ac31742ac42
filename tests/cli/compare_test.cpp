// `stickslip compare` as a user drives it: the table, the deviations, the files it writes, its
// exit codes and its figures.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/compare_data.hpp"
#include "cli/compare_plots.hpp"
#include "cli_run.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

/// A fresh, empty directory name under the temporary directory (not created).
std::string freshDir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() /
                     ("stickslip-compare-test-" + std::to_string(getpid()) + "-" + name);
  fs::remove_all(p);
  return p.string();
}

}  // namespace

TEST_CASE("compare belt: event-driven vs Moreau-Jean, and event-driven against itself",
          "[cli][compare]") {
  const std::string dir = freshDir("belt");
  const Run r = cli({"compare", "belt", "--methods", "event-driven,moreau-jean,event-driven",
                     "--out-dir", dir, "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["status"] == "ok");
  CHECK(j["reference"] == "event-driven");
  CHECK(j["outputs"] == json({"block.x", "block.vx", "block-belt.F"}));
  const json& ed = method(j, "event-driven");
  const json& mj = method(j, "moreau-jean");
  const json& again = method(j, "event-driven (2)");
  // The closed form (DESIGN 7) has 4 stick/slip changes in 20 s: slip at 7.3575 s, stick
  // 2.6185 s later, slip 4.905 s later, stick again; stick time 7.3575 + 4.905 + 2.50066 s.
  CHECK(ed["transitions"] == 4);
  CHECK(mj["transitions"] == 4);
  CHECK(ed["stick_from"] == "modes");
  CHECK(ed["stick_fraction"].get<double>() ==
        Approx((7.3575 + 4.905 + (20.0 - 17.499344493139790)) / 20.0).epsilon(1e-8));
  CHECK(ed["events"] == 4);
  CHECK(ed["lcp_solves"].get<long>() > 0);
  CHECK(ed["contact_solver"] == "lemke");  // which solver answered, as run --json says
  CHECK(mj["steps"] == 200000);  // h = 1e-4 s over 20 s
  // Friction dissipates: positive work, the same for both methods to O(h).
  // Each slip phase dissipates mu_k m g times the sliding distance, the belt's 0.1 m/s x 2.6185 s
  // plus the block's travel back from 0.73575 m to 0.24525 m; two slip phases in 20 s.
  const double per_slip = 0.1 * 9.81 * (0.1 * 2.6185 + (0.73575 - 0.24525));
  CHECK(ed["friction_work"].get<double>() == Approx(2.0 * per_slip).epsilon(1e-4));
  CHECK(mj["friction_work"].get<double>() ==
        Approx(ed["friction_work"].get<double>()).epsilon(1e-3));
  CHECK(mj["friction_work_from"] == "run");  // every step, not only the sampled ones
  CHECK(ed["friction_work_from"] == "samples");
  // Moreau-Jean is O(h) from the exact solution: small but nonzero deviations.
  for (const char* c : {"block.x", "block.vx"}) {
    CAPTURE(c);
    const double max = mj["deviations"][c]["max"].get<double>();
    CHECK(max > 0.0);
    CHECK(max < 1e-3);
    CHECK(mj["deviations"][c]["rms"].get<double>() <= max);
    CHECK(mj["deviations"][c]["samples"].get<long>() > 20000);
  }
  // The same method listed twice deviates by exactly nothing.
  for (const char* c : {"block.x", "block.vx", "block-belt.F"}) {
    CAPTURE(c);
    CHECK(again["deviations"][c]["max"].get<double>() == 0.0);
    CHECK(again["deviations"][c]["rms"].get<double>() == 0.0);
  }
  for (const char* f : {"belt-event-driven.csv", "belt-moreau-jean.csv", "belt-event-driven-2.csv"})
    CHECK(fs::file_size(fs::path(dir) / f) > 0);
  fs::remove_all(dir);
}

TEST_CASE("compare prints a table per method with the deviations from the first",
          "[cli][compare]") {
  const std::string dir = freshDir("table");
  const Run r = cli({"compare", "belt", "--methods", "event-driven,penalty:linear", "--out-dir",
                     dir, "--t-end", "12"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* s : {"method", "cpu [s]", "steps", "events", "LCP solves", "transitions",
                        "stick", "friction work [J]", "deviation from event-driven",
                        "penalty:linear", "block.x [m]", "block-belt.F [N]"})
    CHECK(r.out.find(s) != std::string::npos);
  // The penalty route has no modes: its stick count comes from |v_t| and says so.
  CHECK(r.out.find("~") != std::string::npos);
  CHECK(fs::exists(fs::path(dir) / "belt-penalty-linear.csv"));
  fs::remove_all(dir);
}

TEST_CASE("compare dupont: minimal form and event-driven agree on the stick/slip changes",
          "[cli][compare]") {
  const std::string dir = freshDir("dupont");
  const Run r = cli(
      {"compare", "dupont", "--methods", "event-driven,minimal-form", "--out-dir", dir, "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const json& ed = method(j, "event-driven");
  const json& mf = method(j, "minimal-form");
  // Stiction 0-0.42, 4.10-4.35, 8.03-8.27 s (DESIGN 7): five entries or exits in 10 s.
  CHECK(ed["transitions"] == 5);
  CHECK(mf["transitions"] == 5);
  CHECK(mf["stick_fraction"].get<double>() ==
        Approx(ed["stick_fraction"].get<double>()).epsilon(1e-6));
  CHECK(mf["deviations"]["m1.x"]["max"].get<double>() < 1e-6);
  // The minimal form's CSV has the slot's sliding rate and friction: its friction work (the
  // trapezoidal rule on its samples) matches the event-driven one.
  CHECK(mf["friction_work"].get<double>() ==
        Approx(ed["friction_work"].get<double>()).epsilon(1e-4));
  fs::remove_all(dir);
}

TEST_CASE("compare never overwrites without --force", "[cli][compare]") {
  const std::string dir = freshDir("force");
  const std::vector<std::string> args{"compare",   "belt", "--methods", "event-driven",
                                      "--out-dir", dir,    "--t-end",   "1"};
  REQUIRE(cli(args).code == 0);
  const auto written = fs::last_write_time(fs::path(dir) / "belt-event-driven.csv");
  const Run again = cli(args);
  CHECK(again.code == 2);
  CHECK(again.err.find("--force") != std::string::npos);
  CHECK(fs::last_write_time(fs::path(dir) / "belt-event-driven.csv") == written);
  auto forced = args;
  forced.push_back("--force");
  CHECK(cli(forced).code == 0);
  fs::remove_all(dir);
}

TEST_CASE("compare: bad methods are input errors before anything runs", "[cli][compare]") {
  const std::string dir = freshDir("bad");
  SECTION("unknown method") {
    const Run r = cli({"compare", "belt", "--methods", "event-driven,galerkin", "--out-dir", dir});
    CHECK(r.code == 2);
    CHECK(r.err.find("unknown method 'galerkin'") != std::string::npos);
  }
  SECTION("a method the scenario does not have") {
    const Run r =
        cli({"compare", "ball", "--methods", "event-driven,minimal-form", "--out-dir", dir});
    CHECK(r.code == 2);
    CHECK(r.err.find("not available for 'ball'") != std::string::npos);
    CHECK(r.err.find("minimal-form") != std::string::npos);
  }
  SECTION("an output no method writes") {
    const Run r = cli(
        {"compare", "belt", "--methods", "event-driven", "--outputs", "block.z", "--out-dir", dir});
    CHECK(r.code == 2);
    CHECK(r.err.find("block.z") != std::string::npos);
  }
  SECTION("no methods") {
    CHECK(cli({"compare", "belt", "--methods", ",", "--out-dir", dir}).code == 2);
  }
  CHECK_FALSE(fs::exists(dir));  // nothing ran, nothing was written
}

TEST_CASE("compare: a failing method is shown as failed and the exit code is 1", "[cli][compare]") {
  const std::string dir = freshDir("fail");
  // Dahl's law in the journal bearing gains energy under the varying load: sampled every
  // 0.1 ms, BDF's run is stopped by the energy guard at t = 0.0046 s.
  const Run r = cli({"compare", "journal-bearing", "--set", "parameters.mu_static=0.15", "--set",
                     "parameters.mu_kinetic=0.1", "--set", "run.output_dt=1e-4", "--methods", "penalty,penalty:dahl",
                     "--t-end", "0.01", "--out-dir", dir, "--json"});
  CHECK(r.code == 1);
  const json j = json::parse(r.out);
  CHECK(j["status"] == "failed");
  CHECK(method(j, "penalty")["status"] == "ok");
  const json& dahl = method(j, "penalty:dahl");
  CHECK(dahl["status"] == "energy-increase");
  CHECK(dahl["message"].get<std::string>().find("energy") != std::string::npos);
  CHECK(r.err.find("penalty:dahl failed") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("compare --plot writes gnuplot scripts, PNG and SVG figures", "[cli][compare][plot]") {
  if (!stickslip::cli::gnuplotAvailable()) {
    WARN("gnuplot not installed: figures not checked");
    return;
  }
  const std::string dir = freshDir("plot");
  const Run r = cli({"compare", "zheng-torque", "--methods", "event-driven", "--t-end", "0.5",
                     "--plot", "--out-dir", dir});
  INFO(r.err);
  REQUIRE(r.code == 0);
  // zheng-torque's clearance joint has N, F and v_t (Zheng Fig. 8) and an eccentricity.
  for (const char* name : {"histories", "friction", "phase", "orbit"})
    for (const char* ext : {".gp", ".png", ".svg"}) {
      const fs::path f = fs::path(dir) / (std::string("zheng-torque-") + name + ext);
      CAPTURE(f);
      REQUIRE(fs::exists(f));
      CHECK(fs::file_size(f) > 0);
    }
  std::ifstream script(fs::path(dir) / "zheng-torque-friction.gp");
  const std::string text((std::istreambuf_iterator<char>(script)),
                         std::istreambuf_iterator<char>());
  CHECK(text.find("zheng-torque-event-driven.csv") != std::string::npos);
  CHECK(text.find("set ylabel") != std::string::npos);
  CHECK(text.find("title 'event-driven'") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("compare's deviation pairs rows at a repeated time and interpolates between samples",
          "[cli][compare]") {
  using stickslip::cli::Series;
  Series a, b;
  a.names = b.names = {"t", "y"};
  a.data.resize(4, 2);
  a.data << 0, 0, 1, 1, 1, 3, 2, 3;  // a jump at t = 1: left value 1, right value 3
  b.data.resize(3, 2);
  b.data << 0, 0, 2, 2, 4, 4;  // y = t
  const auto self = stickslip::cli::deviation(a, a, "y");
  CHECK(self.max_abs == 0.0);
  CHECK(self.samples == 4);
  const auto d = stickslip::cli::deviation(a, b, "y");  // |0|, |1 - 1|, |3 - 1|, |3 - 2|
  CHECK(d.max_abs == 2.0);
  CHECK(d.rms == Approx(std::sqrt((0.0 + 0.0 + 4.0 + 1.0) / 4.0)));
  CHECK(std::isnan(stickslip::cli::deviation(a, b, "z").max_abs));
}

TEST_CASE("compare --help exits 0 and a typo'd flag exits 2", "[cli][compare]") {
  CHECK(cli({"compare", "--help"}).code == 0);
  CHECK(cli({"compare", "belt", "--methods", "event-driven", "--plott"}).code == 2);
}

TEST_CASE("compare forwards --set to every run and takes scenario files", "[cli][compare]") {
  const std::string dir = freshDir("set");
  SECTION("a larger mu_s holds the block longer") {
    const Run r = cli({"compare", "belt", "--methods", "event-driven,moreau-jean", "--set",
                       "parameters.mu_static=0.2", "--out-dir", dir, "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    // Stick until k x = mu_s m g: x = 0.981 m at t = 9.81 s, then slip; 2 changes in 20 s.
    CHECK(method(j, "event-driven")["transitions"] == 2);
    CHECK(method(j, "moreau-jean")["transitions"] == 2);
  }
  SECTION("a bad key is an input error before anything runs") {
    const Run r = cli({"compare", "belt", "--methods", "event-driven", "--set",
                       "parameters.bogus=1", "--out-dir", dir});
    CHECK(r.code == 2);
    CHECK_FALSE(fs::exists(dir));
  }
  fs::remove_all(dir);
}

TEST_CASE("compare flores-translational: rigid and compliant corners side by side",
          "[cli][compare]") {
  const std::string dir = freshDir("flores");
  const Run r = cli({"compare", "flores-translational", "--methods",
                     "moreau-jean,penalty", "--out-dir", dir, "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const json& mj = method(j, "moreau-jean");
  const json& pen = method(j, "penalty");
  CHECK(mj["friction_work_from"] == "run");
  CHECK(pen["stick_from"] == "velocity-threshold");  // a regularized law has no stick mode
  // The penalty CSV's F_n, F_t columns are read under the rigid names N, F.
  CHECK(pen["friction_work"].get<double>() > 0.0);
  CHECK(mj["friction_work"].get<double>() > 0.0);
  // Moreau-Jean (h = 1e-5 s) and the stiff compliant corners follow the same crank.
  CHECK(pen["deviations"]["crank.theta"]["max"].get<double>() < 1e-2);
  fs::remove_all(dir);
}

TEST_CASE("compare --plot without gnuplot says so and runs nothing", "[cli][compare][plot]") {
  const std::string dir = freshDir("nognuplot");
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  const Run r = cli({"compare", "belt", "--methods", "event-driven", "--plot", "--out-dir", dir});
  setenv("PATH", path.c_str(), 1);
  CHECK(r.code == 1);
  CHECK(r.err.find("gnuplot") != std::string::npos);
  CHECK_FALSE(fs::exists(dir));
}

TEST_CASE("compare on a model file of one's own: event-driven, Moreau-Jean and penalty, with figures",
          "[cli][compare][plot]") {
  // slider_crank.yaml: a roller sliding on the floor and a frictional crank pin. The three
  // routes follow one motion and dissipate the same friction work, roller and pin together
  // (measured 0.8234, 0.8233, 0.8236 J over 1 s).
  const std::string dir = freshDir("model");
  std::vector<std::string> args{"compare", std::string(STICKSLIP_SCENARIOS) + "/slider_crank.yaml",
                                "--methods", "event-driven,moreau-jean,penalty:tanh", "--out-dir", dir,
                                "--json"};
  const bool plot = stickslip::cli::gnuplotAvailable();
  if (plot) args.push_back("--plot");
  const Run r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const double work = method(j, "event-driven")["friction_work"].get<double>();
  CHECK(work == Approx(0.8234).margin(1e-3));
  for (const char* label : {"moreau-jean", "penalty:tanh"}) {
    INFO(label);
    const json& m = method(j, label);
    CHECK(m["status"] == "ok");
    CHECK(m["friction_work"].get<double>() == Approx(work).epsilon(1e-3));
    CHECK(m["deviations"]["rod.theta"]["max"].get<double>() < 1e-5);
  }
  if (plot)
    for (const char* name : {"histories", "friction", "phase"})
      CHECK(fs::exists(fs::path(dir) / (std::string("slider_crank-") + name + ".png")));
  fs::remove_all(dir);
}
