// bench_engines_lcp: our LCP solvers against those inside the engines users pick instead,
// on the same instances in the same process:
//   DART 6.12   Lemke (dart::lcpsolver::Lemke) and its copy of ODE's Dantzig (dSolveLCP),
//   Bullet 3.24 Lemke (btLemkeAlgorithm), Dantzig (btDantzigSolver), projected Gauss–Seidel
//               (btSolveProjectedGaussSeidel, up to --pgs-sweeps sweeps).
//
//   bench_engines_lcp [--sizes 2,4,...] [--instances K] [--data DIR] [--min-time-ms T]
//                     [--pgs-sweeps S] [--json] [--check]
//
// Ours: Lemke (every problem), block principal pivoting (BPP: the LCPs with M symmetric
// positive definite; it refuses the others) and `auto`: on the friction problems NSGS, Lemke
// where it stops short (lcp/friction_auto.hpp); on the LCPs block pivoting, on the stack up to
// 16 unknowns (lcp/small_pivoting.hpp) and BPP beyond, Lemke where it finds no
// solution, then the enumeration where Lemke ends without one (lcp/lcp_auto.hpp). Solver objects
// are kept between solves, ours and Bullet's; DART's Lemke and Dantzig are functions. Each peer
// gets the problem in its own storage, filled once per instance outside the timed solves; what a
// solver overwrites (Dantzig's A, b and bounds) is copied in each solve, into buffers kept between
// solves. Families: Siconos' LCP collection (--data, the .dat files; by default the source
// tree's tests/data/siconos/lcp), seeded SPD LCPs (n = 2 … 256) and seeded planar friction
// problems (lcp/random_problems.hpp) with n/4 contacts. Each solver takes a problem in its own
// form: the Lemkes an LCP (for friction, the exact 4-per-contact reduction of
// lcp/friction_to_lcp.hpp), Dantzig and PGS a boxed LCP (for friction, ODE's form: 0 ≤ rₙ,
// |rₜ| ≤ μ rₙ through the friction index). Every answer is judged by one measure, the relative
// natural-map residual of the problem as posed (lcp/residual.hpp: the LCP's, or the planar
// Coulomb law's), and counts as solved at ≤ 1e-9, our Lemke's acceptance.
// Time: per instance, the median µs per solve over alternating blocks of every solver, each
// solver sampled until it has spent its own budget (--min-time-ms); per row, the median of
// the instances' medians.
// --check: exit 1 when a peer solves an instance that none of ours solves, or ours miss a
// seeded instance (each family has a solution, lcp/random_problems.hpp); times are not checked.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "lcp/block_pivoting.hpp"
#include "lcp/friction_auto.hpp"
#include "lcp/friction_to_lcp.hpp"
#include "lcp/lcp_auto.hpp"
#include "lcp/lemke.hpp"
#include "lcp/random_problems.hpp"
#include "lcp/residual.hpp"
#include "lcp/siconos_format.hpp"
#include "lcp/solve.hpp"
#include "option_reader.hpp"

#ifdef STICKSLIP_HAVE_DART
#include <dart/external/odelcpsolver/lcp.h>

#include <dart/config.hpp>
#include <dart/lcpsolver/Lemke.hpp>
#endif
#ifdef STICKSLIP_HAVE_BULLET
#include <BulletDynamics/MLCPSolvers/btDantzigSolver.h>
#include <BulletDynamics/MLCPSolvers/btLemkeAlgorithm.h>
#include <BulletDynamics/MLCPSolvers/btSolveProjectedGaussSeidel.h>
#endif

using namespace stickslip;

