// bench_peer_flores: our Moreau–Jean against Siconos' kernel (MoreauJeanOSI + FrictionContact
// + TimeStepping) on flores-translational (DESIGN §7), in one process, alternating full runs.
//
// Ours: the absolute-coordinate RigidScenario of mechanisms/flores_translational.hpp (3 bodies,
// 3 revolute joints, 4 corner contacts), stepped with MoreauJeanStepper (solver "lemke").
// Siconos: the same mechanism written here from its equations in the generalized coordinates
// q = (θ1, θ2, θ3) (absolute angles of crank, rod, slider):
//   M(q) q̈ + F_gyr(q, q̇) + F_int(q) = Σ_k J_kᵀ λ_k,
//   M11 = J1 + m1 l1²/4 + (m2 + m3) l1²,  M22 = J2 + m2 l2²/4 + m3 l2²,  M33 = J3,
//   M12 = c cos(θ1 − θ2),  c = l1 l2 (m2/2 + m3)     (J1, J2, J3 centroidal, as ours),
//   F_gyr = c sin(θ1 − θ2) (θ̇2², −θ̇1², 0),
//   F_int = ∂V/∂q,  V = g (l1 (m1/2 + m2 + m3) sin θ1 + l2 (m2/2 + m3) sin θ2).
// Gravity goes in F_int, not F_ext: in generalized coordinates it depends on q, and the 4.4
// F_ext plugin is a function of time only. Corner k = (cx, cy) of the slider, at
//   y_k = l1 sin θ1 + l2 sin θ2 + cx sin θ3 + cy cos θ3,   x_k = … cos … − … sin …,
// has the gap h_k = (b + c) − y_k (upper wall) or y_k + (b + c) (lower wall); its relation's
// Jacobian rows are ∂h_k/∂q and the tangent ∂x_k/∂q.
//
// Usage: bench_peer_flores [--rounds N] [--t-end T] [--dt H] [--output-dt D]
//                          [--siconos-solver lemke|nsgs] [--siconos-newton nonlinear|linear] [--json]
// Exit codes: 0 ran (whether the claims hold or not is printed), 1 a run failed, 2 bad input.

#include <SiconosKernel.hpp>
#include <siconos/numerics/SolverOptions.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "benchmarks/one_blas_thread.hpp"
#include "benchmarks/peer_common.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "mechanisms/flores_translational.hpp"

