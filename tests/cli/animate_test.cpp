// `stickslip animate`: the scene taken from the model, the modes against the belt's closed form
// and the run's events, decimation that keeps every event, the page's self-containment and
// size, the GIF and frames, and its input errors. The page in a real browser:
// tests/browser/animate_browser_test.py.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>

#include "cli/animation.hpp"
#include "cli/compare_data.hpp"
#include "cli_run.hpp"
#include "mechanisms/belt.hpp"
#include "mechanisms/planar_model_file.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using stickslip::cli::AnimationTrack;
using stickslip::dynamics::ContactMode;

namespace {

struct PlanarAnimation {
  stickslip::mechanisms::Scenario scenario;
  stickslip::mechanisms::ScenarioRun run;
};

PlanarAnimation runOf(const std::string& name, stickslip::mechanisms::Route route, double t_end) {
  PlanarAnimation a{stickslip::mechanisms::loadScenario(name), {}};
  stickslip::mechanisms::RunSettings s;
  s.route = route;
  s.t_end = t_end;
  a.run = stickslip::mechanisms::runScenario(a.scenario, s);
  REQUIRE(a.run.result.ok());
  return a;
}

AnimationTrack trackOf(const PlanarAnimation& a, std::size_t max_frames) {
  return stickslip::cli::animationTrack(*a.scenario.model, "run", a.run.result.columns, a.run.result.history,
                                        &a.run.result, max_frames, 1e-8);
}

}  // namespace

TEST_CASE("animate: the scene of zheng-torque comes from its model", "[cli][animate]") {
  const PlanarAnimation a = runOf("zheng-torque", stickslip::mechanisms::Route::kEventDriven, 0.2);
  const AnimationTrack track = trackOf(a, 4000);
  const auto scene = stickslip::cli::animationScene(*a.scenario.model, {track});
  REQUIRE(scene.bodies.size() == 3);
  // The crank: a bar from its pivot O to the journal of A at its rim, with the journal.
  const auto& crank = scene.bodies[0];
  CHECK(crank.name == "crank");
  REQUIRE(crank.hull.size() == 2);
  CHECK((crank.hull[0] - Eigen::Vector2d(0, 0)).norm() < 1e-15);
  CHECK((crank.hull[1] - Eigen::Vector2d(0.1, 0)).norm() < 1e-15);
  REQUIRE(crank.circles.size() == 1);
  CHECK(crank.circles[0].kind == "journal");
  CHECK(crank.circles[0].radius == 0.010);
  // The rod: a bar from its bearing (rod_a behind its centre) to B, with the bearing.
  const auto& rod = scene.bodies[1];
  REQUIRE(rod.hull.size() == 2);
  CHECK((rod.hull[0] - Eigen::Vector2d(-0.15, 0)).norm() < 1e-15);
  CHECK((rod.hull[1] - Eigen::Vector2d(0.15, 0)).norm() < 1e-15);
  REQUIRE(rod.circles.size() == 1);
  CHECK(rod.circles[0].kind == "bearing");
  CHECK(rod.circles[0].radius == 0.0101);
  // The slider: one point (B and the guide at its centre), a block; the guide a ground line
  // along x; O a joint to the ground.
  CHECK(scene.bodies[2].hull.empty());
  CHECK(scene.bodies[2].block);
  CHECK_FALSE(crank.block);
  REQUIRE(scene.ground_lines.size() == 1);
  CHECK(std::abs(scene.ground_lines[0].first.y()) < 1e-15);
  CHECK(std::abs(scene.ground_lines[0].second.y()) < 1e-15);
  CHECK(scene.ground_lines[0].first.x() == Approx(scene.lower.x()));
  CHECK(scene.ground_lines[0].second.x() == Approx(scene.upper.x()));
  REQUIRE(scene.ground_joints.size() == 1);
  CHECK(scene.ground_joints[0].norm() == 0.0);
  CHECK(scene.contacts == std::vector<std::string>{"clearance-A"});
  CHECK(scene.tangent_sign == std::vector<int>{-1});
  // The box holds every body's outline at every frame.
  for (Eigen::Index f = 0; f < track.pose.rows(); ++f)
    for (std::size_t b = 0; b < 3; ++b)
      for (const Eigen::Vector2d& s : scene.bodies[b].hull) {
        const double th = track.pose(f, Eigen::Index(3 * b + 2));
        const Eigen::Vector2d p = track.pose.block<1, 2>(f, Eigen::Index(3 * b)).transpose() + Eigen::Rotation2Dd(th) * s;
        CHECK((p.array() > scene.lower.array()).all());
        CHECK((p.array() < scene.upper.array()).all());
      }
}

