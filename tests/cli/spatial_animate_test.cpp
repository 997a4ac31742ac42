// `stickslip animate` on spatial mechanisms: the scene taken from the model (shapes, links
// through their joints, journal and bearing, the ground's plane), the frames' contact points
// and sliding directions against the box on a slope's closed form, the modes against the run's
// events, the page (three.js embedded, no network) and its input errors. The page in a real
// browser: tests/browser/animate_browser_test.py.
#include <catch2/catch.hpp>
#include <cmath>
#include <regex>

#include "cli/animation_html.hpp"
#include "cli_run.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"
#include "standard_gravity.hpp"

using Catch::Matchers::Contains;
using stickslip::cli::AnimationTrack;
using stickslip::cli::SpatialPart;
using Eigen::Vector3d;

namespace {

const std::string kBox = std::string(STICKSLIP_SCENARIOS) + "/box_on_slope.yaml";
constexpr double kAngle = 0.3, kAzimuth = 0.7, kMu = 0.4, kSpeed = 0.5;
using stickslip::test::kG;

struct SpatialAnimation {
  stickslip::mechanisms::Scenario scenario;
  stickslip::mechanisms::ScenarioRun run;
};

/// The box launched down its slope at kSpeed with μs = μk = kMu > tan α: it slides, then sticks.
SpatialAnimation launchedBox() {
  SpatialAnimation a{stickslip::mechanisms::loadScenario(kBox), {}};
  stickslip::mechanisms::applySettings(a.scenario, {"parameters.speed=0.5", "parameters.mu_static=0.4",
                                                    "parameters.mu_kinetic=0.4"});
  stickslip::mechanisms::RunSettings s;
  s.route = stickslip::mechanisms::Route::kEventDriven;
  s.t_end = 1.0;
  a.run = stickslip::mechanisms::runScenario(a.scenario, s);
  REQUIRE(a.run.result.ok());
  return a;
}

const SpatialPart* find(const std::vector<SpatialPart>& parts, SpatialPart::Kind kind, std::size_t nth = 0) {
  for (const SpatialPart& p : parts)
    if (p.kind == kind && nth-- == 0) return &p;
  return nullptr;
}

}  // namespace

TEST_CASE("spatial animate: a box launched down a slope, its corners on the plane, sliding down the fall line "
          "until the closed form's stop, then stuck",
          "[cli][animate][spatial]") {
  const SpatialAnimation a = launchedBox();
  const AnimationTrack track = stickslip::cli::scenarioTrack(a.scenario, "event-driven", a.run.result.columns,
                                                             a.run.result.history, &a.run.result, 4000, 1e-8);
  const double stop = kSpeed / (kG * (kMu * std::cos(kAngle) - std::sin(kAngle)));
  const Vector3d n(std::sin(kAngle) * std::cos(kAzimuth), std::sin(kAngle) * std::sin(kAzimuth), std::cos(kAngle));
  const Vector3d down(std::cos(kAngle) * std::cos(kAzimuth), std::cos(kAngle) * std::sin(kAzimuth), -std::sin(kAngle));
  REQUIRE(track.pose.cols() == 7);
  REQUIRE(track.contact.cols() == 4 * 11);
  int sliding = 0, stuck = 0;
  for (Eigen::Index f = 0; f < track.contact.rows(); ++f) {
    double normal = 0.0;  // Σ N = m g cos α: the weight's normal part, the box not turning
    for (Eigen::Index k = 0; k < 4; ++k) normal += track.contact(f, 11 * k + 9);
    CHECK(std::abs(normal - 1.5 * kG * std::cos(kAngle)) < 1e-6);
    const bool before = track.t[std::size_t(f)] < stop - 1e-6, after = track.t[std::size_t(f)] > stop + 1e-6;
    for (Eigen::Index k = 0; k < 4; ++k) {
      const auto c = track.contact.row(f).segment<11>(11 * k);
      // Every corner on the plane through the origin, its normal the plane's.
      CHECK(std::abs(n.dot(Vector3d(c(0), c(1), c(2)))) < 1e-9);
      CHECK((Vector3d(c(3), c(4), c(5)).cross(n)).norm() < 1e-12);
      const double N = c(9), F = c(10);
      if (before) {
        // Sliding down the fall line; friction μk N against it.
        CHECK(track.mode(f, k) == int(stickslip::dynamics::ContactMode::kSlipPositive));
        CHECK((Vector3d(c(6), c(7), c(8)) - down).norm() < 1e-9);
        CHECK(std::abs(F + kMu * N) < 1e-9 * N);
        ++sliding;
      } else if (after) {
        CHECK(track.mode(f, k) == int(stickslip::dynamics::ContactMode::kStick));
        CHECK(-F <= kMu * N * (1 + 1e-9));
        ++stuck;
      }
    }
  }
  CHECK(sliding > 100);
  CHECK(stuck > 100);

  // The scene: the box as its model's shape, its centroid, the ground's plane under it.
  const auto scene = stickslip::cli::spatialAnimationScene(*a.scenario.spatial, {track});
  REQUIRE(scene.parts.size() == 1);
  const SpatialPart* box = find(scene.parts[0], SpatialPart::Kind::kBox);
  REQUIRE(box != nullptr);
  CHECK((box->size - Vector3d(0.2, 0.1, 0.05)).norm() < 1e-15);
  CHECK(find(scene.parts[0], SpatialPart::Kind::kBar) == nullptr);
  CHECK(find(scene.parts[0], SpatialPart::Kind::kCentroid) != nullptr);
  const SpatialPart* plane = find(scene.ground, SpatialPart::Kind::kPlane);
  REQUIRE(plane != nullptr);
  CHECK((plane->b - n).norm() < 1e-12);
  CHECK(std::abs(n.dot(plane->a)) < 1e-12);
  CHECK(scene.contacts == std::vector<std::string>{"corner-1", "corner-2", "corner-3", "corner-4"});
  CHECK(scene.mu_static == std::vector<double>(4, kMu));
  // The motion inside the box: the slide's end, v0² / (2 a) down the fall line.
  const Vector3d end = track.pose.row(track.pose.rows() - 1).head<3>().transpose();
  CHECK((end.array() > scene.lower.array()).all());
  CHECK((end.array() < scene.upper.array()).all());
}