namespace {

using stickslip::mechanisms::FloresTranslational;
using Clock = std::chrono::steady_clock;

struct Options {
  int rounds = 5;
  double t_end = 0.2, h = 1e-5, output_dt = 1e-4;
  std::string siconos_solver = "lemke";    // FrictionContact(2) solver of Siconos Numerics
  std::string siconos_newton = "nonlinear";  // TimeStepping's default Newton loop, or one pass
  bool json = false;
};

/// One run of one side: timing, counters and the sampled generalized state.
struct Run {
  bool ok = false;
  std::string message;
  long steps = 0;
  double seconds = 0.0;      // stepping loop only
  long contact_problems = 0;  // ours: LCP solves; Siconos: steps with a non-empty FrictionContact
  long closings = 0;          // a corner with a positive normal impulse after a step without
  double first_closing = -1.0;
  long newton_iterations = 0;  // Siconos only
  Eigen::MatrixXd samples;     // rows: t, θ1..3, θ̇1..3, y of the four corners, energy
  Eigen::Index rows = 0;
  double usPerStep() const { return 1e6 * seconds / double(steps); }
};

constexpr int kCols = 12;

double energyGeneralized(const FloresTranslational& d, const Eigen::Vector3d& q,
                         const Eigen::Vector3d& w) {
  const double c = d.l1 * d.l2 * (0.5 * d.m2 + d.m3);
  Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
  m(0, 0) = d.J1 + 0.25 * d.m1 * d.l1 * d.l1 + (d.m2 + d.m3) * d.l1 * d.l1;
  m(1, 1) = d.J2 + 0.25 * d.m2 * d.l2 * d.l2 + d.m3 * d.l2 * d.l2;
  m(2, 2) = d.J3;
  m(0, 1) = m(1, 0) = c * std::cos(q(0) - q(1));
  const double v = d.gravity * (d.l1 * (0.5 * d.m1 + d.m2 + d.m3) * std::sin(q(0)) +
                                d.l2 * (0.5 * d.m2 + d.m3) * std::sin(q(1)));
  return 0.5 * w.dot(m * w) + v;
}

// ---------------------------------------------------------------------------------------------
// Ours.

Run runOurs(const FloresTranslational& d, const Options& o) {
  const stickslip::dynamics::RigidScenario s = stickslip::mechanisms::floresTranslational(d);
  stickslip::dynamics::MoreauJeanOptions mj;
  mj.t_end = o.t_end;
  mj.h = o.h;
  mj.theta = 0.5;
  mj.solver = "lemke";
  const stickslip::dynamics::PlanarMechanism stepper_mechanism(s.model, s.contacts);
  stickslip::dynamics::MoreauJeanStepper stepper(stepper_mechanism, mj);
  const Eigen::Matrix<double, 2, 4> corners = stickslip::mechanisms::floresCorners(d);

  Run r;
  r.steps = static_cast<long>(std::ceil(o.t_end / o.h - 1e-9));
  const long stride = std::max(1L, std::lround(o.output_dt / o.h));
  r.samples.setZero(r.steps / stride + 2, kCols);
  Eigen::VectorXd q = s.q0, v = s.v0;
  auto record = [&](double t) {
    auto row = r.samples.row(r.rows++);
    row(0) = t;
    row(1) = q(2), row(2) = q(5), row(3) = q(8);
    row(4) = v(2), row(5) = v(5), row(6) = v(8);
    for (int k = 0; k < 4; ++k)
      row(7 + k) = q(7) + std::sin(q(8)) * corners(0, k) + std::cos(q(8)) * corners(1, k);
    row(11) = 0.5 * (d.m1 * v.segment<2>(0).squaredNorm() + d.m2 * v.segment<2>(3).squaredNorm() +
                     d.m3 * v.segment<2>(6).squaredNorm() + d.J1 * v(2) * v(2) +
                     d.J2 * v(5) * v(5) + d.J3 * v(8) * v(8)) +
              d.gravity * (d.m1 * q(1) + d.m2 * q(4) + d.m3 * q(7));
  };
  record(0.0);
  bool was_closed[4] = {false, false, false, false};

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
    for (int i = 0; i < 4; ++i) {
      const bool closed = stepper.closed(i);
      if (closed && !was_closed[i]) {
        ++r.closings;
        if (r.first_closing < 0.0) r.first_closing = t;
      }
      was_closed[i] = closed;
    }
    if ((k + 1) % stride == 0) record(t);
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.contact_problems = stepper.lcpSolves();
  r.ok = true;
  return r;
}

// ---------------------------------------------------------------------------------------------
// Siconos. The DS plugins read the data from the DS's z vector (Siconos' channel for user
// parameters): z = (l1, l2, m1, m2, m3, J1, J2, J3, g). Matrices are column-major.

enum ZIndex { kL1, kL2, kM1, kM2, kM3, kJ1, kJ2, kJ3, kG, kZSize };

double coupling(const double* z) { return z[kL1] * z[kL2] * (0.5 * z[kM2] + z[kM3]); }

extern "C" void floresMass(unsigned int, double* q, double* mass, unsigned int, double* z) {
  const double l1 = z[kL1], l2 = z[kL2];
  const double m12 = coupling(z) * std::cos(q[0] - q[1]);
  const double m[9] = {z[kJ1] + 0.25 * z[kM1] * l1 * l1 + (z[kM2] + z[kM3]) * l1 * l1, m12, 0.0,
                       m12, z[kJ2] + 0.25 * z[kM2] * l2 * l2 + z[kM3] * l2 * l2, 0.0,
                       0.0, 0.0, z[kJ3]};
  std::copy(m, m + 9, mass);
}

extern "C" void floresFGyr(unsigned int, double* q, double* w, double* f, unsigned int,
                           double* z) {
  const double s = coupling(z) * std::sin(q[0] - q[1]);
  f[0] = s * w[1] * w[1];
  f[1] = -s * w[0] * w[0];
  f[2] = 0.0;
}

extern "C" void floresJacFGyrQ(unsigned int, double* q, double* w, double* jac, unsigned int,
                               double* z) {
  const double c = coupling(z) * std::cos(q[0] - q[1]);
  std::fill(jac, jac + 9, 0.0);
  jac[0] = c * w[1] * w[1];   // (0, 0)
  jac[1] = -c * w[0] * w[0];  // (1, 0)
  jac[3] = -jac[0];           // (0, 1)
  jac[4] = -jac[1];           // (1, 1)
}

extern "C" void floresJacFGyrV(unsigned int, double* q, double* w, double* jac, unsigned int,
                               double* z) {
  const double s = coupling(z) * std::sin(q[0] - q[1]);
  std::fill(jac, jac + 9, 0.0);
  jac[1] = -2.0 * s * w[0];  // (1, 0)
  jac[3] = 2.0 * s * w[1];   // (0, 1)
}

extern "C" void floresFInt(double, unsigned int, double* q, double*, double* f, unsigned int,
                           double* z) {
  f[0] = z[kG] * z[kL1] * (0.5 * z[kM1] + z[kM2] + z[kM3]) * std::cos(q[0]);
  f[1] = z[kG] * z[kL2] * (0.5 * z[kM2] + z[kM3]) * std::cos(q[1]);
  f[2] = 0.0;
}

extern "C" void floresJacFIntQ(double, unsigned int, double* q, double*, double* jac,
                               unsigned int, double* z) {
  std::fill(jac, jac + 9, 0.0);
  jac[0] = -z[kG] * z[kL1] * (0.5 * z[kM1] + z[kM2] + z[kM3]) * std::sin(q[0]);
  jac[4] = -z[kG] * z[kL2] * (0.5 * z[kM2] + z[kM3]) * std::sin(q[1]);
}

/// One slider corner against one wall: y = (gap, 0), rows (∂gap/∂q, ∂x_corner/∂q).
class CornerRelation : public LagrangianScleronomousR {
 public:
  CornerRelation(const FloresTranslational& d, double cx, double cy)
      : l1_(d.l1), l2_(d.l2), wall_(d.b + d.c), cx_(cx), cy_(cy), side_(cy > 0.0 ? -1.0 : 1.0) {
    _jachq.reset(new SimpleMatrix(2, 3));
  }
  double cornerY(double t1, double t2, double t3) const {
    return l1_ * std::sin(t1) + l2_ * std::sin(t2) + cx_ * std::sin(t3) + cy_ * std::cos(t3);
  }
  void computeh(const BlockVector& q, BlockVector&, SiconosVector& y) override {
    y.setValue(0, wall_ + side_ * cornerY(q.getValue(0), q.getValue(1), q.getValue(2)));
    y.setValue(1, 0.0);
  }
  void computeJachq(const BlockVector& q, BlockVector&) override {
    const double t1 = q.getValue(0), t2 = q.getValue(1), t3 = q.getValue(2);
    SimpleMatrix& j = *_jachq;
    j.setValue(0, 0, side_ * l1_ * std::cos(t1));
    j.setValue(0, 1, side_ * l2_ * std::cos(t2));
    j.setValue(0, 2, side_ * (cx_ * std::cos(t3) - cy_ * std::sin(t3)));
    j.setValue(1, 0, -l1_ * std::sin(t1));
    j.setValue(1, 1, -l2_ * std::sin(t2));
    j.setValue(1, 2, -cx_ * std::sin(t3) - cy_ * std::cos(t3));
  }

