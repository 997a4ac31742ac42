#include "lcp/siconos_backend.hpp"

#include <FrictionContactProblem.h>
#include <Friction_cst.h>
#include <LinearComplementarityProblem.h>
#include <MLCP_Solvers.h>
#include <MixedLinearComplementarityProblem.h>
#include <NonSmoothDrivers.h>
#include <NumericsMatrix.h>
#include <NumericsVerbose.h>
#include <fc3d_compute_error.h>
#include <SolverOptions.h>
#include <lcp_cst.h>
#include <mlcp_cst.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "lcp/residual.hpp"

namespace stickslip::lcp {
namespace {

struct NamedId {
  const char* name;
  int id;
};

// Solvers that run on the dense data of the collection without aborting the process;
// PATH and GAMS are not built into Debian's package, QP/NSQP need a QL solver.
constexpr NamedId kLcpSolvers[] = {
    {"lemke", SICONOS_LCP_LEMKE},         {"enum", SICONOS_LCP_ENUM},
    {"pgs", SICONOS_LCP_PGS},             {"rpgs", SICONOS_LCP_RPGS},
    {"psor", SICONOS_LCP_PSOR},           {"cpg", SICONOS_LCP_CPG},
    {"latin", SICONOS_LCP_LATIN},         {"newton-min", SICONOS_LCP_NEWTONMIN},
    {"newton-fb", SICONOS_LCP_NEWTON_FB_FBLSA}, {"newton-min-fb", SICONOS_LCP_NEWTON_MIN_FBLSA},
    {"bard", SICONOS_LCP_BARD},           {"murty", SICONOS_LCP_MURTY},
    {"pivot", SICONOS_LCP_PIVOT},
};
constexpr NamedId kMlcpSolvers[] = {
    {"enum", SICONOS_MLCP_ENUM}, {"direct-enum", SICONOS_MLCP_DIRECT_ENUM},
    {"pgs", SICONOS_MLCP_PGS},   {"rpgs", SICONOS_MLCP_RPGS},
    {"psor", SICONOS_MLCP_PSOR}, {"rpsor", SICONOS_MLCP_RPSOR},
    {"fb", SICONOS_MLCP_FB},     {"direct-fb", SICONOS_MLCP_DIRECT_FB},
    {"lemke", SICONOS_MLCP_LCP_LEMKE},
};
constexpr NamedId kFc2dSolvers[] = {
    {"lemke", SICONOS_FRICTION_2D_LEMKE},
    {"enum", SICONOS_FRICTION_2D_ENUM},
    {"nsgs", SICONOS_FRICTION_2D_NSGS},
    {"cpg", SICONOS_FRICTION_2D_CPG},
};

// Siconos' spatial (fc3d) solvers on the exact Coulomb cone: Gauss–Seidel with its default
// local solver, Alart–Curnier's semismooth Newton, the proximal point, extragradient.
constexpr NamedId kFc3dSolvers[] = {
    {"nsgs", SICONOS_FRICTION_3D_NSGS},
    {"nsn-ac", SICONOS_FRICTION_3D_NSN_AC},
    {"prox", SICONOS_FRICTION_3D_PROX},
    {"vi-eg", SICONOS_FRICTION_3D_VI_EG},
};

template <std::size_t N>
std::vector<std::string> namesOf(const NamedId (&table)[N]) {
  std::vector<std::string> out;
  for (const auto& s : table) out.emplace_back(s.name);
  return out;
}

template <std::size_t N>
int idOf(const char* who, std::string_view name, const NamedId (&table)[N]) {
  for (const auto& s : table)
    if (name == s.name) return s.id;
  std::string list;
  for (const auto& s : table) list += (list.empty() ? "" : ", ") + std::string(s.name);
  throw std::invalid_argument(std::string(who) + ": expected a solver name among " + list +
                              ", got '" + std::string(name) + "'");
}

void checkOptions(const char* who, const SiconosOptions& o) {
  if (!(o.tolerance > 0.0) || !std::isfinite(o.tolerance))
    throw std::invalid_argument(std::string(who) + ": expected tolerance > 0, got " +
                                std::to_string(o.tolerance));
  if (o.max_iterations < 1)
    throw std::invalid_argument(std::string(who) + ": expected max_iterations ≥ 1, got " +
                                std::to_string(o.max_iterations));
  if (!(o.accept_tol > 0.0))
    throw std::invalid_argument(std::string(who) + ": expected accept_tol > 0, got " +
                                std::to_string(o.accept_tol));
}

/// Sends stdout and stderr to /dev/null for its lifetime. Siconos 4.4 prints from inside its
/// solvers with printf/fprintf regardless of numerics_set_verbose(0) (e.g. "We are on ray",
/// "NM_LU_factorize: ... failed" once per iteration), which would corrupt `--json` output.
/// Costs a few system calls per solve; output Siconos buffers is flushed into /dev/null.
/// One thread at a time: two swapping the descriptors at once could each save the other's
/// /dev/null and restore it for good (Python threads run solves with the GIL released).
class Silence {
 public:
  explicit Silence(bool on = true) {
    if (!on) return;
    lock_ = std::unique_lock(swapping());
    static const int devnull = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (devnull < 0) return;
    std::fflush(stdout);
    std::fflush(stderr);
    saved_out_ = ::dup(STDOUT_FILENO);
    saved_err_ = ::dup(STDERR_FILENO);
    if (saved_out_ >= 0) ::dup2(devnull, STDOUT_FILENO);
    if (saved_err_ >= 0) ::dup2(devnull, STDERR_FILENO);
  }
  Silence(const Silence&) = delete;
  Silence& operator=(const Silence&) = delete;
  ~Silence() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (saved_out_ >= 0) {
      ::dup2(saved_out_, STDOUT_FILENO);
      ::close(saved_out_);
    }
    if (saved_err_ >= 0) {
      ::dup2(saved_err_, STDERR_FILENO);
      ::close(saved_err_);
    }
  }

