// bench_engines_rocking: Housner's rocking block in every engine, against its exact impact times.
//
//   bench_engines_rocking [--json] [--check]
//
// The block (mechanisms/scenarios/rocking_block.yaml: half-width b = 0.1 m, half-height
// h = 0.3 m, 1 kg, released at rest tilted by 0.2 rad on a corner, μ = 1, no bounce) rocks from
// corner to corner. Between impacts it turns about one corner, I₀ θ̈ = −m g R sin(α − |θ|) sign θ
// with I₀ = 4 m R²/3, R = √(b² + h²), α = atan(b/h); each impact keeps the angular momentum about
// the new corner, ω⁺/ω⁻ = 1 − 1.5 sin²α [Housner 1963]. The reference integrates that equation
// by RK4 with h = 1e-6 s and locates θ = 0 on the step's cubic Hermite interpolant (error below
// 1e-10 s). Error of a run: max |t − t_ref| over the first kImpacts impacts, its impacts read
// as the sign changes of θ (one counted once |θ| has passed kArm since the last); a run with fewer
// is reported as stopping after so many.
//   ours     event-driven (its impact events; at the scenario's tolerance and at rtol 1e-6),
//            Moreau–Jean (h = 1e-2 … 1e-4 s; θ every step) and
//            the penalty route (θ every 1e-5 s), on the scenario file;
//   MuJoCo   MJCF; timestep × cone (pyramidal, elliptic);
//   Bullet   step × solver iterations (10, 100);
//   DART     step × boxed-LCP solver (Dantzig, PGS);
//   ODE      step × dWorldStep or dWorldQuickStep (20 iterations), contacts with μ·N (Approx1).
// The engines' box is 0.2 m deep, tilted about y; the engines' steps are 1e-2, 2e-3, 5e-4 s.
// --check: exit 1 unless our event-driven impacts are within 1e-8 s of the reference (1e-4 s at
// rtol 1e-6; they follow from Housner's ratio, so a wrong ratio moves them) and Moreau–Jean's
// at h ≤ 1e-3 s within 5e-3 s (each of its impacts lands within a step and shifts the next
// ones: 2.5e-3 s at h = 1e-3, 1.1e-3 s at h = 1e-4); the engines' errors are reported, not
// asserted.
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

// rocking_block.yaml's values
constexpr double kB = 0.1, kH = 0.3, kDepth = 0.1;  // half-sizes [m]
constexpr double kMass = 1.0, kTilt = 0.2, kMu = 1.0, kG = 9.81;
const double kR = std::hypot(kB, kH), kAlpha = std::atan2(kB, kH);
const double kP2 = kMass * kG * kR / (4.0 * kMass * kR * kR / 3.0);  // m g R / I₀ [1/s²]
const double kRatio = 1.0 - 1.5 * std::sin(kAlpha) * std::sin(kAlpha);
constexpr int kImpacts = 4;
constexpr double kEnd = 1.6;                   // [s], past the 4th impact (1.39 s)
constexpr double kArm = 1e-4;                  // [rad]
constexpr double kMoreauJeanTolerance = 5e-3;  // [s], see --check
const std::vector<double> kSteps{1e-2, 2e-3, 5e-4};

/// The exact impact times (see the file comment).
std::vector<double> referenceImpacts() {
  constexpr double h = 1e-6;
  double t = 0.0, th = kTilt, w = 0.0, side = 1.0;  // side: the corner it turns about, sign θ
  auto f = [&](double x) { return -side * kP2 * std::sin(kAlpha - side * x); };
  std::vector<double> impacts;
  while (int(impacts.size()) < kImpacts) {
    const double k1t = w, k1w = f(th), k2t = w + 0.5 * h * k1w, k2w = f(th + 0.5 * h * k1t),
                 k3t = w + 0.5 * h * k2w, k3w = f(th + 0.5 * h * k2t), k4t = w + h * k3w,
                 k4w = f(th + h * k3t);
    const double th1 = th + h / 6 * (k1t + 2 * k2t + 2 * k3t + k4t),
                 w1 = w + h / 6 * (k1w + 2 * k2w + 2 * k3w + k4w);
    if (th1 * side >= 0) {
      t += h;
      th = th1;
      w = w1;
      continue;
    }
    // θ = 0 within this step: bisection on the Hermite cubic through (θ, ω) and (θ1, ω1).
    auto cubic = [&](double u) {
      const double u2 = u * u, u3 = u2 * u;
      return (2 * u3 - 3 * u2 + 1) * th + (u3 - 2 * u2 + u) * h * w + (3 * u2 - 2 * u3) * th1 +
             (u3 - u2) * h * w1;
    };
    auto slope = [&](double u) {  // dθ/dt of the cubic
      return ((6 * u * u - 6 * u) * (th - th1)) / h + (3 * u * u - 4 * u + 1) * w +
             (3 * u * u - 2 * u) * w1;
    };
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 60; ++i) (cubic(0.5 * (lo + hi)) * side > 0 ? lo : hi) = 0.5 * (lo + hi);
    const double u = 0.5 * (lo + hi);
    impacts.push_back(t + u * h);
    w = kRatio * slope(u);  // restart on the other corner, ω scaled by Housner's ratio
    t += u * h;
    th = 0.0;
    side = -side;
  }
  return impacts;
}