TEST_CASE("spatial animate: links drawn through their joints, a joint's axle along its axis, the clearance joint's "
          "journal and bearing, a body without attachments a cube",
          "[cli][animate][spatial]") {
  const auto sc = stickslip::mechanisms::loadScenario("spatial-slider-crank-clearance");
  const auto scene = stickslip::cli::spatialAnimationScene(*sc.spatial, {});
  REQUIRE(scene.bodies == std::vector<std::string>{"crank", "rod", "slider"});
  // The crank: a bar from its centroid to its spherical joint's point, and to the bearing's centre.
  const auto& crank = scene.parts[0];
  const SpatialPart* bar = find(crank, SpatialPart::Kind::kBar);
  REQUIRE(bar != nullptr);
  CHECK(bar->a.norm() == 0.0);
  const SpatialPart* bearing = find(crank, SpatialPart::Kind::kBearing);
  REQUIRE(bearing != nullptr);
  CHECK(bearing->radius == 0.01);
  CHECK(std::abs((bearing->b - bearing->a).norm() - 0.02) < 1e-15);
  CHECK(((bearing->b - bearing->a).normalized() - Vector3d::UnitY()).norm() < 1e-15);
  // The journal on the ground, 19 mm long, 9.5 mm in radius.
  const SpatialPart* journal = find(scene.ground, SpatialPart::Kind::kJournal);
  REQUIRE(journal != nullptr);
  CHECK(journal->radius == 0.0095);
  CHECK(std::abs((journal->b - journal->a).norm() - 0.019) < 1e-15);
  // The rod: bars to both its joints; the slider: a cube; the guide a line on the ground.
  CHECK(find(scene.parts[1], SpatialPart::Kind::kBar, 1) != nullptr);
  const SpatialPart* cube = find(scene.parts[2], SpatialPart::Kind::kBox);
  REQUIRE(cube != nullptr);
  CHECK(cube->size.minCoeff() == scene.block_size);
  CHECK(find(scene.ground, SpatialPart::Kind::kGuide) != nullptr);
  CHECK(scene.contacts.size() == 4);
  CHECK(scene.contacts[0] == "crank-pin.radial-A");
}

