// bench_engines_slope: a box resting on a slope below its friction angle, in every engine.
// The exact answer is that it never moves (tan α = 0.309 < μ = 0.35); an engine whose stick is
// regularized or iterated creeps. Reported: the creep speed, |Δ centre| over t ∈ [1, 5] s ÷ 4 s,
// and the CPU per simulated second, for each engine at each of its settings.
//
//   bench_engines_slope [--json] [--check]
//
// The problem is mechanisms/scenarios/box_on_slope.yaml (box 0.2 × 0.1 × 0.05 m, 1.5 kg,
// α = 0.3 rad, μ = 0.35 static and kinetic), written natively for each engine by hand: the
// ground horizontal and gravity tilted by α, which is the same motion. Each engine's sleeping
// (Bullet deactivates a body slower than 0.8 m/s for 2 s) is turned off: it would freeze a
// creeping body and hide the creep, not prevent it.
//   ours     Moreau–Jean (h = 1e-2, 1e-3, 1e-4 s) and event-driven, on the scenario file;
//   MuJoCo   MJCF; timestep × cone (pyramidal, elliptic) × impratio (1, 10) × noslip_iterations
//            (0, 10);
//   Bullet   btDiscreteDynamicsWorld, box on a static plane, friction μ·1; step × solver
//            iterations (10, the default, and 100);
//   DART     a FreeJoint box on a WeldJoint box ground, friction μ on both; step × boxed-LCP
//            solver (Dantzig, the default, and PGS);
//   ODE      box on a plane, contact joints with the Coulomb pyramid (dContactApprox1), μ;
//            step × dWorldStep (Dantzig) or dWorldQuickStep (20 iterations, the default, 100).
// --check: exit 1 unless ours stays at rest (slides less than 1e-12 m) at every setting, or an
// engine's run fails (NaN); the engines' creep is reported, not asserted.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
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

// box_on_slope.yaml's values
constexpr double kA = 0.1, kB = 0.05, kC = 0.025;  // half-sizes [m]
constexpr double kMass = 1.5;                      // [kg]
constexpr double kAngle = 0.3;                     // [rad]
constexpr double kMu = 0.35;
constexpr double kG = 9.81;
const double kGravityX = kG * std::sin(kAngle), kGravityZ = -kG * std::cos(kAngle);
constexpr double kSettle = 1.0, kEnd = 5.0;          // creep measured over [kSettle, kEnd] [s]
const std::vector<double> kSteps{1e-2, 2e-3, 5e-4};  // the engines' steps [s]

struct Outcome {
  std::string engine, setting;
  double slid = NAN;   ///< |in-plane displacement| at kEnd [m]
  double creep = NAN;  ///< [m/s]
  double cpu = NAN;    ///< CPU seconds per simulated second
};

/// Steps a simulation with `step()` (one step of h) to kEnd; `centre()` gives the box's centre
/// in the slope's plane (x, y). How far it slid, its creep and the CPU per simulated second.
template <typename Step, typename Centre>
void simulate(double h, Step&& step, Centre&& centre, Outcome& out) {
  const long n = std::lround(kEnd / h), settle = std::lround(kSettle / h);
  const Eigen::Vector2d start = centre();
  Eigen::Vector2d at_settle = start;
  const double t0 = threadCpuSeconds();
  for (long i = 0; i < n; ++i) {
    if (i == settle) at_settle = centre();
    step();
  }
  out.cpu = (threadCpuSeconds() - t0) / kEnd;
  out.slid = (centre() - start).norm();
  out.creep = (centre() - at_settle).norm() / (kEnd - kSettle);
}

void ours(std::vector<Outcome>& all) {
  mechanisms::Scenario scenario =
      mechanisms::loadScenario(STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/box_on_slope.yaml");
  mechanisms::applySettings(scenario, {"parameters.mu_kinetic=0.35", "parameters.azimuth=0"});
  auto run = [&](mechanisms::Route route, double h, std::string setting) {
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = kEnd;
    settings.output_dt = kSettle;  // rows at 0, 1, …, 5 s
    if (route == mechanisms::Route::kMoreauJean) settings.dt = h;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip", std::move(setting)};
    if (r.result.ok()) {
      // In the slope's plane: along the fall line (x tilted by α about y) and across it (y).
      const Eigen::Index x = r.result.column("box.x");
      const Eigen::MatrixXd& hist = r.result.history;
      auto inPlane = [&](Eigen::Index row) {
        return Eigen::Vector2d(
            hist(row, x) * std::cos(kAngle) - hist(row, x + 2) * std::sin(kAngle),
            hist(row, x + 1));
      };
      const Eigen::Index last = hist.rows() - 1;
      o.slid = (inPlane(last) - inPlane(0)).norm();
      o.creep = (inPlane(last) - inPlane(1)).norm() / (kEnd - kSettle);
      o.cpu = r.result.cpu_seconds / kEnd;
    }
    all.push_back(o);
  };
  for (const double h : {1e-2, 1e-3, 1e-4})
    run(mechanisms::Route::kMoreauJean, h, "Moreau–Jean, " + stepText(h));
  run(mechanisms::Route::kEventDriven, 0.0, "event-driven");
}

#ifdef STICKSLIP_HAVE_MUJOCO
std::string mjcf(double h, const char* cone, double impratio, int noslip) {
  char buf[1024];
  std::snprintf(buf, sizeof buf, R"(<mujoco model="slope">
  <option timestep="%g" gravity="%.17g 0 %.17g" cone="%s" impratio="%g" noslip_iterations="%d"/>
  <worldbody>
    <geom name="ground" type="plane" size="5 5 0.1" friction="%g 0 0"/>
    <body name="box" pos="0 0 %g">
      <freejoint/>
      <geom type="box" size="%g %g %g" mass="%g" friction="%g 0 0"/>
    </body>
  </worldbody>
</mujoco>
)",
                h, kGravityX, kGravityZ, cone, impratio, noslip, kMu, kC, kA, kB, kC, kMass, kMu);
  return buf;
}

