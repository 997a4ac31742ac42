#include "mechanisms/belt.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "dynamics/friction/friction_law.hpp"
#include "dynamics/integrators/cvode_integrator.hpp"
#include "dynamics/integrators/rk4.hpp"
#include "dynamics/routes/run_result.hpp"
#include "mechanisms/builtin_models.hpp"
#include "mechanisms/scenario_file.hpp"

namespace stickslip::mechanisms {
namespace {

void require(bool ok, const std::string& who, const std::string& what, double got) {
  if (!ok) throw std::invalid_argument(who + ": expected " + what + ", got " + exactNumber(got));
}

}  // namespace

void Belt::validate() const {
  require(mass > 0.0 && std::isfinite(mass), "Belt", "mass > 0", mass);
  require(belt_speed > 0.0 && std::isfinite(belt_speed), "Belt", "belt_speed > 0", belt_speed);
  require(stiffness > 0.0 && std::isfinite(stiffness), "Belt", "stiffness > 0", stiffness);
  require(gravity > 0.0 && std::isfinite(gravity), "Belt", "gravity > 0", gravity);
  require(mu_kinetic >= 0.0 && std::isfinite(mu_kinetic), "Belt", "mu_kinetic ≥ 0", mu_kinetic);
  require(mu_static >= mu_kinetic && std::isfinite(mu_static), "Belt", "mu_static ≥ mu_kinetic",
          mu_static);
}

BeltCycle beltClosedForm(const Belt& b) {
  b.validate();
  BeltCycle c;
  const double N = b.mass * b.gravity, omega = std::sqrt(b.stiffness / b.mass);
  c.x_breakaway = b.mu_static * N / b.stiffness;
  const double x_center = b.mu_kinetic * N / b.stiffness;
  c.first_breakaway = c.x_breakaway / b.belt_speed;
  c.slip_duration =
      2.0 * (M_PI - std::atan(omega * (c.x_breakaway - x_center) / b.belt_speed)) / omega;
  c.x_stick = 2.0 * x_center - c.x_breakaway;
  c.stick_duration = (c.x_breakaway - c.x_stick) / b.belt_speed;
  c.period = c.slip_duration + c.stick_duration;
  return c;
}

std::vector<std::pair<double, std::string>> BeltCycle::events(double t_end) const {
  std::vector<std::pair<double, std::string>> out;
  // A cycle too short for t to advance, or too many of them, is a model no run could resolve.
  constexpr double kMaxCycles = 1e6;
  if (first_breakaway <= t_end && (!(period > 0.0) || first_breakaway + period == first_breakaway ||
                                   (t_end - first_breakaway) / period > kMaxCycles)) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "the belt's stick-slip period %.3g s gives more than 1e6 cycles before %.3g s",
                  period, t_end);
    throw std::invalid_argument(why);
  }
  for (double t = first_breakaway; t <= t_end; t += period) {
    out.emplace_back(t, "slip");
    if (t + slip_duration <= t_end) out.emplace_back(t + slip_duration, "stick");
  }
  return out;
}

