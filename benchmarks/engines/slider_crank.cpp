// bench_engines_slider_crank: the spatial slider-crank with Coulomb friction in its guide, in
// every engine, against our event-driven answer.
//
//   bench_engines_slider_crank [--json] [--check]
//
// The mechanism is mechanisms/scenarios/spatial-slider-crank.yaml (Marques' thesis §2.4): a
// crank on a revolute joint, a rod on a spherical joint at the crank's tip and a universal joint
// at the slider, the slider in a translational guide along z off the crank's plane; gravity,
// the crank released at 2π rad/s. spatial-slider-crank-friction.yaml puts Table 4.1's Coulomb
// friction in the guide (μs = 0.2, μk = 0.1): its bound is μ times the guide's load, which
// changes with the motion.
//
// The reference is our event-driven run at rtol 1e-12 (1e-9 m from rtol 1e-10). The error of a
// run: max |z − z_ref| of the slider over samples every 0.01 s of [0, 1] s. Every run starts
// from the reference's assembled state (positions and velocities at t = 0). Its cost: the least
// CPU time of its stepping (ours: RunResult::cpu_seconds) over seven passes over all runs.
//
// The engines have no friction bound that follows a joint's load: each takes a constant one,
// μk times the mean guide load of the reference (`frictionloss` in MuJoCo, `setCoulombFriction`
// in DART, a velocity motor with that force limit in Bullet and ODE). The same engines without
// friction, against our frictionless run, show what their closed loop costs on its own.
//   MuJoCo   a tree (world–crank; world–slider–rod, the universal as two hinges) closed by a
//            `connect` equality at the crank's tip; timestep × integrator (Euler, RK4) × the
//            loop's stiffness (MuJoCo's default, or solref 2h with solimp 0.9999);
//   Bullet   rigid bodies, btHingeConstraint, btPoint2PointConstraint, btUniversalConstraint,
//            btSliderConstraint; step × solver iterations (10, 100);
//   DART     the same trees (RevoluteJoint; PrismaticJoint, UniversalJoint) closed by a
//            BallJointConstraint; step × boxed-LCP solver (Dantzig, PGS);
//   ODE      hinge, ball, universal and slider joints; step × dWorldStep or dWorldQuickStep.
// --check: exit 1 unless every run of ours finishes, our event-driven runs at rtol 1e-10 and
// 1e-6 are within 1e-7 m and 1e-4 m of the reference, Moreau–Jean at h = 1e-4 s within 2e-3 m
// (first order) and our frictionless run keeps its energy to 1e-6 J; the engines' errors are
// reported, not asserted.
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

#ifdef STICKSLIP_HAVE_DART
#include <dart/constraint/BallJointConstraint.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/UniversalJoint.hpp>
#endif

using namespace stickslip;
using dynamics::threadCpuSeconds;  // each engine timed by our clock, as RunResult's CPU seconds
using bench::stepText;