 private:
  static std::recursive_mutex& swapping() {
    static std::recursive_mutex m;
    return m;
  }
  std::unique_lock<std::recursive_mutex> lock_;
  int saved_out_ = -1, saved_err_ = -1;
};

/// Owns one SolverOptions (solver_options_delete releases the contents, not the struct).
class Options {
 public:
  Options() = default;
  Options(const Options&) = delete;
  Options& operator=(const Options&) = delete;
  ~Options() { reset(); }

  void create(int id, const SiconosOptions& o) {
    reset();
    numerics_set_verbose(0);
    const Silence quiet(o.quiet);
    ptr_ = solver_options_create(id);
    if (!ptr_) throw std::runtime_error("Siconos: solver_options_create failed");
    ptr_->dparam[SICONOS_DPARAM_TOL] = o.tolerance;
    ptr_->iparam[SICONOS_IPARAM_MAX_ITER] = o.max_iterations;
  }
  void reset() {
    if (ptr_) {
      solver_options_delete(ptr_);
      std::free(ptr_);
      ptr_ = nullptr;
    }
  }
  SolverOptions* get() const { return ptr_; }

 private:
  SolverOptions* ptr_ = nullptr;
};

/// A dense NumericsMatrix viewing a buffer we own. NM_create_from_data aliases the buffer,
/// so it is detached before NM_free (which would free it otherwise); NM_free still releases
/// whatever a solver attached (factorizations, internal data).
class DenseView {
 public:
  DenseView(double* data, int rows, int cols)
      : m_(NM_create_from_data(NM_DENSE, rows, cols, data)) {}
  DenseView(const DenseView&) = delete;
  DenseView& operator=(const DenseView&) = delete;
  ~DenseView() {
    m_->matrix0 = nullptr;
    NM_free(m_);
  }
  NumericsMatrix* get() const { return m_; }

