// bench_peer_spatial: our Moreau–Jean against Siconos' NewtonEulerDS + joints (MoreauJeanOSI +
// MLCP + TimeStepping) on the frictionless spatial slider-crank, in one process, alternating
// full runs.
//
// The mechanism is the built-in spatial-slider-crank (mechanisms/scenarios/
// spatial-slider-crank.yaml, loaded by mechanisms::builtinSpatialModel): crank, rod and
// slider; a revolute joint crank–ground about y, a spherical joint crank–rod, a universal joint
// rod–slider (cross axes: the rod's z and the slider's x), a translational joint slider–ground
// along z; gravity −z; the crank starts at 2π rad/s, the other velocities assembled. Both sides
// start from the scenario's assembled (q0, v0), and both are built from the one SpatialModel:
// Siconos' bodies and joints are read from its bodies and joints.
//
// Ours: SpatialMechanism of the model, MoreauJeanStepper, θ = ½, the joints at velocity level
// with the default position feedback (moreau_jean.hpp).
//
// Siconos (4.4, kernel + mechanics): one NewtonEulerDS per body. Its q = (r, quaternion) is our
// (r, p): Siconos' quaternion maps body to global axes (KneeJointR places a body point at
// r + p s p⁻¹), as our Euler parameters do; its twist = (ṙ global, Ω in body axes) is our
// (ṙ, ω′), and its ṗ = T(q) twist (computeT) is our ṗ = ½ Lᵀ ω′. So the states are copied as
// they are, both ways. Gravity: a constant F_ext = m g per body (read from the model's
// generalized forces at rest). Joints, each an Interaction with an EqualityConditionNSL:
//   revolute       PivotJointR (point and axis in global axes at q0; 5 rows)
//   spherical      KneeJointR (3 rows)
//   translational  PrismaticJointR (axis in global axes; 5 rows: relative rotation and the two
//                  transverse displacements held as at q0)
//   universal      not among Siconos' joints: a KneeJointR at the joint point (3 rows) and
//                  UniversalCrossR below (1 row), h = (A_i u′_i)ᵀ (A_j w′_j) = 0 for the cross
//                  axes u′_i on i and w′_j on j (body axes), its Jacobian w.r.t. the two
//                  quaternions written here; Siconos multiplies it by T(q) (computeJachqT).
// MoreauJeanOSI(θ = ½) with the θ-method on the forces (its Newton loop, tolerance 1e-6 by
// default), MLCP (enumerative solver; all rows are equalities, so it solves the linear system)
// or Equality as the one-step problem, TimeStepping at the same h. Siconos imposes the joints on
// the velocities only (J(q) v_{k+1} = 0 at the Newton iterate), with no position feedback:
// its Φ drifts, which the report shows.
//
// Figures: µs per step (median over alternating rounds), their ratio, the slider's z
// trajectory difference max |z_ours − z_siconos| over every step relative to the stroke (twice
// the crank length), each side's largest deviation of z from a reference (the smooth equations
// of motion by RK4 with direct correction at h / 10, eom_integration.hpp; not timed), the
// constraint violation ‖Φ(q)‖∞ of each at the end and its maximum over the run, ‖D v‖∞ at the
// end, and the energy at start and end (frictionless: it should stay). Φ, D and the energy are
// our model's, evaluated on each side's states. --trace prints them every 0.01 s.
//
// What the figures show (h = 1e-3 s): both schemes are first order on this mechanism, and both
// lose energy where the slider passes its bottom dead centre (t ≈ 0.24 s: the crank then spins
// at ~30 rad/s and the slider decelerates at ~100 m/s², so each step's velocity projection
// removes a visible normal impulse). Siconos loses several times more there than ours (0.35 J
// against 0.1 J at 1e-3 s; 0.04 J against none visible at 1e-4 s): it imposes J(q) v_{k+1} = 0
// with J at its Newton loop's starting point, the predicted end of the step q_k + h v_k (the
// loop converges in one iteration, judged on the forces only), ours at q_θ, the midpoint.
// After that passage the two runs are out of phase, so the z difference is of the order of the
// stroke at 1 s whatever the step down to 1e-4 s; against the reference ours converges (1.4e-1 of
// the stroke at 1e-3 s, 5e-3 at 1e-4 s), and so does Siconos, more slowly. Before the first dead
// centre the two agree to O(h).
//
// OpenBLAS: Siconos factors W and the one-step problem with LAPACK; OpenBLAS's worker threads
// spin in sched_yield on the other core for these tiny matrices, which made Siconos 10–35× slower
// here. The program runs with one OpenBLAS thread (one_blas_thread.hpp), unless set.
//
// Usage: bench_peer_spatial [--rounds N] [--t-end T] [--dt H] [--siconos-osnsp mlcp|equality]
//                           [--siconos-newton nonlinear|linear] [--json] [--trace]
// Exit codes: 0 ran (whether the claims hold or not is printed), 1 a run failed, 2 bad input.

