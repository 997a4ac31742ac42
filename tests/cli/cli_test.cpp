// The CLI contract (DESIGN.md §6): exit codes, messages naming the file and the problem, and
// the JSON object of `stickslip lcp`.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli/cli_run.hpp"


namespace {

const std::string kData = STICKSLIP_SICONOS_DATA;

// A scratch file removed at the end of the test.
struct TempFile {
  std::filesystem::path path;
  explicit TempFile(const std::string& name, const std::string& text)
      : path(std::filesystem::temp_directory_path() / ("stickslip_cli_" + name)) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("stickslip usage and help", "[cli]") {
  CHECK(cli({}).code == 2);
  CHECK(cli({"--help"}).code == 0);
  CHECK(cli({"lcp", "--help"}).code == 0);
  const Run unknown = cli({"frobnicate"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("unknown command 'frobnicate'") != std::string::npos);
  const Run typo = cli({"lcp", kData + "/lcp/lcp_mmc.dat", "--solvr", "lemke"});
  CHECK(typo.code == 2);
  CHECK(typo.err.find("solvr") != std::string::npos);
  CHECK(cli({"lcp", kData + "/lcp/lcp_mmc.dat", "--solver", "magic"}).code == 2);
  // run's help shows no default a scenario overrides: those options name the scenario's instead.
  const Run run_help = cli({"run", "--help"});
  CHECK(run_help.code == 0);
  for (const char* option : {"--t-end", "--dt", "--tolerance", "--friction", "--integrator"}) {
    const auto at = run_help.out.find(std::string("  ") + option + " arg");
    REQUIRE(at != std::string::npos);
    CHECK(run_help.out.substr(at, run_help.out.find('\n', at) - at).find("(=") ==
          std::string::npos);
  }
}

TEST_CASE("stickslip lcp solves a Siconos file and prints one JSON object", "[cli]") {
  for (const char* solver : {"lemke", "siconos-lemke"}) {
    const Run r = cli({"lcp", kData + "/lcp/lcp_mmc.dat", "--solver", solver, "--json"});
    INFO(solver << ": " << r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    for (const char* key : {"status", "solver", "n", "z", "w", "residual", "pivots", "time_us"})
      CHECK(j.contains(key));
    CHECK(j["status"] == "solved");
    CHECK(j["solver"] == solver);
    CHECK(j["z"].size() == j["n"].get<std::size_t>());
    CHECK(j["residual"].get<double>() <= 1e-10);
  }
  SECTION("MLCP and FC2D files go through their reductions") {
    for (const char* f : {"/mlcp/m2n1_mlcp.dat", "/fc2d/FC2D_SliderCrankLagrangian00000.dat"}) {
      const Run r = cli({"lcp", kData + f, "--json"});
      INFO(f << ": " << r.err);
      CHECK(r.code == 0);
      CHECK(nlohmann::json::parse(r.out)["relative_residual"].get<double>() <= 1e-10);
    }
  }
  SECTION("a file name that is not UTF-8 reaches the JSON as U+FFFD, which JSON allows") {
    const ScratchDir dir("lcp_latin1");
    const std::string file = dir / "caf\xe9.dat";
    std::filesystem::copy_file(kData + "/lcp/lcp_trivial.dat", file);
    const Run r = cli({"lcp", file, "--json"});
    REQUIRE(r.code == 0);
    CHECK(nlohmann::json::parse(r.out)["file"].get<std::string>().ends_with("caf\xef\xbf\xbd.dat"));
  }
  SECTION("text output names status, residual and solution") {
    const Run r = cli({"lcp", kData + "/lcp/lcp_trivial.dat"});
    CHECK(r.code == 0);
    CHECK(r.out.find("status             solved") != std::string::npos);
    CHECK(r.out.find("z = [") != std::string::npos);
  }
}

TEST_CASE("stickslip lcp on a spatial (fc3d) file: ours on the round cone, faceted Lemke, Siconos', Siconos' error", "[cli]") {
  const std::string file = kData + "/fc3d/Rover1039.dat";
  Run r = cli({"lcp", file, "--json"});  // auto: ours, exact
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["kind"] == "fc3d");
  CHECK_THAT(j["solver"].get<std::string>(), Catch::Contains("newton"));
  CHECK(j["siconos_error"].get<double>() <= 1e-10);
  CHECK_FALSE(j.contains("facets"));
  r = cli({"lcp", file, "--solver", "nsgs", "--json"});
  CHECK(nlohmann::json::parse(r.out)["siconos_error"].get<double>() <= 1e-10);
  r = cli({"lcp", file, "--solver", "lemke", "--json"});
  j = nlohmann::json::parse(r.out);
  CHECK(j["solver"] == "lemke");
  CHECK(j["facets"] == 8);
  CHECK(j["facet_bound"].get<double>() == Approx(1.0 - std::cos(M_PI / 8)));
  const double faceted = j["siconos_error"].get<double>();
  CHECK(faceted > 0.0);
  CHECK(faceted < 0.05);
  r = cli({"lcp", file, "--solver", "lemke", "--facets", "64", "--json"});
  CHECK(nlohmann::json::parse(r.out)["siconos_error"].get<double>() < faceted);
  r = cli({"lcp", file, "--solver", "siconos-nsgs", "--json"});
  REQUIRE(r.code == 0);
  j = nlohmann::json::parse(r.out);
  CHECK(j["solver"] == "siconos-nsgs");
  CHECK(j["siconos_error"].get<double>() <= 1e-8);
  CHECK_FALSE(j.contains("facets"));
  r = cli({"lcp", file, "--solver", "lemke"});
  CHECK(r.out.find("Siconos' error") != std::string::npos);
  CHECK(r.out.find("(fc3d_compute_error)") != std::string::npos);
  CHECK(r.out.find("faceted cone       8 facets") != std::string::npos);
  r = cli({"lcp", file, "--solver", "nsgs", "--facets", "16"});  // the round cone: no facets
  CHECK(r.code == 2);
  CHECK(r.err.find("fc3d by --solver nsgs does not use it") != std::string::npos);
  r = cli({"lcp", file, "--facets", "2"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--facets: expected 3 … 1024, got 2") != std::string::npos);
  r = cli(
      {"lcp", file, "--solver", "lemke", "--facets", "100000"});  // a dense LCP beyond any memory
  CHECK(r.code == 2);
  CHECK(r.err.find("--facets: expected 3 … 1024, got 100000") != std::string::npos);
  r = cli({"lcp", file, "--solver", "cpg"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown FC3D solver 'cpg'") != std::string::npos);
}

TEST_CASE("stickslip lcp on hostile fc3d files: refused with exit 2, or answered with status and a warning", "[cli]") {
  // One contact, W = diag or as given (dense storage, column by column), q, mu.
  const auto fc3d = [](const std::string& w, const std::string& q, const std::string& mu) {
    return "3\n1\n0\n3 3\n3 3\n" + w + "\n" + q + "\n" + mu + "\n";
  };
  SECTION("mu < 0 and NaN: exit 2 naming the file and the reason") {
    TempFile negative("negative_mu_fc3d.dat", fc3d("1 0 0 0 1 0 0 0 1", "-1 0.5 0", "-0.3"));
    Run r = cli({"lcp", negative.path.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find(negative.path.string()) != std::string::npos);
    CHECK(r.err.find(":8: expected mu[0] ≥ 0, got -0.3") != std::string::npos);
    TempFile nan("nan_fc3d.dat", fc3d("1 0 0 0 nan 0 0 0 1", "-1 0.5 0", "0.3"));
    r = cli({"lcp", nan.path.string(), "--solver", "siconos-nsgs"});
    CHECK(r.code == 2);
    CHECK(r.err.find(nan.path.string()) != std::string::npos);
    CHECK(r.err.find("non-finite value 'nan' for W(1, 1)") != std::string::npos);
  }
  SECTION("non-symmetric W, solvable: exit 0, with a warning") {
    TempFile f("asym_fc3d.dat", fc3d("1 0.8 0 0 1 0 0 0 1", "-1 0.2 0", "0.5"));
    for (const char* solver : {"auto", "lemke", "siconos-nsgs"}) {
      const Run r = cli({"lcp", f.path.string(), "--solver", solver, "--json"});
      INFO(solver << ": " << r.err);
      CHECK(r.code == 0);
      CHECK(r.err.find(f.path.string() + ": warning: W is not symmetric") != std::string::npos);
      CHECK_THAT(nlohmann::json::parse(r.out)["warning"].get<std::string>(), Catch::Contains("not symmetric"));
    }
  }
  SECTION("negative definite W without a solution: exit 1 with the warning, for every solver") {
    TempFile f("negdef_fc3d.dat", fc3d("-1 0 0 0 -1 0 0 0 -1", "-1 0.5 0", "0.3"));
    for (const char* solver : {"auto", "nsgs", "newton", "lemke", "siconos-nsgs", "siconos-nsn-ac", "siconos-prox", "siconos-vi-eg"}) {
      const Run r = cli({"lcp", f.path.string(), "--solver", solver, "--json"});
      INFO(solver << ": " << r.err);
      // siconos-nsgs does not take it (Siconos asserts W(0, 0) > 0 and would abort): exit 2.
      CHECK(r.code == (std::string(solver) == "siconos-nsgs" ? 2 : 1));
      CHECK(nlohmann::json::parse(r.out)["status"] != "solved");
      CHECK(r.err.find("warning: W is indefinite") != std::string::npos);
    }
  }
  SECTION("no solution (W = 0, u_n = -1): no solver claims one") {
    TempFile f("zero_fc3d.dat", fc3d("0 0 0 0 0 0 0 0 0", "-1 1 0", "0.5"));
    for (const char* solver : {"auto", "nsgs", "newton", "lemke", "siconos-nsgs", "siconos-nsn-ac", "siconos-prox", "siconos-vi-eg"}) {
      const Run r = cli({"lcp", f.path.string(), "--solver", solver});
      INFO(solver << ": " << r.err);
      // siconos-prox: "solved" at Siconos' error 1e-12, relative to |r| = 1e12; siconos-nsgs
      // does not take W(0, 0) = 0 (exit 2).
      CHECK(r.code == (std::string(solver) == "siconos-nsgs" ? 2 : 1));
    }
  }
}

TEST_CASE("stickslip bench fc3d sets our auto beside the fastest Siconos solver that met the tolerance", "[cli][bench]") {
  const auto dir = std::filesystem::temp_directory_path() / "stickslip_cli_bench_fc3d";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(kData + "/fc3d/FrictionContact3D_1c.dat", dir / "FrictionContact3D_1c.dat");
  std::ofstream(dir / "zero_w.dat") << "3\n1\n0\n3 3\n3 3\n0 0 0\n0 0 0\n0 0 0\n-1 1 0\n0.5\n";
  Run r = cli({"bench", "--what", "fc3d", "--data", dir.string(), "--min-time-ms", "1"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("| FrictionContact3D_1c.dat | 1 | auto | solved |") != std::string::npos);
  CHECK(r.out.find("| zero_w.dat | 1 | auto | numerical-failure |") != std::string::npos);
  // No Siconos solver either: prox's error 9e-9 comes from a diverging r, and it says it failed.
  CHECK(r.out.find("| zero_w.dat | 6.32e-01 | ") != std::string::npos);
  CHECK(r.out.find(" | none | | |") != std::string::npos);
  r = cli({"bench", "--what", "fc3d", "--data", dir.string(), "--min-time-ms", "1", "--json"});
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["problems"].size() == 2);
  CHECK(j["problems"][0]["file"] == "FrictionContact3D_1c.dat");
  CHECK(j["problems"][0]["ours_error"].get<double>() <= 1e-8);
  CHECK(j["problems"][0]["ratio"].get<double>() > 0.0);
  CHECK(j["problems"][1]["fastest_siconos"] == "");
  std::filesystem::remove_all(dir);
}

TEST_CASE("stickslip bench fc2d, fc3d: the source tree's problems by default, named when absent", "[cli][bench]") {
  const auto here = std::filesystem::current_path();
  std::filesystem::current_path(std::filesystem::temp_directory_path());
  const Run elsewhere = cli({"bench", "--what", "fc3d"});
  std::filesystem::current_path(std::filesystem::path(kData).parent_path().parent_path().parent_path());
  // Our NSGS alone (Siconos' solvers take 30 s on the 2020-contact problem even for one iteration).
  const Run root = cli({"bench", "--what", "fc2d", "--max-iterations", "1", "--solvers", "nsgs", "--json"});
  const Run unknown = cli({"bench", "--what", "fc2d", "--solvers", "nsgs,pgs"});
  std::filesystem::current_path(here);
  CHECK(elsewhere.code == 2);
  CHECK_THAT(elsewhere.err, Catch::Contains("--data: 'tests/data/siconos/fc3d' is not a directory"));
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("--solvers: 'pgs' is not an fc2d solver (expected some of nsgs, lemke, "
                                          "siconos-"));
  INFO(root.err);
  REQUIRE(root.code == 0);  // found: every problem read, one sweep of our NSGS on each
  const auto report = nlohmann::json::parse(root.out);
  std::set<std::string> files, solvers;
  for (const auto& row : report["rows"]) {
    files.insert(row["file"].get<std::string>());
    solvers.insert(row["solver"].get<std::string>());
  }
  CHECK(files.size() == 5);  // tests/data/siconos/fc2d-more
  CHECK(files.count("FrictionContactProblem00031.dat") == 1);
  CHECK(solvers == std::set<std::string>{"nsgs"});
}

TEST_CASE("stickslip lcp reports an unsolvable problem with exit code 1", "[cli]") {
  // w = −z − 1 < 0 for every z ≥ 0: no solution; Lemke must say so, not print numbers, and
  // auto adds that no complementary basis gives one either.
  TempFile f("ray.dat", "1\n0\n1\n1\n1 1\n-1\n-1\n");
  const Run r = cli({"lcp", f.path.string(), "--json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "secondary-ray");
  CHECK(j["message"].get<std::string>().find("2^1 complementary bases found no solution") !=
        std::string::npos);
}

TEST_CASE("stickslip lcp: a game Lemke cannot solve is answered by auto's enumeration", "[cli]") {
  const Run r = cli({"lcp", kData + "/lcp/lcp_CPS_3.dat", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["solver"] == "enum");
  CHECK(j["requested_solver"] == "auto");
  CHECK(j["relative_residual"].get<double>() <= 1e-15);
  CHECK(j["message"].get<std::string>().find("lemke ended without a solution") !=
        std::string::npos);
  CHECK(cli({"lcp", kData + "/lcp/lcp_CPS_3.dat", "--solver", "lemke"}).code == 1);
  // A solver that does not take the problem is an input error: enumeration of 26 unknowns.
  const Run too_large = cli({"lcp", kData + "/lcp/lcp_mmc.dat", "--solver", "enum"});
  INFO(too_large.err);
  CHECK(too_large.code == 2);
  CHECK(too_large.out.find("invalid-input") != std::string::npos);
}

TEST_CASE("stickslip lcp: bad input exits 2 naming the file and the problem", "[cli]") {
  SECTION("missing file") {
    const Run r = cli({"lcp", "/nonexistent/problem.dat"});
    CHECK(r.code == 2);
    CHECK(r.err.find("/nonexistent/problem.dat") != std::string::npos);
  }
  SECTION("a directory, and a size beyond reason") {
    const auto dir = std::filesystem::temp_directory_path();
    Run r = cli({"lcp", dir.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find(dir.string() + ": is a directory, not a file") != std::string::npos);
    TempFile huge("huge_lcp.dat", "1000000000\n");
    r = cli({"lcp", huge.path.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("the LCP size n = 1000000000 is implausibly large (at most 1000000)") !=
          std::string::npos);
  }
  SECTION("malformed, NaN, non-square") {
    struct Bad {
      const char* name;
      const char* text;
      const char* says;
    };
    for (const Bad& b : {Bad{"truncated_lcp.dat", "3\n0\n3\n3\n3 3\n1 0 0\n0 1\n", ""},
                         Bad{"token_lcp.dat", "2\n0\n2\n2\n2 2\n1 0\n0 x\n-1 -1\n", "x"},
                         Bad{"nan_lcp.dat", "2\n0\n2\n2\n2 2\n1 0\n0 nan\n-1 -1\n", ""},
                         Bad{"rect_lcp.dat", "2\n0\n2\n3\n2 3\n1 0\n0 1\n1 1\n-1 -1\n", ""}}) {
      TempFile f(b.name, b.text);
      const Run r = cli({"lcp", f.path.string()});
      INFO(b.name << ": " << r.err);
      CHECK(r.code == 2);
      CHECK(r.err.find(f.path.string()) != std::string::npos);
      CHECK(r.err.find(b.says) != std::string::npos);
    }
  }
}

TEST_CASE("stickslip bench lcp runs both solvers and prints the ratio table", "[cli][bench]") {
  const Run r = cli({"bench", "lcp", "--sizes", "4,8", "--instances", "2",
                           "--min-time-ms", "1", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["rows"].size() == 4);  // spd and friction at n = 4 and 8
  for (const auto& row : j["rows"]) {
    CHECK(row["ours_solved"] == row["instances"]);
    CHECK(row["siconos_us"].get<double>() > 0.0);
  }
  CHECK(cli({"bench", "lcp", "--sizes", "4,x"}).code == 2);
  CHECK(cli({"bench", "nothing"}).code == 2);
  // Nothing to run is no success, and an option of another --what is refused, not ignored.
  const Run none = cli({"bench", "lcp", "--sizes", "2", "--families", "friction", "--json"});
  CHECK(none.code == 2);
  CHECK(none.err.find("no instance to run") != std::string::npos);
  const Run other = cli({"bench", "friction", "--t-end", "0.01", "--facets", "5"});
  CHECK(other.code == 2);
  CHECK(other.err.find("--facets: bench --what friction does not take it (it is fc3d's)") !=
        std::string::npos);
  // A time budget that is not a finite positive number is refused, not run with.
  for (const char* budget : {"-1", "0", "inf"}) {
    const Run bad = cli({"bench", "lcp", "--sizes", "4", "--min-time-ms", budget});
    INFO(budget << ": " << bad.err);
    CHECK(bad.code == 2);
    CHECK(bad.out.empty());
    CHECK(bad.err.find("--min-time-ms: expected a finite number > 0") != std::string::npos);
  }
}

TEST_CASE("stickslip run belt: penalty route, JSON, CSV and refusals", "[cli][run]") {
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_belt.csv";
  std::filesystem::remove(csv);
  const Run r = cli({"run", "belt", "--method", "penalty", "--friction", "linear-stiction",
                     "--t-end", "10", "--out", csv.string(), "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"method", "status", "steps", "cpu_seconds", "final_q", "final_v",
                          "events", "transitions", "stick_fraction", "stick_velocity", "reference"})
    CHECK(j.contains(key));
  CHECK(j["status"] == "ok");
  // The route's one schema: the block's stick/slip changes estimated from |v_t| < 1e-3 m/s,
  // flagged approximate; the first break-away of the closed form is at 7.3575 s.
  REQUIRE(!j["events"].empty());
  CHECK(j["events"][0]["approximate"] == true);
  CHECK(j["events"][0]["kind"] == "slip-");
  CHECK(j["events"][0]["contact"] == "block-belt");
  CHECK(std::abs(j["events"][0]["t"].get<double>() - 7.3575) < 0.15);
  CHECK(j["reference"]["events"][0]["t"].get<double>() == Approx(7.3575).margin(1e-12));
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  CHECK(header.starts_with("t,block.x,block.y,block.theta,block.vx,block.vy,block.omega,block-belt.N,block-belt.F"));
  SECTION("an existing --out is not overwritten without --force") {
    const Run again = cli({"run", "belt", "--friction", "linear", "--t-end", "1", "--out",
                           csv.string()});
    CHECK(again.code == 2);
    CHECK(again.err.find("--force") != std::string::npos);
    CHECK(cli({"run", "belt", "--friction", "linear", "--t-end", "1", "--out", csv.string(),
               "--force"})
              .code == 0);
  }
  std::filesystem::remove(csv);
  CHECK(cli({"run", "nowhere"}).code == 2);
  const Run bad_law = cli({"run", "belt", "--friction", "magic"});
  CHECK(bad_law.code == 2);
  CHECK(bad_law.err.find("lugre") != std::string::npos);  // lists the valid names
  CHECK(cli({"run", "belt", "--method", "magic"}).code == 2);
  CHECK(cli({"run", "muvengei-lugre", "--method", "event-driven", "--friction", "coulomb"}).code == 2);
}

TEST_CASE("stickslip run belt: the laws with discrete states run on RK4, and refuse BDF and Adams", "[cli][run]") {
  // The thesis' §3.2.9, 3.2.11, 3.3.2, 3.3.5 and 3.3.8. With stiction the block holds until
  // near k x = μs N at 7.3575 s (the estimate lags by the law's pre-sliding). The lubricated
  // journal's film builds as soon as the compliant contact's load wavers and the block creeps:
  // it slips at 6.35 s here (at 7.363 s on the thesis' 1-DoF belt, where N is exact).
  for (const char* law : {"armstrong", "wojewoda", "bristle", "leuven", "harnoy-friedland"}) {
    const Run r = cli({"run", "belt", "--method", "penalty", "--friction", law, "--t-end", "7.6", "--json"});
    INFO(law << ": " << r.err);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["status"] == "ok");
    double slip = -1.0;
    for (const auto& e : j["events"])
      if (slip < 0.0 && e["kind"] == "slip-") slip = e["t"].get<double>();
    if (std::string(law) == "harnoy-friedland")
      CHECK((slip > 5.0 && slip < 7.3575));
    else
      CHECK(std::abs(slip - 7.3575) < 0.1);
  }
  for (const char* integrator : {"bdf", "adams"}) {
    const Run variable = cli({"run", "belt", "--friction", "leuven", "--integrator", integrator, "--t-end", "1"});
    CHECK(variable.code == 2);
    CHECK(variable.err.find("'leuven' switches discrete states between steps") != std::string::npos);
  }
  const Run unknown = cli({"run", "belt", "--integrator", "euler", "--t-end", "1"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("expected bdf, rk4 or adams, got 'euler'") != std::string::npos);
  // Adams, the non-stiff integrator, runs a smooth law.
  const Run adams = cli({"run", "belt", "--friction", "tanh", "--integrator", "adams", "--t-end", "1", "--json"});
  INFO(adams.err);
  REQUIRE(adams.code == 0);
  CHECK(nlohmann::json::parse(adams.out)["integrator"] == "adams");
}

TEST_CASE("stickslip run dupont/belt, event-driven: events with kinds, counts and the reference",
          "[cli][run]") {
  const Run r = cli({"run", "dupont", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"status", "events", "lcp_solves", "pivots", "steps", "cpu_seconds",
                          "mode_checks", "mode_mismatches", "reference"})
    CHECK(j.contains(key));
  CHECK(j["method"] == "event-driven");
  REQUIRE(j["events"].size() == 10);
  CHECK(j["events"][0]["kind"] == "slip+");
  CHECK(j["events"][0]["contact"] == "slot");
  CHECK(j["reference"]["matched"] == true);
  CHECK(j["reference"]["max_time_error"].get<double>() < 1e-6);
  CHECK(j["mode_mismatches"] == 0);
  const Run te = cli({"run", "belt", "--method", "event-driven", "--solver", "trial-and-error", "--json"});
  REQUIRE(te.code == 0);
  CHECK(nlohmann::json::parse(te.out)["reference"]["matched"] == true);
  const Run bad = cli({"run", "dupont", "--solver", "magic"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("trial-and-error") != std::string::npos);
  CHECK(cli({"run", "dupont", "--method", "penalti"}).code == 2);  // a misspelt route
}

TEST_CASE("stickslip verify prints the table and exits 0 when every check passes", "[cli][verify]") {
  const Run r = cli({"verify", "--case", "dupont", "--json"});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["failed"] == 0);
  REQUIRE(j["rows"].size() >= 5);  // event-driven (2 solvers), minimal form, Moreau-Jean
  std::set<std::string> methods;
  for (const auto& row : j["rows"]) {
    CHECK(row["pass"] == true);
    methods.insert(std::string(row["method"]));
    // Every row states its bound: tolerance > 0, or an exact count.
    const std::string check = row["check"];
    if (check == "count") {
      CHECK(double(row["tolerance"]) == 0.0);
      CHECK(double(row["error"]) == 0.0);
    } else {
      CHECK(check == "within");
      CHECK(double(row["tolerance"]) > 0.0);
      CHECK(double(row["error"]) == std::abs(double(row["obtained"]) - double(row["reference"])));
      CHECK(double(row["error"]) <= double(row["tolerance"]));
    }
  }
  CHECK(methods.count("minimal-form") == 1);
  CHECK(methods.count("moreau-jean h=1e-4") == 1);
  const Run human = cli({"verify", "--case", "incline"});
  CHECK(human.code == 0);
  CHECK(human.out.find("PASS") != std::string::npos);
  CHECK(human.out.find("check") != std::string::npos);
  CHECK(human.out.find("o==r") != std::string::npos);  // the mismatch count
  for (const char* name : {"blajer-1", "blajer-2"}) {
    INFO(name);
    const Run b = cli({"verify", "--case", name, "--json"});
    CHECK(b.code == 0);
    CHECK(nlohmann::json::parse(b.out)["rows"].size() >= 4);
  }
  // --case lists the new cases.
  const Run both = cli({"verify", "--case", "dupont", "--json", "--markdown"});
  CHECK(both.code == 2);
  CHECK(both.out.empty());
  CHECK(both.err.find("--json and --markdown: give one") != std::string::npos);
  const Run help = cli({"verify", "--help"});
  CHECK(help.out.find("blajer-2") != std::string::npos);
  CHECK(cli({"verify", "--case", "nothing"}).code == 2);
  CHECK(cli({"list"}).out.find("dupont") != std::string::npos);
}

TEST_CASE("stickslip bench eom and bench friction print the thesis' comparisons", "[cli][bench]") {
  for (const char* mechanism : {"spatial-slider-crank", "slider-crank"}) {
    const Run eom = cli({"bench", "eom", "--mechanism", mechanism, "--t-end", "0.2", "--json"});
    INFO(mechanism << ": " << eom.err);
    REQUIRE(eom.code == 0);
    const auto j = nlohmann::json::parse(eom.out);
    CHECK(j["mechanism"] == mechanism);
    REQUIRE(j["rows"].size() == 8);  // the eight methods of thesis §2.3
    for (const auto& row : j["rows"]) {
      CHECK(row["status"] == "success");
      CHECK(row["max_phi"].get<double>() < 1e-4);
    }
  }
  const Run unknown = cli({"bench", "eom", "--mechanism", "belt"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("spatial-slider-crank") != std::string::npos);
  const Run fr = cli({"bench", "friction", "--t-end", "0.5", "--json"});
  INFO(fr.err);
  REQUIRE(fr.code == 0);
  const auto f = nlohmann::json::parse(fr.out);
  CHECK(f["rows"].size() == 31);
  for (const auto& row : f["rows"]) CHECK(row["status"] == "ok");
  CHECK(cli({"bench", "eom", "--dt", "-1"}).code == 2);

  // --series-dt: each method's history, consistent with its row's extremes and final value.
  const Run series = cli({"bench", "eom", "--t-end", "0.2", "--series-dt", "0.05", "--json"});
  INFO(series.err);
  REQUIRE(series.code == 0);
  for (const auto& row : nlohmann::json::parse(series.out)["rows"]) {
    const auto& h = row["series"];
    REQUIRE(h["t"].size() == 5);  // 0, 0.05, …, 0.2
    CHECK(h["t"].back().get<double>() == Approx(0.2));
    CHECK(h["energy_change"].back().get<double>() == Approx(row["final_energy_change"].get<double>()));
    for (const auto& phi2 : h["phi2"])
      CHECK(phi2.get<double>() <= std::pow(row["max_phi"].get<double>(), 2) * (1 + 1e-12));
  }
  CHECK(cli({"bench", "eom", "--series-dt", "0.05"}).code == 2);  // the histories need --json
}

TEST_CASE("stickslip run journal-bearing: penalty route, JSON with modes and impacts, CSV",
          "[cli][run]") {
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_journal.csv";
  std::filesystem::remove(csv);
  const Run r = cli({"run", "journal-bearing", "--method", "penalty", "--t-end", "0.1", "--json",
                     "--out", csv.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["method"] == "penalty");
  CHECK(j["status"] == "ok");
  CHECK(j["steps"].get<long>() > 0);
  CHECK(j["cpu_seconds"].get<double>() >= 0.0);
  CHECK(j["final_q"].size() == 3);
  CHECK(j["final_v"].size() == 3);
  REQUIRE(j["impacts"].size() >= 2);
  CHECK(j["impacts"][0]["energy_ratio"].get<double>() == Approx(0.81).epsilon(0.05));
  CHECK(j["modes"][0]["mode"] == "free-flight");
  CHECK(j["modes"][1]["mode"] == "impact");
  CHECK(j["modes"][1]["approximate"] == true);
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  // Every route's columns (t, q, v, the contact's N, F), the penalty route's own, then v_t,
  // the eccentricity and the energy.
  CHECK(header.rfind("t,journal.x,journal.y,journal.theta,journal.vx,journal.vy,journal.omega,"
                     "journal-bearing.N,journal-bearing.F,journal.ax,", 0) == 0);
  std::vector<std::string> names;
  {
    std::stringstream in(header);
    for (std::string name; std::getline(in, name, ',');) names.push_back(name);
  }
  const auto at = [&](const std::string& name) {
    return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
  };
  REQUIRE(at("journal-bearing.e_y") < names.size());
  CHECK(names.back() == "energy");
  // The bearing is centred at the origin: the eccentricity is the journal's position, below
  // the centre once it has fallen.
  int rows = 0;
  for (std::string line; std::getline(f, line) && line[0] != '#'; ++rows) {
    std::vector<double> v;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');) v.push_back(std::stod(cell));
    REQUIRE(v.size() == names.size());
    CHECK(v[at("journal-bearing.e_x")] == Approx(v[1]).margin(1e-15));
    CHECK(v[at("journal-bearing.e_y")] == Approx(v[2]).margin(1e-15));
    if (v[0] > 0.01) CHECK(v[at("journal-bearing.e_y")] < 0.0);
  }
  CHECK(rows > 50);
  f.close();
  std::filesystem::remove(csv);
  // Table 5 has no friction: a law needs the contact's mu_s, mu_k.
  const Run none = cli({"run", "journal-bearing", "--friction", "brown-mcphee", "--t-end", "0.01"});
  CHECK(none.code == 2);
  CHECK(none.err.find("no set-valued friction") != std::string::npos);
  const Run rk = cli({"run", "journal-bearing", "--set", "parameters.mu_static=0.15", "--set", "parameters.mu_kinetic=0.1", "--friction", "brown-mcphee", "--integrator",
                      "rk4", "--t-end", "0.01", "--json"});
  REQUIRE(rk.code == 0);
  CHECK(nlohmann::json::parse(rk.out)["friction"] == "brown-mcphee");
  CHECK(cli({"run", "journal-bearing", "--integrator", "euler"}).code == 2);
}

TEST_CASE("stickslip run muvengei-lugre: the steady cycle against the ideal joint, JSON and CSV",
          "[cli][run]") {
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_muvengei.csv";
  std::filesystem::remove(csv);
  const Run r = cli({"run", "muvengei-lugre", "--json", "--out", csv.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "ok");
  CHECK(j["method"] == "penalty");
  CHECK(j["friction"] == "lugre-nondimensional");
  CHECK(j["cycle"]["contact_samples"].get<long>() > 0);  // the clearance joint
  const auto& cy = j["cycle"];
  CHECK(cy["t_begin"].get<double>() == Approx(0.024));
  CHECK(cy["t_end"].get<double>() == Approx(0.048));
  CHECK(cy["acceleration_ratio"].get<double>() > 1.5);
  CHECK(cy["max_position_deviation"].get<double>() < 0.6e-3);
  CHECK(cy["max_bristle_ratio"].get<double>() <= 1.0 + 1e-9);
  CHECK(cy["energy_residual"].get<double>() < 1e-5);
  CHECK(j["stribeck_velocity"].get<double>() == Approx(0.0139626).epsilon(1e-5));
  std::ifstream f(csv);
  std::string header;
  std::getline(f, header);
  CHECK(header.rfind("t,crank.x,", 0) == 0);
  for (const char* column : {",c-cr.N,c-cr.F,", ",slider.ax,", ",driver.lambda,", ",c-cr.z,", ",c-cr.v_t,c-cr.e_x,c-cr.e_y,"})
    CHECK(header.find(column) != std::string::npos);
  long lines = 0;
  for (std::string line; std::getline(f, line);) ++lines;
  CHECK(lines == 48001);  // every microsecond over two revolutions
  f.close();
  std::filesystem::remove(csv);
  const Run ideal = cli({"run", "muvengei-lugre", "--ideal", "--json"});
  REQUIRE(ideal.code == 0);
  const auto ji = nlohmann::json::parse(ideal.out);
  CHECK(ji["cycle"]["contact_samples"] == 0);  // the ideal joint: no contact
  CHECK(ji["cycle"]["acceleration_ratio"].get<double>() == Approx(1.0).epsilon(1e-6));
  CHECK(cli({"list"}).out.find("muvengei-lugre") != std::string::npos);
  CHECK(cli({"run", "muvengei-lugre", "--ideal", "--friction", "coulomb"}).code == 2);
  CHECK(cli({"run", "muvengei-lugre", "--method", "minimal-form"}).code == 2);
  CHECK(cli({"run", "muvengei-lugre", "--friction", "magic"}).code == 2);
}

TEST_CASE("every built-in rigid scenario runs with both nonsmooth methods", "[cli][run]") {
  for (const char* scenario : {"belt", "dupont", "incline", "ball", "flores-translational", "journal-bearing-rigid"})
    for (const char* method : {"event-driven", "moreau-jean"}) {
      const Run r = cli({"run", scenario, "--method", method, "--json"});
      INFO(scenario << " " << method << ": " << r.err);
      REQUIRE(r.code == 0);
      const auto j = nlohmann::json::parse(r.out);
      CHECK(j["status"] == "ok");
      CHECK(!j["events"].empty());
    }
}

TEST_CASE("stickslip run journal-bearing: the integrator follows the law — a BDF failure is redone with RK4, and says so",
          "[cli][run]") {
  const std::vector<std::string> table3{"run", "journal-bearing", "--set", "parameters.mu_static=0.15",
                                        "--set", "parameters.mu_kinetic=0.1", "--t-end", "0.05", "--json"};
  const auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = table3;
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(args);
  };
  // Coulomb's jump at v_t = 0 defeats BDF's error control: RK4 from the start.
  const Run r = with({"--friction", "coulomb"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["integrator"] == "rk4");
  CHECK(!j.contains("bdf_failure"));
  const Run smooth = with({"--friction", "brown-mcphee"});
  REQUIRE(smooth.code == 0);
  CHECK(nlohmann::json::parse(smooth.out)["integrator"] == "bdf");
  // GMS' elements jump into their slip band, which stalls BDF (h -> hmin at the first impact):
  // RK4 from the start, whose run then fails the passive journal's energy guard.
  const Run gms = with({"--friction", "gms"});
  CHECK(gms.code == 1);
  const auto g = nlohmann::json::parse(gms.out);
  CHECK(g["integrator"] == "rk4");
  CHECK(!g.contains("bdf_failure"));
  CHECK(g["status"] == "energy-increase");
  // A chosen integrator is kept: its failure is the answer.
  const Run chosen = with({"--friction", "coulomb", "--integrator", "bdf"});
  CHECK(chosen.code == 1);
  CHECK(chosen.err.find("integrator-failure") != std::string::npos);
}

TEST_CASE("stickslip run --output-dt samples the nonsmooth histories", "[cli][run]") {
  const std::filesystem::path csv =
      std::filesystem::temp_directory_path() / "stickslip_cli_output_dt.csv";
  std::filesystem::remove(csv);
  auto rows = [&csv]() {
    std::ifstream f(csv);
    std::string line;
    long n = -1;  // the header
    while (std::getline(f, line)) n += line.rfind('#', 0) != 0;
    return n;
  };
  // Moreau–Jean, 0: every step (t = 0 and 100 steps of 1e-5 s).
  REQUIRE(cli({"run", "flores-translational", "--method", "moreau-jean", "--t-end", "1e-3",
               "--output-dt", "0", "--out", csv.string()})
              .code == 0);
  CHECK(rows() == 101);
  REQUIRE(cli({"run", "flores-translational", "--method", "moreau-jean", "--t-end", "1e-3",
               "--output-dt", "1e-4", "--out", csv.string(), "--force"})
              .code == 0);
  CHECK(rows() == 11);
  std::filesystem::remove(csv);
  // Event-driven samples between events: 0 is refused, naming the option.
  const Run zero = cli({"run", "belt", "--method", "event-driven", "--output-dt", "0"});
  CHECK(zero.code == 2);
  CHECK(zero.err.find("--output-dt") != std::string::npos);
  CHECK(cli({"run", "belt", "--method", "moreau-jean", "--output-dt", "-1"}).code == 2);
}

TEST_CASE("stickslip run zheng-equilibrium: dry Coulomb holds the crank — --friction picks the law",
          "[cli][run]") {
  const Run held = cli({"run", "zheng-equilibrium", "--json"});
  INFO(held.err);
  REQUIRE(held.code == 0);
  const auto j = nlohmann::json::parse(held.out);
  CHECK(j["status"] == "ok");
  CHECK(j["events"].empty());  // stuck from the start to the end
  const double theta1 = j["final_q"][2];
  CHECK(std::abs(theta1 - (3.141592653589793 - 0.01)) < 1e-9);
  CHECK(j["held"] == true);  // the verdict a sweep over mu_s reads
  CHECK(double(j["theta1_drift"]) < 1e-9);  // [rad], as stickslip verify --case zheng

  const Run fallen = cli({"run", "zheng-equilibrium", "--friction", "none", "--t-end", "1.5", "--json"});
  REQUIRE(fallen.code == 0);
  const auto f = nlohmann::json::parse(fallen.out);
  CHECK(std::abs(double(f["final_q"][2]) - theta1) > 1.0);
  CHECK(f["held"] == false);
  CHECK(double(f["theta1_drift"]) > 1.0);
  CHECK(cli({"run", "zheng-equilibrium", "--t-end", "0.1"}).out.find("crank       held, max |theta1 - theta1(0)| = ") !=
        std::string::npos);

  const Run wrong = cli({"run", "zheng-equilibrium", "--friction", "lugre"});
  CHECK(wrong.code == 2);
  CHECK(wrong.err.find("coulomb") != std::string::npos);
  CHECK(cli({"run", "belt", "--method", "event-driven", "--friction", "lugre"}).code == 2);
}

TEST_CASE("stickslip run flores-translational --method penalty: compliant corners", "[cli][run]") {
  const Run r = cli({"run", "flores-translational", "--method", "penalty", "--t-end", "0.02", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["status"] == "ok");
  CHECK(j["friction"] == "tanh");
  // The route's one schema: the corners' closings and openings as events.
  REQUIRE(!j["events"].empty());
  CHECK(j["events"][0]["kind"] == "close");
  CHECK(double(j["events"][0]["t"]) == Approx(0.00269).margin(1e-5));
  CHECK(j["final_q"].size() == 9);
  CHECK(double(j["t"]) == Approx(0.02));
  CHECK(cli({"run", "flores-translational", "--method", "penalty", "--friction", "nope"}).code == 2);
  // A law asked for where nothing has friction to replace is refused, not ignored.
  const Run nothing = cli({"run", "zheng-torque", "--method", "penalty", "--ideal", "--friction", "lugre"});
  CHECK(nothing.code == 2);
  CHECK(nothing.err.find("no set-valued friction for lugre to replace") != std::string::npos);
  CHECK(cli({"run", "zheng-torque", "--method", "penalty", "--ideal", "--t-end", "0.01"}).code == 0);
  CHECK(cli({"list"}).out.find("event-driven, moreau-jean, penalty") != std::string::npos);
}

TEST_CASE("stickslip run zheng-torque: the paper's friction cases and the ideal joint", "[cli][run]") {
  auto theta1 = [](const Run& r) { return double(nlohmann::json::parse(r.out)["final_q"][2]); };
  const Run stiction = cli({"run", "zheng-torque", "--t-end", "1", "--json"});
  const Run equal = cli({"run", "zheng-torque", "--friction", "coulomb", "--t-end", "1", "--json"});
  const Run modified = cli({"run", "zheng-torque", "--friction", "ambrosio", "--t-end", "1", "--json"});
  const Run ideal = cli({"run", "zheng-torque", "--ideal", "--t-end", "1", "--json"});
  for (const Run* r : {&stiction, &equal, &modified, &ideal}) REQUIRE(r->code == 0);
  CHECK(!nlohmann::json::parse(stiction.out)["events"].empty());  // dry Coulomb sticks
  CHECK(nlohmann::json::parse(modified.out)["events"].empty());   // regularized: no modes
  CHECK(theta1(stiction) != theta1(equal));                        // μs matters
  CHECK(std::abs(theta1(ideal) - theta1(stiction)) > 1e-3);        // friction changes the motion
  CHECK(cli({"run", "belt", "--method", "event-driven", "--ideal"}).code == 2);
  // A choice of friction is values of the model's parameters: the same runs as --set.
  const Run set_equal = cli({"run", "zheng-torque", "--set", "parameters.mu_static=0.1", "--t-end", "1", "--json"});
  const Run set_modified =
      cli({"run", "zheng-torque", "--set", "parameters.modified_coulomb=true", "--t-end", "1", "--json"});
  CHECK(theta1(set_equal) == theta1(equal));
  CHECK(theta1(set_modified) == theta1(modified));
  // Moreau–Jean's projection is the user's: none lets the rigid journal sink into its bearing.
  const Run bogus = cli({"run", "zheng-torque", "--method", "moreau-jean", "--projection", "contact"});
  CHECK(bogus.code == 2);
  CHECK(bogus.err.find("--projection: expected contacts, positions or none") != std::string::npos);
  const Run unprojected = cli({"run", "zheng-torque", "--method", "moreau-jean", "--set", "run.projection=none",
                               "--t-end", "0.5", "--json"});
  const Run projected = cli({"run", "zheng-torque", "--method", "moreau-jean", "--t-end", "0.5", "--json"});
  REQUIRE(unprojected.code == 0);
  REQUIRE(projected.code == 0);
  CHECK(theta1(unprojected) != theta1(projected));
  const Run unknown = cli({"run", "zheng-torque", "--friction", "coulomb-stribeck"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("expected one of coulomb-stiction") != std::string::npos);
}

TEST_CASE("a failed penalty run keeps its CSV and marks it incomplete, exit code 1", "[cli][run]") {
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_dahl_journal.csv";
  std::filesystem::remove(csv);
  const Run r = cli({"run", "journal-bearing", "--set", "parameters.mu_static=0.15", "--set", "parameters.mu_kinetic=0.1", "--friction", "dahl", "--output-dt", "1e-4", "--out", csv.string()});
  CHECK(r.code == 1);
  CHECK(r.err.find("energy rose") != std::string::npos);
  std::ifstream in(csv);
  std::string line, last;
  int rows = 0;
  while (std::getline(in, line)) {
    last = line;
    ++rows;
  }
  CHECK(rows > 10);  // the samples up to the failure
  CHECK(last.rfind("# incomplete: ", 0) == 0);
  std::filesystem::remove(csv);
}

TEST_CASE("failed nonsmooth runs keep their CSV, marked incomplete with the reason, exit code 1",
          "[cli][run][guards]") {
  // Event-driven: a CVODE tolerance below round-off (CV_TOO_MUCH_ACC), and its step budget
  // spent at 8 s. A Moreau-Jean step that would take more than --max-steps is refused before
  // the run, and writes nothing.
  const auto csv = std::filesystem::temp_directory_path() / "stickslip_cli_failed_nonsmooth.csv";
  struct Case {
    std::vector<std::string> args;
    const char* reason;
  };
  const Case cases[] = {
      {{"--method", "event-driven", "--tolerance", "1e-30"}, "CV_TOO_MUCH_ACC"},
      {{"--method", "event-driven", "--max-steps", "50"}, "max_total_steps"},
  };
  for (const Case& c : cases) {
    std::filesystem::remove(csv);
    std::vector<std::string> args{"run", "belt", "--out", csv.string()};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const Run r = cli(args);
    INFO(c.args[1] << ": " << r.err);
    CHECK(r.code == 1);
    CHECK_THAT(r.err, Catch::Contains("stickslip run: ") && Catch::Contains(c.reason));
    std::ifstream in(csv);
    std::string line, last;
    while (std::getline(in, line)) last = line;
    CHECK(last.rfind("# incomplete: ", 0) == 0);
    CHECK_THAT(last, Catch::Contains(c.reason));
  }
  std::filesystem::remove(csv);
  const Run refused = cli({"run", "belt", "--out", csv.string(), "--method", "moreau-jean", "--dt", "1e-10"});
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("needs 2e+11 steps, more than --max-steps 1e+08"));
  CHECK(!std::filesystem::exists(csv));
}

TEST_CASE("stickslip run zheng-torque: event-driven, penalty and Moreau-Jean end at the same crank angle",
          "[cli][run][zheng]") {
  // 0.5 s of Example I. The penalty route's default is Zheng's modified Coulomb (ambrosio),
  // run here against event-driven with the same law; Moreau-Jean takes the rigid clearance
  // joint with dry Coulomb, against event-driven with the compliant one.
  auto theta = [](const Run& r, const char* key) {
    const auto j = nlohmann::json::parse(r.out);
    return j[key][2].get<double>();
  };
  const Run ed = cli({"run", "zheng-torque", "--method", "event-driven", "--friction", "ambrosio", "--t-end", "0.5", "--json"});
  const Run pe = cli({"run", "zheng-torque", "--method", "penalty", "--t-end", "0.5", "--json"});
  const Run ed_dry = cli({"run", "zheng-torque", "--method", "event-driven", "--t-end", "0.5", "--json"});
  const Run mj = cli({"run", "zheng-torque", "--method", "moreau-jean", "--t-end", "0.5", "--json"});
  for (const Run* r : {&ed, &pe, &ed_dry, &mj}) {
    INFO(r->err);
    REQUIRE(r->code == 0);
  }
  const auto pj = nlohmann::json::parse(pe.out);
  CHECK(pj["friction"] == "ambrosio");
  CHECK(pj["integrator"] == "bdf");
  CHECK(pj["status"] == "ok");
  CHECK(theta(pe, "final_q") == Approx(theta(ed, "final_q")).margin(1e-6));
  CHECK(theta(mj, "final_q") == Approx(theta(ed_dry, "final_q")).margin(1e-2));
  // The modified Coulomb law needs the compliant joint.
  const Run bad = cli({"run", "zheng-torque", "--method", "moreau-jean", "--friction", "ambrosio"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("is compliant, its friction the regularized law 'ambrosio'") !=
        std::string::npos);
  CHECK(bad.err.find("set-valued friction only") != std::string::npos);
}

TEST_CASE("hostile values stop with an error or an answer, never a crash or a hang", "[cli]") {
  // Gravity pointing away from the slope: no reactions with N ≥ 0 balance it, so it cannot hold.
  const Run up = cli({"hold", "incline", "--set", "parameters.gravity=-1"});
  CHECK(up.code == 1);
  CHECK(up.out.find("BREAKS AWAY") != std::string::npos);
  CHECK(up.out.find("short       block-slope lifts off, block-slope slips\n") != std::string::npos);  // each once
  CHECK(up.out.find("nan") == std::string::npos);  // no reactions: "-", not nan
  // A belt cycle far shorter than t can resolve: its closed form is not listed (the run, at
  // Moreau–Jean's step, fails on its own).
  const Run tiny = cli({"run", "belt", "--method", "moreau-jean", "--set", "parameters.mass=1e-100",
                        "--t-end", "0.01"});
  CHECK(tiny.code == 1);
  CHECK(tiny.out.find("analysis    not available: the belt's stick-slip period 4.44e-50 s gives more than 1e6 "
                      "cycles") != std::string::npos);
  // A sparse header whose entry count overflows the reader's arithmetic.
  const TempFile nnz(
      "nnz.dat",
      "2 2 2 2 0\nCSparse Version 3.1.9\ntriplet: 2-by-2, nzmax: 2 nnz: 4000000000000000000,\n"
      "0 0 : 1\n1 1 : 1\n1 1\n");
  const Run count = cli({"lcp", nnz.path.string()});
  CHECK(count.code == 2);
  CHECK(count.err.find("is not a count of entries") != std::string::npos);
}