namespace {

constexpr double kSolved = 1e-9;  // relative natural-map residual counted as solved

/// One problem in the two forms the solvers take.
struct Instance {
  std::string family, name;
  lcp::Problem lcp;                                // what the Lemkes solve
  std::optional<lcp::FrictionProblem2D> friction;  // set for the friction family
  std::optional<lcp::FrictionReduction> reduction;
  // The boxed form A x = b + w (ODE's and Bullet's convention): lo ≤ x ≤ hi; a row with
  // findex ≥ 0 has bounds ±hi·|x[findex]|.
  Eigen::MatrixXd A;
  Eigen::VectorXd b, lo, hi;
  std::vector<int> findex;
  // Each peer's own storage of the problem, filled once, outside the timed solves, as an
  // engine keeps its solver's buffers between steps.
#ifdef STICKSLIP_HAVE_DART
  std::vector<double> ode_A;  // A by rows, each padded to dPAD(n)
#endif
#ifdef STICKSLIP_HAVE_BULLET
  btMatrixXu bullet_M, bullet_A;
  btVectorXu bullet_q, bullet_b, bullet_lo, bullet_hi;
  btAlignedObjectArray<int> bullet_findex;
#endif

  /// The relative natural-map residual of `answer`: z for an LCP, the reactions r for friction.
  double residual(const Eigen::VectorXd& answer) const {
    if (!answer.allFinite()) return std::numeric_limits<double>::infinity();
    return friction ? lcp::residual(*friction, answer).relative
                    : lcp::residual(lcp, answer).relative;
  }
};

void fillPeerForms(Instance& in);

Instance lcpInstance(std::string family, std::string name, lcp::Problem p) {
  Instance in;
  in.family = std::move(family);
  in.name = std::move(name);
  in.lcp = std::move(p);
  const Eigen::Index n = in.lcp.size();
  in.A = in.lcp.M;
  in.b = -in.lcp.q;
  in.lo = Eigen::VectorXd::Zero(n);
  in.hi = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  in.findex.assign(std::size_t(n), -1);
  fillPeerForms(in);
  return in;
}

Instance frictionInstance(std::string name, lcp::FrictionProblem2D p) {
  lcp::FrictionReduction reduction(p);
  Instance in = lcpInstance("friction", std::move(name), reduction.lcp());
  const Eigen::Index nc = p.contacts();
  in.A = p.W;
  in.b = -p.q;
  in.lo = Eigen::VectorXd::Zero(2 * nc);
  in.hi = Eigen::VectorXd::Constant(2 * nc, std::numeric_limits<double>::infinity());
  in.findex.assign(std::size_t(2 * nc), -1);
  for (Eigen::Index i = 0; i < nc; ++i) {
    in.lo[2 * i + 1] = -p.mu[i];
    in.hi[2 * i + 1] = p.mu[i];
    in.findex[std::size_t(2 * i + 1)] = int(2 * i);
  }
  in.friction = std::move(p);
  in.reduction.emplace(std::move(reduction));
  fillPeerForms(in);
  return in;
}

/// A solver: writes its answer (z, or r for friction) into `answer`. It takes the planar
/// friction problems only, the LCPs only (not the friction problems' reductions), both (the
/// friction problems as their LCPs), or each in its own form.
struct Solver {
  enum class Takes { kBoth, kEach, kFriction, kLcp };
  std::string name;
  std::function<void(const Instance&, Eigen::VectorXd&)> solve;
  Takes takes = Takes::kBoth;
  bool ours = false;
  bool applies(const Instance& in) const {
    return takes == Takes::kBoth || takes == Takes::kEach ||
           (takes == Takes::kFriction) == in.friction.has_value();
  }
};

/// An LCP solver's z, mapped to the reactions for the friction family.
void answerFromZ(const Instance& in, const Eigen::VectorXd& z, Eigen::VectorXd& answer) {
  answer = in.reduction ? in.reduction->reactions(z) : z;
}

#ifdef STICKSLIP_HAVE_DART
void dartLemke(const Instance& in, Eigen::VectorXd& answer) {
  Eigen::VectorXd z(in.lcp.size());
  dart::lcpsolver::Lemke(in.lcp.M, in.lcp.q, &z);
  answerFromZ(in, z, answer);
}

/// ODE reports its internal failures on stderr, once per solve; the residual says it here.
void quietOde(int, const char*, va_list) {}

/// ODE's Dantzig as DART ships it: rows padded to a multiple of 4. It overwrites A, b and the
/// bounds, so each solve starts from copies, into buffers kept between solves (as DART's
/// constraint solver keeps its own).
void dartDantzig(const Instance& in, Eigen::VectorXd& answer) {
  static std::vector<double> A, x, b, w, lo, hi;
  static std::vector<int> findex;
  const int n = int(in.b.size());
  A = in.ode_A;
  b.assign(in.b.data(), in.b.data() + n);
  lo.assign(in.lo.data(), in.lo.data() + n);
  hi.assign(in.hi.data(), in.hi.data() + n);
  findex = in.findex;
  x.assign(std::size_t(n), 0.0);
  w.assign(std::size_t(n), 0.0);
  const bool ok = dart::external::ode::dSolveLCP(n, A.data(), x.data(), b.data(), w.data(), 0,
                                                 lo.data(), hi.data(), findex.data());
  answer = Eigen::Map<Eigen::VectorXd>(x.data(), n);
  if (!ok) answer.setConstant(std::numeric_limits<double>::quiet_NaN());
}
#endif

#ifdef STICKSLIP_HAVE_BULLET
btMatrixXu bulletMatrix(const Eigen::MatrixXd& M) {
  btMatrixXu out(int(M.rows()), int(M.cols()));
  for (Eigen::Index i = 0; i < M.rows(); ++i)
    for (Eigen::Index j = 0; j < M.cols(); ++j) out.setElem(int(i), int(j), M(i, j));
  return out;
}

btVectorXu bulletVector(const Eigen::VectorXd& v) {
  btVectorXu out(int(v.size()));
  for (Eigen::Index i = 0; i < v.size(); ++i) out[int(i)] = v[i];
  return out;
}

void bulletLemke(const Instance& in, Eigen::VectorXd& answer) {
  btLemkeAlgorithm lemke(in.bullet_M, in.bullet_q);  // copies them, as btLemkeSolver's does
  const btVectorXu wz = lemke.solve(1000);  // btLemkeSolver's default loop limit
  const Eigen::Index n = in.lcp.size();
  Eigen::VectorXd z(n);
  for (Eigen::Index i = 0; i < n; ++i) z[i] = wz.size() == 2 * n ? wz[int(n + i)] : NAN;
  answerFromZ(in, z, answer);
}

/// A Bullet MLCP solver on the boxed form, from x = 0.
void bulletBoxed(btMLCPSolverInterface& solver, int sweeps, const Instance& in,
                 Eigen::VectorXd& answer) {
  const int n = int(in.b.size());
  static btVectorXu x;
  x.resize(n);
  x.setZero();
  const bool ok = solver.solveMLCP(in.bullet_A, in.bullet_b, x, in.bullet_lo, in.bullet_hi,
                                   in.bullet_findex, sweeps, true);
  answer.resize(n);
  for (int i = 0; i < n; ++i) answer[i] = ok ? x[i] : NAN;
}
#endif

void fillPeerForms([[maybe_unused]] Instance& in) {
  [[maybe_unused]] const int n = int(in.b.size());
#ifdef STICKSLIP_HAVE_DART
  const int skip = dPAD(n);
  in.ode_A.assign(std::size_t(n) * std::size_t(skip), 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) in.ode_A[std::size_t(i * skip + j)] = in.A(i, j);
#endif
#ifdef STICKSLIP_HAVE_BULLET
  in.bullet_M = bulletMatrix(in.lcp.M);
  in.bullet_q = bulletVector(in.lcp.q);
  in.bullet_A = bulletMatrix(in.A);
  in.bullet_b = bulletVector(in.b);
  in.bullet_lo = bulletVector(in.lo);
  in.bullet_hi = bulletVector(in.hi);
  in.bullet_findex.resize(n);
  for (int i = 0; i < n; ++i) in.bullet_findex[i] = in.findex[std::size_t(i)];
#endif
}

std::vector<Solver> solvers(int pgs_sweeps) {
  auto lemke = std::make_shared<lcp::LemkeSolver>();
  auto result = std::make_shared<lcp::Result>();
  std::vector<Solver> all{{"stickslip Lemke",
                           [lemke, result](const Instance& in, Eigen::VectorXd& answer) {
                             lemke->solve(in.lcp, *result);
                             answerFromZ(in, result->z, answer);
                           },
                           Solver::Takes::kBoth, true}};
  auto bpp = std::make_shared<lcp::BlockPivotingSolver>();
  auto bpp_result = std::make_shared<lcp::Result>();  // each its own: a failure leaves no other's z
  all.push_back({"stickslip BPP",
                 [bpp, result = bpp_result](const Instance& in, Eigen::VectorXd& answer) {
                   bpp->solve(in.lcp, *result);
                   answer = result->z;
                 },
                 Solver::Takes::kLcp, true});
  auto automatic = std::make_shared<lcp::AutoFrictionSolver>();
  auto friction = std::make_shared<lcp::FrictionResult>();
  auto automatic_lcp = std::make_shared<lcp::AutoLcpSolver>();
  all.push_back({"stickslip auto",
                 [automatic, friction, automatic_lcp, result = std::make_shared<lcp::Result>()](
                     const Instance& in, Eigen::VectorXd& answer) {
                   if (in.friction) {
                     automatic->solve(*in.friction, *friction);
                     answer = friction->r;
                   } else {
                     automatic_lcp->solve(in.lcp, *result);
                     answer = result->z;
                   }
                 },
                 Solver::Takes::kEach, true});
#ifdef STICKSLIP_HAVE_DART
  dart::external::ode::dSetMessageHandler(quietOde);
  all.push_back({"DART Lemke", dartLemke});
  all.push_back({"DART Dantzig", dartDantzig});
#endif
#ifdef STICKSLIP_HAVE_BULLET
  all.push_back({"Bullet Lemke", bulletLemke});
  auto dantzig = std::make_shared<btDantzigSolver>();
  all.push_back({"Bullet Dantzig", [dantzig](const Instance& in, Eigen::VectorXd& answer) {
                   bulletBoxed(*dantzig, 0, in, answer);
                 }});
  auto pgs = std::make_shared<btSolveProjectedGaussSeidel>();
  pgs->m_leastSquaresResidualThreshold = 1e-30;  // stop only when the sweeps stop changing x
  all.push_back({"Bullet PGS", [pgs, pgs_sweeps](const Instance& in, Eigen::VectorXd& answer) {
                   bulletBoxed(*pgs, pgs_sweeps, in, answer);
                 }});
#endif
  return all;
}

/// One table row: a family at one size, or one file of the collection.
struct Row {
  std::string family, name;
  Eigen::Index n = 0;
  int instances = 0;
  std::vector<int> applied, solved;     // per solver: instances it takes, and solves
  std::vector<std::vector<double>> us;  // per solver: each solved instance's median µs per solve
  std::vector<double> worst;            // per solver: worst relative residual
};

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
  return v[v.size() / 2];
}

