// stickslip animate SCENARIO [--methods M1,M2,..] [--run F.csv]... [--out F.html] [--gif F.gif]
//                            [--frames DIR] [--t-end T] [--solver S] [--set K=V]... [--force]
// Runs the scenario by each method (or reads runs' CSVs) and draws the mechanism moving: a
// self-contained HTML page (cli/animation_html.hpp) and, through gnuplot, a GIF or PNG frames
// (cli/animation_gif.hpp); a spatial mechanism the page only, in 3D. The drawing comes from the
// model alone (cli/animation.hpp, cli/animation_spatial.hpp).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <utility>

#include "cli/animation.hpp"
#include "cli/animation_gif.hpp"
#include "cli/animation_html.hpp"
#include "cli/command.hpp"
#include "cli/compare_data.hpp"
#include "cli/compare_plots.hpp"
#include "cli/method_list.hpp"
#include "cli/output_file.hpp"
#include "cli/run_options.hpp"
#include "mechanisms/rigid_scenarios.hpp"
#include "mechanisms/run_scenario.hpp"

namespace stickslip::cli {
namespace {

namespace fs = std::filesystem;

void declare(po::options_description& o, po::positional_options_description& p) {
  o.add_options()("scenario", po::value<std::string>()->required(),
                  "built-in scenario (stickslip list) or scenario file: the mechanism drawn")(
      "methods", po::value<std::string>(),
      "comma-separated methods run and overlaid, as compare's (event-driven,penalty:ambrosio); default: the "
      "scenario's own method")(
      "run", po::value<std::vector<std::string>>()->composing(),
      "F.csv: a history written by stickslip run --out (or compare) for this scenario, drawn instead of running "
      "(repeatable; modes from its samples: see --zero-velocity)")(
      "out", po::value<std::string>(), "the HTML page")("gif", po::value<std::string>(),
                                                        "an animated GIF, drawn by gnuplot (script beside it, .gp)")(
      "frames", po::value<std::string>(), "a directory of PNG frames, drawn by gnuplot (script frames.gp in it)")(
      "t-end", po::value<double>(), "end time of every run [s] (default: the scenario's)")(
      "solver", po::value<std::string>(), "contact problems of the nonsmooth methods (see run)")(
      "impact-law", po::value<std::string>(), "the event-driven runs' impact law: newton or newton-tangential (see run)")(
      "set", po::value<std::vector<std::string>>()->composing(), "KEY=VALUE passed to every run (repeatable)")(
      "max-frames", po::value<int>()->default_value(4000),
      "frames per run in the page at most, evenly strided; the samples around every event are kept besides")(
      "fps", po::value<double>()->default_value(10.0), "GIF and PNG frames per second of playback")(
      "speed", po::value<double>()->default_value(1.0), "GIF and PNG frames: simulated seconds per second")(
      "gif-frames", po::value<int>()->default_value(300), "GIF and PNG frames at most (spread over the run)")(
      "zero-velocity", po::value<double>()->default_value(1e-5),
      "--run: |v_t| [m/s] at or below which a loaded contact counts as sticking")(
      "force", po::bool_switch(), "overwrite the output files");
  p.add("scenario", 1);
}

double positive(const po::variables_map& vm, const char* key) {
  const double x = vm[key].as<double>();
  if (!(x > 0.0) || !std::isfinite(x))
    throw std::invalid_argument(std::string("--") + key + ": expected a number > 0, got " + std::to_string(x));
  return x;
}

/// The files animate writes: none a directory (nor --frames a file), none there already
/// unless `force`.
void checkOutputs(const std::string& html, const std::string& gif, const std::string& gif_script,
                  const std::string& frames, const std::string& frames_script, bool force) {
  if (!frames.empty() && fs::exists(frames) && !fs::is_directory(frames))
    throw std::invalid_argument("--frames " + frames + ": exists and is not a directory");
  for (const auto& [option, file] : {std::pair{"--out", html}, {"--gif", gif}, {"--gif", gif_script}})
    if (!file.empty()) checkOutputPath(option, file, force);
  if (force || frames.empty()) return;
  for (const std::string& file : {frames_script, (fs::path(frames) / "frame_00000.png").string()})
    if (fs::exists(file)) throw std::invalid_argument("--frames: " + file + " exists; pass --force to overwrite it");
}

int run(const po::variables_map& vm, std::ostream& out, std::ostream& err) {
  const std::string argument = vm["scenario"].as<std::string>();
  mechanisms::Scenario sc = mechanisms::loadScenario(argument);
  if (vm.count("set")) mechanisms::applySettings(sc, vm["set"].as<std::vector<std::string>>());
  const std::string scenario = sc.source.empty() ? argument : fs::path(argument).stem().string();
  const std::string html = vm.count("out") ? vm["out"].as<std::string>() : "";
  const std::string gif = vm.count("gif") ? vm["gif"].as<std::string>() : "";
  const std::string frames = vm.count("frames") ? vm["frames"].as<std::string>() : "";
  if (html.empty() && gif.empty() && frames.empty())
    throw std::invalid_argument("expected --out F.html, --gif F.gif or --frames DIR (what to write)");
  // A spatial mechanism is drawn by the page only (three.js); gnuplot draws the plane.
  if (sc.spatial && (!gif.empty() || !frames.empty()))
    throw std::invalid_argument(std::string(gif.empty() ? "--frames" : "--gif") + ": '" + scenario +
                                "' is a spatial mechanism, drawn by the HTML page only (--out F.html)");
  if (vm.count("run") && vm.count("methods"))
    throw std::invalid_argument("--run and --methods: give one, the runs to read or the methods to run");
  const int max_frames = vm["max-frames"].as<int>();
  if (max_frames < 2) throw std::invalid_argument("--max-frames: expected at least 2, got " + std::to_string(max_frames));
  GifOptions gif_options;
  gif_options.fps = positive(vm, "fps");
  gif_options.speed = positive(vm, "speed");
  gif_options.max_frames = vm["gif-frames"].as<int>();
  if (gif_options.max_frames < 1)
    throw std::invalid_argument("--gif-frames: expected at least 1, got " + std::to_string(gif_options.max_frames));
  const double zero_velocity = positive(vm, "zero-velocity");
  std::optional<double> t_end;
  if (vm.count("t-end")) t_end = positive(vm, "t-end");
  if ((!gif.empty() || !frames.empty()) && !gnuplotAvailable()) {
    err << "stickslip animate: --gif and --frames need gnuplot, which was not found on PATH (Debian: apt-get "
           "install gnuplot-nox); nothing was run\n";
    return kExitFailure;
  }

  // Nothing the user wrote is overwritten without --force.
  const std::string gif_script = gif.empty() ? "" : fs::path(gif).replace_extension(".gp").string();
  const std::string frames_script = frames.empty() ? "" : (fs::path(frames) / "frames.gp").string();
  checkOutputs(html, gif, gif_script, frames, frames_script, vm["force"].as<bool>());

  std::vector<AnimationTrack> tracks;
  auto track = [&](const std::string& label, const std::vector<std::string>& columns, const Eigen::MatrixXd& history,
                   const dynamics::RunResult* result, double zero) {
    tracks.push_back(scenarioTrack(sc, label, columns, history, result, std::size_t(max_frames), zero));
  };
  bool all_ok = true;
  if (vm.count("run")) {
    for (const std::string& file : vm["run"].as<std::vector<std::string>>()) {
      const Series s = readSeriesCsv(file);
      if (s.rows() == 0) throw std::invalid_argument("--run " + file + ": no rows to draw");
      const std::string label = fs::path(file).stem().string();
      try {
        track(label, s.names, s.data, nullptr, zero_velocity);
      } catch (const std::invalid_argument& e) {  // "<label>: …" names the track; name the file
        const std::string what = e.what();
        throw std::invalid_argument(
            file + (what.starts_with(label + ":") ? what.substr(label.size()) : ": " + what));
      }
    }
  } else {
    std::vector<MethodSpec> specs;
    if (vm.count("methods")) specs = parseMethods(vm["methods"].as<std::string>(), scenario);
    else specs.push_back(MethodSpec{});  // the scenario's own method
    std::vector<std::unique_ptr<mechanisms::ScenarioRunner>> runners;
    for (const MethodSpec& s : specs)
      runners.push_back(plannedRunner(sc, runArgs(vm, s, t_end)));
    const double zero = sc.builtin ? mechanisms::rigidScenarioInfo(sc.name).zero_velocity : 1e-8;
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const mechanisms::ScenarioRun r = runners[i]->run();
      const std::string label = specs[i].label.empty() ? std::string(mechanisms::toString(r.route)) : specs[i].label;
      if (!r.result.ok()) {
        all_ok = false;
        err << "stickslip animate: " << label << ": " << dynamics::toString(r.result.status) << ": "
            << r.result.message << " (drawn up to t = " << r.result.t_end << " s)\n";
      }
      track(label, r.result.columns, r.result.history, &r.result, zero);
    }
  }