/// A run's impacts from its θ(t): the sign changes of θ, each counted once |θ| passed kArm.
class ImpactRecorder {
 public:
  void add(double t, double theta) {
    if (std::abs(theta) > kArm && sign_ == 0) sign_ = theta > 0 ? 1 : -1;
    if (sign_ != 0 && theta * sign_ < 0) {
      impacts_.push_back(t_ + (t - t_) * theta_ / (theta_ - theta));  // linear between the samples
      sign_ = 0;
    }
    t_ = t;
    theta_ = theta;
  }
  const std::vector<double>& impacts() const { return impacts_; }

 private:
  std::vector<double> impacts_;
  double t_ = 0.0, theta_ = 0.0;
  int sign_ = 0;
};

struct Outcome {
  std::string engine, setting;
  std::vector<double> impacts;
  double cpu = NAN;  ///< CPU seconds per simulated second
  double h = NAN;    ///< Moreau–Jean's step [s]
};

/// Steps to kEnd with `step()`, recording `tilt()` after each step.
template <typename Step, typename Tilt>
void simulate(double h, Step&& step, Tilt&& tilt, Outcome& out) {
  ImpactRecorder rec;
  rec.add(0.0, tilt());
  const long n = std::lround(kEnd / h);
  const double t0 = threadCpuSeconds();
  for (long i = 1; i <= n; ++i) {
    step();
    rec.add(double(i) * h, tilt());
  }
  out.cpu = (threadCpuSeconds() - t0) / kEnd;
  out.impacts = rec.impacts();
}

/// θ of a rotation about y given as a quaternion (w, y components).
double tiltOfQuaternion(double w, double y) { return 2.0 * std::atan2(y, w); }

void ours(std::vector<Outcome>& all) {
  const mechanisms::Scenario scenario =
      mechanisms::loadScenario(STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/rocking_block.yaml");
  for (const double rtol : {0.0, 1e-6}) {  // 0: the scenario's tolerance
    mechanisms::RunSettings settings;
    settings.route = mechanisms::Route::kEventDriven;
    settings.t_end = kEnd;
    settings.output_dt = kEnd;
    if (rtol > 0.0) settings.tolerance = rtol;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip",
              rtol > 0.0 ? "event-driven, rtol 1e-6" : "event-driven",
              {},
              r.result.cpu_seconds / kEnd,
              NAN};
    for (const dynamics::ContactEvent& e : r.result.events)  // one impact event per impact
      if (r.result.ok() && e.kind == dynamics::EventKind::kImpact) o.impacts.push_back(e.t);
    all.push_back(o);
  }
  // Moreau–Jean and the penalty route: the impacts from θ, every step or every 1e-5 s.
  auto fromTheta = [&](mechanisms::Route route, double h, std::string setting) {
    mechanisms::RunSettings settings;
    settings.route = route;
    settings.t_end = kEnd;
    if (route == mechanisms::Route::kMoreauJean) settings.dt = h;
    settings.output_dt = route == mechanisms::Route::kMoreauJean ? 0.0 : 1e-5;
    const mechanisms::ScenarioRun r = mechanisms::runScenario(scenario, settings);
    Outcome o{"stickslip", std::move(setting), {}, r.result.cpu_seconds / kEnd, h};
    const Eigen::Index th = r.result.column("block.theta");
    ImpactRecorder rec;
    for (Eigen::Index i = 0; i < r.result.history.rows(); ++i)
      rec.add(r.result.history(i, 0), r.result.history(i, th));
    if (r.result.ok()) o.impacts = rec.impacts();
    all.push_back(o);
  };
  for (const double h : {1e-2, 1e-3, 1e-4})
    fromTheta(mechanisms::Route::kMoreauJean, h, "Moreau–Jean, " + stepText(h));
  fromTheta(mechanisms::Route::kPenalty, 0.0, "penalty (compliant corners, its default law)");
}

/// The engines' box at rest on its corner (+b, −h), turned by kTilt about y: its centre.
Eigen::Vector3d startCentre() {
  return {-kB * std::cos(kTilt) + kH * std::sin(kTilt), 0.0,
          kB * std::sin(kTilt) + kH * std::cos(kTilt)};
}