template <typename F>
double microseconds(F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

/// Judges every solver on `in` (untimed), then times them in alternating blocks of solves,
/// each solver's block ~20 µs. A solver takes turns until it has spent `budget_us` over at
/// least 3 blocks (or over one block, when that block alone exceeds the budget): a slow peer
/// ends its own sampling, not the others'.
void benchInstance(const Instance& in, std::vector<Solver>& all, double budget_us, Row& row) {
  const std::size_t k = all.size();
  ++row.instances;
  row.n = in.lcp.size();
  Eigen::VectorXd answer;
  std::vector<bool> solved(k);
  std::vector<int> batch(k);
  for (std::size_t s = 0; s < k; ++s) {
    if (!all[s].applies(in)) continue;
    ++row.applied[s];
    all[s].solve(in, answer);
    const double res = in.residual(answer);
    solved[s] = res <= kSolved;
    row.solved[s] += solved[s];
    row.worst[s] = std::max(row.worst[s], std::isnan(res) ? INFINITY : res);
    // The batch from a second, warm solve: the first pays for cold caches, which on a
    // sub-microsecond solve would make batches of a few solves, timed mostly by the clock.
    const double t = microseconds([&] { all[s].solve(in, answer); });
    batch[s] = std::clamp(int(20.0 / std::max(t, 1e-3)), 1, 1000);
  }
  std::vector<double> spent(k, 0.0);
  std::vector<int> blocks(k, 0);
  std::vector<std::vector<double>> samples(k);
  std::vector<bool> done(k);
  for (std::size_t s = 0; s < k; ++s) done[s] = !all[s].applies(in);
  while (std::find(done.begin(), done.end(), false) != done.end()) {
    for (std::size_t s = 0; s < k; ++s) {
      if (done[s]) continue;
      const double t = microseconds([&] {
        for (int b = 0; b < batch[s]; ++b) all[s].solve(in, answer);
      });
      spent[s] += t;
      ++blocks[s];
      samples[s].push_back(t / batch[s]);
      done[s] = spent[s] >= budget_us && (blocks[s] >= 3 || blocks[s] == 1);
    }
  }
  // One median per instance: a solver fast on some instances takes more samples there, which
  // would weigh those instances more in one pool.
  for (std::size_t s = 0; s < k; ++s)
    if (solved[s]) row.us[s].push_back(median(samples[s]));
}

std::vector<int> parseSizes(const std::string& text, void (*usage)(const std::string&)) {
  std::vector<int> sizes;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < 2 || n > 1024)
      usage("--sizes expects integers in [2, 1024] separated by commas, got '" + item + "'");
    sizes.push_back(int(n));
  }
  return sizes;
}