 private:
  NumericsMatrix* m_;
};

/// 2^pairs > limit, without overflow.
bool enumerationTooLarge(Eigen::Index pairs, int limit) {
  return pairs >= 31 || (Eigen::Index(1) << pairs) > Eigen::Index(limit);
}

bool allFinite(const Eigen::VectorXd& x) { return x.allFinite(); }

/// Status from Siconos' info, then confirmed by our residual.
template <typename R>
void finish(R& out, int info, bool pivoting, int iterations, const SiconosOptions& o,
            const Residual& res, const std::string& solver) {
  out.pivots = iterations;
  out.residual = res.absolute;
  out.relative_residual = res.relative;
  if (info == 0) {
    if (std::isfinite(res.relative) && res.relative <= o.accept_tol) {
      out.status = Status::kSuccess;
      out.message.clear();
      return;
    }
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + solver + " reported success, but the relative residual is " +
                  scientific(res.relative) + " > " + scientific(o.accept_tol);
    return;
  }
  if (iterations >= o.max_iterations) {
    out.status = Status::kPivotLimit;
    out.message = "siconos " + solver + ": iteration limit " + std::to_string(o.max_iterations) +
                  " reached (info " + std::to_string(info) + "), relative residual " +
                  scientific(res.relative);
  } else if (pivoting) {
    out.status = Status::kRayTermination;
    out.message = "siconos " + solver + ": no solution found by pivoting (info " +
                  std::to_string(info) + "), relative residual " + scientific(res.relative);
  } else {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + solver + ": failed (info " + std::to_string(info) +
                  "), relative residual " + scientific(res.relative);
  }
}

}  // namespace

std::vector<std::string> siconosLcpSolverNames() { return namesOf(kLcpSolvers); }
std::vector<std::string> siconosMlcpSolverNames() { return namesOf(kMlcpSolvers); }
std::vector<std::string> siconosFc2dSolverNames() { return namesOf(kFc2dSolvers); }
std::vector<std::string> siconosFc3dSolverNames() { return namesOf(kFc3dSolvers); }

// ---------------------------------------------------------------------------------------- LCP

struct SiconosLcpSolver::Impl {
  std::string name;
  int id = 0;
  SiconosOptions opts;
  Options options;
  Eigen::Index options_size = -1;  // problem size the options' work arrays were made for
  Eigen::MatrixXd M;               // column-major copies handed to Siconos
  Eigen::VectorXd q;
};

SiconosLcpSolver::SiconosLcpSolver(std::string_view name, SiconosOptions options)
    : impl_(std::make_unique<Impl>()) {
  constexpr const char* who = "lcp::SiconosLcpSolver";
  impl_->id = idOf(who, name, kLcpSolvers);
  checkOptions(who, options);
  impl_->name = std::string(name);
  impl_->opts = options;
  impl_->options.create(impl_->id, options);
}
SiconosLcpSolver::~SiconosLcpSolver() = default;
SiconosLcpSolver::SiconosLcpSolver(SiconosLcpSolver&&) noexcept = default;
SiconosLcpSolver& SiconosLcpSolver::operator=(SiconosLcpSolver&&) noexcept = default;
const std::string& SiconosLcpSolver::name() const { return impl_->name; }

Result SiconosLcpSolver::solve(const Problem& p) {
  Result r;
  solve(p, r);
  return r;
}

