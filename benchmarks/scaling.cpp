// bench_scaling: how the cost of the nonsmooth formulations grows with the number of frictional
// contacts, on a chain of N blocks on a moving belt (mechanisms/belt_chain.hpp), N = 1, 2, 4, …
//
//   bench_scaling [--max-n N] [--budget S] [--json]
//
// Moreau–Jean (h = 1e-4 s): µs per step, the LCP size (4 × active contacts, Lemke's
// formulation), pivots per solve (sweeps or iterations for the iterative solvers), for ours
// (nsgs on the sparse W, auto — the default, which takes nsgs beyond 4 contacts — and Lemke)
// and the Siconos fc2d solvers given the dense W. Each (solver, N) steps until S
// seconds of CPU are used (default 1; at least 20 steps, at most 12 s of simulated time).
// Event-driven: µs per event (everything between two events: integration, the event's
// complementarity problems, the restart) over a fixed simulated window of 12 s (at most 20000
// events); once a size takes more than 10 s of CPU, the larger sizes of that solver are
// skipped. 12 s, not less: block 0 starts at its spring's rest length, so with N = 1 the first
// break-away is at the belt's t₁ = 7.36 s and with N = 2 block 0 breaks away at ≈ 10.9 s.
// The dense solvers stop at the N given in main() (their cost per step grows as N²–N³).
// Growth exponents are least-squares slopes of log µs against log N over N ≥ 16.
// The same Moreau–Jean rows ("coupled") on a hanging chain of N links with clearance joints
// (mechanisms/clearance_chain.hpp), whose contacts are all coupled through the links; and
// ("pinned") on that chain with clearance in 4 joints and ideal pins in the others, Moreau–Jean
// and event-driven with the joints handled sparse (constrained_response.hpp) or dense; and
// ("alternating") with clearance in every other joint, N/2 contacts coupled through N/2 pins:
// Moreau–Jean auto (Newton, the pins' rows in its problem) against Lemke on the dense J G Jᵀ.
//
// The chain (spacing 4 m) starts with the springs pre-loaded (offset_amplitude 1.5 m, as in
// tests/mechanisms/belt_chain_test.cpp) so that blocks slide and stick from t = 0 and the timed
// window is representative of a stick–slip run; with a small pre-load (0.3 m) every block
// sticks, and with unloaded springs the chain rides the belt rigidly for the first 7.36 s.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "dynamics/routes/event_driven/event_driven.hpp"
#include "dynamics/routes/moreau_jean/moreau_jean.hpp"
#include "lcp/nsgs.hpp"
#include "lcp/planar_newton.hpp"
#include "lcp/siconos_backend.hpp"
#include "lcp/solve.hpp"
#include "mechanisms/belt_chain.hpp"
#include "mechanisms/clearance_chain.hpp"
#include "one_blas_thread.hpp"
#include "option_reader.hpp"

using namespace stickslip;
using Clock = std::chrono::steady_clock;

