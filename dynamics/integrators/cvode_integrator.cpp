#include "dynamics/integrators/cvode_integrator.hpp"

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunnonlinsol/sunnonlinsol_fixedpoint.h>

#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace stickslip::dynamics {

namespace {

/// CVODE's name for a return flag (CVodeGetReturnFlagName allocates it; the caller frees it).
std::string flagName(int flag) {
  char* name = CVodeGetReturnFlagName(flag);
  std::string s = name != nullptr ? name : "flag " + std::to_string(flag);
  std::free(name);
  return s;
}

}  // namespace

struct CvodeIntegrator::Impl {
  int n = 0, roots = 0;
  OdeRhs f;
  OdeRoots g;
  SUNContext ctx = nullptr;
  N_Vector y = nullptr;
  SUNMatrix A = nullptr;
  SUNLinearSolver ls = nullptr;
  SUNNonlinearSolver nls = nullptr;
  void* mem = nullptr;
  std::string last_error;  // CVODE reports through a handler; kept for OdeStep::message
  bool rhs_failed = false;
  std::vector<int> root_info;

  ~Impl() {
    if (mem) CVodeFree(&mem);
    if (nls) SUNNonlinSolFree(nls);
    if (ls) SUNLinSolFree(ls);
    if (A) SUNMatDestroy(A);
    if (y) N_VDestroy(y);
    if (ctx) SUNContext_Free(&ctx);
  }

  static int rhs(realtype t, N_Vector yv, N_Vector ydot, void* data) {
    auto* self = static_cast<Impl*>(data);
    const Eigen::Map<const Eigen::VectorXd> ym(N_VGetArrayPointer(yv), self->n);
    Eigen::Map<Eigen::VectorXd> dm(N_VGetArrayPointer(ydot), self->n);
    if (!self->f(t, ym, dm) || !dm.allFinite()) {
      self->rhs_failed = true;
      return -1;  // unrecoverable: CVODE stops with CV_RHSFUNC_FAIL
    }
    return 0;
  }

  static int rootFunctions(realtype t, N_Vector yv, realtype* gout, void* data) {
    auto* self = static_cast<Impl*>(data);
    const Eigen::Map<const Eigen::VectorXd> ym(N_VGetArrayPointer(yv), self->n);
    Eigen::Map<Eigen::VectorXd> gm(gout, self->roots);
    self->g(t, ym, gm);
    return 0;
  }

  static void errors(int code, const char* module, const char* function, char* msg,
                     void* data) {
    static_cast<Impl*>(data)->last_error = std::string(module) + " " + function + " (" +
                                           flagName(code) + "): " + msg;
  }
};

namespace {

void check(int flag, const char* what) {
  if (flag < 0)
    throw std::logic_error(std::string("CvodeIntegrator: ") + what + " failed with " +
                           flagName(flag) + "; please report this");
}

}  // namespace

CvodeIntegrator::CvodeIntegrator(int n, OdeRhs f, CvodeOptions options, int roots, OdeRoots g)
    : impl_(std::make_unique<Impl>()), n_(n) {
  constexpr const char* who = "CvodeIntegrator";
  if (n < 1) throw std::invalid_argument(std::string(who) + ": expected n ≥ 1 states, got " + std::to_string(n));
  if (!f) throw std::invalid_argument(std::string(who) + ": expected a right-hand side function");
  if (roots < 0 || (roots > 0 && !g))
    throw std::invalid_argument(std::string(who) + ": expected root functions for " +
                                std::to_string(roots) + " roots");
  if (!(options.relative_tolerance > 0.0) || !(options.absolute_tolerance > 0.0))
    throw std::invalid_argument(std::string(who) + ": expected positive tolerances, got rtol " +
                                std::to_string(options.relative_tolerance) + ", atol " +
                                std::to_string(options.absolute_tolerance));
  if (!(options.max_step >= 0.0) || options.max_steps < 1)
    throw std::invalid_argument(std::string(who) + ": expected max_step ≥ 0 and max_steps ≥ 1");
  Impl& s = *impl_;
  s.n = n;
  s.roots = roots;
  s.f = std::move(f);
  s.g = std::move(g);
  s.root_info.assign(std::size_t(roots), 0);
  check(SUNContext_Create(nullptr, &s.ctx), "SUNContext_Create");
  s.y = N_VNew_Serial(n, s.ctx);
  N_VConst(0.0, s.y);
  s.mem = CVodeCreate(options.method == OdeMethod::kBdf ? CV_BDF : CV_ADAMS, s.ctx);
  if (!s.mem) throw std::logic_error("CvodeIntegrator: CVodeCreate failed; please report this");
  check(CVodeSetErrHandlerFn(s.mem, &Impl::errors, &s), "CVodeSetErrHandlerFn");
  check(CVodeInit(s.mem, &Impl::rhs, 0.0, s.y), "CVodeInit");
  check(CVodeSetUserData(s.mem, &s), "CVodeSetUserData");
  check(CVodeSStolerances(s.mem, options.relative_tolerance, options.absolute_tolerance),
        "CVodeSStolerances");
  check(CVodeSetMaxNumSteps(s.mem, options.max_steps), "CVodeSetMaxNumSteps");
  if (options.max_step > 0.0) check(CVodeSetMaxStep(s.mem, options.max_step), "CVodeSetMaxStep");
  if (options.method == OdeMethod::kBdf) {
    // Newton iterations with a dense difference-quotient Jacobian: mechanisms are small.
    s.A = SUNDenseMatrix(n, n, s.ctx);
    s.ls = SUNLinSol_Dense(s.y, s.A, s.ctx);
    check(CVodeSetLinearSolver(s.mem, s.ls, s.A), "CVodeSetLinearSolver");
  } else {
    s.nls = SUNNonlinSol_FixedPoint(s.y, 0, s.ctx);
    check(CVodeSetNonlinearSolver(s.mem, s.nls), "CVodeSetNonlinearSolver");
  }
  if (roots > 0) check(CVodeRootInit(s.mem, roots, &Impl::rootFunctions), "CVodeRootInit");
}

