#pragma once
/// \file Classic fixed-step fourth-order Runge–Kutta (the thesis' integrator, §2.4), with an
/// exponential treatment of fast linear relaxations (bristle states).
///
/// For ẏ = f(t, y), one step of size h:
///   k₁ = f(t, y),  k₂ = f(t + h/2, y + h/2 k₁),  k₃ = f(t + h/2, y + h/2 k₂),
///   k₄ = f(t + h, y + h k₃),  y ← y + h/6 (k₁ + 2k₂ + 2k₃ + k₄);
/// local error O(h⁵), global O(h⁴). The four stages and the stage state are sized once.
///
/// Relaxing components. Some components may follow ẏ_j = a_j − d_j y_j, with a drive a_j and a
/// decay d_j ≥ 0 that depend on the other components only (a friction law's bristle, whose
/// relaxation rate σ0 |v|/g grows without bound as the load vanishes). RK4 is stable on such a
/// component only while d_j h < 2.79; beyond, it blows up. With a RelaxingDerivative, a
/// component whose d_j h exceeds kEnterRelaxed at the step's first stage, or kForceRelaxed at a
/// later one (the step is then redone), is integrated exactly for each stage's own a_j and d_j,
/// frozen (the exponential of a linear decay):
///   stage i (at t + c_i h):  y_j,i = E(c_i h),  with  E(τ) = e^{−d_j,i τ} y_j + τ φ(d_j,i τ) a_j,i,
///   its rate at stage i: the step's mean (E(h) − y_j)/h, not a_j,i − d_j,i y_j,i;
///   step:  y_j ← e^{−x} y_j + (1 − e^{−x}) s₀ + (s₁ − s₀)(1 − φ(x)),   x = d̄ h,  φ(x) = (1 − e^{−x})/x,
/// the exact solution for a constant decay d̄ (the Simpson average of the stages' d_j) towards a
/// target s = a/d that moves linearly from the first stage's s₀ = a_j,1/d_j,1 to the last's
/// s₁ = a_j,4/d_j,4 (where a stage has d_j = 0, the step uses e^{−d̄ h} y_j + h φ(d̄ h) ā with the
/// Simpson average ā instead). It is exact for constant a_j and d_j, second order in h for
/// varying ones, and stiffly accurate: as d_j h grows it tends to the end's relaxed value s₁.
/// The new y_j is a convex combination of y_j, s₀ and s₁, whatever d_j h.
///
/// The stage rate is the mean because it may drive other components (a bristle's damping force
/// b ż): the instantaneous a − d y at the first stage is d h times larger and would kick them.
/// What the stage rates' RK4 mean leaves of the step's true change is relaxedMismatch(), for
/// the caller to apply. The other components keep RK4's stages and update, bit for bit.

#include <Eigen/Dense>
#include <functional>

namespace stickslip::dynamics {

class Rk4 {
 public:
  /// f(t, y, ẏ) writes ẏ and returns false to stop the step (e.g. a singular EOM solve).
  using Derivative = std::function<bool(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                        Eigen::Ref<Eigen::VectorXd> ydot)>;
  /// Which components a stage relaxes (null: none), its offset c_i h and the step h.
  struct RelaxedStage {
    const Eigen::Array<bool, Eigen::Dynamic, 1>* relaxed = nullptr;
    double offset = 0.0;
    double step = 0.0;
    bool relaxes(Eigen::Index j) const { return relaxed && (*relaxed)(j); }
  };
  /// f(t, y, stage, ẏ, a, d): as Derivative, and for each relaxing component j its drive a_j and
  /// decay d_j ≥ 0 at this stage (a_j = d_j = 0 for the others), which must not depend on y_j.
  /// Where stage.relaxes(j), y_j is the step's start value: f must use the relaxed value
  /// relaxed(y_j, a_j, d_j, stage.offset) where the component enters, and the mean rate
  /// meanRate(y_j, a_j, d_j, stage.step) where its rate does, and write that rate to ẏ_j.
  using RelaxingDerivative = std::function<bool(double t, const Eigen::Ref<const Eigen::VectorXd>& y,
                                                const RelaxedStage& stage, Eigen::Ref<Eigen::VectorXd> ydot,
                                                Eigen::Ref<Eigen::VectorXd> drive, Eigen::Ref<Eigen::VectorXd> decay)>;

  /// d h beyond which a component is integrated exactly (file comment): at the first stage, at
  /// any later one (RK4's real stability bound is 2.79).
  static constexpr double kEnterRelaxed = 0.25;
  static constexpr double kForceRelaxed = 2.0;

  /// y relaxed over τ ≥ 0 from y0 under ẏ = a − d y with a, d frozen: e^{−dτ} y0 + τ φ(dτ) a
  /// (d = +∞ gives 0).
  static double relaxed(double y0, double drive, double decay, double tau);
  /// (relaxed(y0, a, d, h) − y0)/h, the mean rate over a step h > 0.
  static double meanRate(double y0, double drive, double decay, double h) {
    return (relaxed(y0, drive, decay, h) - y0) / h;
  }

  /// Workspace for states of size n ≥ 0 (throws std::invalid_argument otherwise).
  explicit Rk4(Eigen::Index n);

  /// Advances y (size n) from t by h > 0 in place. Returns false, leaving y unchanged, when
  /// f does. Throws std::invalid_argument on a size mismatch or h not finite and positive.
  bool step(const Derivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y);
  /// The same with the relaxing components treated as in the file comment.
  bool step(const RelaxingDerivative& f, double t, double h, Eigen::Ref<Eigen::VectorXd> y);

  Eigen::Index size() const { return k1_.size(); }
  /// Steps taken by the RelaxingDerivative form that integrated some component exactly.
  long relaxedSteps() const { return relaxed_steps_; }
  /// After such a step: for each relaxed component, its change less h times the RK4 mean of its
  /// stage rates — what a force proportional to its rate (a bristle's damping) has not
  /// delivered of ∫ rate dt over the step; 0 for the others.
  const Eigen::VectorXd& relaxedMismatch() const { return mismatch_; }

 private:
  void checkStep(double h, Eigen::Index n) const;
  /// The stages of a relaxing step (the first too if `first`), with the components j where
  /// relaxed_(j) relaxed.
  bool relaxedStages(const RelaxingDerivative& f, double t, double h, const Eigen::Ref<const Eigen::VectorXd>& y,
                     bool first);

  Eigen::VectorXd k1_, k2_, k3_, k4_, stage_;
  // Relaxing steps: each stage's drives and decays, the relaxed set.
  Eigen::VectorXd a1_, a2_, a3_, a4_, d1_, d2_, d3_, d4_, mismatch_;
  Eigen::Array<bool, Eigen::Dynamic, 1> relaxed_, grown_;
  long relaxed_steps_ = 0;
};

}  // namespace stickslip::dynamics
