// bench_engines_belt: the belt's stick–slip cycle (thesis §3.4, Table 3.1) in every engine,
// against its closed-form instants.
//
//   bench_engines_belt [--json] [--check]
//
// A 1 kg block on a belt moving at v_b = 0.1 m/s, tied to the ground by a spring k = 2 N/m,
// μs = 0.15, μk = 0.1 (mechanisms/scenarios/belt.yaml). Exactly (mechanisms/belt.hpp) it
// sticks until t₁ = 7.358 s, slips for τ = 2.59 s, sticks again, and so on: 6 changes in the
// first 20 s. The engines have one friction coefficient: each runs with μ = μs and with μ = μk,
// and neither can make the cycle, whose stick phases exist because μs > μk. Their changes are
// read off the block's velocity: stick while |v − v_b| < kStickBand (the first break-away
// corrected for the band's lag, see ChangeRecorder). The error is
// max |t − t_ref| over the changes matched one to one in order and kind; a run with another
// sequence is reported with its count of changes and the exact changes it misses.
// The engines' block is a 0.1 m cube on a belt body driven at v_b: MuJoCo, a slide joint whose
// velocity is set to v_b before each step; Bullet, a kinematic body moved each step; DART, a
// prismatic joint with a velocity actuator; ODE, a kinematic body. The spring is a force −k x on
// the block, applied before each step.
//   ours     event-driven, Moreau–Jean (h = 1e-3, 1e-4 s) and the penalty route (laws
//            linear-stiction and lugre, μs ≠ μk both) on the built-in belt;
//   MuJoCo   timestep × cone (pyramidal, elliptic) × impratio (1, 10);
//   Bullet   step × iterations (10, 100);   DART  step × Dantzig, PGS;
//   ODE      step × dWorldStep, dWorldQuickStep (20 iterations).
// --check: exit 1 unless ours match the closed form's changes (event-driven within 1e-8 s,
// Moreau–Jean within 2 h); the engines' errors are reported, not asserted.
#include "mechanisms/belt.hpp"

#include <algorithm>
#include <cmath>
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

using Changes = std::vector<dynamics::ModeChange>;  // (t, "stick" | "slip")

const mechanisms::Belt kBelt{};      // Table 3.1
constexpr double kEnd = 20.0;        // [s]
constexpr double kHalf = 0.05;       // the engines' cube, half-size [m]
constexpr double kStickBand = 1e-3;  // [m/s]
constexpr double kOnset = 0.5;       // v_rel reaches 4 ε within this after a break-away [s]
const std::vector<double> kSteps{1e-2, 2e-3, 5e-4};

struct Outcome {
  std::string engine, setting;
  Changes changes;
  double breakaway = NAN;  ///< the first break-away [s]
  double cpu = NAN;        ///< CPU seconds per simulated second
  bool ok = true;
};

/// Stick and slip changes from the block's velocity relative to the belt, sampled each step;
/// and the first break-away without the band's lag: v_rel grows as (t − t₀)² from it, so with
/// t_ε and t_4ε the instants it passes ε and 4ε (linear between the samples),
/// t₀ = 2 t_ε − t_4ε.
class ChangeRecorder {
 public:
  void add(double t, double v_rel) {
    const double speed = std::abs(v_rel);
    const bool stick = speed < kStickBand;
    if (started_ && stick != stick_) changes_.emplace_back(t, stick ? "stick" : "slip");
    stick_ = stick;
    auto crossing = [&](double level) {
      return t_ + (t - t_) * (level - speed_) / (speed - speed_);
    };
    if (started_ && std::isnan(t_band_) && !stick) t_band_ = crossing(kStickBand);
    if (started_ && std::isnan(t_4band_) && speed >= 4 * kStickBand)
      t_4band_ = crossing(4 * kStickBand);
    started_ = true;
    t_ = t;
    speed_ = speed;
  }
  const Changes& changes() const { return changes_; }
  /// t₀, or t_ε when v_rel does not grow on (chatter: it fell back into the band first).
  double firstBreakaway() const {
    return t_4band_ - t_band_ < kOnset ? 2 * t_band_ - t_4band_ : t_band_;
  }

