// stickslip sweep and merge, driven as a user would: the executable as a child process, its
// exit code, stdout, stderr and files. Zheng's Example III is the grid: the crank released at
// pi - 0.01 holds when mu_s exceeds F/N there (~0.113) and slips below.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "cli/cli_run.hpp"
#include "cli/compare_plots.hpp"
#include "cli/progress.hpp"
#include "cli/sweep_table.hpp"

namespace fs = std::filesystem;

namespace {

/// 4 points of mu_s across the threshold, mu_k below them all, 0.1 s: slipping starts at
/// ~0.06 s, so the crank has visibly moved by the end where it does not hold.
std::vector<std::string> zhengSweep(const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> a{"sweep", "zheng-equilibrium", "--param", "parameters.mu_static=0.1:0.13:4",
                             "--set", "parameters.mu_kinetic=0.05", "--set", "run.t_end=0.1",
                             "--jobs", "2", "--out", out};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

/// Exit code 2 before anything ran: one line on stderr containing `expected`, no table.
void requireInputError(const Run& r, const std::string& expected, const std::string& table) {
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  CHECK(r.err.find(expected) != std::string::npos);
  CHECK_FALSE(fs::exists(table));
}

}  // namespace

TEST_CASE("sweep grids: A:B:N, lists, row-major order, round-trip values", "[cli][sweep]") {
  using stickslip::cli::Grid;
  using stickslip::cli::parseGridParameter;
  const auto p = parseGridParameter("parameters.mu_static=0.1:0.13:4");
  CHECK(p.key == "parameters.mu_static");
  REQUIRE(p.values.size() == 4);
  CHECK(p.values.front() == "0.1");
  CHECK(p.values.back() == "0.13");  // the ends exactly as written
  for (const auto& v : p.values) CHECK(stickslip::cli::roundTrip(std::stod(v)) == v);
  CHECK(parseGridParameter("k=2:5:1").values == std::vector<std::string>{"2"});
  // Ends whose difference overflows: the points between them are still finite.
  CHECK(parseGridParameter("k=1e308:-1e308:3").values == std::vector<std::string>{"1e+308", "0", "-1e+308"});
  CHECK(parseGridParameter("run.method=event-driven, moreau-jean").values ==
        std::vector<std::string>{"event-driven", "moreau-jean"});
  const Grid g({parseGridParameter("a=0:1:2"), parseGridParameter("b=x,y,z")});
  REQUIRE(g.size() == 6);
  CHECK(g.point(0) == std::vector<std::string>{"0", "x"});
  CHECK(g.point(2) == std::vector<std::string>{"0", "z"});  // the last --param varies fastest
  CHECK(g.point(3) == std::vector<std::string>{"1", "x"});
  const stickslip::cli::Shard s = stickslip::cli::parseShard("2/3");
  CHECK((s.contains(1) && s.contains(4) && !s.contains(0) && !s.contains(2)));
}

TEST_CASE("sweep: bad --param, --shard, --jobs and keys are input errors before any run", "[cli][sweep]") {
  const ScratchDir dir("sweep_errors");
  const std::string t = dir / "t.csv";
  const auto sweep = [&](std::vector<std::string> extra) {
    std::vector<std::string> a{"sweep", "zheng-equilibrium", "--out", t};
    a.insert(a.end(), extra.begin(), extra.end());
    return cli(a);  // in-process: these stop before the first child is started
  };
  requireInputError(sweep({"--param", "mu_static"}), "expected KEY=A:B:N", t);
  requireInputError(sweep({"--param", "k=0.1:0.2"}), "expected A:B:N (three fields), got 2", t);
  // What --plot could not draw is refused before the points run.
  if (stickslip::cli::gnuplotAvailable()) {
    requireInputError(sweep({"--param", "run.method=event-driven,moreau-jean", "--show", "energy_final", "--plot"}),
                      "--plot: draws against a numeric --param; run.method takes 'event-driven'", t);
    requireInputError(sweep({"--param", "parameters.mu_static=0.2,0.3", "--plot"}),
                      "--plot: name the figures to draw with --show", t);
  }
  requireInputError(sweep({"--param", "k=0.1:0.2:0"}), "N must be at least 1", t);
  // Found by hand with the fuzzed options: 1e12 values were written out before the grid's limit.
  requireInputError(sweep({"--param", "k=1:2:1000000000000"}), "N must be at most 10000000, got 1000000000000", t);
  requireInputError(sweep({"--param", "k=0.1:0.2:2.5"}), "N must be a whole number, got '2.5'", t);
  requireInputError(sweep({"--param", "k=0.1:nan:3"}), "'nan' is not a finite number", t);
  requireInputError(sweep({"--param", "k=1,,2"}), "empty value in the list", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--param", "k=4:5:2"}), "--param k: given twice", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--set", "k=3"}), "k is also a --param", t);
  requireInputError(sweep({"--param", "run.out=a.csv,b.csv"}), "not available in a sweep", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--shard", "3/2"}), "expected 1 <= i <= N, got i = 3, N = 2", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--shard", "0/2"}), "expected 1 <= i <= N", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--shard", "two"}), "expected i/N", t);
  requireInputError(sweep({"--param", "k=1:2:3", "--jobs", "0"}), "--jobs: expected at least 1", t);
  {
    INFO("--plot's script and figures beside --out are the user's until --force");
    const std::string script = dir.write("t.gp", "mine");
    requireInputError(
        sweep({"--param", "parameters.mu_static=0.1,0.2", "--plot", "--show", "energy_final"}),
        "--plot " + script + ": file exists; pass --force", t);
    CHECK(slurp(script) == "mine");
    fs::remove(script);
  }
  {
    INFO("an empty --out");
    const Run r = cli({"sweep", "zheng-equilibrium", "--param", "k=1:2:3", "--out", ""});
    CHECK(r.code == 2);
    CHECK(r.err.find("--out: expected a file name, got ''") != std::string::npos);
  }
  {
    INFO("no --param at all");
    const Run r = sweep({});
    CHECK(r.code == 2);
    CHECK(r.err.find("param") != std::string::npos);
  }
}