constexpr const char* kUsage =
    "usage: bench_engines_lcp [--sizes 2,4,...,256] [--instances K] [--data DIR]"
    " [--min-time-ms T] [--pgs-sweeps S] [--json] [--check]\n";

[[noreturn]] void usage(const std::string& why) {
  std::cerr << "bench_engines_lcp: " << why << "\n" << kUsage;
  std::exit(2);
}

struct Options {
  std::vector<int> sizes{2, 4, 8, 16, 32, 64, 128, 256};
  int instances = 5, pgs_sweeps = 1000;
  std::string data = STICKSLIP_SOURCE_DIR "/tests/data/siconos/lcp";  // wherever it runs from
  double budget_us = 20e3;
  bool json = false, check = false;
};

Options parse(int argc, char** argv) {
  Options o;
  bench::OptionReader reader(argc, argv, usage);
  while (reader.next()) {
    const std::string& opt = reader.option();
    if (opt == "--sizes")
      o.sizes = parseSizes(reader.value(), usage);
    else if (opt == "--instances")
      o.instances = int(reader.positive());
    else if (opt == "--pgs-sweeps")
      o.pgs_sweeps = int(reader.positive());
    else if (opt == "--data")
      o.data = reader.value();
    else if (opt == "--min-time-ms")
      o.budget_us = 1e3 * reader.positive();
    else if (opt == "--json")
      o.json = true;
    else if (opt == "--check")
      o.check = true;
    else if (reader.help()) {
      std::cout
          << "Ours against DART's and Bullet's LCP solvers on Siconos' LCP collection (--data)"
             " and seeded SPD and planar-friction families: solved or not, residual, µs per"
             " solve.\n"
          << kUsage;
      std::exit(0);
    } else
      usage("unknown option '" + opt + "'");
  }
  if (o.instances < 1 || o.pgs_sweeps < 1)
    usage("--instances and --pgs-sweeps expect integers ≥ 1");
  if (!std::filesystem::is_directory(o.data))
    usage("--data: '" + o.data + "' is not a directory (expected Siconos' LCP .dat files)");
  return o;
}

