// bench_engines_ladder: a ladder sliding down a frictionless wall and floor, in every engine,
// against the exact instant it leaves the wall.
//
//   bench_engines_ladder [--json] [--check]
//
// The ladder (mechanisms/scenarios/ladder.yaml: a uniform rod, L = 1 m, 1 kg, released at rest
// at 60° from the floor) leaves the wall when sin φ = (2/3) sin φ₀. The reference integrates
// φ̈ = −(3g/2L) cos φ by RK4 with h = 1e-6 s and locates that angle on the step's cubic Hermite
// interpolant. Ours: event-driven's "open" event of the wall contact (at the scenario's
// tolerance and at rtol 1e-6); Moreau–Jean's first step without a wall impulse; the penalty
// route's first sample (every 1e-5 s) without a wall force. The engines: the wall pushes only
// horizontally and nothing else does (floor and wall frictionless), so the centre's horizontal
// velocity ẋ grows while the ladder touches the wall and is constant after; the instant is the
// first step at which ẋ comes within kPlateau of its final value (a bias below 1e-5 s: ẋ
// approaches it quadratically).
// The engines' ladder is a capsule of radius 0.01 m whose end spheres' centres are L apart, its
// inertia set to the rod's (m L²/12) (in DART, whose FCL has no capsule, the two end spheres);
// the spheres' centres slide on lines 0.01 m off the wall and floor, the same motion.
//   MuJoCo   timestep × cone (pyramidal, elliptic; no friction either way);
//   Bullet   step × solver iterations (10, 100);
//   DART     step × boxed-LCP solver (Dantzig, PGS);
//   ODE      step × dWorldStep or dWorldQuickStep (20 iterations).
// --check: exit 1 unless our event-driven instant is within 1e-8 s of the reference (1e-4 s at
// rtol 1e-6) and Moreau–Jean's within 2 h; the engines' errors are reported, not asserted.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dynamics/routes/run_result.hpp"
#include "engine_common.hpp"
#include "engines.hpp"
#include "mechanisms/run_scenario.hpp"
#include "mechanisms/scenario_file.hpp"

using namespace stickslip;
using dynamics::threadCpuSeconds;  // each engine timed by our clock, as RunResult's CPU seconds
using bench::stepText;

namespace {

// ladder.yaml's values
constexpr double kLength = 1.0, kMass = 1.0, kG = 9.81, kRadius = 0.01;
const double kPhi0 = M_PI / 3;
const double kInertia = kMass * kLength * kLength / 12;  // about the centre, transverse
constexpr double kEnd = 0.6;                             // [s], past the separation (0.325 s)
constexpr double kPlateau = 1e-7;                        // [m/s]
const std::vector<double> kSteps{1e-2, 2e-3, 5e-4};

/// The exact instant (see the file comment).
double referenceSeparation() {
  constexpr double h = 1e-6;
  const double target = 2.0 / 3.0 * std::sin(kPhi0);
  auto f = [](double phi) { return -1.5 * kG / kLength * std::cos(phi); };
  double t = 0.0, phi = kPhi0, w = 0.0;
  for (;;) {
    const double k1p = w, k1w = f(phi), k2p = w + 0.5 * h * k1w, k2w = f(phi + 0.5 * h * k1p),
                 k3p = w + 0.5 * h * k2w, k3w = f(phi + 0.5 * h * k2p), k4p = w + h * k3w,
                 k4w = f(phi + h * k3p);
    const double phi1 = phi + h / 6 * (k1p + 2 * k2p + 2 * k3p + k4p),
                 w1 = w + h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    if (std::sin(phi1) > target) {
      t += h;
      phi = phi1;
      w = w1;
      continue;
    }
    auto cubic = [&](double u) {
      const double u2 = u * u, u3 = u2 * u;
      return (2 * u3 - 3 * u2 + 1) * phi + (u3 - 2 * u2 + u) * h * w + (3 * u2 - 2 * u3) * phi1 +
             (u3 - u2) * h * w1;
    };
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 60; ++i)
      (std::sin(cubic(0.5 * (lo + hi))) > target ? lo : hi) = 0.5 * (lo + hi);
    return t + 0.5 * (lo + hi) * h;
  }
}

struct Outcome {
  std::string engine, setting;
  double separation = NAN;  ///< [s]
  double cpu = NAN;         ///< CPU seconds per simulated second
  double h = NAN;           ///< Moreau–Jean's step [s]
};

