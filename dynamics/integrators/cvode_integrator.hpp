#pragma once
/// \file Smooth integration by SUNDIALS CVODE: variable-order BDF (stiff problems, the
/// counterpart of MATLAB's ode15s) or Adams–Moulton (non-stiff), with root functions located
/// by CVODE's own root finding, for the event-driven formulation.
///
/// The system is  dy/dt = f(t, y),  y ∈ ℝⁿ,  with optional root functions gₖ(t, y) whose sign
/// changes CVODE locates to within its root tolerance (≈ 100·ε·(|t| + |h|)) [Hindmarsh et al.
/// 2005; SUNDIALS 6.4 CVODE guide]. Integration stops at t_out or at the first root.

#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace stickslip::dynamics {

/// f(t, y, dy/dt): must fill dydt; return false to signal an unrecoverable error (e.g. a
/// non-finite state), which stops the integration with OdeStatus::kFailure.
using OdeRhs = std::function<bool(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                  Eigen::Ref<Eigen::VectorXd> dydt)>;
/// g(t, y, g): fills the root functions' values.
using OdeRoots = std::function<void(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                    Eigen::Ref<Eigen::VectorXd> g)>;

enum class OdeMethod { kBdf, kAdams };

struct CvodeOptions {
  OdeMethod method = OdeMethod::kBdf;
  double relative_tolerance = 1e-8;   ///< > 0
  double absolute_tolerance = 1e-10;  ///< > 0, same for every component
  double max_step = 0.0;              ///< [s], 0: unlimited
  long max_steps = 500000;            ///< internal steps per advance() call, > 0
};

enum class OdeStatus {
  kReachedTime,  ///< t_out reached
  kRoot,         ///< stopped at a root of some gₖ (see OdeStep::roots)
  kFailure,      ///< CVODE error or rhs failure (see OdeStep::message)
};

struct OdeStep {
  OdeStatus status = OdeStatus::kFailure;
  double t = 0.0;          ///< time reached
  std::vector<int> roots;  ///< per root function: 0, or ±1 = direction of the sign change
  std::string message;     ///< CVODE's flag name and text on failure
};

/// Counters since the last reset().
struct OdeStatistics {
  long steps = 0, rhs_evaluations = 0, error_test_failures = 0, root_evaluations = 0;
};

class CvodeIntegrator final {
 public:
  /// n ≥ 1 states, `roots` ≥ 0 root functions (then `g` must be set). Throws
  /// std::invalid_argument for bad sizes or options.
  CvodeIntegrator(int n, OdeRhs f, CvodeOptions options = {}, int roots = 0, OdeRoots g = {});
  ~CvodeIntegrator();
  CvodeIntegrator(const CvodeIntegrator&) = delete;
  CvodeIntegrator& operator=(const CvodeIntegrator&) = delete;

  /// Restarts the integration at (t0, y0), e.g. after an event changed the state.
  void reset(double t0, const Eigen::VectorXd& y0);
  /// Which sign changes of each root function count: +1 increasing only, −1 decreasing only,
  /// 0 both (the default). Size: the number of root functions. Throws on a size mismatch.
  void setRootDirections(const std::vector<int>& directions);
  /// Integrates from the current time towards t_out; y receives the state at the time reached.
  OdeStep advance(double t_out, Eigen::VectorXd& y);

  OdeStatistics statistics() const;
  int size() const { return n_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int n_;
};

}  // namespace stickslip::dynamics