 private:
  double l1_, l2_, wall_, cx_, cy_, side_;  // side_: −1 upper wall (normal −y), +1 lower
};

Run runSiconos(const FloresTranslational& d, const Options& o) {
  // Model (not timed).
  auto q0 = std::make_shared<SiconosVector>(3);
  auto v0 = std::make_shared<SiconosVector>(3);
  for (unsigned i = 0; i < 3; ++i) {
    q0->setValue(i, d.theta0(i));
    v0->setValue(i, d.theta_rate0(i));
  }
  auto ds = std::make_shared<LagrangianDS>(q0, v0);
  auto z = std::make_shared<SiconosVector>(kZSize);
  const double zdata[kZSize] = {d.l1, d.l2, d.m1, d.m2, d.m3, d.J1, d.J2, d.J3, d.gravity};
  for (unsigned i = 0; i < kZSize; ++i) z->setValue(i, zdata[i]);
  ds->setzPtr(z);
  ds->setComputeMassFunction(floresMass);
  ds->setComputeFIntFunction(floresFInt);
  ds->setComputeJacobianFIntqFunction(floresJacFIntQ);
  ds->setComputeFGyrFunction(floresFGyr);
  ds->setComputeJacobianFGyrqFunction(floresJacFGyrQ);
  ds->setComputeJacobianFGyrqDotFunction(floresJacFGyrV);

  auto nsds = std::make_shared<NonSmoothDynamicalSystem>(0.0, o.t_end);
  nsds->insertDynamicalSystem(ds);
  auto law = std::make_shared<NewtonImpactFrictionNSL>(d.restitution, 0.0, d.mu, 2);
  const Eigen::Matrix<double, 2, 4> corners = stickslip::mechanisms::floresCorners(d);
  std::vector<std::shared_ptr<CornerRelation>> relations;
  std::vector<SP::Interaction> contacts;
  for (int k = 0; k < 4; ++k) {
    relations.push_back(std::make_shared<CornerRelation>(d, corners(0, k), corners(1, k)));
    contacts.push_back(std::make_shared<Interaction>(law, relations.back()));
    nsds->link(contacts.back(), ds);
  }

  auto osi = std::make_shared<MoreauJeanOSI>(0.5);
  auto td = std::make_shared<TimeDiscretisation>(0.0, o.h);
  const int solver =
      o.siconos_solver == "nsgs" ? SICONOS_FRICTION_2D_NSGS : SICONOS_FRICTION_2D_LEMKE;
  auto fc = std::make_shared<FrictionContact>(2, solver);
  fc->numericsSolverOptions()->dparam[SICONOS_DPARAM_TOL] = 1e-12;
  auto sim = std::make_shared<TimeStepping>(nsds, td, osi, fc);
  if (o.siconos_newton == "linear") sim->setNewtonOptions(SICONOS_TS_LINEAR);
  sim->initialize();

  Run r;
  const long stride = std::max(1L, std::lround(o.output_dt / o.h));
  r.samples.setZero(static_cast<Eigen::Index>(std::ceil(o.t_end / o.h)) / stride + 3, kCols);
  const SiconosVector& q = *ds->q();
  const SiconosVector& w = *ds->velocity();
  auto record = [&](double t) {
    if (r.rows == r.samples.rows()) return;
    auto row = r.samples.row(r.rows++);
    row(0) = t;
    for (unsigned i = 0; i < 3; ++i) row(1 + i) = q.getValue(i), row(4 + i) = w.getValue(i);
    for (int k = 0; k < 4; ++k)
      row(7 + k) = relations[k]->cornerY(row(1), row(2), row(3));
    row(11) = energyGeneralized(d, row.segment<3>(1).transpose(), row.segment<3>(4).transpose());
  };
  record(0.0);
  bool was_closed[4] = {false, false, false, false};

  const auto start = Clock::now();
  while (sim->hasNextEvent()) {
    sim->computeOneStep();
    ++r.steps;
    r.newton_iterations += sim->getNewtonNbIterations();
    if (fc->getSizeOutput() > 0) ++r.contact_problems;
    const double t = sim->nextTime();
    for (int i = 0; i < 4; ++i) {
      // lambda(1) exists only once the interaction has been in the active set.
      const SP::SiconosVector lambda = contacts[i]->lambda(1);
      const bool closed = lambda && lambda->getValue(0) > 0.0;
      if (closed && !was_closed[i]) {
        ++r.closings;
        if (r.first_closing < 0.0) r.first_closing = t;
      }
      was_closed[i] = closed;
    }
    if (r.steps % stride == 0) record(t);
    sim->nextStep();
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.ok = q.getValue(0) == q.getValue(0);  // NaN check
  if (!r.ok) r.message = "siconos: the state became NaN";
  return r;
}

// ---------------------------------------------------------------------------------------------

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "bench_peer_flores: " << why
            << "\nusage: bench_peer_flores [--rounds N] [--t-end T] [--dt H] [--output-dt D]"
               " [--siconos-solver lemke|nsgs] [--siconos-newton nonlinear|linear] [--json]\n";
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
    else if (a == "--t-end") o.t_end = number();
    else if (a == "--dt") o.h = number();
    else if (a == "--output-dt") o.output_dt = number();
    else if (a == "--siconos-solver") o.siconos_solver = value();
    else if (a == "--siconos-newton") o.siconos_newton = value();
    else if (a == "--json") o.json = true;
    else if (a == "--help" || a == "-h") {
      std::cout << "Our Moreau–Jean vs Siconos' kernel on flores-translational, alternating"
                   " runs; prints µs/step, ratio and trajectory differences.\n";
      std::exit(0);
    } else usage("unknown option '" + a + "'");
  }
  if (o.h > o.t_end) usage("--dt must be <= --t-end");
  if (o.output_dt < o.h) usage("--output-dt must be >= --dt");
  if (o.siconos_solver != "lemke" && o.siconos_solver != "nsgs")
    usage("--siconos-solver must be lemke or nsgs");
  if (o.siconos_newton != "nonlinear" && o.siconos_newton != "linear")
    usage("--siconos-newton must be nonlinear or linear");
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  stickslip::bench::restartWithOneBlasThread(argv);
  const Options o = parse(argc, argv);
  const FloresTranslational d;