 private:
  Changes changes_;
  bool stick_ = true, started_ = false;
  double t_band_ = NAN, t_4band_ = NAN;
  double t_ = 0.0, speed_ = 0.0;  ///< the previous sample
};

/// Steps to kEnd with `step()` (which applies the spring first); `vRel()` after each step.
template <typename Step, typename VRel>
void simulate(double h, Step&& step, VRel&& vRel, Outcome& out) {
  ChangeRecorder rec;
  rec.add(0.0, vRel());
  const long n = std::lround(kEnd / h);
  const double t0 = threadCpuSeconds();
  for (long i = 1; i <= n; ++i) {
    step();
    rec.add(double(i) * h, vRel());
  }
  out.cpu = (threadCpuSeconds() - t0) / kEnd;
  out.changes = rec.changes();
  out.breakaway = rec.firstBreakaway();
}

void ours(std::vector<Outcome>& all) {
  const mechanisms::Scenario scenario = mechanisms::loadScenario("belt");
  auto run = [&](mechanisms::Route route, double h, std::string setting, std::string law = "") {
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = kEnd;
    settings.output_dt = route == mechanisms::Route::kPenalty
                             ? 1e-3
                             : kEnd;  // the penalty route reads its changes off the samples
    if (route == mechanisms::Route::kMoreauJean) settings.dt = h;
    if (!law.empty()) settings.friction = law;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip", std::move(setting), {}, NAN, r.result.cpu_seconds / kEnd, r.result.ok()};
    for (auto [t, kind] : dynamics::modeChanges(r.result))
      o.changes.emplace_back(t, kind == "stick" ? "stick" : "slip");
    if (!o.changes.empty()) o.breakaway = o.changes.front().first;
    all.push_back(o);
  };
  run(mechanisms::Route::kEventDriven, 0.0, "event-driven");
  for (const double h : {1e-3, 1e-4})
    run(mechanisms::Route::kMoreauJean, h, "Moreau–Jean, " + stepText(h));
  for (const char* law : {"linear-stiction", "lugre"})
    run(mechanisms::Route::kPenalty, 0.0,
        std::string("penalty, ") + law + " (stick below 1e-3 m/s in 1 ms samples)", law);
}

std::string muText(double mu) { return "μ = " + std::string(mu == kBelt.mu_static ? "μs" : "μk"); }

