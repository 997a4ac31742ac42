#include "mechanisms/roller_crank_simulation.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "dynamics/cvode_integrator.hpp"
#include "dynamics/friction/make_friction_law.hpp"
#include "dynamics/rk4.hpp"

namespace stickslip::mechanisms {

void RollerCrankOptions::validate() const {
  const auto fail = [](const std::string& what, double got) {
    throw std::invalid_argument("RollerCrankOptions: expected " + what + ", got " +
                                std::to_string(got));
  };
  const auto positive = [&](const char* name, double x) {
    if (!(std::isfinite(x) && x > 0.0)) fail(std::string(name) + " > 0", x);
  };
  positive("t_end", t_end);
  positive("dt", dt);
  positive("relative_tolerance", relative_tolerance);
  positive("absolute_tolerance", absolute_tolerance);
  positive("output_dt", output_dt);
  positive("chatter_dt", chatter_dt);
  positive("ratio_limit", ratio_limit);
  positive("breakaway_velocity", breakaway_velocity);
  if (!(std::isfinite(max_step) && max_step >= 0.0)) fail("max_step ≥ 0", max_step);
  if (!(std::isfinite(stick_window) && stick_window >= 0.0)) fail("stick_window ≥ 0", stick_window);
}

const std::vector<std::string>& rollerCrankColumnNames() {
  static const std::vector<std::string> names{
      "t", "crank_angle", "roller_omega", "roller_alpha", "sliding_velocity", "normal_force",
      "friction_force", "friction_ratio", "energy", "friction_work", "constraint_residual"};
  return names;
}

std::string_view toString(RollerCrankOptions::Integrator i) {
  return i == RollerCrankOptions::Integrator::kRk4 ? "rk4" : "bdf";
}

namespace {

int signOf(double x) { return (x > 0.0) - (x < 0.0); }

/// Everything recorded at the sample instants.
class Sampler {
 public:
  Sampler(RollerCrankSystem& sys, const RollerCrankOptions& o, RollerCrankRun& run)
      : sys_(sys), o_(o), run_(run), ydot_(sys.stateSize()) {}

  void sample(double t, const Eigen::VectorXd& y, bool output) {
    if (!sys_.derivative(t, y, ydot_)) return;  // the integrator reports the failure
    const RollerContact& c = sys_.lastContact();
    const Eigen::Index n = sys_.model().velocitySize();
    const double energy = sys_.mechanicalEnergy(y), work = y(y.size() - 1);
    if (first_) energy0_ = energy;
    const double ratio = c.normal_force != 0.0 ? std::abs(c.friction_force / c.normal_force) : 0.0;
    const double residual = sys_.constraintResidual(y);
    run_.max_friction_ratio = std::max(run_.max_friction_ratio, ratio);
    if (ratio > o_.ratio_limit && run_.first_ratio_exceedance < 0.0) run_.first_ratio_exceedance = t;
    if (std::abs(c.sliding_velocity) > o_.breakaway_velocity && run_.breakaway_time < 0.0)
      run_.breakaway_time = t;
    run_.max_energy_balance_error =
        std::max(run_.max_energy_balance_error, std::abs(energy - energy0_ - work));
    run_.max_constraint_residual = std::max(run_.max_constraint_residual, residual);
    run_.max_velocity_residual = std::max(run_.max_velocity_residual, sys_.velocityResidual(y));
    run_.min_normal_force = first_ ? c.normal_force : std::min(run_.min_normal_force, c.normal_force);
    run_.max_loop_iterations = std::max(run_.max_loop_iterations, c.loop_iterations);
    if (t <= o_.stick_window * (1.0 + 1e-12)) {
      countChange(signOf(c.sliding_velocity), last_v_sign_, run_.sliding_sign_changes);
      countChange(signOf(c.friction_force), last_f_sign_, run_.friction_sign_changes);
      run_.max_window_sliding = std::max(run_.max_window_sliding, std::abs(c.sliding_velocity));
    }
    first_ = false;
    if (!output) return;
    const auto col = [&](RollerCrankColumn::Index k, double x) { row_[std::size_t(k)] = x; };
    col(RollerCrankColumn::kTime, t);
    col(RollerCrankColumn::kCrankAngle, y(dynamics::PlanarModel::coordinate(RollerCrankSystem::kCrank, 2)));
    col(RollerCrankColumn::kRollerRate, y(n + dynamics::PlanarModel::coordinate(RollerCrankSystem::kRoller, 2)));
    col(RollerCrankColumn::kRollerAcceleration, c.roller_acceleration);
    col(RollerCrankColumn::kSlidingVelocity, c.sliding_velocity);
    col(RollerCrankColumn::kNormalForce, c.normal_force);
    col(RollerCrankColumn::kFrictionForce, c.friction_force);
    col(RollerCrankColumn::kFrictionRatio, c.normal_force != 0.0 ? c.friction_force / c.normal_force : 0.0);
    col(RollerCrankColumn::kEnergy, energy);
    col(RollerCrankColumn::kFrictionWork, work);
    col(RollerCrankColumn::kConstraintResidual, residual);
    rows_.insert(rows_.end(), row_.begin(), row_.end());
  }