TEST_CASE("sweep: a mistyped key stops at the first point with exit 2 and the run's message", "[cli][sweep]") {
  const ScratchDir dir("sweep_first-point");
  const std::string t = dir / "t.csv";
  const Run r = process({"sweep", "zheng-equilibrium", "--param", "parameters.mu_statik=0.1:0.2:3", "--out", t}, dir.path);
  requireInputError(r, "point 0 (parameters.mu_statik=0.1)", t);
  CHECK(r.err.find("did you mean 'mu_static'") != std::string::npos);
}

TEST_CASE("sweep over mu_s on zheng-equilibrium: the crank holds from mu_s ~ 0.113 on", "[cli][sweep]") {
  const ScratchDir dir("sweep_threshold");
  const std::string t = dir / "t.csv";
  const Run r = process(zhengSweep(t), dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const stickslip::cli::SweepTable table = stickslip::cli::SweepTable::read(t);
  REQUIRE(table.rows.size() == 4);
  const std::vector<std::string> mu{"0.1", "0.11", "0.12", "0.13"}, held{"false", "false", "true", "true"};
  for (std::size_t k = 0; k < 4; ++k) {
    INFO(k);
    CHECK(table.rows[k].index == k);
    CHECK(table.rows[k].grid_size == 4);
    CHECK(table.rows[k].values == std::vector<std::string>{mu[k]});
    CHECK(table.rows[k].outcome == "ok");
    CHECK(table.rows[k].exit_code == "0");
    CHECK(table.rows[k].figures.at("held") == held[k]);
    const double drift = std::stod(table.rows[k].figures.at("theta1_drift"));
    CHECK((held[k] == "true" ? drift < 1e-9 : drift > 1e-3));  // [rad]; slipping ~2.7e-3 at 0.1 s
  }
  CHECK(std::find(table.figures.begin(), table.figures.end(), "cpu_seconds") == table.figures.end());
  CHECK(r.out.find("held changes from false to true between parameters.mu_static = 0.11 and 0.12") != std::string::npos);
  CHECK(r.err.empty());  // not a terminal: no progress bar

  SECTION("--shard 1/2 and 2/2, merged, equal the unsharded table byte for byte") {
    const Run a = process(zhengSweep(dir / "part-1.csv", {"--shard", "1/2"}), dir.path);
    const Run b = process(zhengSweep(dir / "part-2.csv", {"--shard", "2/2"}), dir.path);
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    CHECK(stickslip::cli::SweepTable::read(dir / "part-1.csv").rows.size() == 2);
    const Run m = process({"merge", dir / "merged.csv", dir / "part-2.csv", dir / "part-1.csv"}, dir.path);
    INFO(m.err);
    REQUIRE(m.code == 0);
    CHECK(slurp(dir / "merged.csv") == slurp(t));

    INFO("merge refuses overlapping shards, a missing shard and an existing OUT");
    const Run twice = process({"merge", dir / "m2.csv", dir / "part-1.csv", dir / "part-2.csv", dir / "part-1.csv"}, dir.path);
    CHECK(twice.code == 2);
    CHECK(twice.err.find("point 0 is also in") != std::string::npos);
    const Run half = process({"merge", dir / "m2.csv", dir / "part-1.csv"}, dir.path);
    CHECK(half.code == 2);
    CHECK(half.err.find("missing 2: 1, 3") != std::string::npos);
    const Run exists = process({"merge", dir / "merged.csv", dir / "part-1.csv", dir / "part-2.csv"}, dir.path);
    CHECK(exists.code == 2);
    CHECK(exists.err.find("file exists; pass --force") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "m2.csv"));

    INFO("nor a shard of another sweep on the same grid (here with one more --set)");
    const Run c = process(
        zhengSweep(dir / "other-2.csv", {"--shard", "2/2", "--set", "run.output_dt=0.05"}), dir.path);
    REQUIRE(c.code == 0);
    const Run mixed =
        process({"merge", dir / "m2.csv", dir / "part-1.csv", dir / "other-2.csv"}, dir.path);
    CHECK(mixed.code == 2);
    CHECK(mixed.err.find("not shards of one sweep") != std::string::npos);
  }
  SECTION("--jobs 1 writes the same table byte for byte as --jobs 2") {
    std::vector<std::string> args = zhengSweep(dir / "serial.csv");
    *(std::find(args.begin(), args.end(), "--jobs") + 1) = "1";
    const Run serial = process(args, dir.path);
    INFO(serial.err);
    REQUIRE(serial.code == 0);
    CHECK(slurp(dir / "serial.csv") == slurp(t));
  }
  SECTION("--out is not overwritten without --force") {
    const std::string before = slurp(t);
    std::ofstream(t, std::ios::app) << "# the user's note\n";
    const Run again = process(zhengSweep(t), dir.path);
    CHECK(again.code == 2);
    CHECK(again.err.find("file exists; pass --force to overwrite it") != std::string::npos);
    CHECK(slurp(t) == before + "# the user's note\n");
    const Run forced = process(zhengSweep(t, {"--force"}), dir.path);
    CHECK(forced.code == 0);
    CHECK(slurp(t) == before);
    for (const auto& e : fs::directory_iterator(dir.path)) CHECK(e.path().filename().string().find(".tmp-") == std::string::npos);
  }
}