namespace {

// spatial-slider-crank.yaml's values
constexpr double kCrank = 0.10, kRod = 0.29, kOffset = 0.147, kG = 9.81;
constexpr double kCrankMass = 0.12, kRodMass = 0.5, kSliderMass = 0.5;
const Eigen::Vector3d kCrankInertia(1e-4, 1e-4, 1e-5), kRodInertia(4e-3, 4e-4, 4e-3),
    kSliderInertia(1e-4, 1e-4, 1e-4);
constexpr double kEnd = 1.0, kSample = 0.01;  // [s]
const std::vector<double> kSteps{2e-3, 5e-4, 1e-4};
const char* const kFrictionFile =
    STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/spatial-slider-crank-friction.yaml";
const char* const kIdealFile =
    STICKSLIP_SOURCE_DIR "/mechanisms/scenarios/spatial-slider-crank.yaml";

/// A body's state in world axes: centroid, orientation, velocities.
struct BodyState {
  Eigen::Vector3d r, v, w;
  Eigen::Quaterniond q;
};
/// The reference: the three bodies at t = 0, the slider's z every kSample, T + V at the end
/// less at the start, and the engines' constant guide friction: μk × the guide's mean load.
struct Motion {
  BodyState crank, rod, slider;
  std::vector<double> z;
  double energy_change = NAN;      ///< [J]
  double constant_friction = 0.0;  ///< [N]; 0 without friction
};

/// The state of body `b` at history row `row` (ω′ in body axes turned to world axes).
BodyState bodyState(const dynamics::RunResult& r, const std::string& b, Eigen::Index row) {
  auto at = [&](const char* c) { return r.history(row, r.column(b + "." + c)); };
  BodyState s;
  s.r = {at("x"), at("y"), at("z")};
  s.q = Eigen::Quaterniond(at("e0"), at("e1"), at("e2"), at("e3")).normalized();
  s.v = {at("vx"), at("vy"), at("vz")};
  s.w = s.q * Eigen::Vector3d(at("wx"), at("wy"), at("wz"));
  return s;
}

/// The slider's z at the multiples of kSample (event rows in between skipped).
std::vector<double> sampledZ(const dynamics::RunResult& r) {
  std::vector<double> z;
  const Eigen::Index zc = r.column("slider.z");
  for (Eigen::Index i = 0; i < r.history.rows(); ++i) {
    const double t = r.history(i, 0);
    if (std::abs(t - kSample * std::round(t / kSample)) < 1e-12) z.push_back(r.history(i, zc));
  }
  return z;
}

constexpr int kPasses = 7;  ///< timings per run; the least is reported

struct Outcome {
  std::string engine, setting;
  bool friction = true;  ///< the frictional mechanism (else the frictionless one)
  double error = NAN;    ///< max |z − z_ref| [m]
  double cpu = NAN;      ///< CPU seconds per simulated second
};

double maxError(const std::vector<double>& z, const std::vector<double>& ref) {
  if (z.size() < ref.size()) return INFINITY;
  double e = 0.0;
  for (std::size_t i = 0; i < ref.size(); ++i)
    e = std::max(e, std::isfinite(z[i]) ? std::abs(z[i] - ref[i]) : INFINITY);
  return e;
}

/// Steps to kEnd with `step()`, the slider's z `z()` every kSample.
template <typename Step, typename Z>
std::vector<double> simulate(double h, double& cpu, Step&& step, Z&& z) {
  const long n = std::lround(kEnd / h), every = std::lround(kSample / h);
  std::vector<double> out{z()};
  const double t0 = threadCpuSeconds();
  for (long i = 1; i <= n; ++i) {
    step();
    if (i % every == 0) out.push_back(z());
  }
  cpu = (threadCpuSeconds() - t0) / kEnd;
  return out;
}

mechanisms::ScenarioRun runOurs(const mechanisms::Scenario& s, mechanisms::Route route,
                                double tolerance, double h) {
  mechanisms::RunSettings settings;
  settings.route = route;
  settings.t_end = kEnd;
  settings.output_dt = kSample;
  if (tolerance > 0.0) settings.tolerance = tolerance;
  if (h > 0.0) settings.dt = h;
  return mechanisms::runScenario(s, settings);
}

/// Our runs of one mechanism against its reference; returns the reference's motion.
Motion ours(const char* file, bool friction, std::vector<Outcome>& all) {
  const mechanisms::Scenario s = mechanisms::loadScenario(file);
  const mechanisms::ScenarioRun ref = runOurs(s, mechanisms::Route::kEventDriven, 1e-12, 0.0);
  if (!ref.result.ok()) throw std::runtime_error("the reference run failed: " + ref.result.message);
  const dynamics::RunResult& r = ref.result;
  Motion m{bodyState(r, "crank", 0), bodyState(r, "rod", 0), bodyState(r, "slider", 0), sampledZ(r),
           ref.energy_final - ref.energy_initial};
  if (friction) {  // μk × the guide's load, averaged over the history's rows (samples and events)
    double mu_kinetic = NAN;
    for (const auto& [name, value] : mechanisms::modelParameters(s))
      if (name == "mu_kinetic") mu_kinetic = value;
    m.constant_friction = mu_kinetic * r.history.col(r.column("guide.reaction")).cwiseAbs().mean();
  }
  auto add = [&](std::string setting, const mechanisms::ScenarioRun& run) {
    const double e = run.result.ok() ? maxError(sampledZ(run.result), m.z) : INFINITY;
    all.push_back({"stickslip", std::move(setting), friction, e, run.result.cpu_seconds / kEnd});
  };
  for (const double rtol : {1e-10, 1e-8, 1e-6, 1e-5, 3e-5, 1e-4, 3e-4, 1e-3})
    add("event-driven, rtol " + bench::numberText(rtol),
        runOurs(s, mechanisms::Route::kEventDriven, rtol, 0.0));
  for (const double h : {1e-3, 1e-4})
    add("Moreau–Jean, " + stepText(h), runOurs(s, mechanisms::Route::kMoreauJean, 0.0, h));
  if (friction)
    add("penalty (regularized Coulomb, RK4)", runOurs(s, mechanisms::Route::kPenalty, 0.0, 0.0));
  return m;
}

#ifdef STICKSLIP_HAVE_MUJOCO
void mujoco(const Motion& m, double force, std::vector<Outcome>& all) {
  const Eigen::Vector3d rod_at = m.rod.r - m.slider.r;  // the rod in the slider's frame
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), z_rod = m.rod.q * Eigen::Vector3d::UnitZ();
  const Eigen::Vector3d x_in_rod = m.rod.q.conjugate() * x;  // the first hinge's axis
  for (const double h : kSteps)
    for (const char* integrator : {"Euler", "RK4"})
      for (const bool stiff : {false, true}) {
        // The loop's stiffness: MuJoCo's default time constant, or its stiffest (2 h, as
        // MuJoCo clamps any smaller one).
        const double time_constant = stiff ? 2 * h : 0.02;
        char xml[2400];
        std::snprintf(xml, sizeof xml, R"(<mujoco model="spatial-slider-crank">
  <option timestep="%g" gravity="0 0 %g" integrator="%s"/>
  <worldbody>
    <body name="crank" pos="%.17g %.17g %.17g" quat="%.17g %.17g %.17g %.17g">
      <joint type="hinge" pos="0 0 %g" axis="0 1 0"/>
      <inertial pos="0 0 0" mass="%g" diaginertia="%g %g %g"/>
    </body>
    <body name="slider" pos="%.17g %.17g %.17g">
      <joint type="slide" axis="0 0 1" frictionloss="%.17g"/>
      <inertial pos="0 0 0" mass="%g" diaginertia="%g %g %g"/>
      <body name="rod" pos="%.17g %.17g %.17g" quat="%.17g %.17g %.17g %.17g">
        <joint type="hinge" pos="0 %g 0" axis="%.17g %.17g %.17g"/>
        <joint type="hinge" pos="0 %g 0" axis="0 0 1"/>
        <inertial pos="0 0 0" mass="%g" diaginertia="%g %g %g"/>
      </body>
    </body>
  </worldbody>
  <equality><connect body1="crank" body2="rod" anchor="0 0 %g" solref="%g 1" solimp="%s"/></equality>
</mujoco>
)",
                      h, -kG, integrator, m.crank.r.x(), m.crank.r.y(), m.crank.r.z(),
                      m.crank.q.w(), m.crank.q.x(), m.crank.q.y(), m.crank.q.z(), -kCrank / 2,
                      kCrankMass, kCrankInertia.x(), kCrankInertia.y(), kCrankInertia.z(),
                      m.slider.r.x(), m.slider.r.y(), m.slider.r.z(), force, kSliderMass,
                      kSliderInertia.x(), kSliderInertia.y(), kSliderInertia.z(), rod_at.x(),
                      rod_at.y(), rod_at.z(), m.rod.q.w(), m.rod.q.x(), m.rod.q.y(), m.rod.q.z(),
                      kRod / 2, x_in_rod.x(), x_in_rod.y(), x_in_rod.z(), kRod / 2, kRodMass,
                      kRodInertia.x(), kRodInertia.y(), kRodInertia.z(), kCrank / 2, time_constant,
                      stiff ? "0.9999 0.9999 0.001" : "0.9 0.95 0.001");
        mjModel* model = bench::loadMjcf(xml);
        mjData* d = mj_makeData(model);
        // qpos = 0 is the assembled pose; the rates: the crank's about y, the slider's along z,
        // the rod's about x and then about its own z.
        d->qvel[0] = m.crank.w.y();
        d->qvel[1] = m.slider.v.z();
        d->qvel[2] = m.rod.w.dot(x);
        d->qvel[3] = m.rod.w.dot(z_rod);
        mj_forward(model, d);  // the bodies' poses at t = 0 (xpos)
        const int slider = mj_name2id(model, mjOBJ_BODY, "slider");
        Outcome o{"MuJoCo",
                  stepText(h) + ", " + integrator +
                      (stiff ? ", stiff loop (solref 2h, solimp 0.9999)" : ""),
                  force > 0.0, NAN, NAN};
        o.error = maxError(
            simulate(
                h, o.cpu, [&] { mj_step(model, d); }, [&] { return d->xpos[3 * slider + 2]; }),
            m.z);
        all.push_back(o);
        mj_deleteData(d);
        mj_deleteModel(model);
      }
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
void bullet(const Motion& m, double force, std::vector<Outcome>& all) {
  auto transform = [](const BodyState& s) {
    return btTransform(btQuaternion(s.q.x(), s.q.y(), s.q.z(), s.q.w()),
                       btVector3(s.r.x(), s.r.y(), s.r.z()));
  };
  auto vec = [](const Eigen::Vector3d& v) { return btVector3(v.x(), v.y(), v.z()); };
  for (const double h : kSteps)
    for (const int iterations : {10, 100}) {
      bench::BulletWorld bullet(btVector3(0, 0, -kG), iterations);
      btEmptyShape shape;
      btDefaultMotionState crank_motion(transform(m.crank)), rod_motion(transform(m.rod)),
          slider_motion(transform(m.slider));
      btRigidBody crank(kCrankMass, &crank_motion, &shape, vec(kCrankInertia));
      btRigidBody rod(kRodMass, &rod_motion, &shape, vec(kRodInertia));
      btRigidBody slider(kSliderMass, &slider_motion, &shape, vec(kSliderInertia));
      const std::pair<btRigidBody*, const BodyState*> bodies[] = {
          {&crank, &m.crank}, {&rod, &m.rod}, {&slider, &m.slider}};
      for (auto [body, s] : bodies) {
        body->setLinearVelocity(vec(s->v));
        body->setAngularVelocity(vec(s->w));
        body->setActivationState(DISABLE_DEACTIVATION);
        bullet.world.addRigidBody(body);
      }
      btHingeConstraint pin(crank, btVector3(0, 0, -kCrank / 2), btVector3(0, 1, 0));
      btPoint2PointConstraint ball(crank, rod, btVector3(0, 0, kCrank / 2),
                                   btVector3(0, -kRod / 2, 0));
      // Bullet's universal: the first axis fixed in the parent (the slider's x), the second in
      // the child (the rod's z), both given in world axes at the anchor.
      btUniversalConstraint cross(slider, rod, vec(m.slider.r), btVector3(1, 0, 0),
                                  vec(m.rod.q * Eigen::Vector3d::UnitZ()));
      // The guide slides along its frame's x: turned onto z; rotations locked, travel free.
      btSliderConstraint guide(slider, btTransform(btQuaternion(btVector3(0, 1, 0), -M_PI / 2)),
                               true);
      guide.setLowerLinLimit(1.0);
      guide.setUpperLinLimit(-1.0);
      if (force > 0.0) {  // friction as a motor holding zero speed with at most `force`
        guide.setPoweredLinMotor(true);
        guide.setTargetLinMotorVelocity(0.0);
        guide.setMaxLinMotorForce(force);
      }
      btTypedConstraint* const joints[] = {&pin, &ball, &cross, &guide};
      for (btTypedConstraint* c : joints) bullet.world.addConstraint(c, true);
      Outcome o{"Bullet", stepText(h) + ", " + std::to_string(iterations) + " iterations",
                force > 0.0, NAN, NAN};
      o.error = maxError(simulate(
                             h, o.cpu, [&] { bullet.world.stepSimulation(btScalar(h), 0); },
                             [&] { return double(slider.getCenterOfMassPosition().z()); }),
                         m.z);
      all.push_back(o);
      for (btTypedConstraint* c : joints) bullet.world.removeConstraint(c);
      for (btRigidBody* b : {&crank, &rod, &slider}) bullet.world.removeRigidBody(b);
    }
}
#endif