  Eigen::MatrixXd history() const {
    const Eigen::Index cols = RollerCrankColumn::kColumnCount, nrows = Eigen::Index(rows_.size()) / cols;
    return Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
        rows_.data(), nrows, cols);
  }

 private:
  static void countChange(int sign, int& last, int& count) {
    if (sign == 0) return;  // exact zeros (t = 0) neither start nor end a sign
    if (last != 0 && sign != last) ++count;
    last = sign;
  }

  RollerCrankSystem& sys_;
  const RollerCrankOptions& o_;
  RollerCrankRun& run_;
  Eigen::VectorXd ydot_;
  std::array<double, RollerCrankColumn::kColumnCount> row_{};
  std::vector<double> rows_;
  double energy0_ = 0.0;
  int last_v_sign_ = 0, last_f_sign_ = 0;
  bool first_ = true;
};

bool onGrid(double t, double h) { return std::abs(t / h - std::round(t / h)) < 1e-7; }

void integrateRk4(RollerCrankSystem& sys, const RollerCrankOptions& o, Eigen::VectorXd& y,
                  Sampler& sampler, RollerCrankRun& run) {
  dynamics::Rk4 rk4(y.size());
  const dynamics::Rk4::Derivative f = [&](double t, const Eigen::Ref<const Eigen::VectorXd>& yy,
                                          Eigen::Ref<Eigen::VectorXd> ydot) {
    ++run.rhs_evaluations;
    return sys.derivative(t, yy, ydot);
  };
  const long n_steps = std::max(1L, std::lround(o.t_end / o.dt));
  const long every_output = std::max(1L, std::lround(o.output_dt / o.dt));
  const long every_chatter = std::max(1L, std::lround(o.chatter_dt / o.dt));
  for (long i = 1; i <= n_steps; ++i) {
    const double t = double(i - 1) * o.dt;
    if (!rk4.step(f, t, o.dt, y)) {
      run.ok = false;
      run.message = "the equations of motion failed (singular W or friction loop) at t = " +
                    std::to_string(t) + " s";
      return;
    }
    run.t = double(i) * o.dt;
    ++run.steps;
    const bool output = i % every_output == 0 || i == n_steps;
    if (output || (run.t <= o.stick_window && i % every_chatter == 0))
      sampler.sample(run.t, y, output);
  }
}

void integrateBdf(RollerCrankSystem& sys, const RollerCrankOptions& o, Eigen::VectorXd& y,
                  Sampler& sampler, RollerCrankRun& run) {
  dynamics::CvodeOptions co;
  co.method = dynamics::OdeMethod::kBdf;
  co.relative_tolerance = o.relative_tolerance;
  co.absolute_tolerance = o.absolute_tolerance;
  co.max_step = o.max_step;
  const dynamics::OdeRhs f = [&](double t, const Eigen::Ref<const Eigen::VectorXd>& yy,
                                 Eigen::Ref<Eigen::VectorXd> ydot) {
    ++run.rhs_evaluations;
    return sys.derivative(t, yy, ydot);
  };
  dynamics::CvodeIntegrator cv(int(y.size()), f, co);
  cv.reset(0.0, y);
  long k_chatter = 0, k_output = 0;
  while (run.t < o.t_end * (1.0 - 1e-12)) {
    const double next_output = double(k_output + 1) * o.output_dt;
    const double next_chatter = double(k_chatter + 1) * o.chatter_dt;
    double target = next_output;
    if (next_chatter <= o.stick_window * (1.0 + 1e-12)) target = std::min(target, next_chatter);
    target = std::min(target, o.t_end);
    const dynamics::OdeStep s = cv.advance(target, y);
    run.t = s.t;
    if (s.status != dynamics::OdeStatus::kReachedTime) {
      run.ok = false;
      run.message = "CVODE stopped at t = " + std::to_string(s.t) + " s: " + s.message;
      break;
    }
    while (double(k_chatter + 1) * o.chatter_dt <= target * (1.0 + 1e-12)) ++k_chatter;
    const bool output = onGrid(target, o.output_dt) || target >= o.t_end;
    if (output) k_output = std::lround(target / o.output_dt);
    sampler.sample(target, y, output);
  }
  run.steps = cv.statistics().steps;
}

}  // namespace

