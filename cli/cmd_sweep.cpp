// stickslip sweep SCENARIO --param KEY=A:B:N ... [--set KEY=VALUE]... [--jobs N] [--shard i/N]
//                  [--command run|hold] --out F.csv [--force] [--show FIGURE,...] [--timings] [--plot]
// Each grid point is one `stickslip run SCENARIO --json --set ... --set KEY=VALUE...` (or
// `stickslip hold ...`), run as a child process of this same executable (/proc/self/exe): a
// point that fails or crashes cannot take the sweep down, and --jobs points run at once on
// separate cores. The points' JSON scalars become the columns of the table
// (cli/sweep_table.hpp); --plot draws the numeric ones shown against the one parameter.
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <ostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "cli/command.hpp"
#include "cli/compare_plots.hpp"
#include "cli/method_list.hpp"
#include "cli/output_file.hpp"
#include "cli/progress.hpp"
#include "cli/sweep_table.hpp"

extern char** environ;

namespace stickslip::cli {
namespace {

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(),
                  "a scenario file (.yaml) or a built-in scenario (stickslip list)")(
      "param", po::value<std::vector<std::string>>()->composing()->required(),
      "KEY=A:B:N: N values from A to B inclusive (N = 1: A), or KEY=V1,V2,...; KEY is a key of "
      "run --set (parameters.NAME, run.OPTION); repeatable: the grid is the Cartesian product, "
      "the last --param varying fastest")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "KEY=VALUE given to every point's run (e.g. run.t_end=0.5, run.method=moreau-jean); repeatable")(
      "jobs,j", po::value<long>(), "points run at once (default: the CPUs this process may use)")(
      "shard", po::value<std::string>()->default_value("1/1"),
      "i/N: run only the points whose index % N == i - 1 (one task of a job array; stickslip "
      "merge joins the shards' tables)")(
      "out", po::value<std::string>()->required(), "the table, CSV: one row per point")(
      "force", po::bool_switch(), "overwrite --out, and --plot's F.gp, F.png and F.svg, if they exist")(
      "show", po::value<std::string>(),
      "figures shown in the printed table, comma-separated (default: the true/false ones, "
      "e.g. held); with one --param, where each true/false or text figure changes is printed "
      "below the table")(
      "timings", po::bool_switch(), "keep cpu_seconds and us_per_step in the table (they vary from run to run)")(
      "command", po::value<std::string>()->default_value("run"),
      "what each point runs: run (a simulation) or hold (the static friction equilibrium at rest; its "
      "verdict 'breaks away', exit 1, is an outcome like any other)")(
      "plot", po::bool_switch(),
      "with one --param: draw the numeric figures of --show (for hold, by default its critical_mu_s.*) "
      "against it, F.gp, F.png and F.svg beside --out (gnuplot)");
  p.add("scenario", 1);
}

/// Keys a sweep may not hand to its runs: it reads their stdout as JSON and owns the files.
void checkKey(const std::string& option, const std::string& key) {
  for (const char* owned : {"run.json", "run.out", "run.plot", "run.force"})
    if (key == owned)
      throw std::invalid_argument(option + " " + key + ": not available in a sweep (it reads every "
                                  "run's JSON and writes one table, --out)");
}