#ifdef STICKSLIP_HAVE_DART
void dartSim(const Motion& m, double force, std::vector<Outcome>& all) {
  using namespace dart::dynamics;
  auto setBody = [](BodyNode* body, double mass, const Eigen::Vector3d& inertia) {
    body->setInertia(Inertia(mass, Eigen::Vector3d::Zero(), inertia.asDiagonal()));
  };
  auto at = [](const Eigen::Vector3d& r, const Eigen::Quaterniond& q) {
    Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
    t.linear() = q.toRotationMatrix();
    t.translation() = r;
    return t;
  };
  for (const double h : kSteps)
    for (const bool pgs : {false, true}) {
      auto world = std::make_shared<dart::simulation::World>();
      world->setGravity(Eigen::Vector3d(0, 0, -kG));
      world->setTimeStep(h);
      // The crank on its pin at the origin (the joint's frame in the crank: its lower end).
      SkeletonPtr crank_tree = Skeleton::create("crank");
      auto [pin, crank] = crank_tree->createJointAndBodyNodePair<RevoluteJoint>();
      pin->setAxis(Eigen::Vector3d::UnitY());
      pin->setTransformFromChildBodyNode(
          at(Eigen::Vector3d(0, 0, -kCrank / 2), Eigen::Quaterniond::Identity()));
      setBody(crank, kCrankMass, kCrankInertia);
      pin->setVelocity(0, m.crank.w.y());
      // The slider in its guide (position = z), and the rod on the universal joint at the
      // slider's centre: its first axis the slider's x, its second the rod's z at the start.
      SkeletonPtr slider_tree = Skeleton::create("slider-rod");
      auto [guide, slider] = slider_tree->createJointAndBodyNodePair<PrismaticJoint>();
      guide->setAxis(Eigen::Vector3d::UnitZ());
      guide->setTransformFromParentBodyNode(
          at(Eigen::Vector3d(m.slider.r.x(), m.slider.r.y(), 0), Eigen::Quaterniond::Identity()));
      guide->setPosition(0, m.slider.r.z());
      guide->setVelocity(0, m.slider.v.z());
      if (force > 0.0) guide->setCoulombFriction(0, force);
      setBody(slider, kSliderMass, kSliderInertia);
      UniversalJoint::Properties cross_properties;
      cross_properties.mName = "rod-slider";
      auto [cross, rod] = slider->createChildJointAndBodyNodePair<UniversalJoint>(
          cross_properties, BodyNode::AspectProperties("rod"));
      cross->setAxis1(Eigen::Vector3d::UnitX());
      const Eigen::Vector3d z_rod = m.rod.q * Eigen::Vector3d::UnitZ();
      cross->setAxis2(z_rod);
      cross->setTransformFromChildBodyNode(at(m.rod.r - m.slider.r, m.rod.q).inverse());
      cross->setVelocity(0, m.rod.w.x());
      cross->setVelocity(1, m.rod.w.dot(z_rod));
      setBody(rod, kRodMass, kRodInertia);
      world->addSkeleton(crank_tree);
      world->addSkeleton(slider_tree);
      world->getConstraintSolver()->addConstraint(
          std::make_shared<dart::constraint::BallJointConstraint>(
              crank, rod, m.crank.r + m.crank.q * Eigen::Vector3d(0, 0, kCrank / 2)));
      if (pgs)
        static_cast<dart::constraint::BoxedLcpConstraintSolver*>(world->getConstraintSolver())
            ->setBoxedLcpSolver(std::make_shared<dart::constraint::PgsBoxedLcpSolver>());
      Outcome o{"DART", stepText(h) + (pgs ? ", PGS (30 iterations)" : ", Dantzig"), force > 0.0,
                NAN, NAN};
      o.error = maxError(simulate(
                             h, o.cpu, [&] { world->step(); },
                             [&] { return slider->getWorldTransform().translation().z(); }),
                         m.z);
      all.push_back(o);
    }
}
#endif