#ifdef STICKSLIP_HAVE_MUJOCO
void mujoco(std::vector<Outcome>& all) {
  const Eigen::Vector3d c = startCentre();
  for (const double h : kSteps)
    for (const char* cone : {"pyramidal", "elliptic"}) {
      char xml[1024];
      std::snprintf(xml, sizeof xml, R"(<mujoco model="rocking">
  <option timestep="%g" gravity="0 0 %g" cone="%s"/>
  <worldbody>
    <geom type="plane" size="5 5 0.1" friction="%g 0 0"/>
    <body pos="%.17g 0 %.17g" quat="%.17g 0 %.17g 0">
      <freejoint/>
      <geom type="box" size="%g %g %g" mass="%g" friction="%g 0 0"/>
    </body>
  </worldbody>
</mujoco>
)",
                    h, -kG, cone, kMu, c.x(), c.z(), std::cos(kTilt / 2), std::sin(kTilt / 2), kB,
                    kDepth, kH, kMass, kMu);
      mjModel* m = bench::loadMjcf(xml);
      mjData* d = mj_makeData(m);
      Outcome o{"MuJoCo", stepText(h) + ", " + cone + " cone", {}, NAN, NAN};
      simulate(
          h, [&] { mj_step(m, d); }, [&] { return tiltOfQuaternion(d->qpos[3], d->qpos[5]); }, o);
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
      btStaticPlaneShape plane(btVector3(0, 0, 1), 0);
      btRigidBody ground(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &plane));
      ground.setFriction(1.0);  // Bullet multiplies the two bodies' coefficients
      world.addRigidBody(&ground);
      btBoxShape shape(btVector3(kB, kDepth, kH));
      btVector3 inertia;
      shape.calculateLocalInertia(kMass, inertia);
      btDefaultMotionState motion(
          btTransform(btQuaternion(btVector3(0, 1, 0), kTilt), btVector3(c.x(), c.y(), c.z())));
      btRigidBody box(btRigidBody::btRigidBodyConstructionInfo(kMass, &motion, &shape, inertia));
      box.setFriction(kMu);
      box.setActivationState(DISABLE_DEACTIVATION);
      world.addRigidBody(&box);
      Outcome o{
          "Bullet", stepText(h) + ", " + std::to_string(iterations) + " iterations", {}, NAN, NAN};
      simulate(
          h, [&] { world.stepSimulation(btScalar(h), 0); },
          [&] {
            const btQuaternion q = box.getOrientation();
            return tiltOfQuaternion(q.w(), q.y());
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
      world->setGravity(Eigen::Vector3d(0, 0, -kG));
      world->setTimeStep(h);
      SkeletonPtr ground = Skeleton::create("ground");
      auto [weld, floor] = ground->createJointAndBodyNodePair<WeldJoint>();
      floor
          ->createShapeNodeWith<CollisionAspect, DynamicsAspect>(
              std::make_shared<BoxShape>(Eigen::Vector3d(10, 10, 0.2)))
          ->getDynamicsAspect()
          ->setFrictionCoeff(kMu);
      Eigen::Isometry3d below = Eigen::Isometry3d::Identity();
      below.translation().z() = -0.1;
      weld->setTransformFromParentBodyNode(below);
      SkeletonPtr block = Skeleton::create("block");
      auto [free, body] = block->createJointAndBodyNodePair<FreeJoint>();
      auto shape = std::make_shared<BoxShape>(Eigen::Vector3d(2 * kB, 2 * kDepth, 2 * kH));
      body->createShapeNodeWith<CollisionAspect, DynamicsAspect>(shape)
          ->getDynamicsAspect()
          ->setFrictionCoeff(kMu);
      body->setInertia(Inertia(kMass, Eigen::Vector3d::Zero(), shape->computeInertia(kMass)));
      Eigen::Isometry3d start = Eigen::Isometry3d::Identity();
      start.linear() = Eigen::AngleAxisd(kTilt, Eigen::Vector3d::UnitY()).toRotationMatrix();
      start.translation() = startCentre();
      free->setPositions(FreeJoint::convertToPositions(start));
      world->addSkeleton(ground);
      world->addSkeleton(block);
      if (pgs)
        static_cast<dart::constraint::BoxedLcpConstraintSolver*>(world->getConstraintSolver())
            ->setBoxedLcpSolver(std::make_shared<dart::constraint::PgsBoxedLcpSolver>());
      Outcome o{"DART", stepText(h) + (pgs ? ", PGS (30 iterations)" : ", Dantzig"), {}, NAN, NAN};
      simulate(
          h, [&] { world->step(); },
          [&] {
            const Eigen::Matrix3d R = body->getWorldTransform().linear();
            return std::atan2(R(0, 2), R(0, 0));
          },
          o);
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
      bench::OdeWorld w{dWorldCreate(), dJointGroupCreate(0), dContactApprox1, kMu};
      dSpaceID space = dSimpleSpaceCreate(nullptr);
      dWorldSetGravity(w.world, 0, 0, -kG);
      dCreatePlane(space, 0, 0, 1, 0);
      dBodyID body = dBodyCreate(w.world);
      dMass mass;
      dMassSetBoxTotal(&mass, kMass, 2 * kB, 2 * kDepth, 2 * kH);
      dBodySetMass(body, &mass);
      dGeomSetBody(dCreateBox(space, 2 * kB, 2 * kDepth, 2 * kH), body);
      dBodySetPosition(body, c.x(), c.y(), c.z());
      const dQuaternion q{std::cos(kTilt / 2), 0, std::sin(kTilt / 2), 0};
      dBodySetQuaternion(body, q);
      Outcome o{"ODE",
                stepText(h) + (quick ? ", quickstep 20 iterations" : ", dWorldStep"),
                {},
                NAN,
                NAN};
      simulate(
          h,
          [&] {
            dSpaceCollide(space, &w, bench::odeNear);
            quick ? dWorldQuickStep(w.world, h) : dWorldStep(w.world, h);
            dJointGroupEmpty(w.contacts);
          },
          [&] {
            const dReal* r = dBodyGetQuaternion(body);
            return tiltOfQuaternion(r[0], r[2]);
          },
          o);
      all.push_back(o);
      dSpaceDestroy(space);
      dJointGroupDestroy(w.contacts);
      dWorldDestroy(w.world);
    }
  dCloseODE();
}
#endif