#ifdef STICKSLIP_HAVE_MUJOCO
void mujoco(std::vector<Outcome>& all) {
  for (const double mu : {kBelt.mu_static, kBelt.mu_kinetic})
    for (const double h : kSteps)
      for (const char* cone : {"pyramidal", "elliptic"})
        for (const double impratio : {1.0, 10.0}) {
          char xml[1400];
          std::snprintf(xml, sizeof xml, R"(<mujoco model="belt">
  <option timestep="%g" gravity="0 0 %g" cone="%s" impratio="%g"/>
  <worldbody>
    <body name="belt" pos="0 0 -0.05">
      <joint name="belt" type="slide" axis="1 0 0"/>
      <geom type="box" size="50 1 0.05" mass="1000" friction="%g 0 0"/>
    </body>
    <body name="block" pos="0 0 %g">
      <freejoint/>
      <geom type="box" size="%g %g %g" mass="%g" friction="%g 0 0"/>
    </body>
  </worldbody>
</mujoco>
)",
                        h, -kBelt.gravity, cone, impratio, mu, kHalf, kHalf, kHalf, kHalf,
                        kBelt.mass, mu);
          mjModel* m = bench::loadMjcf(xml);
          mjData* d = mj_makeData(m);
          d->qvel[0] = kBelt.belt_speed;  // belt
          d->qvel[1] = kBelt.belt_speed;  // block, moving with it
          char setting[160];
          std::snprintf(setting, sizeof setting, "%s, %s, %s cone, impratio %g", muText(mu).c_str(),
                        stepText(h).c_str(), cone, impratio);
          Outcome o{"MuJoCo", setting, {}, NAN, NAN, true};
          simulate(
              h,
              [&] {
                d->qvel[0] = kBelt.belt_speed;
                d->qfrc_applied[1] = -kBelt.stiffness * d->qpos[1];  // the block's x: qpos[1]
                mj_step(m, d);
              },
              [&] { return d->qvel[1] - kBelt.belt_speed; }, o);
          all.push_back(o);
          mj_deleteData(d);
          mj_deleteModel(m);
        }
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
void bullet(std::vector<Outcome>& all) {
  for (const double mu : {kBelt.mu_static, kBelt.mu_kinetic})
    for (const double h : kSteps)
      for (const int iterations : {10, 100}) {
        bench::BulletWorld bullet(btVector3(0, 0, -kBelt.gravity), iterations);
        btDiscreteDynamicsWorld& world = bullet.world;
        btBoxShape belt_shape(btVector3(50, 1, 0.05));
        btDefaultMotionState belt_motion(
            btTransform(btQuaternion::getIdentity(), btVector3(0, 0, -0.05)));
        btRigidBody belt(btRigidBody::btRigidBodyConstructionInfo(0, &belt_motion, &belt_shape));
        belt.setCollisionFlags(belt.getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
        belt.setActivationState(DISABLE_DEACTIVATION);
        belt.setFriction(1.0);  // Bullet multiplies the two bodies' coefficients
        world.addRigidBody(&belt);
        btBoxShape shape(btVector3(kHalf, kHalf, kHalf));
        btVector3 inertia;
        shape.calculateLocalInertia(kBelt.mass, inertia);
        btDefaultMotionState motion(
            btTransform(btQuaternion::getIdentity(), btVector3(0, 0, kHalf)));
        btRigidBody block(
            btRigidBody::btRigidBodyConstructionInfo(kBelt.mass, &motion, &shape, inertia));
        block.setFriction(mu);
        block.setActivationState(DISABLE_DEACTIVATION);
        block.setLinearVelocity(btVector3(kBelt.belt_speed, 0, 0));
        world.addRigidBody(&block);
        Outcome o{
            "Bullet",
            muText(mu) + ", " + stepText(h) + ", " + std::to_string(iterations) + " iterations",
            {},
            NAN,
            NAN,
            true};
        long i = 0;
        simulate(
            h,
            [&] {
              ++i;  // the kinematic belt's pose at the end of the step; Bullet derives its velocity
              belt_motion.setWorldTransform(
                  btTransform(btQuaternion::getIdentity(),
                              btVector3(kBelt.belt_speed * double(i) * h, 0, -0.05)));
              block.applyCentralForce(
                  btVector3(-kBelt.stiffness * block.getCenterOfMassPosition().x(), 0, 0));
              world.stepSimulation(btScalar(h), 0);
            },
            [&] { return block.getLinearVelocity().x() - kBelt.belt_speed; }, o);
        all.push_back(o);
        world.removeRigidBody(&block);
        world.removeRigidBody(&belt);
      }
}
#endif

#ifdef STICKSLIP_HAVE_DART
void dartSim(std::vector<Outcome>& all) {
  using namespace dart::dynamics;
  for (const double mu : {kBelt.mu_static, kBelt.mu_kinetic})
    for (const double h : kSteps)
      for (const bool pgs : {false, true}) {
        auto world = std::make_shared<dart::simulation::World>();
        world->setGravity(Eigen::Vector3d(0, 0, -kBelt.gravity));
        world->setTimeStep(h);
        SkeletonPtr conveyor = Skeleton::create("belt");
        PrismaticJoint::Properties slide;
        slide.mAxis = Eigen::Vector3d::UnitX();
        slide.mT_ParentBodyToJoint.translation() = Eigen::Vector3d(0, 0, -0.05);
        auto [drive, belt] = conveyor->createJointAndBodyNodePair<PrismaticJoint>(nullptr, slide);
        belt->createShapeNodeWith<CollisionAspect, DynamicsAspect>(
                std::make_shared<BoxShape>(Eigen::Vector3d(100, 2, 0.1)))
            ->getDynamicsAspect()
            ->setFrictionCoeff(mu);  // DART takes the smaller of the two
        drive->setActuatorType(Joint::VELOCITY);
        SkeletonPtr cube = Skeleton::create("block");
        auto [free, block] = cube->createJointAndBodyNodePair<FreeJoint>();
        auto shape = std::make_shared<BoxShape>(Eigen::Vector3d::Constant(2 * kHalf));
        block->createShapeNodeWith<CollisionAspect, DynamicsAspect>(shape)
            ->getDynamicsAspect()
            ->setFrictionCoeff(mu);
        block->setInertia(
            Inertia(kBelt.mass, Eigen::Vector3d::Zero(), shape->computeInertia(kBelt.mass)));
        Eigen::Isometry3d start = Eigen::Isometry3d::Identity();
        start.translation().z() = kHalf;
        free->setPositions(FreeJoint::convertToPositions(start));
        free->setLinearVelocity(Eigen::Vector3d(kBelt.belt_speed, 0, 0));
        world->addSkeleton(conveyor);
        world->addSkeleton(cube);
        if (pgs)
          static_cast<dart::constraint::BoxedLcpConstraintSolver*>(world->getConstraintSolver())
              ->setBoxedLcpSolver(std::make_shared<dart::constraint::PgsBoxedLcpSolver>());
        Outcome o{
            "DART", muText(mu) + ", " + stepText(h) + (pgs ? ", PGS (30 iterations)" : ", Dantzig"),
            {},     NAN,
            NAN,    true};
        simulate(
            h,
            [&] {
              drive->setCommand(0, kBelt.belt_speed);  // World::step resets the commands
              block->setExtForce(Eigen::Vector3d(
                  -kBelt.stiffness * block->getWorldTransform().translation().x(), 0, 0));
              world->step();
            },
            [&] { return block->getLinearVelocity().x() - kBelt.belt_speed; }, o);
        all.push_back(o);
      }
}
#endif

#ifdef STICKSLIP_HAVE_ODE
void ode(std::vector<Outcome>& all) {
  dInitODE2(0);
  dSetMessageHandler(bench::ignoreOdeMessage);
  for (const double mu : {kBelt.mu_static, kBelt.mu_kinetic})
    for (const double h : kSteps)
      for (const bool quick : {false, true}) {
        bench::OdeWorld w{dWorldCreate(), dJointGroupCreate(0), dContactApprox1, mu};
        dSpaceID space = dSimpleSpaceCreate(nullptr);
        dWorldSetGravity(w.world, 0, 0, -kBelt.gravity);
        dBodyID belt = dBodyCreate(w.world);
        dBodySetKinematic(belt);
        dGeomSetBody(dCreateBox(space, 100, 2, 0.1), belt);
        dBodySetPosition(belt, 0, 0, -0.05);
        dBodySetLinearVel(belt, kBelt.belt_speed, 0, 0);
        dBodyID block = dBodyCreate(w.world);
        dMass mass;
        dMassSetBoxTotal(&mass, kBelt.mass, 2 * kHalf, 2 * kHalf, 2 * kHalf);
        dBodySetMass(block, &mass);
        dGeomSetBody(dCreateBox(space, 2 * kHalf, 2 * kHalf, 2 * kHalf), block);
        dBodySetPosition(block, 0, 0, kHalf);
        dBodySetLinearVel(block, kBelt.belt_speed, 0, 0);
        Outcome o{
            "ODE",
            muText(mu) + ", " + stepText(h) + (quick ? ", quickstep 20 iterations" : ", dWorldStep"),
            {},
            NAN,
            NAN,
            true};
        simulate(
            h,
            [&] {
              dBodyAddForce(block, -kBelt.stiffness * dBodyGetPosition(block)[0], 0, 0);
              dSpaceCollide(space, &w, bench::odeNear);
              quick ? dWorldQuickStep(w.world, h) : dWorldStep(w.world, h);
              dJointGroupEmpty(w.contacts);
            },
            [&] { return double(dBodyGetLinearVel(block)[0]) - kBelt.belt_speed; }, o);
        all.push_back(o);
        dSpaceDestroy(space);
        dJointGroupDestroy(w.contacts);
        dWorldDestroy(w.world);
      }
  dCloseODE();
}
#endif

std::string errorText(const Outcome& o, const Changes& ref) {
  if (!o.ok) return "run failed";
  const double e = dynamics::maxModeTimeError(o.changes, ref);
  char buf[96];
  if (std::isfinite(e))
    std::snprintf(buf, sizeof buf, "%.3g", e);
  else
    std::snprintf(buf, sizeof buf, "no cycle: %zu changes for %zu", o.changes.size(), ref.size());
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::EngineOptions options = bench::parseEngineOptions(
      argc, argv, "bench_engines_belt",
      "The belt's stick–slip cycle in every engine, against its closed-form instants.");
  const Changes ref = mechanisms::beltClosedForm(kBelt).events(kEnd);
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
    for (const Outcome& o : all) {
      const double e = dynamics::maxModeTimeError(o.changes, ref);
      out["runs"].push_back(
          {{"engine", o.engine},
           {"setting", o.setting},
           {"changes", o.changes},
           {"first_breakaway",
            std::isnan(o.breakaway) ? nlohmann::json() : nlohmann::json(o.breakaway)},
           {"error", o.ok && std::isfinite(e) ? nlohmann::json(e) : nlohmann::json()},
           {"cpu_per_simulated_s", o.cpu}});
    }
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf(
        "The belt's stick–slip cycle: error of its %zu changes in %g s (exact: stick until %.6f s, "
        "slip %.6f s, "
        "stick %.6f s, …); an engine's stick is |v − v_b| < %g m/s.\n\n"
        "| engine | setting | first break-away [s] | error of the changes [s] | CPU [s per "
        "simulated s] |\n"
        "|---|---|---|---|---|\n",
        ref.size(), kEnd, ref[0].first, ref[1].first - ref[0].first, ref[2].first - ref[1].first,
        kStickBand);
    std::vector<bench::RunPoint> points;
    int cycles = 0;
    for (const Outcome& o : all) {
      std::printf("| %s | %s | %.4f | %s | %.3g |\n", o.engine.c_str(), o.setting.c_str(),
                  o.breakaway, errorText(o, ref).c_str(), o.cpu);
      points.push_back({o.engine, o.setting, std::abs(o.breakaway - ref[0].first), o.cpu});
      cycles +=
          o.engine != "stickslip" && std::isfinite(dynamics::maxModeTimeError(o.changes, ref));
    }
    std::printf(
        "\nEngine runs that make the cycle (its %zu changes in order): %d. The claim below "
        "compares the first "
        "break-away, the one change an engine can get right (with μ = μs).\n",
        ref.size(), cycles);
    bench::printClaim(points, "s");
  }
  int failures = 0;
  for (const Outcome& o : all) {
    if (o.engine != "stickslip" || o.setting.rfind("penalty", 0) == 0)
      continue;  // the penalty route's error is reported
    const double tolerance = o.setting == "event-driven"                    ? 1e-8
                             : o.setting.find("0.001") != std::string::npos ? 2e-3
                                                                            : 2e-4;
    if (!o.ok || !(dynamics::maxModeTimeError(o.changes, ref) <= tolerance)) {
      std::cerr << "bench_engines_belt: " << o.setting << ": " << errorText(o, ref)
                << " (tolerance " << tolerance << " s)\n";
      ++failures;
    }
  }
  return options.check && failures > 0 ? 1 : 0;
}