TEST_CASE("spatial model files: a body's shape (box, sphere, cylinder, capsule), and bad shapes are located errors",
          "[cli][animate][spatial]") {
  const std::string head = R"(model:
  dimension: 3
  bodies:
    - {name: b, mass: 1, inertia: [0.1, 0.1, 0.1], shape: )";
  const std::string tail = "}\n";
  auto parts = [&](const std::string& shape) {
    const auto s = stickslip::mechanisms::loadSpatialModelText(head + shape + tail, "m.yaml");
    return stickslip::cli::spatialAnimationScene(s, {}).parts[0];
  };
  const auto capsule = parts("{type: capsule, radius: 0.02, length: 0.3, axis: [1, 0, 0], centre: [0, 0.1, 0]}");
  const SpatialPart* c = find(capsule, SpatialPart::Kind::kCapsule);
  REQUIRE(c != nullptr);
  CHECK((c->a - Vector3d(-0.15, 0.1, 0)).norm() < 1e-15);
  CHECK((c->b - Vector3d(0.15, 0.1, 0)).norm() < 1e-15);
  CHECK(c->radius == 0.02);
  CHECK(find(parts("{type: sphere, radius: 0.05}"), SpatialPart::Kind::kSphere)->radius == 0.05);
  CHECK(find(parts("{type: cylinder, radius: 0.05, length: 0.1}"), SpatialPart::Kind::kCylinder)->b.z() == 0.05);
  CHECK(find(parts("{type: box, size: [1, 2, 3]}"), SpatialPart::Kind::kBox)->size == Vector3d(1, 2, 3));
  // The scene's box holds a body's shape, not only its centroid.
  const auto ball = stickslip::mechanisms::loadSpatialModelText(head + "{type: sphere, radius: 2}" + tail, "m.yaml");
  AnimationTrack still;
  still.t = {0.0};
  still.pose = ball.q0.transpose();
  const auto around = stickslip::cli::spatialAnimationScene(ball, {still});
  CHECK((around.upper - around.lower).minCoeff() >= 4.0);
  const auto error = [&](const std::string& shape) {
    try {
      stickslip::mechanisms::loadSpatialModelText(head + shape + tail, "m.yaml");
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK_THAT(error("{type: box, size: [1, 0, 1]}"), Contains("m.yaml:4: model.bodies[0].shape.size"));
  CHECK_THAT(error("{type: cylinder, radius: 0.1}"), Contains("model.bodies[0].shape.length"));
  CHECK_THAT(error("{type: capsule, radius: 0.1, length: 0.2, axis: [0, 0, 0]}"), Contains("model.bodies[0].shape.axis"));
  CHECK_THAT(error("{type: sphere, radius: 0.1, length: 1}"), Contains("model.bodies[0].shape"));
  CHECK_THAT(error("{type: disk, radius: 0.1}"), Contains("model.bodies[0].shape.type"));
}

TEST_CASE("spatial animate: a self-contained page with three.js, several methods overlaid, --frames refused",
          "[cli][animate][spatial]") {
  ScratchDir dir("spatial_animate_page");
  const std::string page = dir / "box.html";
  const Run r = cli({"animate", kBox, "--methods", "event-driven,moreau-jean,penalty", "--t-end", "0.3", "--set",
                     "parameters.speed=0.5", "--out", page});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("event-driven: ") && Contains("moreau-jean: ") && Contains("penalty: "));
  const std::string html = slurp(page);
  CHECK_THAT(html, Contains("REVISION=\"111\"") && Contains("THREE.OrbitControls") && Contains("\"stride\":11"));
  // No external resource outside the scripts (three.js's text names addresses it never loads).
  std::string markup = html;
  for (std::size_t at; (at = markup.find("<script>")) != std::string::npos;)
    markup.erase(at, markup.find("</script>", at) + 9 - at);
  CHECK_FALSE(std::regex_search(markup, std::regex("https?:|src=|href=|@import|url\\(")));
  for (const char* id : {"id=\"mode-0-0\"", "id=\"mode-2-3\"", "id=\"view\"", "id=\"clock\"", "id=\"errors\""})
    CHECK_THAT(html, Contains(id));
  const Run frames = cli({"animate", kBox, "--frames", dir / "frames"});
  CHECK(frames.code == 2);
  CHECK_THAT(frames.err, Contains("--frames: 'box_on_slope' is a spatial mechanism, drawn by the HTML page only"));
}