void SiconosLcpSolver::solve(const Problem& p, Result& out) {
  p.validate("lcp::SiconosLcpSolver");
  Impl& s = *impl_;
  const Eigen::Index n = p.size();
  out.z.setZero(n);
  out.w = p.q;
  out.zero_tol_used = 0.0;
  if (n == 0) {
    finish(out, 0, true, 0, s.opts, residual(p, out.z), s.name);
    return;
  }
  if (s.id == SICONOS_LCP_ENUM && enumerationTooLarge(n, s.opts.max_iterations)) {
    out.pivots = 0;
    out.status = Status::kPivotLimit;
    out.message = "siconos enum: 2^" + std::to_string(n) + " complementary bases exceed "
                  "max_iterations = " + std::to_string(s.opts.max_iterations);
    const Residual res = residual(p, out.z);
    out.residual = res.absolute;
    out.relative_residual = res.relative;
    return;
  }
  // Work arrays (enum's, Newton's) are sized by the first problem a SolverOptions sees.
  if (s.options_size != n) {
    s.options.create(s.id, s.opts);
    s.options_size = n;
  }
  s.M = p.M;  // no reallocation when the size is unchanged
  s.q = p.q;
  DenseView M(s.M.data(), int(n), int(n));
  LinearComplementarityProblem lcp{int(n), M.get(), s.q.data()};
  SolverOptions* o = s.options.get();
  o->iparam[SICONOS_IPARAM_ITER_DONE] = 0;  // the driver's trivial-solution exits leave it
  int info = 0;
  {
    const Silence quiet(s.opts.quiet);
    info = linearComplementarity_driver(&lcp, out.z.data(), out.w.data(), o);
  }
  const bool finite = allFinite(out.z);
  if (!finite) out.z.setZero();
  out.w = p.M * out.z + p.q;
  const int pivoting = s.id == SICONOS_LCP_LEMKE || s.id == SICONOS_LCP_BARD ||
                       s.id == SICONOS_LCP_MURTY || s.id == SICONOS_LCP_PIVOT;
  finish(out, finite ? info : (info ? info : -1), pivoting, o->iparam[SICONOS_IPARAM_ITER_DONE],
         s.opts, residual(p, out.z), s.name);
  if (!finite) {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + " returned non-finite values";
    return;
  }
  // Siconos' Lemke can stop on a ray with ‖z‖ ~ 1e16 and call it a solution (residual.hpp).
  // Rows are weighed one by one only where the residual is large beside q (O(n²): not on the
  // timed path of an answer to round-off).
  if (!out.ok() || !(out.residual > s.opts.accept_tol * p.q.lpNorm<Eigen::Infinity>())) return;
  if (const auto [row, i] = worstRow(p, out.z, out.w); !(row.relative <= s.opts.accept_tol)) {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + " reported success, but row " + std::to_string(i) + " has |min(z, w)| = " +
                  scientific(row.absolute) + ", " + scientific(row.relative) + " of its own terms (‖z‖∞ = " +
                  scientific(out.z.lpNorm<Eigen::Infinity>()) + ")";
  }
}

// --------------------------------------------------------------------------------------- MLCP

struct SiconosMlcpSolver::Impl {
  std::string name;
  int id = 0;
  SiconosOptions opts;
  Options options;
  std::pair<Eigen::Index, Eigen::Index> options_size{-1, -1};
  Eigen::MatrixXd M, A, B, C, D;
  Eigen::VectorXd q, a, b, z, w;
};

SiconosMlcpSolver::SiconosMlcpSolver(std::string_view name, SiconosOptions options)
    : impl_(std::make_unique<Impl>()) {
  constexpr const char* who = "lcp::SiconosMlcpSolver";
  impl_->id = idOf(who, name, kMlcpSolvers);
  checkOptions(who, options);
  impl_->name = std::string(name);
  impl_->opts = options;
  impl_->options.create(impl_->id, options);
}
SiconosMlcpSolver::~SiconosMlcpSolver() = default;
SiconosMlcpSolver::SiconosMlcpSolver(SiconosMlcpSolver&&) noexcept = default;
SiconosMlcpSolver& SiconosMlcpSolver::operator=(SiconosMlcpSolver&&) noexcept = default;
const std::string& SiconosMlcpSolver::name() const { return impl_->name; }