void mujoco(std::vector<Outcome>& all) {
  for (const double h : kSteps)
    for (const char* cone : {"pyramidal", "elliptic"})
      for (const double impratio : {1.0, 10.0})
        for (const int noslip : {0, 10}) {
          const std::string xml = mjcf(h, cone, impratio, noslip);
          mjModel* m = bench::loadMjcf(xml);
          mjData* d = mj_makeData(m);
          char setting[128];
          std::snprintf(setting, sizeof setting, "%s, %s cone, impratio %g, noslip %d",
                        stepText(h).c_str(), cone, impratio, noslip);
          Outcome o{"MuJoCo", setting};
          simulate(
              h, [&] { mj_step(m, d); }, [&] { return Eigen::Vector2d(d->qpos[0], d->qpos[1]); },
              o);
          all.push_back(o);
          mj_deleteData(d);
          mj_deleteModel(m);
        }
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
void bullet(std::vector<Outcome>& all) {
  for (const double h : kSteps)
    for (const int iterations : {10, 100}) {
      bench::BulletWorld bullet(btVector3(kGravityX, 0, kGravityZ), iterations);
      btDiscreteDynamicsWorld& world = bullet.world;
      btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
      btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &plane));
      ground.setFriction(1.0);  // Bullet multiplies the two bodies' coefficients
      world.addRigidBody(&ground);
      btBoxShape shape(btVector3(kA, kB, kC));
      btVector3 inertia;
      shape.calculateLocalInertia(kMass, inertia);
      btDefaultMotionState motion(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, kC)));
      btRigidBody box(btRigidBody::btRigidBodyConstructionInfo(kMass, &motion, &shape, inertia));
      box.setFriction(kMu);
      box.setActivationState(DISABLE_DEACTIVATION);
      world.addRigidBody(&box);
      Outcome o{"Bullet", stepText(h) + ", " + std::to_string(iterations) + " iterations"};
      simulate(
          h, [&] { world.stepSimulation(btScalar(h), 0); },
          [&] {
            const btVector3 p = box.getCenterOfMassPosition();
            return Eigen::Vector2d(p.x(), p.y());
          },
          o);
      all.push_back(o);
      world.removeRigidBody(&box);
      world.removeRigidBody(&ground);
    }
}
#endif

#ifdef STICKSLIP_HAVE_DART
void dartSim(std::vector<Outcome>& all) {
  using namespace dart::dynamics;
  for (const double h : kSteps)
    for (const bool pgs : {false, true}) {
      auto world = std::make_shared<dart::simulation::World>();
      world->setGravity(Eigen::Vector3d(kGravityX, 0, kGravityZ));
      world->setTimeStep(h);
      SkeletonPtr ground = Skeleton::create("ground");
      auto [weld, floor] = ground->createJointAndBodyNodePair<WeldJoint>();
      auto floor_shape = floor->createShapeNodeWith<CollisionAspect, DynamicsAspect>(
          std::make_shared<BoxShape>(Eigen::Vector3d(10, 10, 0.2)));
      floor_shape->getDynamicsAspect()->setFrictionCoeff(kMu);  // DART takes the smaller of the two
      Eigen::Isometry3d below = Eigen::Isometry3d::Identity();
      below.translation().z() = -0.1;
      weld->setTransformFromParentBodyNode(below);
      SkeletonPtr block = Skeleton::create("box");
      auto [free, body] = block->createJointAndBodyNodePair<FreeJoint>();
      auto shape = std::make_shared<BoxShape>(Eigen::Vector3d(2 * kA, 2 * kB, 2 * kC));
      body->createShapeNodeWith<CollisionAspect, DynamicsAspect>(shape)
          ->getDynamicsAspect()
          ->setFrictionCoeff(kMu);
      body->setInertia(Inertia(kMass, Eigen::Vector3d::Zero(), shape->computeInertia(kMass)));
      Eigen::Isometry3d start = Eigen::Isometry3d::Identity();
      start.translation().z() = kC;
      free->setPositions(FreeJoint::convertToPositions(start));
      world->addSkeleton(ground);
      world->addSkeleton(block);
      if (pgs)
        static_cast<dart::constraint::BoxedLcpConstraintSolver*>(world->getConstraintSolver())
            ->setBoxedLcpSolver(std::make_shared<dart::constraint::PgsBoxedLcpSolver>());
      Outcome o{"DART", stepText(h) + (pgs ? ", PGS (30 iterations)" : ", Dantzig")};
      simulate(
          h, [&] { world->step(); },
          [&] { return Eigen::Vector2d(body->getWorldTransform().translation().head<2>()); }, o);
      all.push_back(o);
    }
}
#endif