namespace {

constexpr double kStep = 1e-4;            // Moreau–Jean h [s]
constexpr double kSpacing = 4.0;          // spring rest length, BeltChain::spacing [m]
constexpr double kOffset = 1.5;           // spring pre-load, BeltChain::offset_amplitude [m]
constexpr double kMaxMjTime = 12.0;       // simulated time cap per Moreau–Jean run [s]
constexpr double kEdTime = 12.0;          // simulated window of every event-driven run [s]
constexpr double kEdSkipAfter = 10.0;     // event-driven: larger N skipped past this CPU [s]
constexpr long kMaxEdEvents = 20000;
constexpr int kFitFrom = 16;              // exponents are fitted over N ≥ this
constexpr double kChainEdTime = 0.01;     // event-driven on the clearance chain: simulated window [s]
constexpr int kProblemStep = 100;         // the chain's contact problem: Moreau–Jean's step this

struct Row {
  std::string formulation, solver;
  int n = 0;
  bool ok = false;
  bool skipped = false;
  std::string message;
  double sim_time = 0.0, cpu_seconds = 0.0;
  long units = 0;         // steps or events
  double us_per_unit = 0.0;
  double lcp_size = 0.0;  // mean 4 × active contacts (Moreau–Jean)
  double pivots_per_solve = 0.0;
  long lcp_solves = 0;
  double slipping = 0.0;  // MJ: fraction of block-steps slipping; ED: slip-start events
};

Row rowOf(const std::string& formulation, const std::string& solver, int n) {
  Row r;
  r.formulation = formulation;
  r.solver = solver;
  r.n = n;
  return r;
}

mechanisms::BeltChain chainOf(int n) {
  mechanisms::BeltChain c;
  c.blocks = n;
  c.spacing = kSpacing;
  c.offset_amplitude = kOffset;
  return c;
}

/// Moreau–Jean on scenario s (N = n) with `solver` for `budget` CPU seconds (file comment).
Row runMoreauJean(const std::string& formulation, const dynamics::RigidScenario& s, int n,
                  const std::string& solver, double budget) {
  Row row = rowOf(formulation, solver, n);
  dynamics::MoreauJeanOptions o;
  o.h = kStep;
  o.solver = solver;
  o.t_end = kMaxMjTime;
  try {
    const dynamics::PlanarMechanism stepper_mechanism(s.model, s.contacts);
    dynamics::MoreauJeanStepper stepper(stepper_mechanism, o);
    const Eigen::Index nc = Eigen::Index(s.contacts.size());
    Eigen::VectorXd q = s.q0, v = s.v0;
    double t = 0.0, closed_sum = 0.0, slip_sum = 0.0;
    long steps = 0;
    const long max_steps = std::lround(kMaxMjTime / kStep);
    row.ok = true;
    const auto t0 = Clock::now();
    double elapsed = 0.0;
    while (steps < max_steps && (steps < 20 || elapsed < budget)) {
      if (!stepper.step(t, kStep, q, v)) {
        row.ok = false;
        row.message = "step at t = " + std::to_string(t) + " s failed: " + stepper.message();
        break;
      }
      for (Eigen::Index i = 0; i < nc; ++i) {
        closed_sum += stepper.closed(i);
        slip_sum += stepper.closed(i) && std::abs(stepper.slidingVelocity()(i)) > 1e-6;
      }
      t += kStep;
      ++steps;
      elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    row.cpu_seconds = elapsed;
    row.sim_time = t;
    row.units = steps;
    row.us_per_unit = steps > 0 ? 1e6 * elapsed / double(steps) : NAN;
    row.lcp_size = steps > 0 ? 4.0 * closed_sum / double(steps) : 0.0;
    row.slipping = steps > 0 ? slip_sum / (double(steps) * double(nc)) : 0.0;
    row.lcp_solves = stepper.lcpSolves();
    row.pivots_per_solve =
        stepper.lcpSolves() > 0 ? double(stepper.pivots()) / double(stepper.lcpSolves()) : 0.0;
  } catch (const std::exception& e) {
    row.ok = false;
    row.message = e.what();
  }
  return row;
}

mechanisms::ClearanceChain clearanceChainOf(int n) {
  mechanisms::ClearanceChain c;
  c.links = n;
  return c;
}

/// The pinned chain: N links, clearance in 4 of the joints (0, N/4, N/2, 3N/4), ideal pins in
/// the others, its joints handled sparse or (sparse = false) dense.
dynamics::RigidScenario pinnedChainOf(int n, bool sparse) {
  mechanisms::ClearanceChain c;
  c.links = n;
  c.clearance_every = std::max(1, n / 4);
  dynamics::RigidScenario s = mechanisms::clearanceChainRigid(c);
  s.model.setSparseJoints(sparse);
  return s;
}

/// The alternating chain: clearance in the even joints, ideal pins in the odd ones.
dynamics::RigidScenario alternatingChainOf(int n) {
  mechanisms::ClearanceChain c;
  c.links = n;
  c.clearance_every = 2;
  return mechanisms::clearanceChainRigid(c);
}

/// An event-driven run's times and counts into its row (µs per event, slip starts).
void fillEventRow(const dynamics::RunResult& run, Row& row) {
  row.sim_time = run.t_end;
  row.cpu_seconds = run.cpu_seconds;
  row.units = long(run.events.size());
  row.us_per_unit = row.units > 0 ? 1e6 * run.cpu_seconds / double(row.units) : NAN;
  row.lcp_solves = run.lcp_solves;
  row.pivots_per_solve = run.lcp_solves > 0 ? double(run.pivots) / double(run.lcp_solves) : 0.0;
  for (const auto& e : run.events)
    row.slipping += e.kind == dynamics::EventKind::kSlipPositive || e.kind == dynamics::EventKind::kSlipNegative;
}

/// Event-driven on the clearance chain over kChainEdTime: "auto" (the sparse path, Newton from
/// 6 links) or "dense" (Lemke on the dense path, sparse_path off). The events are kept for the
/// comparison of the two.
Row runChainEventDriven(const char* formulation, const dynamics::RigidScenario& chain, int n, const std::string& solver,
                        std::vector<dynamics::ContactEvent>* events) {
  Row row = rowOf(formulation, solver, n);
  dynamics::EventDrivenOptions o;
  o.solver = solver == "dense" ? "lemke" : solver;
  o.sparse_path = solver != "dense";
  o.cross_check = false;
  o.output_dt = kChainEdTime;
  o.max_events = kMaxEdEvents;
  o.t_end = kChainEdTime;
  dynamics::RunResult run;
  try {
    run = dynamics::simulateEventDriven(chain, o);
  } catch (const std::exception& e) {
    row.message = e.what();
    return row;
  }
  fillEventRow(run, row);
  row.ok = run.ok();
  row.message = run.ok() ? run.contact_solver : run.message;
  if (events) *events = run.events;
  return row;
}

/// The largest difference of event times between two runs with the same events (contact and kind,
/// in order); NaN when the lists differ.
double eventTimeDifference(const std::vector<dynamics::ContactEvent>& a, const std::vector<dynamics::ContactEvent>& b) {
  if (a.size() != b.size()) return NAN;
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (a[k].contact != b[k].contact || a[k].kind != b[k].kind) return NAN;
    worst = std::max(worst, std::abs(a[k].t - b[k].t));
  }
  return worst;
}

/// Event-driven on the pinned chain over kChainEdTime, its joints handled sparse ("sparse") or
/// dense ("dense"), "auto" solver either way; the events into *events.
Row runPinnedEventDriven(int n, const std::string& joints, std::vector<dynamics::ContactEvent>* events) {
  Row row = rowOf("pinned event-driven", joints, n);
  dynamics::EventDrivenOptions o;
  o.output_dt = kChainEdTime;
  o.t_end = kChainEdTime;
  dynamics::RunResult run;
  try {
    run = dynamics::simulateEventDriven(pinnedChainOf(n, joints == "sparse"), o);
  } catch (const std::exception& e) {
    row.message = e.what();
    return row;
  }
  row.ok = run.ok();
  row.message = run.message;
  fillEventRow(run, row);
  *events = run.events;
  return row;
}

/// One step's contact problem of the clearance chain, solved by each solver alone from r = 0.
struct ProblemRow {
  std::string solver;
  int n = 0;          ///< links
  int contacts = 0;   ///< closed joints in the problem
  bool ok = false;
  double error = NAN;  ///< Siconos' fc2d error of the answer
  double us = NAN;     ///< per solve
  int iterations = 0;
  std::string message;
};

/// The last problem Moreau–Jean (by Newton) poses in its first kProblemStep steps (the joints
/// closed, some sticking and some slipping).
lcp::SparseFrictionProblem2D chainProblem(int n) {
  const dynamics::RigidScenario s = mechanisms::clearanceChainRigid(clearanceChainOf(n));
  dynamics::MoreauJeanOptions o;
  o.h = kStep;
  o.solver = "newton";
  const dynamics::PlanarMechanism mechanism(s.model, s.contacts);
  dynamics::MoreauJeanStepper stepper(mechanism, o);
  Eigen::VectorXd q = s.q0, v = s.v0;
  std::optional<lcp::SparseFrictionProblem2D> last;
  for (int k = 0; k < kProblemStep; ++k) {
    if (!stepper.step(k * kStep, kStep, q, v)) throw std::runtime_error(stepper.message());
    if (auto p = stepper.sparseProblem()) last = std::move(p);
  }
  if (!last) throw std::runtime_error("no contact closed in " + std::to_string(kProblemStep) + " steps");
  return *last;
}

/// The planar problem as Siconos' fc3d one: the second tangent decoupled and unloaded
/// (lcp/planar_newton.hpp), so that Siconos' Newton (nsn-ac) applies to it.
lcp::FrictionProblem3D embedded(const lcp::SparseFrictionProblem2D& p) {
  const Eigen::Index nc = p.contacts();
  lcp::ContactBlocks blocks;
  lcp::embedPlanar(lcp::viewOf(p.W), blocks);
  lcp::FrictionProblem3D e;
  blocks.toDense(e.W);
  e.q.setZero(3 * nc);
  for (Eigen::Index i = 0; i < nc; ++i) e.q.segment<2>(3 * i) = p.q.segment<2>(2 * i);
  e.mu = p.mu;
  return e;
}

/// Solves p with `solver` repeatedly for about `budget` seconds (at least once): µs per solve.
ProblemRow solveChainProblem(const lcp::SparseFrictionProblem2D& p, int n, const std::string& solver, double budget) {
  ProblemRow row;
  row.solver = solver;
  row.n = n;
  row.contacts = int(p.contacts());
  const lcp::FrictionProblem2D dense{Eigen::MatrixXd(p.W), p.q, p.mu};
  const lcp::FrictionProblem3D spatial = solver == "siconos-nsn-ac" ? embedded(p) : lcp::FrictionProblem3D{};
  lcp::SiconosOptions quiet_off;
  quiet_off.quiet = false;  // its few system calls per solve are not Siconos' cost
  std::unique_ptr<lcp::SiconosFc2dSolver> fc2d;
  std::unique_ptr<lcp::SiconosFc3dSolver> fc3d;
  if (solver == "siconos-nsgs") fc2d = std::make_unique<lcp::SiconosFc2dSolver>("nsgs", quiet_off);
  if (solver == "siconos-nsn-ac") fc3d = std::make_unique<lcp::SiconosFc3dSolver>("nsn-ac", quiet_off);
  lcp::PlanarNewtonSolver newton;
  Eigen::VectorXd r(p.q.size()), u(p.q.size());
  long solves = 0;
  const auto t0 = Clock::now();
  double elapsed = 0.0;
  do {
    if (solver == "newton") {
      r.setZero();
      const lcp::AlartCurnierSolver::Outcome o = newton.solve(lcp::viewOf(p.W), p.q, p.mu, 1e-12, 200, r, u);
      row.ok = o.status == lcp::Status::kSuccess;
      row.iterations = o.iterations;
      row.message = std::string(lcp::toString(o.status));
    } else {
      lcp::FrictionResult res = fc2d ? fc2d->solve(dense) : fc3d ? fc3d->solve(spatial) : lcp::solveFriction(solver, dense);
      row.ok = res.ok();
      row.iterations = res.pivots;
      row.message = res.ok() ? std::string() : std::string(lcp::toString(res.status)) + (res.message.empty() ? "" : ": " + res.message);
      if (fc3d) {  // back to the planar unknowns
        for (Eigen::Index i = 0; i < p.contacts(); ++i) {
          r.segment<2>(2 * i) = res.r.segment<2>(3 * i);
          u.segment<2>(2 * i) = res.u.segment<2>(3 * i);
        }
      } else {
        r = res.r;
        u = res.u;
      }
    }
    ++solves;
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  } while (elapsed < budget && row.ok);
  row.us = 1e6 * elapsed / double(solves);
  row.error = lcp::fc2dError(r, p.W * r + p.q, p.mu, p.q.norm());
  return row;
}

Row runEventDriven(int n, const std::string& solver) {
  Row row = rowOf("event-driven", solver, n);
  const mechanisms::BeltChain chain = chainOf(n);
  const dynamics::RigidScenario s = mechanisms::beltChainRigid(chain);
  dynamics::EventDrivenOptions o;
  o.solver = solver;
  o.cross_check = false;  // the single-contact cross-check is a test, not part of the cost
  o.output_dt = 0.01;
  o.max_events = kMaxEdEvents;
  o.t_end = kEdTime;
  dynamics::RunResult run;
  try {
    run = dynamics::simulateEventDriven(s, o);
  } catch (const std::exception& e) {
    row.message = e.what();
    return row;
  }
  fillEventRow(run, row);
  const bool capped = !run.ok() && long(run.events.size()) >= kMaxEdEvents;
  row.ok = run.ok() || capped;
  row.message = run.ok() ? std::string() : run.message;
  return row;
}

bool eventDriven(const std::string& formulation) { return formulation.find("event-driven") != std::string::npos; }

/// Least-squares slope of log µs against log N over N ≥ kFitFrom; NaN with fewer than 3 points.
double growthExponent(const std::vector<Row>& rows) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (const Row& r : rows) {
    if (!r.ok || r.skipped || r.n < kFitFrom || !(r.us_per_unit > 0.0)) continue;
    const double x = std::log(double(r.n)), y = std::log(r.us_per_unit);
    sx += x, sy += y, sxx += x * x, sxy += x * y, ++k;
  }
  if (k < 3) return NAN;
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

void usage(std::ostream& os) {
  os << "usage: bench_scaling [--max-n N] [--budget SECONDS] [--only PART] [--json]\n"
        "  --max-n N     largest chain (N = 1, 2, 4, … ≤ N; default 1024)\n"
        "  --budget S    Moreau–Jean CPU seconds per solver and N (default 1)\n"
        "  --only PART   belt (Moreau–Jean on the belt chain), coupled (Moreau–Jean on the clearance\n"
        "                chain), event-driven (on the belt chain), coupled-event-driven, coupled-problems\n"
        "                (one contact problem of the clearance chain, each solver alone), pinned\n"
        "                (Moreau–Jean on the chain with 4 clearance joints and ideal pins, its joints\n"
        "                sparse or dense), pinned-event-driven, alternating (Moreau–Jean and event-driven\n"
        "                on the chain with clearance in every other joint, auto against lemke); default all\n"
        "  --json        one JSON object instead of the tables\n";
}

[[noreturn]] void fail(const std::string& why) {
  std::cerr << "bench_scaling: " << why << "\n";
  usage(std::cerr);
  std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  bench::restartWithOneBlasThread(argv);
  int max_n = 1024;
  double budget = 1.0;
  bool json = false;
  std::string only;  // one part of the benchmark (usage), or all
  bench::OptionReader args(argc, argv, fail);
  while (args.next()) {
    const std::string& a = args.option();
    if (a == "--json") {
      json = true;
    } else if (a == "--max-n") {
      max_n = int(args.integer(1, 1 << 20));
    } else if (a == "--budget") {
      budget = args.positive();
    } else if (a == "--only") {
      only = args.value();
      if (only != "belt" && only != "coupled" && only != "event-driven" &&
          only != "coupled-event-driven" && only != "coupled-problems" && only != "pinned" &&
          only != "pinned-event-driven" && only != "alternating")
        fail(
            "--only expects belt, coupled, event-driven, coupled-event-driven, coupled-problems, "
            "pinned, "
            "pinned-event-driven or alternating, got '" +
            only + "'");
    } else if (args.help()) {
      usage(std::cout);
      return 0;
    } else {
      fail("unknown option '" + a + "'");
    }
  }

  // Siconos' enumeration is exponential in the number of contacts: small N only.
  struct Solver {
    std::string name;
    int max_n;
  };
  // Lemke's dense LCP (4 N)² and the dense W the Siconos solvers are given grow as N²–N³:
  // each is run as far as it takes seconds, not minutes, per step.
  const std::vector<Solver> mj_solvers = {{"nsgs", 1 << 30},
                                          {"auto", 1 << 30},
                                          {"lemke", 256},
                                          {"siconos-lemke", 256},
                                          {"siconos-nsgs", 1 << 30},
                                          {"siconos-cpg", 512},
                                          {"siconos-enum", 2}};
  // Event-driven: auto and lemke take the sparse path from 16 blocks on (event_driven.hpp);
  // each runs until a size takes more than kEdSkipAfter of CPU.
  const std::vector<Solver> ed_solvers = {{"auto", 1 << 30}, {"lemke", 1 << 30}, {"siconos-lemke", 64}};
  // The hanging clearance chain: every contact coupled to its neighbours (block-tridiagonal W).
  // Gauss–Seidel (ours and Siconos') stops converging within 10⁴ sweeps from N = 32 on (the
  // tension has to travel the chain), Siconos' Lemke fails from N = 2, and auto is Lemke
  // here (a coupled group), whose dense LCP grows as N² per pivot: each is run while it works.
  // auto is Lemke up to 5 links, Newton on the sparse W from 6 (coupling.hpp).
  const std::vector<Solver> coupled_solvers = {{"auto", 1 << 30},     {"newton", 16},      {"nsgs", 16},
                                               {"lemke", 256},         {"siconos-lemke", 1}, {"siconos-nsgs", 16}};
  // Event-driven on the clearance chain: the sparse path (auto: Newton from 6 links) and the dense
  // one (Lemke, G dense), whose cost grows as N³.
  const std::vector<Solver> coupled_ed_solvers = {{"auto", 512}, {"dense", 64}};
  // One contact problem of the chain, each solver alone from r = 0: ours, and Siconos' Gauss–Seidel
  // (fc2d) and Newton (fc3d nsn-ac on the planar problem posed as a spatial one), both given the
  // dense W they take, so that their cost grows as N² per sweep and N³ per factorization.
  const std::vector<Solver> problem_solvers = {
      {"newton", 1 << 30}, {"lemke", 256}, {"siconos-nsgs", 64}, {"siconos-nsn-ac", 256}};

  // The pinned chain: 4 contacts and 2 (N − 4) joint rows. The dense joints cost O(N³) per
  // factorization (110 ms per Moreau–Jean step and 56 s per event at N = 256).
  const std::vector<Solver> pinned_joints = {{"sparse", 1 << 30}, {"dense", 256}};
  const std::vector<Solver> pinned_ed_joints = {{"sparse", 512}, {"dense", 64}};
  // The alternating chain: N/2 contacts, N joint rows. Lemke's dense W costs N² per pivot.
  const std::vector<Solver> alternating_solvers = {{"auto", 1 << 30}, {"lemke", 256}};
  // Event-driven on it: the sparse path from 32 links (16 contacts; the pins' rows in its
  // problems), and the dense one (W = J G Jᵀ by Lemke).
  const std::vector<Solver> alternating_ed_solvers = {{"auto", 512}, {"dense", 64}};

  std::vector<int> sizes;
  for (int n = 1; n <= max_n; n *= 2) sizes.push_back(n);

  std::map<std::pair<std::string, std::string>, std::vector<Row>> table;  // (formulation, solver)
  std::vector<std::pair<std::string, std::string>> order;
  auto add = [&](Row r) {
    const auto key = std::make_pair(r.formulation, r.solver);
    if (!table.count(key)) order.push_back(key);
    if (r.skipped)
      std::cerr << r.formulation << " " << r.solver << " N = " << r.n << ": " << r.message << "\n";
    else
      std::cerr << r.formulation << " " << r.solver << " N = " << r.n << ": "
                << (r.ok ? "" : "FAILED ") << r.us_per_unit << " µs (" << r.cpu_seconds
                << " s CPU)\n";
    table[key].push_back(std::move(r));
  };
  std::map<std::string, Row> ed_last;  // event-driven: the last size run, per solver
  std::map<int, double> same_events;     // clearance chain, event-driven: max |Δt| dense – sparse
  std::map<int, double> pinned_same_events;  // the same on the pinned chain (joints dense – sparse)
  std::map<int, double> alternating_same_events;  // the same on the alternating chain
  std::vector<ProblemRow> problems;      // clearance chain: one problem, each solver
  const auto start = Clock::now();
  for (int n : sizes) {
    const dynamics::RigidScenario belt = mechanisms::beltChainRigid(chainOf(n));
    for (const Solver& s : mj_solvers)
      if (n <= s.max_n && (only.empty() || only == "belt")) add(runMoreauJean("moreau-jean", belt, n, s.name, budget));
    const dynamics::RigidScenario links = mechanisms::clearanceChainRigid(clearanceChainOf(n));
    for (const Solver& s : coupled_solvers)
      if (n <= s.max_n && (only.empty() || only == "coupled")) add(runMoreauJean("coupled", links, n, s.name, budget));
    for (const Solver& s : ed_solvers) {
      if (n > s.max_n || !(only.empty() || only == "event-driven")) continue;
      // The last size this solver ran: once it took more than kEdSkipAfter (a run that failed
      // early counted as if extrapolated to the whole window), skip the larger sizes.
      if (ed_last.count(s.name)) {
        const Row& p = ed_last[s.name];
        const bool partial = !p.ok && p.sim_time > 0.0 && p.sim_time < kEdTime;
        const double whole = partial ? p.cpu_seconds * kEdTime / p.sim_time : p.cpu_seconds;
        if (whole > kEdSkipAfter) {
          Row r = rowOf("event-driven", s.name, n);
          r.skipped = true;
          char msg[160];
          if (partial)
            std::snprintf(msg, sizeof msg,
                          "skipped (previous N took %.1f s, failing at t = %.2f s; ≈ %.0f s for the window)",
                          p.cpu_seconds, p.sim_time, whole);
          else
            std::snprintf(msg, sizeof msg, "skipped (previous N took %.1f s)", p.cpu_seconds);
          r.message = msg;
          add(std::move(r));
          continue;
        }
      }
      Row r = runEventDriven(n, s.name);
      ed_last[s.name] = r;
      add(std::move(r));
    }
    if (only.empty() || only == "coupled-event-driven") {
      std::map<std::string, std::vector<dynamics::ContactEvent>> events;
      for (const Solver& s : coupled_ed_solvers)
        if (n <= s.max_n)
          add(runChainEventDriven("coupled event-driven", mechanisms::clearanceChainRigid(clearanceChainOf(n)), n, s.name,
                                  &events[s.name]));
      if (events.count("dense") && !events["dense"].empty())
        same_events[n] = eventTimeDifference(events["dense"], events["auto"]);
    }
    if (n >= 4 && (only.empty() || only == "pinned"))
      for (const Solver& s : pinned_joints)
        if (n <= s.max_n) {
          Row r = runMoreauJean("pinned", pinnedChainOf(n, s.name == "sparse"), n, "auto", budget);
          r.solver = s.name;
          add(std::move(r));
        }
    if (n >= 4 && (only.empty() || only == "alternating")) {
      for (const Solver& s : alternating_solvers)
        if (n <= s.max_n) add(runMoreauJean("alternating", alternatingChainOf(n), n, s.name, budget));
      std::map<std::string, std::vector<dynamics::ContactEvent>> events;
      for (const Solver& s : alternating_ed_solvers)
        if (n <= s.max_n)
          add(runChainEventDriven("alternating event-driven", alternatingChainOf(n), n, s.name, &events[s.name]));
      if (events.count("dense") && !events["dense"].empty())
        alternating_same_events[n] = eventTimeDifference(events["dense"], events["auto"]);
    }
    if (n >= 4 && (only.empty() || only == "pinned-event-driven")) {
      std::map<std::string, std::vector<dynamics::ContactEvent>> events;
      for (const Solver& s : pinned_ed_joints)
        if (n <= s.max_n) add(runPinnedEventDriven(n, s.name, &events[s.name]));
      if (events.count("dense") && !events["dense"].empty())
        pinned_same_events[n] = eventTimeDifference(events["dense"], events["sparse"]);
    }
    if (only.empty() || only == "coupled-problems") {
      lcp::SparseFrictionProblem2D p;
      try {
        p = chainProblem(n);
      } catch (const std::exception& e) {
        std::cerr << "problem N = " << n << ": " << e.what() << "\n";
        continue;
      }
      for (const Solver& s : problem_solvers)
        if (n <= s.max_n) {
          problems.push_back(solveChainProblem(p, n, s.name, 0.5 * budget));
          const ProblemRow& r = problems.back();
          std::cerr << "problem " << r.solver << " N = " << n << ": " << (r.ok ? "" : "FAILED ") << r.us << " µs\n";
        }
    }
  }
  const double total = std::chrono::duration<double>(Clock::now() - start).count();

  // The fastest Moreau–Jean solver per N, and the first N where it is not Lemke.
  std::map<int, std::string> fastest;
  std::map<int, double> best;
  for (const auto& [key, rows] : table) {
    if (key.first != "moreau-jean") continue;
    for (const Row& r : rows)
      if (r.ok && (!best.count(r.n) || r.us_per_unit < best[r.n])) {
        best[r.n] = r.us_per_unit;
        fastest[r.n] = key.second;
      }
  }
  std::map<int, double> lemke_us;
  for (const Row& r : table[std::make_pair(std::string("moreau-jean"), std::string("lemke"))])
    if (r.ok) lemke_us[r.n] = r.us_per_unit;
  // Per formulation of Moreau–Jean: auto (ours, as a user gets it) and the fastest Siconos
  // solver per N.
  struct Against {
    std::map<int, double> auto_us;
    std::map<int, std::pair<std::string, double>> siconos_best;
  };
  std::map<std::string, Against> against;
  for (const auto& [key, rows] : table) {
    if (eventDriven(key.first)) continue;
    Against& a = against[key.first];
    for (const Row& r : rows) {
      if (!r.ok) continue;
      if (key.second == "auto") a.auto_us[r.n] = r.us_per_unit;
      if (key.second.rfind("siconos-", 0) == 0 &&
          (!a.siconos_best.count(r.n) || r.us_per_unit < a.siconos_best[r.n].second))
        a.siconos_best[r.n] = {key.second, r.us_per_unit};
    }
  }
  int lemke_overtaken = 0;  // first N where another solver is faster
  bool lemke_regains = false;  // Lemke the fastest again at some larger N
  for (const auto& [n, name] : fastest) {
    if (name != "lemke" && lemke_overtaken == 0) lemke_overtaken = n;
    if (name == "lemke" && lemke_overtaken > 0) lemke_regains = true;
  }

  if (json) {
    nlohmann::json rows = nlohmann::json::array(), exponents = nlohmann::json::array();
    for (const auto& key : order) {
      for (const Row& r : table[key])
        rows.push_back({{"formulation", r.formulation},
                        {"solver", r.solver},
                        {"n", r.n},
                        {"status", r.skipped ? "skipped" : r.ok ? "ok" : "failed"},
                        {"message", r.message},
                        {"sim_time", r.sim_time},
                        {"cpu_seconds", r.cpu_seconds},
                        {!eventDriven(r.formulation) ? "steps" : "events", r.units},
                        {!eventDriven(r.formulation) ? "us_per_step" : "us_per_event",
                         r.us_per_unit},
                        {"lcp_size", r.lcp_size},
                        {"lcp_solves", r.lcp_solves},
                        {"pivots_or_iterations_per_solve", r.pivots_per_solve},
                        {!eventDriven(r.formulation) ? "slipping_fraction" : "slip_events",
                         r.slipping}});
      const double e = growthExponent(table[key]);
      exponents.push_back({{"formulation", key.first},
                           {"solver", key.second},
                           {"exponent", std::isfinite(e) ? nlohmann::json(e) : nlohmann::json()}});
    }
    nlohmann::json fast = nlohmann::json::object(), ratios = nlohmann::json::array();
    for (const auto& [n, name] : fastest) fast[std::to_string(n)] = name;
    for (auto& [formulation, a] : against)
      for (const auto& [n, s] : a.siconos_best)
        if (a.auto_us.count(n))
          ratios.push_back({{"formulation", formulation}, {"n", n}, {"auto_us", a.auto_us[n]},
                            {"best_siconos", s.first}, {"best_siconos_us", s.second}, {"ratio", a.auto_us[n] / s.second}});
    const auto sameEventsJson = [](const std::map<int, double>& differences) {
      nlohmann::json same = nlohmann::json::object();
      for (const auto& [n, dt] : differences) same[std::to_string(n)] = std::isfinite(dt) ? nlohmann::json(dt) : nlohmann::json();
      return same;
    };
    nlohmann::json problem_rows = nlohmann::json::array();
    for (const ProblemRow& r : problems)
      problem_rows.push_back({{"solver", r.solver}, {"n", r.n}, {"contacts", r.contacts}, {"ok", r.ok}, {"error", r.error}, {"us_per_solve", r.us},
                              {"iterations", r.iterations}, {"message", r.message}});
    std::cout << nlohmann::json{{"h", kStep},
                                {"spacing", kSpacing},
                                {"offset_amplitude", kOffset},
                                {"event_driven_window_s", kEdTime},
                                {"event_driven_skip_after_s", kEdSkipAfter},
                                {"budget_seconds", budget},
                                {"fit_from_n", kFitFrom},
                                {"total_seconds", total},
                                {"rows", rows},
                                {"exponents", exponents},
                                {"fastest_moreau_jean", fast},
                                {"auto_against_best_siconos", ratios},
                                {"coupled_event_driven_max_time_difference", sameEventsJson(same_events)},
                                {"pinned_event_driven_max_time_difference", sameEventsJson(pinned_same_events)},
                                {"alternating_event_driven_max_time_difference", sameEventsJson(alternating_same_events)},
                                {"coupled_problems", problem_rows},
                                {"lemke_overtaken_at_n",
                                 lemke_overtaken > 0 ? nlohmann::json(lemke_overtaken) : nlohmann::json()}}
                     .dump()
              << "\n";
    return 0;
  }

  char line[320];
  std::cout << "belt chain (mechanisms/belt_chain.hpp), spacing " << kSpacing
            << " m, springs pre-loaded " << kOffset << " m\n"
            << "Moreau–Jean h = " << kStep << " s, ~" << budget << " s CPU per row\n"
            << "event-driven window " << kEdTime << " s simulated, larger N skipped after "
            << kEdSkipAfter << " s CPU\n"
            << "total " << std::lround(total) << " s\n\n"
            << "Moreau–Jean\n\n"
            << "| solver | N | steps | µs/step | LCP size | pivots or iterations / solve | slipping % |\n"
            << "|---|---:|---:|---:|---:|---:|---:|\n";
  // The Moreau–Jean rows of one mechanism (key.first), solver by solver.
  const auto moreauJeanRows = [&](const std::string& kind) {
    for (const auto& key : order) {
      if (key.first != kind) continue;
      for (const Row& r : table[key]) {
        if (r.ok)
          std::snprintf(line, sizeof line, "| %s | %d | %ld | %.1f | %.0f | %.1f | %.0f |\n", r.solver.c_str(), r.n,
                        r.units, r.us_per_unit, r.lcp_size, r.pivots_per_solve, 100.0 * r.slipping);
        else
          std::snprintf(line, sizeof line, "| %s | %d | failed: %.200s | | | | |\n", r.solver.c_str(), r.n,
                        r.message.c_str());
        std::cout << line;
      }
    }
  };
  moreauJeanRows("moreau-jean");
  std::cout << "\nMoreau–Jean on the hanging clearance chain (mechanisms/clearance_chain.hpp: coupled contacts)\n\n"
            << "| solver | N | steps | µs/step | LCP size (4 × closed) | sweeps or pivots / solve | slipping % |\n"
            << "|---|---:|---:|---:|---:|---:|---:|\n";
  moreauJeanRows("coupled");
  // The event-driven rows of one mechanism (key.first), solver by solver.
  const auto eventDrivenRows = [&](const std::string& kind) {
    std::cout << "| solver | N | simulated s | CPU s | events | slip starts | µs/event | LCP solves | pivots or iterations / solve |\n"
              << "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& key : order) {
      if (key.first != kind) continue;
      for (const Row& r : table[key]) {
        if (r.skipped)
          std::snprintf(line, sizeof line, "| %s | %d | %s | | | | | | |\n", r.solver.c_str(), r.n, r.message.c_str());
        else if (r.ok && r.units == 0)
          std::snprintf(line, sizeof line, "| %s | %d | %.3g | %.2f | 0 | 0 | — | %ld | %.1f |\n", r.solver.c_str(), r.n,
                        r.sim_time, r.cpu_seconds, r.lcp_solves, r.pivots_per_solve);
        else if (r.ok)
          std::snprintf(line, sizeof line, "| %s | %d | %.3g | %.2f | %ld | %.0f | %.1f | %ld | %.1f |\n",
                        r.solver.c_str(), r.n, r.sim_time, r.cpu_seconds, r.units, r.slipping, r.us_per_unit,
                        r.lcp_solves, r.pivots_per_solve);
        else
          std::snprintf(line, sizeof line, "| %s | %d | failed: %.200s | | | | | | |\n", r.solver.c_str(), r.n,
                        r.message.c_str());
        std::cout << line;
      }
    }
  };
  std::cout << "\nEvent-driven\n\n";
  eventDrivenRows("event-driven");
  std::cout << "\nEvent-driven on the clearance chain over " << kChainEdTime
            << " s (auto: the sparse path; dense: Lemke with G dense)\n\n";
  eventDrivenRows("coupled event-driven");
  // Per N, whether the sparse and dense runs of `chain` found the same events.
  const auto sameEventLines = [&](const char* chain, const std::map<int, double>& differences) {
    for (const auto& [n, dt] : differences) {
      if (std::isfinite(dt))
        std::snprintf(line, sizeof line, "%s N = %d: the sparse and dense paths find the same events, times within %.2g s\n",
                      chain, n, dt);
      else
        std::snprintf(line, sizeof line, "%s N = %d: the sparse and dense paths' events DIFFER\n", chain, n);
      std::cout << line;
    }
  };
  sameEventLines("clearance chain", same_events);
  std::cout << "\nMoreau–Jean on the pinned chain (4 clearance joints, ideal pins in the others; auto; the joints "
               "handled sparse or dense)\n\n"
            << "| joints | N | steps | µs/step | LCP size (4 × closed) | sweeps or pivots / solve | slipping % |\n"
            << "|---|---:|---:|---:|---:|---:|---:|\n";
  moreauJeanRows("pinned");
  std::cout << "\nMoreau–Jean on the alternating chain (clearance in every other joint, ideal pins in the others; "
               "auto: Newton with the pins' rows in its problem, lemke: the dense J G Jᵀ)\n\n"
            << "| solver | N | steps | µs/step | LCP size (4 × closed) | sweeps or pivots / solve | slipping % |\n"
            << "|---|---:|---:|---:|---:|---:|---:|\n";
  moreauJeanRows("alternating");
  std::cout << "\nEvent-driven on the alternating chain over " << kChainEdTime
            << " s (auto: the sparse path from 32 links, the pins' rows in its problems; dense: Lemke on J G Jᵀ)\n\n";
  eventDrivenRows("alternating event-driven");
  sameEventLines("alternating chain", alternating_same_events);
  std::cout << "\nEvent-driven on the pinned chain over " << kChainEdTime << " s (auto; the joints handled sparse or dense)\n\n";
  eventDrivenRows("pinned event-driven");
  sameEventLines("pinned chain", pinned_same_events);
  std::cout << "\nOne contact problem of the clearance chain (Moreau–Jean's step " << kProblemStep
            << "), each solver alone from r = 0 (siconos-nsn-ac: posed as fc3d, the second tangent unloaded)\n\n"
            << "| solver | N | closed joints | solved | Siconos' error | µs/solve | iterations |\n"
            << "|---|---:|---:|---|---:|---:|---:|\n";
  std::map<int, std::pair<std::string, double>> best_siconos;
  std::map<int, double> ours;
  for (const ProblemRow& r : problems) {
    std::snprintf(line, sizeof line, "| %s | %d | %d | %s | %.1e | %.1f | %d |\n", r.solver.c_str(), r.n, r.contacts,
                  r.ok ? "yes" : ("no: " + r.message.substr(0, 120)).c_str(), r.error, r.us, r.iterations);
    std::cout << line;
    if (r.ok && r.solver == "newton") ours[r.n] = r.us;
    if (r.ok && r.solver.rfind("siconos-", 0) == 0 && (!best_siconos.count(r.n) || r.us < best_siconos[r.n].second))
      best_siconos[r.n] = {r.solver, r.us};
  }
  std::cout << "\n";
  for (const auto& [n, us] : ours) {
    if (best_siconos.count(n))
      std::snprintf(line, sizeof line, "problem N = %d: newton %.1f µs, best Siconos %s %.1f µs, ratio %.3f\n", n, us,
                    best_siconos[n].first.c_str(), best_siconos[n].second, us / best_siconos[n].second);
    else
      std::snprintf(line, sizeof line, "problem N = %d: newton %.1f µs, no Siconos solver solved it (or was run)\n", n, us);
    std::cout << line;
  }
  std::cout << "\nGrowth exponents (µs per step or event ∝ N^p, least squares over N ≥ " << kFitFrom
            << ")\n\n| formulation | solver | p | fitted N |\n|---|---|---:|---|\n";
  std::vector<std::string> fits;
  for (const auto& key : order) {
    const double e = growthExponent(table[key]);
    std::string ns;
    for (const Row& r : table[key])
      if (r.ok && !r.skipped && r.n >= kFitFrom && r.us_per_unit > 0.0)
        ns += (ns.empty() ? "" : ", ") + std::to_string(r.n);
    if (std::isfinite(e)) {
      std::snprintf(line, sizeof line, "| %s | %s | %.2f | %s |\n", key.first.c_str(),
                    key.second.c_str(), e, ns.c_str());
      char fit[200];
      std::snprintf(fit, sizeof fit, "fit: %s %s: µs per %s ∝ N^%.2f (N = %s)\n", key.first.c_str(),
                    key.second.c_str(), !eventDriven(key.first) ? "step" : "event", e, ns.c_str());
      fits.push_back(fit);
    } else {
      std::snprintf(line, sizeof line, "| %s | %s | — | fewer than 3 sizes ok |\n", key.first.c_str(),
                    key.second.c_str());
    }
    std::cout << line;
  }
  std::cout << "\n";
  for (const std::string& f : fits) std::cout << f;
  std::cout << "\nFastest Moreau–Jean solver per N (µs/step; Lemke's time relative to the fastest):\n";
  for (const auto& [n, name] : fastest) {
    if (lemke_us.count(n))
      std::snprintf(line, sizeof line, "N = %d: %s %.1f µs, lemke %.1f µs (×%.2f)\n", n,
                    name.c_str(), best[n], lemke_us[n], lemke_us[n] / best[n]);
    else
      std::snprintf(line, sizeof line, "N = %d: %s %.1f µs, lemke failed\n", n, name.c_str(), best[n]);
    std::cout << line;
  }
  for (auto& [formulation, a] : against) {
    if (a.siconos_best.empty()) continue;
    std::cout << "\n" << formulation << ": auto (ours, as a user gets it) against the best Siconos solver, per N:\n";
    for (const auto& [n, s] : a.siconos_best)
      if (a.auto_us.count(n)) {
        std::snprintf(line, sizeof line, "%s N = %d: auto %.1f µs, best Siconos %s %.1f µs, ratio %.3f\n",
                      formulation.c_str(), n, a.auto_us[n], s.first.c_str(), s.second, a.auto_us[n] / s.second);
        std::cout << line;
      }
  }
  if (lemke_overtaken > 0)
    std::cout << "Lemke stops being the fastest Moreau–Jean solver at N = " << lemke_overtaken
              << (lemke_regains ? " (but is the fastest again at some larger N)" : "") << "\n";
  else
    std::cout << "Lemke is the fastest Moreau–Jean solver at every N measured\n";
  return 0;
}