  std::vector<double> us_ours, us_siconos;
  Run ours, sic;
  const auto run_ours = [&] { return runOurs(d, o); };
  const auto run_siconos = [&] { return runSiconos(d, o); };
  if (!stickslip::bench::alternateRounds(o.rounds, o.json, "bench_peer_flores", run_ours, run_siconos, ours, sic,
                                         us_ours, us_siconos))
    return 1;

  // Trajectory differences at the common output instants (same stride on both sides).
  const Eigen::Index n = std::min(ours.rows, sic.rows);
  double max_dtheta1 = 0.0, max_dy = 0.0;
  for (Eigen::Index i = 0; i < n; ++i) {
    if (std::abs(ours.samples(i, 0) - sic.samples(i, 0)) > 0.5 * o.h) {
      std::cerr << "bench_peer_flores: output instants differ at sample " << i << " ("
                << ours.samples(i, 0) << " vs " << sic.samples(i, 0) << " s)\n";
      return 1;
    }
    max_dtheta1 = std::max(max_dtheta1, std::abs(ours.samples(i, 1) - sic.samples(i, 1)));
    for (int k = 0; k < 4; ++k)
      max_dy = std::max(max_dy, std::abs(ours.samples(i, 7 + k) - sic.samples(i, 7 + k)) / d.c);
  }
  const double t_last = ours.samples(ours.rows - 1, 0);
  const double th_ours = ours.samples(ours.rows - 1, 1), th_sic = sic.samples(sic.rows - 1, 1);
  const double dth = th_ours - th_sic, dth_rel = 100.0 * std::abs(dth) / std::abs(th_sic);
  const double mu_ours = median(us_ours), mu_sic = median(us_siconos), ratio = mu_sic / mu_ours;
  const bool speed_ok = ratio >= 10.0, angle_ok = dth_rel <= 2.0;