#ifdef STICKSLIP_HAVE_ODE
void ode(const Motion& m, double force, std::vector<Outcome>& all) {
  dInitODE2(0);
  dSetMessageHandler(bench::ignoreOdeMessage);
  for (const double h : kSteps)
    for (const bool quick : {false, true}) {
      dWorldID world = dWorldCreate();
      dWorldSetGravity(world, 0, 0, -kG);
      auto body = [&](const BodyState& s, double mass, const Eigen::Vector3d& inertia) {
        dBodyID b = dBodyCreate(world);
        dMass dm;
        dMassSetParameters(&dm, mass, 0, 0, 0, inertia.x(), inertia.y(), inertia.z(), 0, 0, 0);
        dBodySetMass(b, &dm);
        dBodySetPosition(b, s.r.x(), s.r.y(), s.r.z());
        const dQuaternion q{s.q.w(), s.q.x(), s.q.y(), s.q.z()};
        dBodySetQuaternion(b, q);
        dBodySetLinearVel(b, s.v.x(), s.v.y(), s.v.z());
        dBodySetAngularVel(b, s.w.x(), s.w.y(), s.w.z());
        return b;
      };
      dBodyID crank = body(m.crank, kCrankMass, kCrankInertia),
              rod = body(m.rod, kRodMass, kRodInertia),
              slider = body(m.slider, kSliderMass, kSliderInertia);
      dJointID pin = dJointCreateHinge(world, nullptr);
      dJointAttach(pin, crank, nullptr);
      dJointSetHingeAnchor(pin, 0, 0, 0);
      dJointSetHingeAxis(pin, 0, 1, 0);
      const Eigen::Vector3d tip = m.crank.r + m.crank.q * Eigen::Vector3d(0, 0, kCrank / 2);
      dJointID ball = dJointCreateBall(world, nullptr);
      dJointAttach(ball, crank, rod);
      dJointSetBallAnchor(ball, tip.x(), tip.y(), tip.z());
      // ODE's universal: axis 1 fixed in body 1 (the rod's z), axis 2 in body 2 (the slider's x).
      const Eigen::Vector3d z_rod = m.rod.q * Eigen::Vector3d::UnitZ();
      dJointID cross = dJointCreateUniversal(world, nullptr);
      dJointAttach(cross, rod, slider);
      dJointSetUniversalAnchor(cross, m.slider.r.x(), m.slider.r.y(), m.slider.r.z());
      dJointSetUniversalAxis1(cross, z_rod.x(), z_rod.y(), z_rod.z());
      dJointSetUniversalAxis2(cross, 1, 0, 0);
      dJointID guide = dJointCreateSlider(world, nullptr);
      dJointAttach(guide, slider, nullptr);
      dJointSetSliderAxis(guide, 0, 0, 1);
      if (force > 0.0) {  // friction as a motor holding zero speed with at most `force`
        dJointSetSliderParam(guide, dParamVel, 0.0);
        dJointSetSliderParam(guide, dParamFMax, force);
      }
      Outcome o{"ODE", stepText(h) + (quick ? ", quickstep 20 iterations" : ", dWorldStep"),
                force > 0.0, NAN, NAN};
      o.error =
          maxError(simulate(
                       h, o.cpu, [&] { quick ? dWorldQuickStep(world, h) : dWorldStep(world, h); },
                       [&] { return double(dBodyGetPosition(slider)[2]); }),
                   m.z);
      all.push_back(o);
      dWorldDestroy(world);
    }
  dCloseODE();
}
#endif