  if (!html.empty()) {
    std::ofstream f(html);
    if (!f) throw std::invalid_argument("--out " + html + ": cannot be written");
    writeScenarioAnimationHtml(f, animationTitle(scenario, tracks), sc, tracks);
    f.close();  // a full disk shows on the flush
    if (!f) throw std::invalid_argument("--out " + html + ": cannot be written");
    out << "page      " << html << " (" << fs::file_size(html) / 1024 << " KiB";
    for (const auto& t : tracks) out << "; " << t.label << ": " << t.t.size() << " frames";
    out << ")\n";
  }
  // GIF and PNG frames: a gnuplot script beside them, run where they go.
  auto draw = [&](const std::string& target, const std::string& script, bool is_gif) {
    if (!is_gif) fs::create_directories(target);
    const AnimationScene scene = animationScene(mechanisms::planarModel(sc, "animate"), tracks);
    const std::vector<double> instants = gifInstants(tracks, gif_options);
    {
      std::ofstream f(script);
      if (!f) throw std::invalid_argument((is_gif ? "--gif " : "--frames ") + target + ": cannot write " + script);
      writeAnimationGnuplot(f, scene, tracks, instants, gif_options, is_gif ? fs::path(gif).filename().string() : "",
                            is_gif ? "" : ".");
      f.close();
      if (!f)
        throw std::invalid_argument((is_gif ? "--gif " : "--frames ") + target + ": cannot write " +
                                    script);
    }
    std::string log;
    const bool ok = runGnuplot(fs::absolute(script).parent_path().string(), fs::path(script).filename().string(), log) &&
                    fs::exists(is_gif ? fs::path(gif) : fs::path(target) / "frame_00000.png");
    if (ok)
      out << (is_gif ? "gif       " : "frames    ") << target << " (" << instants.size() << " frames; script " << script
          << ")\n";
    else
      err << "stickslip animate: gnuplot failed on " << script << ":\n" << log;
    return ok;
  };
  bool drawn = true;
  if (!gif.empty()) drawn = draw(gif, gif_script, true) && drawn;
  if (!frames.empty()) drawn = draw(frames, frames_script, false) && drawn;
  return all_ok && drawn ? kExitOk : kExitFailure;
}

}  // namespace

const Command& animateCommand() {
  static const Command c{"animate", "draw a scenario's runs moving: an HTML page (and GIF or PNG frames)", declare,
                         run};
  return c;
}

}  // namespace stickslip::cli