#include <KneeJointR.hpp>
#include <PivotJointR.hpp>
#include <PrismaticJointR.hpp>
#include <SiconosKernel.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/one_blas_thread.hpp"
#include "benchmarks/peer_common.hpp"
#include "dynamics/eom_methods/eom_integration.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "dynamics/mechanism/spatial_mechanism.hpp"
#include "dynamics/model/spatial_model.hpp"
#include "mechanisms/builtin_models.hpp"

namespace {

using stickslip::dynamics::SpatialJoint;
using stickslip::dynamics::SpatialJointType;
using stickslip::dynamics::SpatialModel;
using stickslip::mechanisms::SpatialScenario;
using Clock = std::chrono::steady_clock;

struct Options {
  int rounds = 5;
  double t_end = 1.0, h = 1e-3;
  std::string siconos_osnsp = "mlcp";        // MLCP (as Siconos' joint examples) or Equality
  std::string siconos_newton = "nonlinear";  // TimeStepping's Newton loop, or one pass
  bool json = false;
  bool trace = false;  // every 0.01 s: z of the reference and both sides, energies, Φ (stderr)
};

/// One run of one side: timing, and q, v after every step (row 0: the initial state).
struct Run {
  bool ok = false;
  std::string message;
  long steps = 0;
  double seconds = 0.0;        // stepping loop only
  long newton_iterations = 0;  // Siconos only
  Eigen::MatrixXd q, v;        // rows: states
  double usPerStep() const { return 1e6 * seconds / double(steps); }
};

long stepCount(const Options& o) { return static_cast<long>(std::ceil(o.t_end / o.h - 1e-9)); }

// ---------------------------------------------------------------------------------------------
// Ours.

Run runOurs(const SpatialScenario& s, const Options& o) {
  stickslip::dynamics::MoreauJeanOptions mj;
  mj.t_end = o.t_end;
  mj.h = o.h;
  mj.theta = 0.5;
  const stickslip::dynamics::SpatialMechanism mechanism(s.model, s.q0);
  stickslip::dynamics::MoreauJeanStepper stepper(mechanism, mj);

  Run r;
  r.steps = stepCount(o);
  r.q.setZero(r.steps + 1, s.q0.size());
  r.v.setZero(r.steps + 1, s.v0.size());
  Eigen::VectorXd q = s.q0, v = s.v0;
  r.q.row(0) = q.transpose();
  r.v.row(0) = v.transpose();

  const auto start = Clock::now();
  double t = 0.0;
  for (long k = 0; k < r.steps; ++k) {
    const double t_next = k + 1 == r.steps ? o.t_end : double(k + 1) * o.h;
    if (!stepper.step(t, t_next - t, q, v)) {
      r.message = "ours: step " + std::to_string(k + 1) + " failed: " + stepper.message();
      r.steps = k;
      return r;
    }
    t = t_next;
    r.q.row(k + 1) = q.transpose();
    r.v.row(k + 1) = v.transpose();
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.ok = true;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Reference (not timed): the smooth equations of motion by RK4 with direct correction onto
// Φ = 0, D v = 0 after each step (eom_integration.hpp), at h / 10; z of the slider at the
// bench's steps.

Eigen::VectorXd referenceZ(const SpatialScenario& s, const Options& o, Eigen::Index z) {
  stickslip::dynamics::EomOptions eo;
  eo.correction_tol = 1e-12;
  stickslip::dynamics::EomSolver solver(s.model, stickslip::dynamics::EomMethod::kDirectCorrection,
                                        eo);
  const long steps = stepCount(o);
  Eigen::VectorXd out = Eigen::VectorXd::Constant(steps + 1, std::nan(""));
  Eigen::VectorXd q = s.q0, v = s.v0;
  out(0) = q(z);
  double t = 0.0;
  for (long k = 0; k < steps; ++k) {
    const double t_next = k + 1 == steps ? o.t_end : double(k + 1) * o.h;
    const auto run =
        stickslip::dynamics::integrateRk4(solver, t, t_next, (t_next - t) / 10.0, q, v);
    if (!run.ok()) return out;
    out(k + 1) = q(z);
    t = t_next;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Siconos.

/// The universal joint's cross-axis row: h = (A(p_i) u′)ᵀ (A(p_j) w′) over the relation's q =
/// (r_i, p_i, r_j, p_j) (7 + 7), both bodies moving. With a = A(p) u′ = (2e0² − 1) u′ +
/// 2 e (eᵀu′) + 2 e0 e × u′:  ∂a/∂e0 = 4 e0 u′ + 2 e × u′,  ∂a/∂e = 2 (eᵀu′) I + 2 e u′ᵀ − 2 e0 ũ′,
/// and ∂h/∂p_i = bᵀ ∂a/∂p_i, ∂h/∂p_j = aᵀ ∂b/∂p_j (b = A(p_j) w′).
class UniversalCrossR : public NewtonEulerR {
 public:
  UniversalCrossR(const Eigen::Vector3d& u_i, const Eigen::Vector3d& w_j) : u_(u_i), w_(w_j) {}

  void computeh(double, const BlockVector& q, SiconosVector& y) override {
    y.setValue(0, axis(q, 0, u_).dot(axis(q, 7, w_)));
  }
  void computeJachq(double, Interaction&, SP::BlockVector q) override {
    const Eigen::Vector3d a = axis(*q, 0, u_), b = axis(*q, 7, w_);
    const Eigen::Vector4d da = quaternionGradient(*q, 0, u_, b),
                          db = quaternionGradient(*q, 7, w_, a);
    SimpleMatrix& j = *_jachq;
    for (unsigned c = 0; c < 3; ++c) j.setValue(0, c, 0.0), j.setValue(0, 7 + c, 0.0);
    for (unsigned c = 0; c < 4; ++c) j.setValue(0, 3 + c, da(c)), j.setValue(0, 10 + c, db(c));
  }

 private:
  static Eigen::Vector4d quaternion(const BlockVector& q, unsigned at) {
    return {q.getValue(at + 3), q.getValue(at + 4), q.getValue(at + 5), q.getValue(at + 6)};
  }
  static Eigen::Vector3d axis(const BlockVector& q, unsigned at, const Eigen::Vector3d& u) {
    return stickslip::dynamics::rotationMatrix(quaternion(q, at)) * u;
  }
  /// cᵀ ∂(A(p) u)/∂p for the quaternion at `at`.
  static Eigen::Vector4d quaternionGradient(const BlockVector& q, unsigned at,
                                            const Eigen::Vector3d& u, const Eigen::Vector3d& c) {
    const Eigen::Vector4d p = quaternion(q, at);
    const double e0 = p(0);
    const Eigen::Vector3d e = p.tail<3>();
    const Eigen::Vector3d d0 = 4.0 * e0 * u + 2.0 * e.cross(u);
    const Eigen::Matrix3d de = 2.0 * e.dot(u) * Eigen::Matrix3d::Identity() +
                               2.0 * e * u.transpose() -
                               2.0 * e0 * stickslip::dynamics::skewMatrix(u);
    Eigen::Vector4d g;
    g(0) = c.dot(d0);
    g.tail<3>() = de.transpose() * c;
    return g;
  }
  Eigen::Vector3d u_, w_;
};

SP::SiconosVector siconosVector(const Eigen::Ref<const Eigen::VectorXd>& x) {
  auto out = std::make_shared<SiconosVector>(static_cast<unsigned>(x.size()));
  for (Eigen::Index i = 0; i < x.size(); ++i) out->setValue(static_cast<unsigned>(i), x(i));
  return out;
}

/// The Siconos system of the scenario's model at (q0, v0). Throws std::invalid_argument for what
/// the bench does not translate (other joint types, drivers, forces other than gravity).
struct SiconosSystem {
  std::vector<SP::NewtonEulerDS> bodies;
  SP::NonSmoothDynamicalSystem nsds;
};

SiconosSystem buildSiconos(const SpatialScenario& s, double t_end) {
  const SpatialModel& m = s.model;
  SiconosSystem sys;
  sys.nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, t_end);
  // Gravity: the generalized forces at rest, which must be translational (no torques at rest).
  Eigen::VectorXd rest(m.velocitySize()), zero = Eigen::VectorXd::Zero(m.velocitySize());
  m.generalizedForces(0.0, s.q0, zero, rest);
  for (int b = 0; b < m.bodyCount(); ++b) {
    if (rest.segment<3>(6 * b + 3).norm() > 0.0)
      throw std::invalid_argument("body " + m.body(b).name +
                                  " has a torque at rest: only gravity is translated");
    auto inertia = std::make_shared<SimpleMatrix>(3, 3);
    for (unsigned r = 0; r < 3; ++r)
      for (unsigned c = 0; c < 3; ++c) inertia->setValue(r, c, m.body(b).inertia(r, c));
    auto ds = std::make_shared<NewtonEulerDS>(siconosVector(s.q0.segment<7>(7 * b)),
                                              siconosVector(s.v0.segment<6>(6 * b)), m.body(b).mass,
                                              inertia);
    ds->setFExtPtr(siconosVector(rest.segment<3>(6 * b)));
    sys.nsds->insertDynamicalSystem(ds);
    sys.bodies.push_back(ds);
  }

  auto link = [&](const SP::Relation& relation, unsigned rows, const SP::NewtonEulerDS& d1,
                  const SP::NewtonEulerDS& d2) {
    auto inter =
        std::make_shared<Interaction>(std::make_shared<EqualityConditionNSL>(rows), relation);
    if (d2)
      sys.nsds->link(inter, d1, d2);
    else
      sys.nsds->link(inter, d1);
  };
  for (const SpatialJoint& jt : m.joints()) {
    // d1 moving; d2 the other body, or none for the ground. Points and axes in global axes.
    const bool ground_i = jt.body_i == stickslip::dynamics::kGround;
    const SP::NewtonEulerDS di = ground_i ? nullptr : sys.bodies[std::size_t(jt.body_i)];
    const SP::NewtonEulerDS dj =
        jt.body_j == stickslip::dynamics::kGround ? nullptr : sys.bodies[std::size_t(jt.body_j)];
    const SP::NewtonEulerDS d1 = ground_i ? dj : di, d2 = ground_i ? nullptr : dj;
    const Eigen::Vector3d point = m.pointPosition(s.q0, jt.body_i, jt.s_i);
    const Eigen::Vector3d axis = m.rotation(s.q0, jt.body_i) * jt.frame_i.col(2);
    switch (jt.type) {
      case SpatialJointType::kSpherical:
        link(std::make_shared<KneeJointR>(siconosVector(point), true, d1, d2), 3, d1, d2);
        break;
      case SpatialJointType::kRevolute:
        link(std::make_shared<PivotJointR>(siconosVector(point), siconosVector(axis), true, d1, d2),
             5, d1, d2);
        break;
      case SpatialJointType::kTranslational:
        link(std::make_shared<PrismaticJointR>(siconosVector(axis), true, d1, d2), 5, d1, d2);
        break;
      case SpatialJointType::kUniversal:
        if (!di || !dj)
          throw std::invalid_argument("joint " + jt.name + ": a universal joint with the ground");
        link(std::make_shared<KneeJointR>(siconosVector(point), true, di, dj), 3, di, dj);
        link(std::make_shared<UniversalCrossR>(jt.frame_i.col(2), jt.frame_j.col(2)), 1, di, dj);
        break;
      default:
        throw std::invalid_argument("joint " + jt.name + ": its type is not translated to Siconos");
    }
  }
  return sys;
}

Run runSiconos(const SpatialScenario& s, const Options& o) {
  Run r;
  try {
    const SiconosSystem sys = buildSiconos(s, o.t_end);  // not timed
    auto osi = std::make_shared<MoreauJeanOSI>(0.5);
    auto td = std::make_shared<TimeDiscretisation>(0.0, o.h);
    SP::OneStepNSProblem osnsp;
    if (o.siconos_osnsp == "equality")
      osnsp = std::make_shared<Equality>();
    else
      osnsp = std::make_shared<MLCP>();
    auto sim = std::make_shared<TimeStepping>(sys.nsds, td, osi, osnsp);
    if (o.siconos_newton == "linear") sim->setNewtonOptions(SICONOS_TS_LINEAR);
    sim->initialize();

    const long capacity = stepCount(o) + 2;
    r.q.setZero(capacity, s.q0.size());
    r.v.setZero(capacity, s.v0.size());
    auto record = [&](Eigen::Index row) {
      for (std::size_t b = 0; b < sys.bodies.size(); ++b) {
        const SiconosVector& q = *sys.bodies[b]->q();
        const SiconosVector& v = *sys.bodies[b]->twist();
        for (unsigned i = 0; i < 7; ++i) r.q(row, Eigen::Index(7 * b + i)) = q.getValue(i);
        for (unsigned i = 0; i < 6; ++i) r.v(row, Eigen::Index(6 * b + i)) = v.getValue(i);
      }
    };
    record(0);

    const auto start = Clock::now();
    while (sim->hasNextEvent() && r.steps + 1 < capacity) {
      sim->computeOneStep();
      ++r.steps;
      r.newton_iterations += sim->getNewtonNbIterations();
      record(r.steps);
      sim->nextStep();
    }
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    r.ok = r.q.topRows(r.steps + 1).allFinite();
    if (!r.ok) r.message = "siconos: the state became NaN";
  } catch (const std::exception& e) {
    r.message = std::string("siconos: ") + e.what();
  } catch (...) {
    r.message = "siconos: an exception that is not a std::exception";
  }
  return r;
}

// ---------------------------------------------------------------------------------------------

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/// ‖Φ(q)‖∞ at state row k, ‖D v‖∞, and the energy, on our model.
struct Check {
  double phi = 0.0, velocity = 0.0, energy = 0.0;
};
Check check(const SpatialModel& m, const Run& r, Eigen::Index k) {
  const Eigen::VectorXd q = r.q.row(k).transpose(), v = r.v.row(k).transpose();
  Eigen::VectorXd phi(m.constraintCount());
  Eigen::MatrixXd d(m.constraintCount(), m.velocitySize());
  m.constraints(0.0, q, phi);
  m.jacobian(0.0, q, d);
  return {phi.cwiseAbs().maxCoeff(), (d * v).cwiseAbs().maxCoeff(),
          m.kineticEnergy(v) + m.potentialEnergy(q)};
}
double maxPhi(const SpatialModel& m, const Run& r) {
  double worst = 0.0;
  for (Eigen::Index k = 0; k <= r.steps; ++k) worst = std::max(worst, check(m, r, k).phi);
  return worst;
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "bench_peer_spatial: " << why
            << "\nusage: bench_peer_spatial [--rounds N] [--t-end T] [--dt H] [--siconos-osnsp "
               "mlcp|equality]"
               " [--siconos-newton nonlinear|linear] [--json] [--trace]\n";
  std::exit(2);
}

Options parse(int argc, char** argv) {
  Options o;
  stickslip::bench::OptionReader args(argc, argv, usage);
  while (args.next()) {
    const std::string& a = args.option();
    const auto value = [&] { return args.value(); };
    const auto number = [&] { return args.positive(); };
    if (a == "--rounds")
      o.rounds = int(args.integer(1, 1000));
    else if (a == "--t-end")
      o.t_end = number();
    else if (a == "--dt")
      o.h = number();
    else if (a == "--siconos-osnsp")
      o.siconos_osnsp = value();
    else if (a == "--siconos-newton")
      o.siconos_newton = value();
    else if (a == "--json")
      o.json = true;
    else if (a == "--trace")
      o.trace = true;
    else if (a == "--help" || a == "-h") {
      std::cout
          << "Our Moreau–Jean vs Siconos' NewtonEulerDS and joints on the spatial slider-crank,"
             " alternating runs; prints µs/step, ratio, the slider's trajectory difference and"
             " the constraint violations.\n";
      std::exit(0);
    } else
      usage("unknown option '" + a + "'");
  }
  if (o.h > o.t_end) usage("--dt must be <= --t-end");
  // Siconos' TimeDiscretisation takes whole steps; ours would shorten the last one.
  if (std::abs(o.t_end / o.h - std::round(o.t_end / o.h)) > 1e-9 * (o.t_end / o.h))
    usage("--t-end must be a whole number of steps --dt");
  if (o.siconos_osnsp != "mlcp" && o.siconos_osnsp != "equality")
    usage("--siconos-osnsp must be mlcp or equality");
  if (o.siconos_newton != "nonlinear" && o.siconos_newton != "linear")
    usage("--siconos-newton must be nonlinear or linear");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  stickslip::bench::restartWithOneBlasThread(argv);  // file comment
  const Options o = parse(argc, argv);
  const SpatialScenario s = stickslip::mechanisms::builtinSpatialModel("spatial-slider-crank");
  const SpatialModel& m = s.model;
  double stroke = 0.0;
  for (const auto& [name, value] : s.parameters)
    if (name == "crank_length") stroke = 2.0 * value;
  if (!(stroke > 0.0)) {
    std::cerr << "bench_peer_spatial: the built-in has no crank_length parameter\n";
    return 1;
  }
  const int slider = m.bodyCount() - 1;  // crank, rod, slider
  const Eigen::Index z = SpatialModel::positionIndex(slider, 2);

  std::vector<double> us_ours, us_siconos;
  Run ours, sic;
  const auto run_ours = [&] { return runOurs(s, o); };
  const auto run_siconos = [&] { return runSiconos(s, o); };
  if (!stickslip::bench::alternateRounds(o.rounds, o.json, "bench_peer_spatial", run_ours, run_siconos, ours, sic,
                                         us_ours, us_siconos))
    return 1;
  if (ours.steps != sic.steps) {
    std::cerr << "bench_peer_spatial: the runs took " << ours.steps << " and " << sic.steps
              << " steps\n";
    return 1;
  }

  double max_dz = 0.0, t_max_dz = 0.0;
  for (Eigen::Index k = 0; k <= ours.steps; ++k) {
    const double dz = std::abs(ours.q(k, z) - sic.q(k, z));
    if (dz > max_dz) max_dz = dz, t_max_dz = std::min(o.t_end, double(k) * o.h);
  }
  const double dz_rel = max_dz / stroke;
  const Eigen::VectorXd ref = referenceZ(s, o, z);
  if (!ref.allFinite()) {
    std::cerr << "bench_peer_spatial: the RK4 reference run failed\n";
    return 1;
  }
  if (o.trace) {
    std::fprintf(stderr,
                 "# t  z_ref  z_ours  z_siconos  E_ours  E_siconos  |Phi|_ours  |Phi|_siconos  "
                 "|Dv|_ours  |Dv|_siconos\n");
    const long stride = std::max(1L, std::lround(0.01 / o.h));
    for (Eigen::Index k = 0; k <= ours.steps; k += stride) {
      const Check a = check(m, ours, k), b = check(m, sic, k);
      std::fprintf(stderr, "%g %.6f %.6f %.6f %.5f %.5f %.1e %.1e %.1e %.1e\n",
                   std::min(o.t_end, double(k) * o.h), ref(k), ours.q(k, z), sic.q(k, z), a.energy,
                   b.energy, a.phi, b.phi, a.velocity, b.velocity);
    }
  }
  const double ref_ours = (ours.q.col(z).head(ref.size()) - ref).cwiseAbs().maxCoeff() / stroke;
  const double ref_sic = (sic.q.col(z).head(ref.size()) - ref).cwiseAbs().maxCoeff() / stroke;
  const Check start = check(m, ours, 0), end_ours = check(m, ours, ours.steps),
              end_sic = check(m, sic, sic.steps);
  const double max_phi_ours = maxPhi(m, ours), max_phi_sic = maxPhi(m, sic);
  const double mu_ours = median(us_ours), mu_sic = median(us_siconos), ratio = mu_sic / mu_ours;
  const bool speed_ok = ratio >= 10.0, z_ok = dz_rel <= 1e-3;
  const double newton_per_step = double(sic.newton_iterations) / double(sic.steps);

  if (o.json) {
    auto side = [&](const Run& r, double med, const std::vector<double>& all, const Check& e,
                    double max_phi, double err) {
      return nlohmann::json{{"us_per_step_median", med},
                            {"us_per_step_rounds", all},
                            {"steps", r.steps},
                            {"slider_z_end", r.q(r.steps, z)},
                            {"slider_z_error_max_over_stroke", err},
                            {"phi_end", e.phi},
                            {"phi_max", max_phi},
                            {"velocity_constraint_end", e.velocity},
                            {"energy_start", start.energy},
                            {"energy_end", e.energy}};
    };
    nlohmann::json j = {{"status", "ok"},
                        {"mechanism", "spatial-slider-crank"},
                        {"t_end", o.t_end},
                        {"h", o.h},
                        {"theta", 0.5},
                        {"rounds", o.rounds},
                        {"siconos_osnsp", o.siconos_osnsp},
                        {"siconos_newton", o.siconos_newton},
                        {"stroke", stroke},
                        {"ours", side(ours, mu_ours, us_ours, end_ours, max_phi_ours, ref_ours)},
                        {"siconos", side(sic, mu_sic, us_siconos, end_sic, max_phi_sic, ref_sic)},
                        {"ratio_siconos_over_ours", ratio},
                        {"slider_z_diff_max", max_dz},
                        {"slider_z_diff_max_time", t_max_dz},
                        {"slider_z_diff_max_over_stroke", dz_rel},
                        {"claim_10x_faster", speed_ok},
                        {"claim_z_within_1e-3_stroke", z_ok}};
    j["siconos"]["newton_iterations_per_step"] = newton_per_step;
    std::cout << j.dump() << "\n";
    return 0;
  }

  std::printf(
      "spatial-slider-crank (frictionless), Moreau–Jean θ = 0.5, h = %g s, %g s, %d alternating "
      "rounds\n"
      "Siconos: 3 NewtonEulerDS, PivotJointR + KneeJointR + KneeJointR & a cross-axis row "
      "(universal)"
      " + PrismaticJointR, %s, Newton %s (%.2f iterations/step)\n\n",
      o.h, o.t_end, o.rounds, o.siconos_osnsp == "mlcp" ? "MLCP (enum)" : "Equality",
      o.siconos_newton.c_str(), newton_per_step);
  std::printf("| | ours | Siconos |\n|---|---:|---:|\n");
  std::printf("| µs/step (median) | %.3f | %.3f |\n", mu_ours, mu_sic);
  std::printf("| steps | %ld | %ld |\n", ours.steps, sic.steps);
  std::printf("| slider z(%g s) [m] | %.6f | %.6f |\n", o.t_end, ours.q(ours.steps, z),
              sic.q(sic.steps, z));
  std::printf("| max deviation of z from the reference / stroke | %.2e | %.2e |\n", ref_ours,
              ref_sic);
  std::printf("| ‖Φ‖∞ at the end [m] | %.2e | %.2e |\n", end_ours.phi, end_sic.phi);
  std::printf("| max ‖Φ‖∞ over the run [m] | %.2e | %.2e |\n", max_phi_ours, max_phi_sic);
  std::printf("| ‖D v‖∞ at the end [m/s] | %.2e | %.2e |\n", end_ours.velocity, end_sic.velocity);
  std::printf("| energy start / end [J] | %.6f / %.6f | %.6f / %.6f |\n\n", start.energy,
              end_ours.energy, start.energy, end_sic.energy);
  std::printf("ratio Siconos/ours: %.2f\n", ratio);
  std::printf("max |Δz_slider| over the run: %.3e m at %g s, %.3e of the stroke (%g m)\n\n", max_dz,
              t_max_dz, dz_rel, stroke);
  std::printf("claim ours >= 10x fewer µs/step: %s (%.2fx)\n", speed_ok ? "PASS" : "FAIL", ratio);
  std::printf("claim slider z within 1e-3 of the stroke of Siconos': %s (%.2e)\n",
              z_ok ? "PASS" : "FAIL", dz_rel);
  return 0;
}