RollerCrankRun simulateRollerCrank(const RollerCrank& rc,
                                   std::shared_ptr<const dynamics::FrictionLaw> friction,
                                   const RollerCrankOptions& options) {
  options.validate();
  RollerCrankSystem sys(rc, std::move(friction));
  RollerCrankRun run;
  Eigen::VectorXd y = sys.initialState();
  Sampler sampler(sys, options, run);
  const auto start = std::chrono::steady_clock::now();
  sampler.sample(0.0, y, true);
  if (options.integrator == RollerCrankOptions::Integrator::kRk4)
    integrateRk4(sys, options, y, sampler, run);
  else
    integrateBdf(sys, options, y, sampler, run);
  run.cpu_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.history = sampler.history();
  run.final_state = y;
  return run;
}

const std::vector<RollerCrankModel>& rollerCrankModels() {
  using I = RollerCrankOptions::Integrator;
  static const std::vector<RollerCrankModel> models{
      {"discontinuous Coulomb", "coulomb", I::kRk4},
      {"regularized Coulomb", "tanh", I::kBdf},
      {"discontinuous Stribeck", "stribeck", I::kRk4},
      {"Brown and McPhee", "brown-mcphee", I::kBdf},
      {"Dahl", "dahl", I::kBdf},
      {"LuGre", "lugre", I::kBdf}};
  return models;
}

std::vector<RollerCrankTableRow> rollerCrankTable(const RollerCrank& rc, const RollerCrankOptions& options,
                                                  const dynamics::FrictionParameters& p) {
  std::vector<RollerCrankTableRow> rows;
  for (const RollerCrankModel& m : rollerCrankModels()) {
    const std::shared_ptr<const dynamics::FrictionLaw> law = dynamics::makeFrictionLaw(m.law, p);
    RollerCrankOptions o = options;
    o.integrator = m.integrator;
    RollerCrankTableRow row{m, std::string(toString(m.integrator)), "", {}, 0.0};
    row.run = simulateRollerCrank(rc, law, o);
    if (!row.run.ok && m.integrator == RollerCrankOptions::Integrator::kBdf) {
      row.bdf_failure = row.run.message;
      o.integrator = RollerCrankOptions::Integrator::kRk4;
      row.integrator = "rk4";
      row.run = simulateRollerCrank(rc, law, o);
    }
    rows.push_back(std::move(row));
  }
  double fastest = 0.0;
  for (const auto& r : rows)
    if (r.run.ok && (fastest == 0.0 || r.run.cpu_seconds < fastest)) fastest = r.run.cpu_seconds;
  for (auto& r : rows) r.relative_cpu = fastest > 0.0 ? r.run.cpu_seconds / fastest : 0.0;
  return rows;
}

}  // namespace stickslip::mechanisms