std::size_t defaultJobs() {
  cpu_set_t set;  // the CPUs a batch scheduler gave us, not the machine's
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::size_t(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

struct Child {
  std::size_t point = 0;
  pid_t pid = -1;
  int fds[2] = {-1, -1};  ///< its stdout, stderr (read ends)
  std::string text[2];
};

/// Starts `run` for one point; throws std::runtime_error when the system refuses.
Child spawnRun(std::size_t point, const std::vector<std::string>& args) {
  Child c;
  c.point = point;
  int out[2], err[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  if (pipe2(err, O_CLOEXEC) != 0) {
    close(out[0]), close(out[1]);
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  std::vector<std::string> a{"stickslip"};
  a.insert(a.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : a) argv.push_back(s.data());
  argv.push_back(nullptr);
  const int rc = posix_spawn(&c.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]), close(err[1]);
  if (rc != 0) {
    close(out[0]), close(err[0]);
    throw std::runtime_error(std::string("cannot start /proc/self/exe: ") + std::strerror(rc));
  }
  c.fds[0] = out[0], c.fds[1] = err[0];
  return c;
}

std::string lastLine(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

/// The row of a finished point from its exit status and output; with `verdict`, exit code 1
/// is an answer (hold: breaks away), not a failure, when the JSON says so.
SweepTable::Row rowOf(const Child& c, int status, bool timings, bool verdict) {
  SweepTable::Row row;
  row.index = c.point;
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    row.exit_code = std::to_string(code);
    row.outcome = code == 0 ? "ok" : code == 2 ? "bad-input" : "failed";
  } else {
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    row.outcome = "crashed";
    row.error = "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  if (row.error.empty()) row.error = lastLine(c.text[1]);
  if (const std::string json = lastLine(c.text[0]); !json.empty()) {
    try {
      for (auto& [k, v] : flattenScalars(nlohmann::json::parse(json)))
        if (timings || !isTiming(k)) row.figures.emplace(k, std::move(v));
      if (verdict && row.exit_code == "1" && row.figures["holds"] == "false" &&
          row.figures["cross_check.ok"] == "true") {
        row.outcome = "ok";
        row.error.clear();
      }
    } catch (const nlohmann::json::exception&) {
      if (row.outcome == "ok") row.outcome = "failed";
      if (row.error.empty()) row.error = "the run's output is not JSON";
    }
  } else if (row.outcome == "ok") {
    row.outcome = "failed";
    row.error = "the run printed no JSON";
  }
  return row;
}

/// The signal that asked the sweep to stop (SIGINT, SIGTERM, SIGHUP), 0 while none did.
volatile sig_atomic_t g_stop_signal = 0;
extern "C" void onStopSignal(int sig) { g_stop_signal = sig; }

/// While alive, SIGINT, SIGTERM and SIGHUP only set g_stop_signal, so that the sweep can end
/// its runs before it dies of the signal (a `kill` of the sweep alone, a scheduler's
/// cancellation) instead of leaving them computing. One instance spans the whole sweep: a
/// signal that comes between two batches of points is not forgotten.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = onStopSignal;
    sigemptyset(&sa.sa_mask);
    for (std::size_t k = 0; k < 3; ++k) {
      sigaction(kSignals[k], &sa, &previous_[k]);
      if (previous_[k].sa_handler == SIG_IGN) sigaction(kSignals[k], &previous_[k], nullptr);  // kept ignored (nohup, &)
    }
  }
  ~StopSignals() {
    for (std::size_t k = 0; k < 3; ++k) sigaction(kSignals[k], &previous_[k], nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  static constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction previous_[3];
};

/// Ends the running children and waits for them.
void endRuns(std::vector<Child>& running) {
  for (Child& c : running) kill(c.pid, SIGTERM);
  for (Child& c : running) {
    for (int s = 0; s < 2; ++s)
      if (c.fds[s] >= 0) close(c.fds[s]);
    int status = 0;
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
  running.clear();
}

/// Ends the running children and then the sweep itself by the signal it received, with the
/// signal's default action: no table is written.
[[noreturn]] void stopRuns(std::vector<Child>& running, int sig) {
  endRuns(running);
  signal(sig, SIG_DFL);
  raise(sig);
  std::_Exit(128 + sig);
}

/// runPoints' loop over `running`, which it fills and empties.
void watchPoints(const std::vector<std::size_t>& points, std::size_t jobs,
                 const std::function<std::vector<std::string>(std::size_t)>& argsOf,
                 const std::function<void(const Child*, int)>& done, std::vector<Child>& running) {
  std::size_t next = 0;
  while (next < points.size() || !running.empty()) {
    if (g_stop_signal != 0) stopRuns(running, g_stop_signal);
    while (next < points.size() && running.size() < jobs) {
      running.push_back(spawnRun(points[next], argsOf(points[next])));
      ++next;
    }
    std::vector<pollfd> fds;
    for (const Child& c : running)
      for (int s = 0; s < 2; ++s)
        if (c.fds[s] >= 0) fds.push_back({c.fds[s], POLLIN, 0});
    if (poll(fds.data(), fds.size(), 200) < 0 && errno != EINTR)
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    for (Child& c : running)
      for (int s = 0; s < 2; ++s) {
        if (c.fds[s] < 0) continue;
        const auto it = std::find_if(fds.begin(), fds.end(), [&](const pollfd& p) { return p.fd == c.fds[s]; });
        if (it == fds.end() || it->revents == 0) continue;
        char buf[65536];
        const ssize_t n = read(c.fds[s], buf, sizeof buf);
        if (n > 0) {
          c.text[s].append(buf, std::size_t(n));
        } else if (n == 0 || errno != EINTR) {
          close(c.fds[s]);
          c.fds[s] = -1;
        }
      }
    for (auto it = running.begin(); it != running.end();) {
      if (it->fds[0] >= 0 || it->fds[1] >= 0) {
        ++it;
        continue;
      }
      int status = 0;
      while (waitpid(it->pid, &status, 0) < 0 && errno == EINTR) {
      }
      done(&*it, status);
      it = running.erase(it);
    }
    done(nullptr, 0);
  }
  if (g_stop_signal != 0) stopRuns(running, g_stop_signal);  // came while the last run was reaped
}

/// Runs `points` with at most `jobs` at once; calls `done` with each as it finishes, and with
/// nullptr a few times a second (to redraw a progress bar). Call it while a StopSignals lives.
/// A failure to start or watch a run (std::runtime_error) ends the others before it leaves.
void runPoints(const std::vector<std::size_t>& points, std::size_t jobs,
               const std::function<std::vector<std::string>(std::size_t)>& argsOf,
               const std::function<void(const Child*, int)>& done) {
  std::vector<Child> running;
  try {
    watchPoints(points, jobs, argsOf, done, running);
  } catch (const std::runtime_error&) {
    endRuns(running);
    throw;
  }
}

bool isNumber(const std::string& s) {
  double x = 0.0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

std::string join(const std::vector<std::string>& v, const std::string& separator) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : separator) + x;
  return s;
}

/// The printed report: a table of the points with the chosen figures, then, with one
/// parameter, where each figure changes along it.
void report(std::ostream& out, const SweepTable& t, std::vector<std::string> shown) {
  std::vector<std::string> head{"index"};
  head.insert(head.end(), t.keys.begin(), t.keys.end());
  head.push_back("outcome");
  head.insert(head.end(), shown.begin(), shown.end());
  std::vector<std::vector<std::string>> cells;
  for (const auto& r : t.rows) {
    std::vector<std::string> line{std::to_string(r.index)};
    line.insert(line.end(), r.values.begin(), r.values.end());
    line.push_back(r.outcome);
    for (const auto& f : shown) {
      const auto it = r.figures.find(f);
      line.push_back(it == r.figures.end() ? "-" : it->second);
    }
    cells.push_back(std::move(line));
  }
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = head[c].size();
    for (const auto& l : cells) width[c] = std::max(width[c], l[c].size());
  }
  const auto print = [&](const std::vector<std::string>& l) {
    for (std::size_t c = 0; c < l.size(); ++c)
      out << (c ? "  " : "") << std::left << std::setw(int(c + 1 == l.size() ? 0 : width[c])) << l[c];
    out << '\n';
  };
  print(head);
  for (const auto& l : cells) print(l);
  if (t.keys.size() != 1) return;
  // Where a verdict (true/false, a status) changes along the one parameter; numbers, which
  // change at every point, are read in the table.
  for (const auto& f : shown) {
    if (std::all_of(t.rows.begin(), t.rows.end(), [&](const SweepTable::Row& r) {
          const auto it = r.figures.find(f);
          return it == r.figures.end() || isNumber(it->second);
        }))
      continue;
    const std::string* before = nullptr;
    const SweepTable::Row* prev = nullptr;
    for (const auto& r : t.rows) {
      const auto it = r.figures.find(f);
      if (it == r.figures.end()) continue;
      if (before && *before != it->second)
        out << f << " changes from " << *before << " to " << it->second << " between " << t.keys[0] << " = "
            << prev->values[0] << " and " << r.values[0] << " (first at " << r.values[0] << ")\n";
      before = &it->second;
      prev = &r;
    }
  }
}

/// --plot: a gnuplot script beside the table drawing `figures` against the one parameter,
/// rendered to PNG and SVG. Returns false with the reason in `log`.
bool plotSweep(const std::string& csv_path, const SweepTable& t, const std::vector<std::string>& figures,
               std::string& log) {
  const std::filesystem::path csv(csv_path);
  const std::string dir = csv.parent_path().empty() ? "." : csv.parent_path().string();
  const std::string name = csv.stem().string();
  std::ostringstream gp;
  gp << "# stickslip sweep --plot: " << join(figures, ", ") << " against " << t.keys[0]
     << "; edit and rerun with gnuplot " << name << ".gp\n"
     << "set datafile separator ','\nset datafile missing ''\nset key outside bottom center\n"
     << "set grid\nset xlabel '" << t.keys[0] << "' noenhanced\nset ylabel '"
     << (figures.size() == 1 ? figures[0] : "") << "' noenhanced\n";
  // The table's columns: index, grid_size, sweep, the parameter, exit_code, outcome, error,
  // figures.
  std::string plot = "plot ";
  for (std::size_t k = 0; k < figures.size(); ++k) {
    const auto at = std::find(t.figures.begin(), t.figures.end(), figures[k]);
    const long column = 8 + long(at - t.figures.begin());
    plot += (k ? ", " : "") + std::string("'") + csv.filename().string() +
            "' skip 1 using 4:" + std::to_string(column) + " with linespoints title '" +
            figures[k] + "' noenhanced";
  }
  for (const char* term : {"pngcairo size 900,600", "svg size 900,600"})
    gp << "set terminal " << term << "\nset output '" << name << (term[0] == 'p' ? ".png" : ".svg") << "'\n"
       << plot << "\n";
  std::ofstream script(dir + "/" + name + ".gp");
  script << gp.str();
  script.close();
  if (!script) {
    log = dir + "/" + name + ".gp: cannot be written\n";
    return false;
  }
  if (renderPlot(dir, name, log)) return true;
  // Half-drawn figures would only block the next try without --force.
  std::error_code ignored;
  for (const char* ext : {".png", ".svg"}) std::filesystem::remove(dir + "/" + name + ext, ignored);
  return false;
}

/// The sweep asked for: the command per point, the grid and this shard of it, the settings
/// every point shares, and where the table goes. Throws std::invalid_argument for bad options.
struct SweepPlan {
  std::string scenario, command, path;
  bool plot = false, timings = false;
  std::vector<std::string> param_texts;  ///< --param as given
  std::vector<GridParameter> params;
  Grid grid;
  std::vector<std::string> fixed;  ///< --set KEY=VALUE, the same at every point
  Shard shard;
  std::size_t jobs = 1;
  std::vector<std::size_t> points;  ///< this shard's, by grid index

  explicit SweepPlan(const po::variables_map& vm)
      : scenario(vm["scenario"].as<std::string>()),
        command(vm["command"].as<std::string>()),
        path(vm["out"].as<std::string>()),
        plot(vm["plot"].as<bool>()),
        timings(vm["timings"].as<bool>()),
        param_texts(vm["param"].as<std::vector<std::string>>()),
        params(gridParameters(vm)),
        grid(params),
        shard(parseShard(vm["shard"].as<std::string>())),
        jobs(defaultJobs()) {
    if (command != "run" && command != "hold")
      throw std::invalid_argument("--command: expected run or hold, got '" + command + "'");
    if (plot && params.size() != 1)
      throw std::invalid_argument("--plot: draws figures against one --param; give exactly one");
    // Known before any point runs: what --plot would refuse after all of them.
    if (plot)
      for (const std::string& v : params.front().values)
        if (!isNumber(v))
          throw std::invalid_argument("--plot: draws against a numeric --param; " + params.front().key +
                                      " takes '" + v + "'");
    if (plot && command == "run" && !vm.count("show"))
      throw std::invalid_argument("--plot: name the figures to draw with --show (a run reports no critical mu_s)");
    if (plot && !gnuplotAvailable()) throw std::invalid_argument("--plot: gnuplot is not installed (apt-get install gnuplot-nox)");
    if (vm.count("set"))
      for (const std::string& s : vm["set"].as<std::vector<std::string>>()) {
        const std::string key = s.substr(0, s.find('='));
        checkKey("--set", key);
        for (const auto& p : grid.parameters())
          if (p.key == key) throw std::invalid_argument("--set " + s + ": " + key + " is also a --param");
        fixed.push_back(s);
      }
    if (vm.count("jobs")) {
      if (vm["jobs"].as<long>() < 1)
        throw std::invalid_argument("--jobs: expected at least 1, got " + std::to_string(vm["jobs"].as<long>()));
      jobs = std::size_t(vm["jobs"].as<long>());
    }
    checkOutputPath("--out", path, vm["force"].as<bool>());
    if (plot)  // its script and figures, beside the table
      for (const char* ext : {".gp", ".png", ".svg"})
        checkOutputPath("--plot", std::filesystem::path(path).replace_extension(ext).string(),
                        vm["force"].as<bool>());
    for (std::size_t k = shard.i - 1; k < grid.size(); k += shard.n) points.push_back(k);
  }

  /// The command line of point k: `command scenario --json --set ...`.
  std::vector<std::string> args(std::size_t k) const {
    std::vector<std::string> a{command, scenario, "--json"};
    for (const auto& s : fixed) a.insert(a.end(), {"--set", s});
    const std::vector<std::string> values = grid.point(k);
    for (std::size_t p = 0; p < values.size(); ++p) a.insert(a.end(), {"--set", grid.parameters()[p].key + "=" + values[p]});
    return a;
  }

  /// The table's `sweep` cell: what decides the points and their figures.
  std::string definition() const {
    std::string d = scenario + " --command " + command;
    for (const auto& p : param_texts) d += " --param " + p;
    for (const auto& s : fixed) d += " --set " + s;
    return d + (timings ? " --timings" : "");
  }

 private:
  static std::vector<GridParameter> gridParameters(const po::variables_map& vm) {
    std::vector<GridParameter> params;
    for (const std::string& p : vm["param"].as<std::vector<std::string>>()) {
      params.push_back(parseGridParameter(p));
      checkKey("--param", params.back().key);
    }
    return params;
  }
};

/// Runs every point of the plan into `table`, the first alone so that an input error is
/// reported once. Returns an exit code when the sweep stops early (the message on `err`).
std::optional<int> runSweep(const SweepPlan& plan, SweepTable& table, std::ostream& err) {
  ProgressBar bar("sweep");
  std::size_t finished = 0;
  const auto record = [&](const Child* c, int status) {
    if (c) {
      SweepTable::Row row = rowOf(*c, status, plan.timings, plan.command == "hold");
      row.grid_size = plan.grid.size();
      row.values = plan.grid.point(c->point);
      table.rows.push_back(std::move(row));
      ++finished;
    }
    if (bar.enabled())
      bar.update(double(finished) / double(std::max<std::size_t>(plan.points.size(), 1)),
                 std::to_string(finished) + "/" + std::to_string(plan.points.size()) + " points");
  };
  const auto argsOf = [&](std::size_t k) { return plan.args(k); };
  try {
    const StopSignals stop_signals;
    if (!plan.points.empty()) {
      runPoints({plan.points[0]}, 1, argsOf, record);
      if (table.rows[0].exit_code == "2") {
        bar.finish();
        std::string where;
        for (std::size_t k = 0; k < table.keys.size(); ++k)
          where += (k ? ", " : "") + table.keys[k] + "=" + table.rows[0].values[k];
        err << "stickslip sweep: point " << plan.points[0] << " (" << where << "): " << table.rows[0].error
            << "\n";
        return kExitInput;
      }
      runPoints({plan.points.begin() + 1, plan.points.end()}, plan.jobs, argsOf, record);
    }
  } catch (const std::runtime_error& e) {
    bar.finish();
    err << "stickslip sweep: " << e.what() << "; the runs under way were ended (fewer at once: --jobs)\n";
    return kExitFailure;
  }
  bar.finish();
  return std::nullopt;
}

/// The figures the report shows: --show's, else those every point reports as true or false.
std::vector<std::string> shownFigures(const po::variables_map& vm, const SweepTable& table,
                                      const std::set<std::string>& figures, std::ostream& err) {
  std::vector<std::string> shown;
  if (vm.count("show")) {
    shown = splitList(vm["show"].as<std::string>());
    for (const auto& f : shown)
      if (!figures.count(f) && !table.rows.empty())
        err << "stickslip sweep: --show " << f << ": no point reported this figure\n";
  } else {
    for (const auto& f : figures)
      if (std::all_of(table.rows.begin(), table.rows.end(), [&](const SweepTable::Row& r) {
            const auto it = r.figures.find(f);
            return it == r.figures.end() || it->second == "true" || it->second == "false";
          }))
        shown.push_back(f);
  }
  return shown;
}

/// --plot: the numeric figures shown (hold: each critical μs) against the one parameter.
int drawSweep(const po::variables_map& vm, const SweepPlan& plan, const SweepTable& table,
              const std::set<std::string>& figures, const std::vector<std::string>& shown, std::ostream& out,
              std::ostream& err) {
  std::vector<std::string> drawn;
  const auto numeric = [&](const std::string& f) {
    return figures.count(f) && std::any_of(table.rows.begin(), table.rows.end(), [&](const SweepTable::Row& r) {
             const auto it = r.figures.find(f);
             return it != r.figures.end() && isNumber(it->second);
           });
  };
  if (vm.count("show")) {
    for (const auto& f : shown)
      if (numeric(f)) drawn.push_back(f);
  } else if (plan.command == "hold") {
    for (const auto& f : figures)
      if (f.starts_with("critical_mu_s.") && numeric(f)) drawn.push_back(f);
  }
  std::string log;
  if (drawn.empty()) {
    err << "stickslip sweep: --plot: no numeric figure to draw (name them with --show)\n";
    return kExitInput;
  }
  if (!plotSweep(plan.path, table, drawn, log)) {
    err << "stickslip sweep: --plot: gnuplot failed: " << log << "\n";
    return kExitFailure;
  }
  const std::filesystem::path path(plan.path);
  const std::string base = (path.parent_path() / path.stem()).string();
  out << "plot: " << base << ".png, " << base << ".svg (script " << base << ".gp)\n";
  return kExitOk;
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const SweepPlan plan(vm);
  SweepTable table;
  table.sweep = plan.definition();
  for (const auto& p : plan.grid.parameters()) table.keys.push_back(p.key);
  const auto start = std::chrono::steady_clock::now();
  if (const std::optional<int> stopped = runSweep(plan, table, err)) return *stopped;

  std::set<std::string> figures;
  for (const auto& r : table.rows)
    for (const auto& [k, v] : r.figures) figures.insert(k);
  table.figures.assign(figures.begin(), figures.end());
  std::ostringstream csv;
  table.write(csv);
  std::string unwritten;  // why the table could not be written: it is printed instead, not lost
  try {
    writeFileAtomically(plan.path, csv.str());
  } catch (const std::exception& e) {
    unwritten = e.what();
  }

  const std::vector<std::string> shown = shownFigures(vm, table, figures, err);
  std::size_t failed = 0, bad = 0;
  for (const auto& r : table.rows) failed += r.outcome != "ok", bad += r.outcome == "bad-input";
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "sweep " << plan.scenario << ": " << plan.points.size() << " of " << plan.grid.size() << " points (shard "
      << plan.shard.i << "/" << plan.shard.n << "), "
      << std::min(plan.jobs, std::max<std::size_t>(plan.points.size(), 1)) << " at once, " << std::setprecision(3)
      << seconds << " s\n";
  report(out, table, shown);
  if (!unwritten.empty()) {
    out << "table: not written to " << plan.path << "; its " << table.rows.size() << " rows follow\n" << csv.str();
    err << "stickslip sweep: " << unwritten << "\n";
    return kExitFailure;
  }
  out << "table: " << plan.path << " (" << table.rows.size() << " rows)\n";
  if (plan.plot)
    if (const int drawn = drawSweep(vm, plan, table, figures, shown, out, err); drawn != kExitOk) return drawn;
  if (failed > 0) {
    err << "stickslip sweep: " << failed << " of " << table.rows.size() << " points failed";
    for (const auto& r : table.rows)
      if (r.outcome != "ok") {
        err << "; first: point " << r.index << ", " << r.outcome << (r.error.empty() ? "" : ": " + r.error);
        break;
      }
    err << "\n";
  }
  return bad > 0 ? kExitInput : failed > 0 ? kExitFailure : kExitOk;
}

}  // namespace

const Command& sweepCommand() {
  static const Command c{"sweep", "run a scenario over a parameter grid, in parallel or as one shard of it", declare, run};
  return c;
}

}  // namespace stickslip::cli