/// Every engine on one mechanism: with `force` as its guide's constant friction (0: none).
void engines([[maybe_unused]] const Motion& m, [[maybe_unused]] double force,
             [[maybe_unused]] std::vector<Outcome>& all) {
#ifdef STICKSLIP_HAVE_MUJOCO
  mujoco(m, force, all);
#endif
#ifdef STICKSLIP_HAVE_BULLET
  bullet(m, force, all);
#endif
#ifdef STICKSLIP_HAVE_DART
  dartSim(m, force, all);
#endif
#ifdef STICKSLIP_HAVE_ODE
  ode(m, force, all);
#endif
}

void printTable(const std::vector<Outcome>& all, bool friction, double force) {
  std::printf(
      "\n%s\n\n| engine | setting | guide | error [m] | CPU [s per simulated s] |\n"
      "|---|---|---|---|---|\n",
      friction ? "With Coulomb friction in the guide (Table 4.1's μs = 0.2, μk = 0.1):"
               : "Without friction (the engines' closed loop alone):");
  std::vector<bench::RunPoint> points;
  for (const Outcome& o : all) {
    if (o.friction != friction) continue;
    const std::string guide = !friction ? "no friction"
                              : o.engine == "stickslip"
                                  ? "μ × its load"
                                  : "constant friction " + bench::numberText(force) + " N";
    std::printf("| %s | %s | %s | %.3g | %.3g |\n", o.engine.c_str(), o.setting.c_str(),
                guide.c_str(), o.error, o.cpu);
    points.push_back({o.engine, o.setting, o.error, o.cpu});
  }
  bench::printClaim(points, "m");
}

}  // namespace