CvodeIntegrator::~CvodeIntegrator() = default;

void CvodeIntegrator::reset(double t0, const Eigen::VectorXd& y0) {
  if (y0.size() != n_)
    throw std::invalid_argument("CvodeIntegrator::reset: expected y0 of size " +
                                std::to_string(n_) + ", got " + std::to_string(y0.size()));
  if (!y0.allFinite() || !std::isfinite(t0))
    throw std::invalid_argument("CvodeIntegrator::reset: non-finite initial state or time");
  Eigen::Map<Eigen::VectorXd>(N_VGetArrayPointer(impl_->y), n_) = y0;
  check(CVodeReInit(impl_->mem, t0, impl_->y), "CVodeReInit");
  impl_->rhs_failed = false;
  impl_->last_error.clear();
}

void CvodeIntegrator::setRootDirections(const std::vector<int>& directions) {
  if (static_cast<int>(directions.size()) != impl_->roots)
    throw std::invalid_argument("CvodeIntegrator::setRootDirections: expected " +
                                std::to_string(impl_->roots) + " directions, got " +
                                std::to_string(directions.size()));
  std::vector<int> copy = directions;  // CVODE takes a non-const pointer and copies the values
  check(CVodeSetRootDirection(impl_->mem, copy.data()), "CVodeSetRootDirection");
}

OdeStep CvodeIntegrator::advance(double t_out, Eigen::VectorXd& y) {
  Impl& s = *impl_;
  OdeStep step;
  realtype t = 0.0;
  const int flag = CVode(s.mem, t_out, s.y, &t, CV_NORMAL);
  step.t = t;
  y = Eigen::Map<const Eigen::VectorXd>(N_VGetArrayPointer(s.y), n_);
  if (flag == CV_ROOT_RETURN) {
    step.status = OdeStatus::kRoot;
    CVodeGetRootInfo(s.mem, s.root_info.data());
    step.roots = s.root_info;
  } else if (flag >= 0) {
    step.status = OdeStatus::kReachedTime;
    step.roots.assign(std::size_t(s.roots), 0);
  } else {
    step.status = OdeStatus::kFailure;
    step.message = s.rhs_failed ? "the right-hand side failed or returned a non-finite value at t = " +
                                      std::to_string(t)
                                : s.last_error.empty() ? flagName(flag)
                                                       : s.last_error;
  }
  return step;
}

OdeStatistics CvodeIntegrator::statistics() const {
  OdeStatistics st;
  CVodeGetNumSteps(impl_->mem, &st.steps);
  CVodeGetNumRhsEvals(impl_->mem, &st.rhs_evaluations);
  CVodeGetNumErrTestFails(impl_->mem, &st.error_test_failures);
  if (impl_->roots > 0) CVodeGetNumGEvals(impl_->mem, &st.root_evaluations);
  return st;
}

}  // namespace stickslip::dynamics