PenaltyRun simulateBeltPenalty(const Belt& b, const dynamics::FrictionLaw& law,
                               const PenaltyOptions& o) {
  b.validate();
  require(o.t_end > 0.0, "PenaltyOptions", "t_end > 0", o.t_end);
  require(o.dt > 0.0, "PenaltyOptions", "dt > 0", o.dt);
  require(o.output_dt > 0.0, "PenaltyOptions", "output_dt > 0", o.output_dt);
  require(o.stick_velocity > 0.0, "PenaltyOptions", "stick_velocity > 0", o.stick_velocity);

  if (o.integrator == PenaltyOptions::Integrator::kBdf && law.settlesBetweenSteps())
    throw std::invalid_argument("simulateBeltPenalty: " + dynamics::variableStepRefusal(law) +
                                ": expected the RK4 integrator");
  const int nz = law.stateSize();
  const double N = b.mass * b.gravity;
  // State y = (x, ẋ, internal states of the law).
  auto input = [&](const Eigen::Ref<const Eigen::VectorXd>& y) {
    return dynamics::FrictionInput{y(1) - b.belt_speed, N, -b.stiffness * y(0)};
  };
  auto friction = [&](const Eigen::Ref<const Eigen::VectorXd>& y) {
    return law.force(input(y), std::span<const double>(y.data() + 2, std::size_t(nz)));
  };
  auto rhs = [&](double, const Eigen::Ref<const Eigen::VectorXd>& y,
                 Eigen::Ref<Eigen::VectorXd> dydt) {
    const dynamics::FrictionInput in = input(y);
    const std::span<const double> z(y.data() + 2, std::size_t(nz));
    dydt(0) = y(1);
    dydt(1) = (in.applied_force + law.force(in, z)) / b.mass;
    law.stateRate(in, z, std::span<double>(dydt.data() + 2, std::size_t(nz)));
    return dydt.allFinite();
  };

  Eigen::VectorXd y = Eigen::VectorXd::Zero(2 + nz);
  y(1) = b.belt_speed;
  law.initialState(input(y), std::span<double>(y.data() + 2, std::size_t(nz)));

  PenaltyRun run;
  const long samples = long(std::floor(o.t_end / o.output_dt + 1e-9)) + 1;
  run.history.resize(samples, 5);
  long stuck = 0;
  bool sticking = false;
  auto record = [&](long k, double t) {
    const double v_rel = y(1) - b.belt_speed;
    run.history.row(k) << t, y(0), y(1), v_rel, friction(y);
    const bool now = std::abs(v_rel) < o.stick_velocity;
    stuck += now;
    if (k == 0)
      sticking = now;
    else if (now != sticking) {
      run.mode_changes.emplace_back(t, now ? "stick" : "slip");
      sticking = now;
    }
  };

  const double t0 = dynamics::threadCpuSeconds();
  record(0, 0.0);
  run.ok = true;
  if (o.integrator == PenaltyOptions::Integrator::kBdf) {
    dynamics::CvodeOptions co;
    co.relative_tolerance = o.relative_tolerance;
    co.absolute_tolerance = o.absolute_tolerance;
    dynamics::CvodeIntegrator cv(int(y.size()), rhs, co);
    cv.reset(0.0, y);
    for (long k = 1; k < samples && run.ok; ++k) {
      const dynamics::OdeStep s = cv.advance(double(k) * o.output_dt, y);
      if (s.status != dynamics::OdeStatus::kReachedTime) {
        run.ok = false;
        run.message = "CVODE stopped at t = " + std::to_string(s.t) + ": " + s.message;
        run.history.conservativeResize(k, Eigen::NoChange);
        break;
      }
      record(k, s.t);
    }
    run.steps = cv.statistics().steps;
  } else {
    dynamics::Rk4 rk4(y.size());
    const long per_sample = std::max(1L, long(std::llround(o.output_dt / o.dt)));
    const double h = o.output_dt / double(per_sample);  // lands exactly on the samples
    double t = 0.0;
    for (long k = 1; k < samples && run.ok; ++k) {
      for (long s = 0; s < per_sample; ++s, ++run.steps) {
        if (!rk4.step(rhs, t, h, y)) {
          run.ok = false;
          run.message = "the state became non-finite at t = " + std::to_string(t);
          run.history.conservativeResize(k, Eigen::NoChange);
          break;
        }
        t = double(k - 1) * o.output_dt + double(s + 1) * h;
        law.settle(input(y), std::span<double>(y.data() + 2, std::size_t(nz)));
      }
      if (run.ok) record(k, t);
    }
  }
  run.cpu_seconds = dynamics::threadCpuSeconds() - t0;
  run.stick_fraction = double(stuck) / double(run.history.rows());
  run.final_state = y;
  return run;
}

namespace {
const std::vector<ModelField<Belt>>& beltFields() {
  static const std::vector<ModelField<Belt>> f{{"mass", &Belt::mass},           {"belt_speed", &Belt::belt_speed},
                                               {"stiffness", &Belt::stiffness}, {"gravity", &Belt::gravity},
                                               {"mu_static", &Belt::mu_static}, {"mu_kinetic", &Belt::mu_kinetic}};
  return f;
}
}  // namespace

dynamics::RigidScenario beltRigid(const Belt& b) {
  b.validate();
  return builtinModel("belt", modelValues(b, beltFields()));
}

Belt beltOf(const dynamics::RigidScenario& s) { return fromModel(s, beltFields()); }

}  // namespace stickslip::mechanisms