TEST_CASE("animate: a block held by its two bottom corners is drawn as its rectangle, its centroid inside",
          "[cli][animate]") {
  stickslip::dynamics::RigidScenario s;
  const auto block = s.model.addBody("block", 1.0, 0.1);
  for (const double x : {-0.1, 0.1}) {
    stickslip::dynamics::RigidContact c;
    c.name = x < 0 ? "left" : "right";
    c.body_i = block;
    c.geometry.point_on_i = {x, -0.3};
    s.contacts.push_back(c);
  }
  const auto scene = stickslip::cli::animationScene(s, {});
  const auto& hull = scene.bodies[0].hull;
  REQUIRE(hull.size() == 4);
  for (const Eigen::Vector2d corner : {Eigen::Vector2d(-0.1, -0.3), Eigen::Vector2d(0.1, -0.3),
                                       Eigen::Vector2d(0.1, 0.3), Eigen::Vector2d(-0.1, 0.3)})
    CHECK(std::any_of(hull.begin(), hull.end(), [&](const Eigen::Vector2d& p) { return (p - corner).norm() < 1e-15; }));
  CHECK_FALSE(scene.bodies[0].block);
}

TEST_CASE("animate: a body's shape from the model file replaces its outline, and bad shapes are located errors",
          "[cli][animate]") {
  const std::string head = R"(model:
  bodies:
    - {name: plate, mass: 1, inertia: 0.1, position: [0, 0.1, 0], shape: )";
  const std::string tail = R"(}
  contacts:
    - {type: point_line, name: floor, body_i: plate, point_i: [0, -0.1]}
)";
  const auto box = stickslip::mechanisms::loadPlanarModelText(head + "{type: box, size: [0.4, 0.2]}" + tail, "m.yaml");
  const auto scene = stickslip::cli::animationScene(box, {});
  REQUIRE(scene.bodies[0].hull.size() == 4);
  CHECK((scene.bodies[0].hull[2] - Eigen::Vector2d(0.2, 0.1)).norm() == 0.0);
  const auto disk = stickslip::mechanisms::loadPlanarModelText(head + "{type: disk, radius: 0.1}" + tail, "m.yaml");
  const auto round = stickslip::cli::animationScene(disk, {});
  CHECK(round.bodies[0].hull.empty());
  REQUIRE(round.bodies[0].circles.size() == 1);
  CHECK(round.bodies[0].circles[0].radius == 0.1);
  CHECK_FALSE(round.bodies[0].block);
  const auto triangle = stickslip::mechanisms::loadPlanarModelText(
      head + "{type: polygon, points: [[0, 0.2], [-0.1, -0.1], [0.1, -0.1]]}" + tail, "m.yaml");
  CHECK(stickslip::cli::animationScene(triangle, {}).bodies[0].hull.size() == 3);
  const auto error = [&](const std::string& shape) {
    try {
      stickslip::mechanisms::loadPlanarModelText(head + shape + tail, "m.yaml");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error("{type: box, size: [0.4, 0]}"), Contains("m.yaml:3: model.bodies[0].shape.size"));
  CHECK_THAT(error("{type: disk}"), Contains("model.bodies[0].shape.radius"));
  CHECK_THAT(error("{type: polygon, points: [[0, 0], [1, 1], [2, 2]]}"),
             Contains("model.bodies[0].shape.points: expected a polygon of nonzero area"));
  CHECK_THAT(error("{type: star}"), Contains("model.bodies[0].shape.type"));
}