/// max |t − t_ref| over the first kImpacts; +∞ when the run has fewer.
double impactError(const Outcome& o, const std::vector<double>& ref) {
  if (int(o.impacts.size()) < kImpacts) return INFINITY;
  double e = 0.0;
  for (int k = 0; k < kImpacts; ++k)
    e = std::max(e, std::abs(o.impacts[std::size_t(k)] - ref[std::size_t(k)]));
  return e;
}

void printTable(const std::vector<Outcome>& all, const std::vector<double>& ref) {
  std::printf(
      "Housner's rocking block: error of the first %d impact times (exact: %.9f, %.9f, %.9f, %.9f "
      "s; "
      "ω⁺/ω⁻ = %.4f).\n\n| engine | setting | impacts by %.1f s | error [s] | CPU [s per simulated "
      "s] |\n"
      "|---|---|---|---|---|\n",
      kImpacts, ref[0], ref[1], ref[2], ref[3], kRatio, kEnd);
  for (const Outcome& o : all) {
    const double e = impactError(o, ref);
    char err[64];
    if (std::isfinite(e))
      std::snprintf(err, sizeof err, "%.3g", e);
    else
      std::snprintf(err, sizeof err, "only %zu impacts", o.impacts.size());
    std::printf("| %s | %s | %zu | %s | %.3g |\n", o.engine.c_str(), o.setting.c_str(),
                o.impacts.size(), err, o.cpu);
  }
  std::vector<bench::RunPoint> points;
  for (const Outcome& o : all) points.push_back({o.engine, o.setting, impactError(o, ref), o.cpu});
  bench::printClaim(points, "s");
}

}  // namespace

int main(int argc, char** argv) {
  const bench::EngineOptions options = bench::parseEngineOptions(
      argc, argv, "bench_engines_rocking",
      "Housner's rocking block in every engine, against its exact impact times.");
  const std::vector<double> ref = referenceImpacts();
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
    nlohmann::json out{{"reference", ref}, {"ratio", kRatio}, {"runs", nlohmann::json::array()}};
    for (const Outcome& o : all) {
      const double e = impactError(o, ref);
      out["runs"].push_back({{"engine", o.engine},
                             {"setting", o.setting},
                             {"impacts", o.impacts},
                             {"error", std::isfinite(e) ? nlohmann::json(e) : nlohmann::json()},
                             {"cpu_per_simulated_s", o.cpu}});
    }
    std::cout << out.dump(1) << "\n";
  } else {
    printTable(all, ref);
  }
  int failures = 0;
  for (const Outcome& o : all) {
    if (o.engine != "stickslip" || o.setting.rfind("penalty", 0) == 0)
      continue;                // the penalty route's error is reported
    if (o.h > 1e-3) continue;  // Moreau–Jean at h = 1e-2: reported only
    const double tolerance = o.setting == "event-driven"              ? 1e-8
                             : o.setting == "event-driven, rtol 1e-6" ? 1e-4
                                                                      : kMoreauJeanTolerance;
    if (!(impactError(o, ref) <= tolerance)) {
      std::cerr << "bench_engines_rocking: " << o.setting << ": impacts off the reference by "
                << impactError(o, ref) << " s (tolerance " << tolerance << " s)\n";
      ++failures;
    }
  }
  return options.check && failures > 0 ? 1 : 0;
}