TEST_CASE("sweep: failing points are recorded and the sweep goes on", "[cli][sweep]") {
  const ScratchDir dir("sweep_failures");
  const std::string t = dir / "t.csv";
  SECTION("a run that fails (CVODE refuses a relative tolerance of 1e-300): exit 1") {
    const Run r = process({"sweep", "belt", "--param", "run.tolerance=1e-300,1e-10", "--set", "run.method=event-driven",
                           "--set", "run.t_end=1", "--out", t},
                          dir.path);
    INFO(r.out << r.err);
    CHECK(r.code == 1);
    const auto table = stickslip::cli::SweepTable::read(t);
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[0].outcome == "failed");
    CHECK(table.rows[0].exit_code == "1");
    CHECK(table.rows[0].error.find("too much accuracy") != std::string::npos);
    CHECK(table.rows[0].figures.at("status") == "integrator-failure");  // the run's JSON is kept
    CHECK(table.rows[1].outcome == "ok");
    CHECK(r.err.find("1 of 2 points failed; first: point 0, failed") != std::string::npos);
  }
  SECTION("a later point with a value its run rejects: recorded as bad-input, exit 2") {
    const Run r = process({"sweep", "belt", "--param", "run.t_end=1,-1", "--set", "run.method=event-driven", "--out", t},
                          dir.path);
    INFO(r.out << r.err);
    CHECK(r.code == 2);
    const auto table = stickslip::cli::SweepTable::read(t);
    REQUIRE(table.rows.size() == 2);
    CHECK(table.rows[0].outcome == "ok");
    CHECK(table.rows[1].outcome == "bad-input");
    CHECK(table.rows[1].error.find("got -1") != std::string::npos);  // the run's message
  }
}