/// Every row: the collection's files, then the seeded families at each size.
std::vector<Row> runAll(const Options& o, std::vector<Solver>& all) {
  auto newRow = [&](std::string family, std::string name) {
    Row r{std::move(family), std::move(name), 0, 0, {}, {}, {}, {}};
    r.applied.assign(all.size(), 0);
    r.solved.assign(all.size(), 0);
    r.us.assign(all.size(), {});
    r.worst.assign(all.size(), 0.0);
    return r;
  };
  std::vector<Row> rows;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(o.data))
    if (e.path().extension() == ".dat") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    rows.push_back(newRow("siconos", f.stem().string()));
    benchInstance(lcpInstance("siconos", f.stem().string(), lcp::readLcpDat(f)), all, o.budget_us,
                  rows.back());
  }
  for (const std::string family : {"spd", "friction"})
    for (const int n : o.sizes) {
      if (family == "friction" && n < 4) continue;  // one contact is 4 LCP unknowns
      rows.push_back(newRow(family, family + " n=" + std::to_string(n)));
      for (int k = 0; k < o.instances; ++k) {
        const std::uint64_t seed = 1000u * std::uint64_t(n) + std::uint64_t(k);
        const std::string name = family + std::to_string(n) + "#" + std::to_string(k);
        benchInstance(family == "spd"
                          ? lcpInstance(family, name, lcp::randomSpdProblem(n, seed))
                          : frictionInstance(name, lcp::randomFrictionProblem(n / 4, seed)),
                      all, o.budget_us, rows.back());
      }
    }
  return rows;
}