TEST_CASE("animate: belt modes follow the closed form, and every event keeps its frames", "[cli][animate]") {
  const PlanarAnimation a = runOf("belt", stickslip::mechanisms::Route::kEventDriven, 20.0);
  const stickslip::mechanisms::BeltCycle cycle = stickslip::mechanisms::beltClosedForm({});
  const double t_slip = cycle.first_breakaway, slip = cycle.slip_duration, stick = cycle.stick_duration;
  REQUIRE(t_slip == Approx(7.3575).margin(1e-12));
  for (std::size_t max_frames : {std::size_t(4000), std::size_t(50)}) {
    const AnimationTrack tr = trackOf(a, max_frames);
    CAPTURE(max_frames);
    // The evenly strided frames, the last, and at most three per event.
    CHECK(tr.t.size() <= max_frames + 1 + 3 * tr.events.size());
    REQUIRE(tr.events.size() == a.run.result.events.size());
    // Each event has a frame at its time, drawn in the mode it enters (the right value).
    for (const auto& e : tr.events) {
      const auto it = std::find_if(tr.t.begin(), tr.t.end(), [&](double t) { return std::abs(t - e.t) < 1e-9; });
      REQUIRE(it != tr.t.end());
      std::size_t f = std::size_t(it - tr.t.begin());
      while (f + 1 < tr.t.size() && tr.t[f + 1] == tr.t[f]) ++f;
      const int expected = e.kind == stickslip::dynamics::EventKind::kStick ? int(ContactMode::kStick)
                                                                            : int(ContactMode::kSlipNegative);
      CHECK(tr.mode(Eigen::Index(f), 0) == expected);
    }
    // Stick until k x = μs m g (7.3575 s), slip for 2.6185 s, stick for 4.905 s.
    for (std::size_t f = 0; f < tr.t.size(); ++f) {
      const double t = tr.t[f];
      if (t < t_slip - 1e-6) CHECK(tr.mode(Eigen::Index(f), 0) == int(ContactMode::kStick));
      if (t > t_slip + 1e-6 && t < t_slip + slip - 1e-6) CHECK(tr.mode(Eigen::Index(f), 0) == int(ContactMode::kSlipNegative));
      if (t > t_slip + slip + 1e-6 && t < t_slip + slip + stick - 1e-6)
        CHECK(tr.mode(Eigen::Index(f), 0) == int(ContactMode::kStick));
    }
    // The block sits on the belt: contact point under its centre, normal +y, N = m g.
    const Eigen::Index last = Eigen::Index(tr.t.size()) - 1;
    CHECK(tr.contact(last, 0) == Approx(tr.pose(last, 0)).margin(1e-12));
    CHECK(tr.contact(last, 3) == Approx(1.0));
    CHECK(tr.contact(last, 4) == Approx(9.81).epsilon(1e-9));
  }
}

TEST_CASE("animate: modes read from a run's CSV agree with its events away from them", "[cli][animate]") {
  const PlanarAnimation a = runOf("belt", stickslip::mechanisms::Route::kEventDriven, 12.0);
  ScratchDir dir("animate_csv");
  const std::string csv = dir / "belt.csv";
  REQUIRE(cli({"run", "belt", "--method", "event-driven", "--t-end", "12", "--out", csv}).code == 0);
  const stickslip::cli::Series s = stickslip::cli::readSeriesCsv(csv);
  const AnimationTrack from_csv =
      stickslip::cli::animationTrack(*a.scenario.model, "csv", s.names, s.data, nullptr, 100000, 1e-5);
  const AnimationTrack from_run = trackOf(a, 100000);
  REQUIRE(from_csv.t.size() == from_run.t.size());
  long compared = 0;
  for (std::size_t f = 0; f < from_run.t.size(); ++f) {
    bool near_event = false;
    for (const auto& e : from_run.events) near_event = near_event || std::abs(e.t - from_run.t[f]) < 0.01;
    if (near_event) continue;
    CHECK(from_csv.mode(Eigen::Index(f), 0) == from_run.mode(Eigen::Index(f), 0));
    ++compared;
  }
  CHECK(compared > 10000);
}

TEST_CASE("animate zheng-torque: a self-contained page under 2 MB for 2 s at 1 kHz, three methods", "[cli][animate]") {
  ScratchDir dir("animate_page");
  const std::string page = dir / "z.html";
  const Run r = cli({"animate", "zheng-torque", "--methods", "event-driven,penalty:ambrosio,moreau-jean", "--t-end",
                     "2", "--out", page});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("event-driven: ") && Contains("moreau-jean: "));
  const std::string html = slurp(page);
  CHECK(html.size() < 2u * 1024u * 1024u);
  // No network: no address, no external resource.
  CHECK_FALSE(std::regex_search(html, std::regex("https?:|src=|href=|@import|url\\(")));
  for (const char* id : {"id=\"mode-0-0\"", "id=\"mode-2-0\"", "id=\"body-1-2\"", "id=\"clock\"", "id=\"errors\""})
    CHECK_THAT(html, Contains(id));
  // Every sample of the 1 kHz history is a frame (2001 rows and the event rows).
  const std::smatch m = [&] {
    std::smatch match;
    std::regex_search(r.out, match, std::regex("event-driven: ([0-9]+) frames"));
    return match;
  }();
  REQUIRE(m.size() == 2);
  CHECK(std::stoi(m[1]) >= 2001);
}