MixedResult SiconosMlcpSolver::solve(const MixedProblem& p) {
  constexpr const char* who = "lcp::SiconosMlcpSolver";
  p.validate(who);
  if (p.A.rows() != p.A.cols())
    throw std::invalid_argument(std::string(who) +
                                ": expected A square (Siconos needs as many equalities as free "
                                "variables), got " + std::to_string(p.A.rows()) + "×" +
                                std::to_string(p.A.cols()));
  Impl& s = *impl_;
  const Eigen::Index n = p.A.rows(), m = p.B.rows(), nm = n + m;
  MixedResult out;
  out.u.setZero(n);
  out.v.setZero(m);
  if (nm == 0 || ((s.id == SICONOS_MLCP_ENUM || s.id == SICONOS_MLCP_DIRECT_ENUM) &&
                  enumerationTooLarge(m, s.opts.max_iterations))) {
    out.w = p.b;
    const Residual res = residual(p, out.u, out.v);
    if (nm == 0) {
      finish(out, 0, true, 0, s.opts, res, s.name);
    } else {
      out.status = Status::kPivotLimit;
      out.message = "siconos " + s.name + ": 2^" + std::to_string(m) +
                    " complementary bases exceed max_iterations = " +
                    std::to_string(s.opts.max_iterations);
      out.residual = res.absolute;
      out.relative_residual = res.relative;
    }
    return out;
  }
  if (s.id == SICONOS_MLCP_LCP_LEMKE && (n == 0 || m == 0)) {  // an empty block fails its assertion: abort()
    out.w = p.b;
    out.status = Status::kInvalidInput;
    out.message = "siconos lemke takes an MLCP with free and complementarity variables both (here " +
                  std::to_string(n) + " and " + std::to_string(m) + "); ours (lemke) takes any";
    return out;
  }
  if (s.options_size != std::make_pair(n, m)) {
    s.options.create(s.id, s.opts);
    s.options_size = {n, m};
  }
  // Both Siconos storages: some solvers read (M, q), others (A, B, C, D, a, b).
  s.M.resize(nm, nm);
  s.M << p.A, p.C, p.D, p.B;
  s.q.resize(nm);
  s.q << p.a, p.b;
  s.A = p.A;
  s.B = p.B;
  s.C = p.C;
  s.D = p.D;
  s.a = p.a;
  s.b = p.b;
  s.z.setZero(nm);
  s.w.setZero(nm);
  int blocks_rows[3] = {0, int(n), int(nm)};
  int blocks_is_comp[2] = {0, 1};
  DenseView M(s.M.data(), int(nm), int(nm));
  MixedLinearComplementarityProblem mlcp{};
  mlcp.isStorageType1 = 1;
  mlcp.isStorageType2 = 1;
  mlcp.n = int(n);
  mlcp.m = int(m);
  // A problem without equalities is a single complementarity block.
  mlcp.blocksRows = n > 0 ? blocks_rows : blocks_rows + 1;
  mlcp.blocksIsComp = n > 0 ? blocks_is_comp : blocks_is_comp + 1;
  mlcp.M = M.get();
  mlcp.q = s.q.data();
  mlcp.A = s.A.data();
  mlcp.B = s.B.data();
  mlcp.C = s.C.data();
  mlcp.D = s.D.data();
  mlcp.a = s.a.data();
  mlcp.b = s.b.data();

  SolverOptions* o = s.options.get();
  o->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
  // mlcp_driver_init allocates the work arrays unconditionally: release the previous ones.
  std::free(o->dWork);
  std::free(o->iWork);
  o->dWork = nullptr;
  o->iWork = nullptr;
  int info = 0;
  {
    const Silence quiet(s.opts.quiet);
    mlcp_driver_init(&mlcp, o);
    info = mlcp_driver(&mlcp, s.z.data(), s.w.data(), o);
    mlcp_driver_reset(&mlcp, o);
  }

  const bool finite = allFinite(s.z);
  if (finite) {
    out.u = s.z.head(n);
    out.v = s.z.tail(m);
  }
  out.w = p.D * out.u + p.B * out.v + p.b;
  const bool pivoting = s.id == SICONOS_MLCP_LCP_LEMKE;
  finish(out, finite ? info : (info ? info : -1), pivoting, o->iparam[SICONOS_IPARAM_ITER_DONE],
         s.opts, residual(p, out.u, out.v), s.name);
  if (!finite) {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + " returned non-finite values";
  }
  return out;
}

// --------------------------------------------------------------------------------------- FC2D