std::string cell(const Row& r, std::size_t s) {
  if (r.applied[s] == 0) return "·";
  char buf[64];
  if (r.solved[s] == 0) {
    std::snprintf(buf, sizeof buf, "fails (%.0e)", r.worst[s]);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.3g", median(r.us[s]));
  std::string text = buf;
  if (r.solved[s] < r.instances)
    text += " (" + std::to_string(r.solved[s]) + "/" + std::to_string(r.instances) + ")";
  return text;
}

/// The fastest of ours, or of the peers, that solves every instance of the row (µs; ∞ if none).
double fastest(const Row& r, const std::vector<Solver>& all, bool ours) {
  double best = INFINITY;
  for (std::size_t s = 0; s < all.size(); ++s)
    if (all[s].ours == ours && r.solved[s] == r.instances) best = std::min(best, median(r.us[s]));
  return best;
}

/// Our fastest over the peers' fastest; NaN when neither ours nor any peer solves them all.
double ratioToFastestPeer(const Row& r, const std::vector<Solver>& all) {
  const double ours = fastest(r, all, true), peer = fastest(r, all, false);
  return std::isfinite(ours) && std::isfinite(peer) ? ours / peer : NAN;
}

/// A peer solves more of the row's instances than any of ours.
bool peerSolvesMore(const Row& r, const std::vector<Solver>& all) {
  int ours = 0, peers = 0;
  for (std::size_t s = 0; s < all.size(); ++s) {
    int& best = all[s].ours ? ours : peers;
    best = std::max(best, r.solved[s]);
  }
  return peers > ours;
}

std::string versions() {
  std::string v;
#ifdef STICKSLIP_HAVE_DART
  v += "DART " DART_VERSION;
#endif
#ifdef STICKSLIP_HAVE_BULLET
  v += std::string(v.empty() ? "" : ", ") + "Bullet " + std::to_string(BT_BULLET_VERSION / 100) +
       "." + std::to_string(BT_BULLET_VERSION % 100) + " (double precision)";
#endif
  return v.empty() ? "no engine found at build time" : v;
}

void printTable(const std::vector<Row>& rows, const std::vector<Solver>& all, const Options& o) {
  std::cout << "Engines: " << versions() << ". Solved: relative natural-map residual ≤ " << kSolved
            << "; µs per solve (median over the instances of each one's median; solved/instances when some fail; fails (worst residual)); "
            << "Bullet PGS up to " << o.pgs_sweeps
            << " sweeps; friction rows: n/4 contacts.\n\n| problem | n |";
  for (const Solver& s : all) std::cout << ' ' << s.name << " |";
  std::cout << " ours ÷ fastest peer |\n|---|---|";
  for (std::size_t s = 0; s < all.size(); ++s) std::cout << "---|";
  std::cout << "---|\n";
  std::vector<std::string> missed, slow;
  for (const Row& r : rows) {
    std::cout << "| " << r.name << " | " << r.n << " |";
    for (std::size_t s = 0; s < all.size(); ++s) std::cout << ' ' << cell(r, s) << " |";
    const double ratio = ratioToFastestPeer(r, all);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", ratio);
    std::cout << ' ' << (std::isnan(ratio) ? "—" : buf) << " |\n";
    if (peerSolvesMore(r, all)) missed.push_back(r.name);
    if (ratio > 0.5) slow.push_back(r.name + " (" + buf + ")");
  }
  auto list = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
    return v.empty() ? std::string("none") : s;
  };
  std::cout << "\nRows where a peer solves an instance that ours does not: " << list(missed)
            << ".\n";
  std::cout << "Rows where ours takes more than 0.5× the fastest peer that solves them all: "
            << list(slow) << ".\n";
}