TEST_CASE("animate --gif and --frames: gnuplot draws them, scripts kept", "[cli][animate]") {
  ScratchDir dir("animate_gif");
  const Run r = cli({"animate", "belt", "--methods", "event-driven", "--t-end", "2", "--gif", dir / "belt.gif",
                     "--frames", dir / "frames", "--fps", "5"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(slurp(dir / "belt.gif").substr(0, 6) == "GIF89a");
  CHECK_THAT(slurp(dir / "belt.gp"), Contains("set terminal gif animate"));
  // 2 s at 5 frames per second: 11 instants, 0 to 2 s.
  CHECK(fs::exists(dir.path / "frames" / "frame_00010.png"));
  CHECK_FALSE(fs::exists(dir.path / "frames" / "frame_00011.png"));
  CHECK(slurp((dir.path / "frames" / "frame_00000.png").string()).substr(1, 3) == "PNG");
}

TEST_CASE("animate: bad input is an error that names it, and nothing is overwritten", "[cli][animate]") {
  ScratchDir dir("animate_errors");
  Run r = cli({"animate", "belt"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--out F.html"));
  const std::string page = dir.write("page.html", "mine");
  r = cli({"animate", "belt", "--t-end", "1", "--out", page});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("exists; pass --force"));
  CHECK(slurp(page) == "mine");
  CHECK(cli({"animate", "belt", "--t-end", "1", "--out", page, "--force"}).code == 0);
  CHECK(slurp(page) != "mine");
  r = cli({"animate", "belt", "--methods", "event-drivn", "--out", dir / "x.html"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--methods: unknown method 'event-drivn'"));
  // A CSV of another mechanism, and one with a bad cell, named with their lines.
  const std::string other = dir.write("other.csv", "t,crank.x\n0,1\n");
  r = cli({"animate", "belt", "--run", other, "--out", dir / "y.html"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains(other + ": no column 'block.x'"));
  const std::string bad = dir.write("bad.csv", "t,block.x,block.y,block.theta\n0,0,0,0\n0.1,zero,0,0\n");
  r = cli({"animate", "belt", "--run", bad, "--out", dir / "z.html"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("bad.csv:3: block.x: expected a number, got 'zero'"));
  // An infinite coordinate, a time going back, or no rows at all cannot be drawn.
  for (const auto& [rows, reason] :
       {std::pair{"0,0,0,0\n0.1,inf,0,0\n", "bad2.csv:3: block.x: expected a finite number or nan"},
        {"0,0,0,0\n0.1,1e400,0,0\n", "bad2.csv:3: block.x: expected a finite number or nan"},
        {"0.1,0,0,0\n0,0,0,0\n", "bad2.csv:3: t: the time goes back, to 0"},
        {"", "bad2.csv: no rows to draw"}}) {
    const std::string csv =
        dir.write("bad2.csv", std::string("t,block.x,block.y,block.theta\n") + rows);
    r = cli({"animate", "belt", "--run", csv, "--out", dir / "z.html"});
    INFO(rows);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(reason));
  }
  // --frames into a file that is not a directory; its script is the user's until --force.
  const std::string file = dir.write("not_a_dir", "mine");
  r = cli({"animate", "belt", "--t-end", "0.2", "--frames", file});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--frames " + file + ": exists and is not a directory"));
  fs::create_directories(dir / "frames");
  const std::string script = dir.write("frames/frames.gp", "mine");
  r = cli({"animate", "belt", "--t-end", "0.2", "--frames", dir / "frames"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("frames.gp exists; pass --force"));
  CHECK(slurp(script) == "mine");
  r = cli({"animate", "belt", "--out", dir / "w.html", "--max-frames", "1"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("--max-frames"));
}