struct SiconosFc2dSolver::Impl {
  std::string name;
  int id = 0;
  SiconosOptions opts;
  Options options;
  Eigen::Index options_size = -1;
  Eigen::MatrixXd W;
  Eigen::VectorXd q, mu;
};

SiconosFc2dSolver::SiconosFc2dSolver(std::string_view name, SiconosOptions options)
    : impl_(std::make_unique<Impl>()) {
  constexpr const char* who = "lcp::SiconosFc2dSolver";
  impl_->id = idOf(who, name, kFc2dSolvers);
  checkOptions(who, options);
  impl_->name = std::string(name);
  impl_->opts = options;
  impl_->options.create(impl_->id, options);
}
SiconosFc2dSolver::~SiconosFc2dSolver() = default;
SiconosFc2dSolver::SiconosFc2dSolver(SiconosFc2dSolver&&) noexcept = default;
SiconosFc2dSolver& SiconosFc2dSolver::operator=(SiconosFc2dSolver&&) noexcept = default;
const std::string& SiconosFc2dSolver::name() const { return impl_->name; }

FrictionResult SiconosFc2dSolver::solve(const FrictionProblem2D& p) {
  p.validate("lcp::SiconosFc2dSolver");
  Impl& s = *impl_;
  const Eigen::Index nc = p.contacts(), n = 2 * nc;
  FrictionResult out;
  out.r.setZero(n);
  out.u = p.q;
  if (nc == 0) {
    finish(out, 0, true, 0, s.opts, residual(p, out.r), s.name);
    return out;
  }
  // Siconos' fc2d enum enumerates the 3nc-sized LCP of fc2d_tolcp: 2^(3nc) bases.
  if (s.id == SICONOS_FRICTION_2D_ENUM && enumerationTooLarge(3 * nc, s.opts.max_iterations)) {
    out.status = Status::kPivotLimit;
    out.message = "siconos enum: 2^" + std::to_string(3 * nc) +
                  " complementary bases exceed max_iterations = " +
                  std::to_string(s.opts.max_iterations);
    const Residual res = residual(p, out.r);
    out.residual = res.absolute;
    out.relative_residual = res.relative;
    return out;
  }
  if (s.options_size != nc) {
    s.options.create(s.id, s.opts);
    s.options_size = nc;
  }
  s.W = p.W;
  s.q = p.q;
  s.mu = p.mu;
  DenseView W(s.W.data(), int(n), int(n));
  FrictionContactProblem fc{};
  fc.dimension = 2;
  fc.numberOfContacts = int(nc);
  fc.M = W.get();
  fc.q = s.q.data();
  fc.mu = s.mu.data();
  SolverOptions* o = s.options.get();
  o->iparam[SICONOS_IPARAM_ITER_DONE] = 0;
  int info = 0;
  {
    const Silence quiet(s.opts.quiet);
    info = fc2d_driver(&fc, out.r.data(), out.u.data(), o);
  }
  const bool finite = allFinite(out.r);
  if (!finite) out.r.setZero();
  out.u = p.W * out.r + p.q;
  const bool pivoting = s.id == SICONOS_FRICTION_2D_LEMKE;
  finish(out, finite ? info : (info ? info : -1), pivoting, o->iparam[SICONOS_IPARAM_ITER_DONE],
         s.opts, residual(p, out.r), s.name);
  if (!finite) {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + " returned non-finite values";
  }
  return out;
}

// --------------------------------------------------------------------------------------- FC3D

namespace {

/// p's data in Siconos' problem structure, viewing `W` (a copy we own: Siconos takes it mutable).
struct Fc3dView {
  Eigen::MatrixXd W;
  Eigen::VectorXd q, mu;
  std::unique_ptr<DenseView> matrix;
  FrictionContactProblem fc{};
  explicit Fc3dView(const FrictionProblem3D& p) : W(p.W), q(p.q), mu(p.mu) {
    matrix = std::make_unique<DenseView>(W.data(), int(W.rows()), int(W.cols()));
    fc.dimension = 3;
    fc.numberOfContacts = int(p.contacts());
    fc.M = matrix->get();
    fc.q = q.data();
    fc.mu = mu.data();
  }
};

}  // namespace