void printJson(const std::vector<Row>& rows, const std::vector<Solver>& all) {
  nlohmann::json out{
      {"engines", versions()}, {"solved_below", kSolved}, {"rows", nlohmann::json::array()}};
  for (const Row& r : rows) {
    nlohmann::json row{
        {"family", r.family}, {"problem", r.name}, {"n", r.n}, {"instances", r.instances}};
    for (std::size_t s = 0; s < all.size(); ++s) {
      if (r.applied[s] == 0) continue;
      const double us = median(r.us[s]);
      row["solvers"][all[s].name] = {
          {"solved", r.solved[s]},
          {"us_per_solve", std::isnan(us) ? nlohmann::json() : nlohmann::json(us)},
          {"worst_relative_residual",
           std::isfinite(r.worst[s]) ? nlohmann::json(r.worst[s]) : nlohmann::json()}};
    }
    const double ratio = ratioToFastestPeer(r, all);
    row["ours_over_fastest_peer"] = std::isnan(ratio) ? nlohmann::json() : nlohmann::json(ratio);
    out["rows"].push_back(row);
  }
  std::cout << out.dump(1) << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  std::vector<Solver> all = solvers(o.pgs_sweeps);
  std::vector<Row> rows;
  try {
    rows = runAll(o, all);
  } catch (const std::invalid_argument& e) {  // a malformed .dat in --data: its file, line, reason
    std::cerr << "bench_engines_lcp: " << e.what() << "\n";
    return 2;
  }
  if (o.json)
    printJson(rows, all);
  else
    printTable(rows, all, o);
  if (!o.check) return 0;
  int failures = 0;
  for (const Row& r : rows) {
    int ours = 0;
    for (std::size_t s = 0; s < all.size(); ++s)
      if (all[s].ours) ours = std::max(ours, r.solved[s]);
    const bool seeded = r.family != "siconos";
    if (peerSolvesMore(r, all) || (seeded && ours < r.instances)) {
      std::cerr << "bench_engines_lcp: check failed on " << r.name << ": ours solve " << ours
                << " of " << r.instances << "\n";
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}