#ifdef STICKSLIP_HAVE_ODE
int ode_messages = 0;  // ODE's "LCP internal error" reports, counted per run instead of printed
void countOdeMessage(int, const char*, va_list) { ++ode_messages; }

void ode(std::vector<Outcome>& all) {
  dInitODE2(0);
  dSetMessageHandler(countOdeMessage);
  for (const double h : kSteps)
    for (const int iterations : {0, 20, 100}) {  // 0: dWorldStep
      bench::OdeWorld w{dWorldCreate(), dJointGroupCreate(0), dContactApprox1, kMu};
      dSpaceID space = dSimpleSpaceCreate(nullptr);
      dWorldSetGravity(w.world, kGravityX, 0, kGravityZ);
      if (iterations > 0) dWorldSetQuickStepNumIterations(w.world, iterations);
      dCreatePlane(space, 0, 0, 1, 0);
      dBodyID body = dBodyCreate(w.world);
      dMass mass;
      dMassSetBoxTotal(&mass, kMass, 2 * kA, 2 * kB, 2 * kC);
      dBodySetMass(body, &mass);
      dGeomSetBody(dCreateBox(space, 2 * kA, 2 * kB, 2 * kC), body);
      dBodySetPosition(body, 0, 0, kC);
      Outcome o{"ODE", stepText(h) + (iterations > 0 ? ", quickstep " + std::to_string(iterations) +
                                                           " iterations"
                                                     : std::string(", dWorldStep"))};
      ode_messages = 0;
      simulate(
          h,
          [&] {
            dSpaceCollide(space, &w, bench::odeNear);
            if (iterations > 0)
              dWorldQuickStep(w.world, h);
            else
              dWorldStep(w.world, h);
            dJointGroupEmpty(w.contacts);
          },
          [&] {
            const dReal* p = dBodyGetPosition(body);
            return Eigen::Vector2d(p[0], p[1]);
          },
          o);
      if (ode_messages > 0)
        o.setting += " (" + std::to_string(ode_messages) + " LCP internal errors reported)";
      all.push_back(o);
      dSpaceDestroy(space);
      dJointGroupDestroy(w.contacts);
      dWorldDestroy(w.world);
    }
  dCloseODE();
}
#endif

void printTable(const std::vector<Outcome>& all) {
  std::cout << "A box held by friction on a slope (exact: it never moves): how far it slid by t = "
            << kEnd << " s, and its creep over [" << kSettle << ", " << kEnd << "] s.\n\n"
            << "| engine | setting | slid [m] | creep [m/s] | CPU [s per simulated s] "
               "|\n|---|---|---|---|---|\n";
  for (const Outcome& o : all)
    std::printf("| %s | %s | %.3g | %.3g | %.3g |\n", o.engine.c_str(), o.setting.c_str(), o.slid,
                o.creep, o.cpu);
  std::vector<bench::RunPoint> points;
  for (const Outcome& o : all) points.push_back({o.engine, o.setting, o.slid, o.cpu});
  bench::printClaim(points, "m slid");
}

}  // namespace

int main(int argc, char** argv) {
  const bench::EngineOptions options = bench::parseEngineOptions(
      argc, argv, "bench_engines_slope",
      "A box on a slope below its friction angle (exact: it never moves) in every engine: how far "
      "it slid, its creep speed and the CPU per simulated second.");
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
    nlohmann::json out = nlohmann::json::array();
    for (const Outcome& o : all)
      out.push_back({{"engine", o.engine},
                     {"setting", o.setting},
                     {"slid", o.slid},
                     {"creep", o.creep},
                     {"cpu_per_simulated_s", o.cpu}});
    std::cout << out.dump(1) << "\n";
  } else {
    printTable(all);
  }
  int failures = 0;
  for (const Outcome& o : all)
    if (std::isnan(o.creep) || (o.engine == "stickslip" && !(o.slid < 1e-12))) {
      std::cerr << "bench_engines_slope: " << o.engine << ", " << o.setting << ": creep " << o.creep
                << "\n";
      ++failures;
    }
  return options.check && failures > 0 ? 1 : 0;
}