  if (o.json) {
    auto side = [&](const Run& r, double med, const std::vector<double>& all) {
      nlohmann::json j = {{"us_per_step_median", med},
                          {"us_per_step_rounds", all},
                          {"steps", r.steps},
                          {"contact_problems", r.contact_problems},
                          {"contact_closings", r.closings},
                          {"first_closing_s", r.first_closing},
                          {"theta1_end", r.samples(r.rows - 1, 1)},
                          {"energy_start", r.samples(0, 11)},
                          {"energy_end", r.samples(r.rows - 1, 11)}};
      return j;
    };
    nlohmann::json j = {{"status", "ok"},
                        {"mechanism", "flores-translational"},
                        {"t_end", o.t_end},
                        {"h", o.h},
                        {"output_dt", o.output_dt},
                        {"rounds", o.rounds},
                        {"siconos_solver", o.siconos_solver},
                        {"siconos_newton", o.siconos_newton},
                        {"ours", side(ours, mu_ours, us_ours)},
                        {"siconos", side(sic, mu_sic, us_siconos)},
                        {"ratio_siconos_over_ours", ratio},
                        {"theta1_diff_end", dth},
                        {"theta1_diff_end_percent", dth_rel},
                        {"theta1_diff_max", max_dtheta1},
                        {"corner_y_diff_max_over_c", max_dy},
                        {"claim_10x_faster", speed_ok},
                        {"claim_theta1_within_2_percent", angle_ok}};
    j["siconos"]["newton_iterations_per_step"] = double(sic.newton_iterations) / double(sic.steps);
    std::cout << j.dump() << "\n";
    return 0;
  }