TEST_CASE("merge: tables of different sweeps and foreign files are refused", "[cli][sweep]") {
  const ScratchDir dir("sweep_foreign");
  std::ofstream(dir / "a.csv")
      << "index,grid_size,sweep,k,exit_code,outcome,error,x\n0,2,s,1,0,ok,,3\n";
  std::ofstream(dir / "b.csv")
      << "index,grid_size,sweep,j,exit_code,outcome,error,x\n1,2,s,2,0,ok,,4\n";
  std::ofstream(dir / "c.csv") << "t,x\n0,1\n";
  std::ofstream(dir / "d.csv")
      << "index,grid_size,sweep,k,exit_code,outcome,error,y\n1,2,s,2,0,ok,,\"a, \"\"b\"\"\"\n";
  const Run diff = cli({"merge", dir / "m.csv", dir / "a.csv", dir / "b.csv"});
  CHECK(diff.code == 2);
  CHECK(diff.err.find("not shards of one sweep") != std::string::npos);
  // The same keys and grid, but another sweep (another range, scenario, --set or command).
  std::ofstream(dir / "e.csv")
      << "index,grid_size,sweep,k,exit_code,outcome,error,x\n1,2,t,2,0,ok,,4\n";
  const Run other = cli({"merge", dir / "m.csv", dir / "a.csv", dir / "e.csv"});
  CHECK(other.code == 2);
  CHECK(other.err.find("sweep 't' differs from " + (dir / "a.csv") + "'s 's'") !=
        std::string::npos);
  std::ofstream(dir / "f.csv")
      << "index,grid_size,sweep,k,exit_code,outcome,error,x\n0,2,s,1,0,ok,,3\n1,2,t,2,0,ok,,4\n";
  const Run mixed = cli({"merge", dir / "m.csv", dir / "f.csv"});
  CHECK(mixed.code == 2);
  CHECK(mixed.err.find("f.csv:3: sweep 't' differs from the first row's 's'") != std::string::npos);
  const Run foreign = cli({"merge", dir / "m.csv", dir / "c.csv"});
  CHECK(foreign.code == 2);
  CHECK(foreign.err.find("c.csv:1: not a stickslip sweep table") != std::string::npos);
  // A directory as a shard, an empty OUT, a device as OUT (never replaced), OUT as a shard.
  const Run folder = cli({"merge", dir / "m.csv", dir.path.string()});
  CHECK(folder.code == 2);
  CHECK(folder.err.find("is a directory, not a table") != std::string::npos);
  const Run empty = cli({"merge", "", dir / "a.csv"});
  CHECK(empty.code == 2);
  CHECK(empty.err.find("OUT: expected a file name, got ''") != std::string::npos);
  const Run device = cli({"merge", "/dev/null", dir / "a.csv", "--force"});
  CHECK(device.code == 2);
  CHECK(device.err.find("/dev/null: is not a regular file") != std::string::npos);
  CHECK(fs::is_character_file("/dev/null"));
  const Run itself = cli({"merge", (dir.path / "." / "a.csv").string(), dir / "a.csv", "--force"});
  CHECK(itself.code == 2);
  CHECK(itself.err.find("is both OUT and a shard") != std::string::npos);
  // A table that cannot be written (here its temporary file's name is taken by a directory)
  // is an error naming it, not an abort.
  fs::create_directory(dir / ("w.csv.tmp-" + std::to_string(::getpid())));
  const Run unwritable = cli({"merge", dir / "w.csv", dir / "d.csv", dir / "a.csv"});
  CHECK(unwritable.code == 2);
  CHECK(unwritable.err.find("cannot write " + (dir / "w.csv") + ".tmp-") != std::string::npos);
  CHECK(!fs::exists(dir / "w.csv"));
  INFO("figures are united; a quoted cell survives");
  const Run ok = cli({"merge", dir / "m.csv", dir / "d.csv", dir / "a.csv"});
  INFO(ok.err);
  REQUIRE(ok.code == 0);
  CHECK(slurp(dir / "m.csv") ==
        "index,grid_size,sweep,k,exit_code,outcome,error,x,y\n0,2,s,1,0,ok,,3,\n1,2,s,2,0,ok,,,\"a,"
        " \"\"b\"\"\"\n");
}