double siconosFc3dError(const FrictionProblem3D& p, const Eigen::VectorXd& r) {
  p.validate("lcp::siconosFc3dError");
  if (r.size() != p.q.size()) throw std::invalid_argument("lcp::siconosFc3dError: r has the wrong size");
  if (p.contacts() == 0) return 0.0;
  Fc3dView view(p);
  Eigen::VectorXd z = r, w = p.W * r + p.q;
  // Siconos divides by these norms: one that overflowed would make any answer look exact.
  if (!std::isfinite(std::max({p.q.norm(), z.norm(), w.norm()}))) return std::numeric_limits<double>::quiet_NaN();
  Options options;
  options.create(SICONOS_FRICTION_3D_NSGS, SiconosOptions{});
  double error = 0.0;
  fc3d_compute_error(&view.fc, z.data(), w.data(), 1e-16, options.get(), p.q.norm(), &error);
  return error;
}

namespace {

/// Siconos' fc3d error is relative to max(‖q‖, ‖u‖, ‖r‖): a diverging r (a problem without
/// solution, e.g. W = 0 and uₙ = qₙ < 0) makes it small while uₙ < 0 stays. So a success must
/// also have uₙ ≥ −tol·scale and rₙ uₙ ≤ tol·‖r‖∞·scale per contact, scale = max(‖q‖∞,
/// ‖W‖∞‖r‖∞) (velocity units, as uₙ), tol = max(kFc3dVelocityTol, 100 × the tolerance asked
/// for): on Siconos' collection at tolerance 1e-8 the answers reach 2e-8 (vi-eg on Confeti,
/// whose small W makes r dominate Siconos' scale); a diverging r leaves O(1). Returns "" or the
/// first violation.
constexpr double kFc3dVelocityTol = 1e-6;

std::string normalVelocityViolation(const FrictionProblem3D& p, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                                    double tol) {
  const double rmax = r.cwiseAbs().maxCoeff();
  const double scale = std::max(p.q.cwiseAbs().maxCoeff(), p.W.cwiseAbs().rowwise().sum().maxCoeff() * rmax);
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const double un = u(3 * i), rn = r(3 * i);
    if (un < -tol * scale || rn * un > tol * rmax * scale)
      return "u_n = " + scientific(un) + " with r_n = " + scientific(rn) + " at contact " + std::to_string(i);
  }
  return "";
}

/// Siconos 4.4's NSGS local steps (compute_rho_split_spectral_norm, fc3d_AlartCurnier_functions.c)
/// per contact block B: ρₙ = 1/Bₙₙ and ρₜ = 2/(s + d), s = B₁₁ + B₂₂, d = √(s² − 4(s − B₂₁ + B₁₂))
/// (0 when the radicand is not positive), computed here as there; it asserts both > 0. We also
/// ask s > 0 (a Delassus block has a positive diagonal). Returns "" or what fails.
std::string nsgsStepViolation(const FrictionProblem3D& p) {
  for (Eigen::Index i = 0; i < p.contacts(); ++i) {
    const Eigen::Index k = 3 * i;
    const double sw = p.W(k + 1, k + 1) + p.W(k + 2, k + 2);
    double dw = sw * sw - 4.0 * (sw - p.W(k + 2, k + 1) + p.W(k + 1, k + 2));
    dw = dw > 0.0 ? std::sqrt(dw) : 0.0;
    const double rho_t = 2.0 / (sw + dw);
    if (!(p.W(k, k) > 0.0))
      return "W's normal diagonal entries > 0, and W(" + std::to_string(k) + ", " + std::to_string(k) + ") = " +
             scientific(p.W(k, k)) + " (contact " + std::to_string(i) + ")";
    if (!(sw > 0.0) || !(rho_t > 0.0) || !std::isfinite(rho_t))
      return "a positive, finite tangential diagonal, and contact " + std::to_string(i) + " has W(" +
             std::to_string(k + 1) + ", " + std::to_string(k + 1) + ") + W(" + std::to_string(k + 2) + ", " +
             std::to_string(k + 2) + ") = " + scientific(sw);
  }
  return "";
}

}  // namespace