/// Steps to kEnd with `step()`, recording the centre's horizontal velocity `vx()` after each
/// step; the separation is the first step within kPlateau of the final value.
template <typename Step, typename Vx>
void simulate(double h, Step&& step, Vx&& vx, Outcome& out) {
  const long n = std::lround(kEnd / h);
  std::vector<double> v(std::size_t(n) + 1);
  v[0] = vx();
  const double t0 = threadCpuSeconds();
  for (long i = 1; i <= n; ++i) {
    step();
    v[std::size_t(i)] = vx();
  }
  out.cpu = (threadCpuSeconds() - t0) / kEnd;
  for (std::size_t i = 0; i < v.size(); ++i)
    if (std::abs(v.back() - v[i]) <= kPlateau) {
      out.separation = double(i) * h;
      break;
    }
}

void ours(std::vector<Outcome>& all) {
  const mechanisms::Scenario scenario =
      mechanisms::loadScenario(STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/ladder.yaml");
  for (const double rtol : {0.0, 1e-6}) {  // 0: the scenario's tolerance
    mechanisms::RunSettings settings;
    settings.route = mechanisms::Route::kEventDriven;
    settings.t_end = kEnd;
    settings.output_dt = kEnd;
    if (rtol > 0.0) settings.tolerance = rtol;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip", rtol > 0.0 ? "event-driven, rtol 1e-6" : "event-driven", NAN,
              r.result.cpu_seconds / kEnd, NAN};
    for (const dynamics::ContactEvent& e : r.result.events)
      if (r.result.ok() && e.contact == 0 && e.kind == dynamics::EventKind::kOpen) {
        o.separation = e.t;
        break;
      }
    all.push_back(o);
  }
  // Moreau–Jean (every step) and the penalty route (every 1e-5 s): the first sample without a
  // wall force.
  auto fromWallForce = [&](mechanisms::Route route, double h, std::string setting) {
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = kEnd;
    if (route == mechanisms::Route::kMoreauJean) settings.dt = h;
    settings.output_dt = route == mechanisms::Route::kMoreauJean ? 0.0 : 1e-5;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip", std::move(setting), NAN, r.result.cpu_seconds / kEnd, h};
    const Eigen::Index wall = r.result.column("wall.N");
    for (Eigen::Index i = 1; r.result.ok() && i < r.result.history.rows(); ++i)
      if (r.result.history(i, wall) == 0.0) {  // the step ending at row i has no wall impulse
        o.separation = r.result.history(i - 1, 0);
        break;
      }
    all.push_back(o);
  };
  for (const double h : {1e-2, 1e-3, 1e-4})
    fromWallForce(mechanisms::Route::kMoreauJean, h, "Moreau–Jean, " + stepText(h));
  fromWallForce(mechanisms::Route::kPenalty, 0.0, "penalty (compliant contacts, its default law)");
}

/// The engines' ladder: its centre and its orientation (a turn about y taking the capsule's
/// axis, z, to the ladder's direction from foot to top).
Eigen::Vector3d startCentre() {
  return {kRadius + 0.5 * kLength * std::cos(kPhi0), 0.0,
          kRadius + 0.5 * kLength * std::sin(kPhi0)};
}
/// The capsule's axis is z; turned about y by −(π/2 − φ₀) it points from the foot (+x) up to
/// the top (towards the wall at x = 0).
const double kTurn = -(M_PI / 2 - kPhi0);