TEST_CASE("progress bar: nothing before the delay, throttled, erased at the end", "[cli][progress]") {
  using namespace std::chrono_literals;
  std::ostringstream quick;
  {
    stickslip::cli::ProgressBar bar("sweep", quick, 1h, 0s);
    bar.update(0.5, "1/2 points");
  }
  CHECK(quick.str().empty());
  std::ostringstream slow;
  {
    stickslip::cli::ProgressBar bar("sweep", slow, 0s, 1h);
    bar.update(0.5, "1/2 points");
    bar.update(0.75, "3/4 points");  // within the interval: not drawn
    CHECK(slow.str().find("50%  1/2 points") != std::string::npos);
    CHECK(slow.str().find("75%") == std::string::npos);
  }
  const std::string s = slow.str();
  CHECK(s.back() == '\r');  // erased: blanks over the line, then back to its start
  const std::string erase = s.substr(s.rfind('\r', s.size() - 2));  // the last write
  CHECK(erase.find_first_not_of(" \r") == std::string::npos);
  CHECK(erase.size() >= s.find("points") + 6);  // as wide as the bar was
  stickslip::cli::ProgressBar not_a_terminal("run");
  CHECK(not_a_terminal.enabled() == bool(isatty(STDERR_FILENO)));  // off in a pipe or a file
}

TEST_CASE("sweep: stopped by SIGTERM, it ends its runs and leaves no table", "[cli][sweep]") {
  // Slipping points of 4 s each (~1.3 s of CPU apiece): the first point runs alone, then the
  // others. The signal comes early in the first and near its end; each time the sweep dies of
  // it (a signal between the two batches was once forgotten).
  for (const int delay_ms : {300, 1000}) {
    CAPTURE(delay_ms);
    const ScratchDir dir("sweep_stopped");
    const std::string t = dir / "t.csv";
    std::vector<std::string> args{STICKSLIP_EXECUTABLE, "sweep", "zheng-equilibrium", "--param",
                                  "parameters.mu_static=0.1:0.11:4", "--set", "parameters.mu_kinetic=0.05",
                                  "--set", "run.t_end=4", "--jobs", "2", "--out", t};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    kill(pid, SIGTERM);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGTERM);
    CHECK(fs::is_empty(dir.path));  // neither the table nor its temporary file
  }
}

TEST_CASE("sweep --command hold: the critical mu_s of zheng-equilibrium along the crank angle, plotted",
          "[cli][sweep][hold]") {
  const ScratchDir dir("sweep_hold");
  const std::string t = dir / "hold.csv";
  // π − 0.01 (Example III, critical μs 0.113354), the dead centre π (none needed) and π + 0.04.
  std::vector<std::string> args{"sweep", "zheng-equilibrium", "--command", "hold", "--param",
                                "parameters.theta1=3.1315926535897933,3.141592653589793,3.1815926535897933",
                                "--jobs", "2", "--out", t};
  const bool plot = stickslip::cli::gnuplotAvailable();
  if (plot) args.push_back("--plot");
  const Run r = process(args, dir.path);
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);  // "breaks away" (exit 1) is an outcome, not a failed point
  const stickslip::cli::SweepTable table = stickslip::cli::SweepTable::read(t);
  REQUIRE(table.rows.size() == 3);
  const std::vector<std::string> holds{"true", "true", "false"};
  for (std::size_t k = 0; k < 3; ++k) {
    INFO(k);
    CHECK(table.rows[k].outcome == "ok");
    CHECK(table.rows[k].figures.at("holds") == holds[k]);
  }
  CHECK(std::stod(table.rows[0].figures.at("critical_mu_s.clearance-A")) == Approx(0.113354).margin(1e-5));
  CHECK(std::stod(table.rows[1].figures.at("critical_mu_s.clearance-A")) < 1e-9);
  CHECK(std::stod(table.rows[2].figures.at("critical_mu_s.clearance-A")) > 0.2);
  CHECK(table.rows[2].exit_code == "1");
  if (plot) {
    for (const char* f : {"hold.gp", "hold.png", "hold.svg"}) CHECK(fs::file_size(dir / f) > 0);
    // Column 4 is the parameter (after index, grid_size, sweep), and the one drawn is the figure.
    const auto& f = table.figures;
    const auto at = std::find(f.begin(), f.end(), "critical_mu_s.clearance-A") - f.begin();
    CHECK(slurp(dir / "hold.gp").find("using 4:" + std::to_string(8 + at) + " ") !=
          std::string::npos);
  } else {
    WARN("gnuplot not installed: the sweep's plot not checked");
  }
  const Run bad = process({"sweep", "zheng-equilibrium", "--command", "holds", "--param", "parameters.theta1=3,3.1",
                           "--out", dir / "x.csv"},
                          dir.path);
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--command: expected run or hold"));
}