  std::printf("flores-translational, Moreau–Jean θ = 0.5, h = %g s, %g s, %d alternating rounds\n"
              "Siconos: LagrangianDS (θ1, θ2, θ3) + 4 LagrangianScleronomousR, FrictionContact(2)"
              " %s tol 1e-12, Newton %s (%.2f iterations/step)\n\n",
              o.h, o.t_end, o.rounds, o.siconos_solver.c_str(), o.siconos_newton.c_str(),
              double(sic.newton_iterations) / double(sic.steps));
  std::printf("| | ours | Siconos |\n|---|---:|---:|\n");
  std::printf("| µs/step (median) | %.3f | %.3f |\n", mu_ours, mu_sic);
  std::printf("| steps | %ld | %ld |\n", ours.steps, sic.steps);
  std::printf("| contact problems solved | %ld | %ld |\n", ours.contact_problems,
              sic.contact_problems);
  std::printf("| corner closings | %ld | %ld |\n", ours.closings, sic.closings);
  std::printf("| first closing [s] | %.5f | %.5f |\n", ours.first_closing, sic.first_closing);
  std::printf("| energy start / end [J] | %.6f / %.6f | %.6f / %.6f |\n", ours.samples(0, 11),
              ours.samples(ours.rows - 1, 11), sic.samples(0, 11), sic.samples(sic.rows - 1, 11));
  std::printf("| θ1(%g s) [rad] | %.6f | %.6f |\n\n", t_last, th_ours, th_sic);
  std::printf("ratio Siconos/ours: %.2f\n", ratio);
  std::printf("θ1 difference at %g s: %.3e rad (%.3f %%); max |Δθ1| over the run: %.3e rad\n",
              t_last, dth, dth_rel, max_dtheta1);
  std::printf("max |Δy_corner| / c over the run (every %g s): %.3f\n\n", o.output_dt, max_dy);
  std::printf("claim ours >= 10x fewer µs/step: %s (%.2fx)\n", speed_ok ? "PASS" : "FAIL", ratio);
  std::printf("claim θ1(%g s) within 2 %% of Siconos: %s (%.3f %%)\n", t_last,
              angle_ok ? "PASS" : "FAIL", dth_rel);
  return 0;
}