int main(int argc, char** argv) {
  const bench::EngineOptions options =
      bench::parseEngineOptions(argc, argv, "bench_engines_slider_crank",
                                "The spatial slider-crank with Coulomb friction in its guide in "
                                "every engine, against our event-driven answer.");
  // Every run, ours and the engines', in kPasses passes over them all, keeping its least CPU
  // time: a run of a few milliseconds, timed once, reads whatever else the machine did then.
  std::vector<Outcome> all;
  Motion with, without;
  for (int pass = 0; pass < kPasses; ++pass) {
    std::vector<Outcome> now;
    with = ours(kFrictionFile, true, now);
    without = ours(kIdealFile, false, now);
    engines(with, with.constant_friction, now);
    engines(without, 0.0, now);
    if (pass == 0) all = std::move(now);
    for (std::size_t i = 0; pass > 0 && i < all.size(); ++i) all[i].cpu = std::fmin(all[i].cpu, now[i].cpu);
  }
  const double force = with.constant_friction;
  if (options.json) {
    nlohmann::json out{{"constant_friction", force}, {"runs", nlohmann::json::array()}};
    for (const Outcome& o : all)
      out["runs"].push_back(
          {{"engine", o.engine},
           {"setting", o.setting},
           {"friction", o.friction},
           {"error", std::isfinite(o.error) ? nlohmann::json(o.error) : nlohmann::json()},
           {"cpu_per_simulated_s", o.cpu}});
    std::cout << out.dump(1) << "\n";
  } else {
    std::printf(
        "The spatial slider-crank (thesis Table 4.1): the slider's largest distance from our "
        "event-driven answer (rtol 1e-12) over [0, %g] s; the engines' guide friction is a "
        "constant, μk × the mean guide load of our answer (%.4g N).\n",
        kEnd, force);
    printTable(all, true, force);
    printTable(all, false, force);
  }
  int failures = 0;
  if (!(std::abs(without.energy_change) <= 1e-6)) {
    std::cerr << "bench_engines_slider_crank: the frictionless reference's energy changed by "
              << without.energy_change << " J\n";
    ++failures;
  }
  for (const Outcome& o : all) {
    if (o.engine != "stickslip") continue;
    double tolerance = INFINITY;
    if (o.setting.rfind("event-driven, rtol 1e-10", 0) == 0) tolerance = 1e-7;
    if (o.setting.rfind("event-driven, rtol 1e-06", 0) == 0) tolerance = 1e-4;
    if (o.setting.rfind("Moreau–Jean, h = 0.0001 s", 0) == 0) tolerance = 2e-3;
    if (!(o.error <= tolerance)) {
      std::cerr << "bench_engines_slider_crank: " << o.setting << ": " << o.error
                << " m from the reference (tolerance " << tolerance << " m)\n";
      ++failures;
    }
  }
  return options.check && failures > 0 ? 1 : 0;
}