#ifdef STICKSLIP_HAVE_MUJOCO
void mujoco(std::vector<Outcome>& all) {
  const Eigen::Vector3d c = startCentre();
  for (const double h : kSteps)
    for (const char* cone : {"pyramidal", "elliptic"}) {
      char xml[1400];
      std::snprintf(xml, sizeof xml, R"(<mujoco model="ladder">
  <option timestep="%g" gravity="0 0 %g" cone="%s"/>
  <default><geom condim="1"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <geom name="wall" type="plane" size="5 5 0.1" zaxis="1 0 0"/>
    <body pos="%.17g 0 %.17g" quat="%.17g 0 %.17g 0">
      <freejoint/>
      <inertial pos="0 0 0" mass="%g" diaginertia="%.17g %.17g 1e-6"/>
      <geom type="capsule" size="%g %g"/>
    </body>
  </worldbody>
</mujoco>
)",
                    h, -kG, cone, c.x(), c.z(), std::cos(kTurn / 2), std::sin(kTurn / 2), kMass,
                    kInertia, kInertia, kRadius, kLength / 2);
      mjModel* m = bench::loadMjcf(xml);
      mjData* d = mj_makeData(m);
      Outcome o{"MuJoCo", stepText(h) + ", " + cone + " cone", NAN, NAN, NAN};
      simulate(
          h, [&] { mj_step(m, d); }, [&] { return d->qvel[0]; }, o);
      all.push_back(o);
      mj_deleteData(d);
      mj_deleteModel(m);
    }
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
void bullet(std::vector<Outcome>& all) {
  const Eigen::Vector3d c = startCentre();
  for (const double h : kSteps)
    for (const int iterations : {10, 100}) {
      bench::BulletWorld bullet(btVector3(0, 0, -kG), iterations);
      btDiscreteDynamicsWorld& world = bullet.world;
      btStaticPlaneShape floor_shape(btVector3(0, 0, 1), 0), wall_shape(btVector3(1, 0, 0), 0);
      btRigidBody floor(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &floor_shape));
      btRigidBody wall(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &wall_shape));
      for (btRigidBody* b : {&floor, &wall}) {
        b->setFriction(0.0);
        world.addRigidBody(b);
      }
      btCapsuleShapeZ shape(kRadius, kLength);
      btDefaultMotionState motion(
          btTransform(btQuaternion(btVector3(0, 1, 0), kTurn), btVector3(c.x(), c.y(), c.z())));
      btRigidBody rod(btRigidBody::btRigidBodyConstructionInfo(
          kMass, &motion, &shape, btVector3(kInertia, kInertia, 1e-6)));
      rod.setFriction(0.0);
      rod.setActivationState(DISABLE_DEACTIVATION);
      world.addRigidBody(&rod);
      Outcome o{"Bullet", stepText(h) + ", " + std::to_string(iterations) + " iterations", NAN, NAN,
                NAN};
      simulate(
          h, [&] { world.stepSimulation(btScalar(h), 0); },
          [&] { return double(rod.getLinearVelocity().x()); }, o);
      all.push_back(o);
      world.removeRigidBody(&rod);
      world.removeRigidBody(&wall);
      world.removeRigidBody(&floor);
    }
}
#endif

#ifdef STICKSLIP_HAVE_DART
void dartSim(std::vector<Outcome>& all) {
  using namespace dart::dynamics;
  for (const double h : kSteps)
    for (const bool pgs : {false, true}) {
      auto world = std::make_shared<dart::simulation::World>();
      world->setGravity(Eigen::Vector3d(0, 0, -kG));
      world->setTimeStep(h);
      // The floor (top at z = 0) and the wall (face at x = 0): boxes welded to the world.
      auto fixedBox = [&](const char* name, const Eigen::Vector3d& size,
                          const Eigen::Vector3d& centre) {
        SkeletonPtr skeleton = Skeleton::create(name);
        auto [weld, body] = skeleton->createJointAndBodyNodePair<WeldJoint>();
        Eigen::Isometry3d at = Eigen::Isometry3d::Identity();
        at.translation() = centre;
        weld->setTransformFromParentBodyNode(at);
        body->createShapeNodeWith<CollisionAspect, DynamicsAspect>(std::make_shared<BoxShape>(size))
            ->getDynamicsAspect()
            ->setFrictionCoeff(0.0);
        world->addSkeleton(skeleton);
      };
      fixedBox("floor", {10, 10, 0.2}, {0, 0, -0.1});
      fixedBox("wall", {0.2, 10, 10}, {-0.1, 0, 0});
      // DART's FCL has no capsule: the ladder's ends are its two spheres, all that touches.
      SkeletonPtr ladder = Skeleton::create("ladder");
      auto [free, body] = ladder->createJointAndBodyNodePair<FreeJoint>();
      for (const double end : {-0.5, 0.5}) {
        auto node = body->createShapeNodeWith<CollisionAspect, DynamicsAspect>(
            std::make_shared<SphereShape>(kRadius), end > 0 ? "top" : "foot");
        node->setRelativeTranslation(Eigen::Vector3d(0, 0, end * kLength));
        node->getDynamicsAspect()->setFrictionCoeff(0.0);
      }
      body->setInertia(Inertia(kMass, Eigen::Vector3d::Zero(),
                               Eigen::Vector3d(kInertia, kInertia, 1e-6).asDiagonal()));
      Eigen::Isometry3d start = Eigen::Isometry3d::Identity();
      start.linear() = Eigen::AngleAxisd(kTurn, Eigen::Vector3d::UnitY()).toRotationMatrix();
      start.translation() = startCentre();
      free->setPositions(FreeJoint::convertToPositions(start));
      world->addSkeleton(ladder);
      if (pgs)
        static_cast<dart::constraint::BoxedLcpConstraintSolver*>(world->getConstraintSolver())
            ->setBoxedLcpSolver(std::make_shared<dart::constraint::PgsBoxedLcpSolver>());
      Outcome o{"DART", stepText(h) + (pgs ? ", PGS (30 iterations)" : ", Dantzig"), NAN, NAN, NAN};
      simulate(
          h, [&] { world->step(); }, [&] { return body->getLinearVelocity().x(); }, o);
      all.push_back(o);
    }
}
#endif