struct SiconosFc3dSolver::Impl {
  std::string name;
  int id = 0;
  SiconosOptions opts;
};

SiconosFc3dSolver::SiconosFc3dSolver(std::string_view name, SiconosOptions options) : impl_(std::make_unique<Impl>()) {
  constexpr const char* who = "lcp::SiconosFc3dSolver";
  impl_->id = idOf(who, name, kFc3dSolvers);
  checkOptions(who, options);
  impl_->name = std::string(name);
  impl_->opts = options;
}
SiconosFc3dSolver::~SiconosFc3dSolver() = default;
SiconosFc3dSolver::SiconosFc3dSolver(SiconosFc3dSolver&&) noexcept = default;
SiconosFc3dSolver& SiconosFc3dSolver::operator=(SiconosFc3dSolver&&) noexcept = default;
const std::string& SiconosFc3dSolver::name() const { return impl_->name; }

FrictionResult SiconosFc3dSolver::solve(const FrictionProblem3D& p) {
  p.validate("lcp::SiconosFc3dSolver");
  const Impl& s = *impl_;
  FrictionResult out;
  out.solver = "siconos-" + s.name;
  out.r.setZero(p.q.size());
  out.u = p.q;
  if (p.contacts() == 0) {  // nothing to solve: solved, as our Lemke says
    out.status = Status::kSuccess;
    out.residual = out.relative_residual = 0.0;
    return out;
  }
  // Siconos' NSGS sizes its local steps from each contact's block and asserts (aborting the
  // process) that they are positive: refuse such data instead.
  if (s.id == SICONOS_FRICTION_3D_NSGS)
    if (const std::string why = nsgsStepViolation(p); !why.empty()) {
      out.status = Status::kInvalidInput;
      out.message = "siconos nsgs needs " + why;
      return out;
    }
  Fc3dView view(p);
  Options options;  // fresh per solve: the fc3d solvers keep internal data in them
  options.create(s.id, s.opts);
  SolverOptions* o = options.get();
  int info = 0;
  {
    const Silence quiet(s.opts.quiet);
    info = fc3d_driver(&view.fc, out.r.data(), out.u.data(), o);
  }
  out.pivots = o->iparam[SICONOS_IPARAM_ITER_DONE];
  if (!out.r.allFinite()) {
    out.r.setZero();
    out.u = p.q;
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + " returned non-finite values";
    return out;
  }
  out.u = p.W * out.r + p.q;
  out.relative_residual = siconosFc3dError(p, out.r);
  out.residual = out.relative_residual * std::max(p.q.norm(), std::numeric_limits<double>::epsilon());
  const std::string infeasible =
      normalVelocityViolation(p, out.r, out.u, std::max(kFc3dVelocityTol, 100.0 * s.opts.tolerance));
  if (info == 0 && out.relative_residual <= s.opts.tolerance * 10.0 && !infeasible.empty()) {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + ": error " + scientific(out.relative_residual) + " only relative to |r| = " +
                  scientific(out.r.norm()) + ", and " + infeasible +
                  ": no solution found (there may be none)";
  } else if (info == 0 && out.relative_residual <= s.opts.tolerance * 10.0) {
    out.status = Status::kSuccess;
  } else if (out.pivots >= s.opts.max_iterations) {
    out.status = Status::kPivotLimit;
    out.message = "siconos " + s.name + ": iteration limit " + std::to_string(s.opts.max_iterations) +
                  " reached (info " + std::to_string(info) + "), error " + scientific(out.relative_residual);
  } else {
    out.status = Status::kNumericalFailure;
    out.message = "siconos " + s.name + ": failed (info " + std::to_string(info) + "), error " +
                  scientific(out.relative_residual);
  }
  return out;
}

}  // namespace stickslip::lcp