#ifdef STICKSLIP_HAVE_ODE
void ode(std::vector<Outcome>& all) {
  dInitODE2(0);
  dSetMessageHandler(bench::ignoreOdeMessage);
  const Eigen::Vector3d c = startCentre();
  for (const double h : kSteps)
    for (const bool quick : {false, true}) {
      bench::OdeWorld w{dWorldCreate(), dJointGroupCreate(0), 0, 0.0};
      dSpaceID space = dSimpleSpaceCreate(nullptr);
      dWorldSetGravity(w.world, 0, 0, -kG);
      dCreatePlane(space, 0, 0, 1, 0);
      dCreatePlane(space, 1, 0, 0, 0);
      dBodyID body = dBodyCreate(w.world);
      dMass mass;
      dMassSetParameters(&mass, kMass, 0, 0, 0, kInertia, kInertia, 1e-6, 0, 0, 0);
      dBodySetMass(body, &mass);
      dGeomSetBody(dCreateCapsule(space, kRadius, kLength), body);
      dBodySetPosition(body, c.x(), c.y(), c.z());
      const dQuaternion q{std::cos(kTurn / 2), 0, std::sin(kTurn / 2), 0};
      dBodySetQuaternion(body, q);
      Outcome o{"ODE", stepText(h) + (quick ? ", quickstep 20 iterations" : ", dWorldStep"), NAN,
                NAN, NAN};
      simulate(
          h,
          [&] {
            dSpaceCollide(space, &w, bench::odeNear);
            quick ? dWorldQuickStep(w.world, h) : dWorldStep(w.world, h);
            dJointGroupEmpty(w.contacts);
          },
          [&] { return double(dBodyGetLinearVel(body)[0]); }, o);
      all.push_back(o);
      dSpaceDestroy(space);
      dJointGroupDestroy(w.contacts);
      dWorldDestroy(w.world);
    }
  dCloseODE();
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const bench::EngineOptions options =
      bench::parseEngineOptions(argc, argv, "bench_engines_ladder",
                                "A ladder sliding on a frictionless wall and floor in every "
                                "engine, against the exact instant it leaves the wall.");
  const double ref = referenceSeparation();
  std::vector<Outcome> all;
  ours(all);
#ifdef STICKSLIP_HAVE_MUJOCO
  mujoco(all);
#endif
#ifdef STICKSLIP_HAVE_BULLET
  bullet(all);
#endif
#ifdef STICKSLIP_HAVE_DART
  dartSim(all);
#endif
#ifdef STICKSLIP_HAVE_ODE
  ode(all);
#endif
  if (options.json) {
    nlohmann::json out{{"reference", ref}, {"runs", nlohmann::json::array()}};
    for (const Outcome& o : all)
      out["runs"].push_back(
          {{"engine", o.engine},
           {"setting", o.setting},
           {"separation",
            std::isnan(o.separation) ? nlohmann::json() : nlohmann::json(o.separation)},
           {"cpu_per_simulated_s", o.cpu}});
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf(
        "A ladder on a frictionless wall and floor: when it leaves the wall (exact: %.10f s).\n\n"
        "| engine | setting | leaves the wall [s] | error [s] | CPU [s per simulated s] "
        "|\n|---|---|---|---|---|\n",
        ref);
    std::vector<bench::RunPoint> points;
    for (const Outcome& o : all) {
      std::printf("| %s | %s | %.6f | %.3g | %.3g |\n", o.engine.c_str(), o.setting.c_str(),
                  o.separation, o.separation - ref, o.cpu);
      points.push_back({o.engine, o.setting, std::abs(o.separation - ref), o.cpu});
    }
    bench::printClaim(points, "s");
  }
  int failures = 0;
  for (const Outcome& o : all) {
    if (o.engine != "stickslip" || o.setting.rfind("penalty", 0) == 0)
      continue;  // the penalty route's error is reported
    const double tolerance = o.setting == "event-driven"              ? 1e-8
                             : o.setting == "event-driven, rtol 1e-6" ? 1e-4
                                                                      : 2 * o.h;
    if (!(std::abs(o.separation - ref) <= tolerance)) {
      std::cerr << "bench_engines_ladder: " << o.setting << ": leaves the wall at " << o.separation
                << " s, " << o.separation - ref << " s off (tolerance " << tolerance << " s)\n";
      ++failures;
    }
  }
  return options.check && failures > 0 ? 1 : 0;
}
