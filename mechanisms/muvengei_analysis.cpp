#include "mechanisms/muvengei_analysis.hpp"

#include <sstream>
#include <stdexcept>

#include "dynamics/contact/rigid_contact.hpp"

namespace stickslip::mechanisms {
namespace {

Eigen::Index require(const dynamics::RunResult& r, const std::string& name) {
  const Eigen::Index c = r.column(name);
  if (c < 0) throw std::invalid_argument("muvengei: the run has no column '" + name + "' (the penalty route's)");
  return c;
}

}  // namespace

MuvengeiTable muvengeiTable(const MuvengeiSliderCrank& d, const ScenarioRun& run) {
  const dynamics::RunResult& r = run.result;
  const dynamics::RigidScenario s = muvengeiRigid(d);
  const Eigen::Index n = s.model.velocitySize(), rows = r.history.rows();
  const Eigen::Index x = require(r, "slider.x"), v = require(r, "slider.vx"), a = require(r, "slider.ax");
  const Eigen::Index theta = require(r, "crank.theta"), omega = require(r, "crank.omega");
  const Eigen::Index lambda = require(r, "driver.lambda"), energy = require(r, "energy");
  const bool contact = !s.contacts.empty();
  const std::string law = run.penalty ? run.penalty->law : "";
  const dynamics::FrictionParameters p = muvengeiFrictionParameters(d);
  MuvengeiTable out;
  out.stribeck_velocity = d.stribeckVelocity();
  out.table = Eigen::MatrixXd::Zero(rows, kColumnCount);
  dynamics::ContactKinematics kin;
  for (Eigen::Index i = 0; i < rows; ++i) {
    const auto h = r.history.row(i);
    auto row = out.table.row(i);
    row(kTime) = h(0);
    row(kCrankAngle) = h(theta);
    row(kSliderX) = h(x);
    row(kSliderV) = h(v);
    row(kSliderA) = h(a);
    row(kDriverPower) = -h(lambda) * h(omega);
    row(kMechanicalEnergy) = h(energy);
    if (!contact) continue;
    dynamics::evaluateContacts(s.model, s.contacts, h(0), h.segment(1, n).transpose(), h.segment(1 + n, n).transpose(),
                               kin, false);
    const double fn = h(require(r, "c-cr.N")), ft = h(require(r, "c-cr.F")), vt = h(require(r, "c-cr.v_t"));
    row(kEccentricityX) = h(require(r, "c-cr.e_x"));
    row(kEccentricityY) = h(require(r, "c-cr.e_y"));
    row(kPenetration) = -kin.gap(0);
    row(kNormalForce) = fn;
    row(kFrictionForce) = ft;
    row(kTangentialVelocity) = vt;
    row(kContactPower) = fn * kin.normal_velocity(0) + ft * vt;  // −Fₙ δ̇ + Fₜ v_t, δ̇ = −ġ
    if (const Eigen::Index z = r.column("c-cr.z"); z >= 0) {
      if (law == "lugre-nondimensional") row(kBristleCoefficient) = p.mu_k * h(z);
      if (law == "lugre-wojtyra") row(kBristleCoefficient) = p.sigma0 * h(z) / p.reference_normal_force;
    }
  }
  return out;
}

std::optional<Analysis> muvengeiCycle(const Scenario& s, const ScenarioRun& run) {
  if (run.route != Route::kPenalty) return {};
  MuvengeiSliderCrank d = muvengeiOf(*s.model);
  d.ideal = run.result.column("c-cr.N") < 0;  // --ideal
  const MuvengeiTable table = muvengeiTable(d, run);
  const double period = d.period(), t = run.result.t_end;
  // The paper's steady cycle is the second one; a shorter run reports its last full cycle.
  const MuvengeiCycle cy = analyseMuvengeiCycle(d, table, t >= 2.0 * period - 1e-12 ? period : std::max(0.0, t - period));
  const double ratio = cy.max_acceleration / cy.max_ideal_acceleration;
  Analysis a;
  a.figures = {{"stribeck_velocity", table.stribeck_velocity},
               {"contact_stiffness", d.contactStiffness()},
               {"cycle",
                {{"t_begin", cy.t_begin},
                 {"t_end", cy.t_end},
                 {"samples", cy.samples},
                 {"contact_samples", cy.contact_samples},
                 {"max_acceleration", cy.max_acceleration},
                 {"max_ideal_acceleration", cy.max_ideal_acceleration},
                 {"acceleration_ratio", ratio},
                 {"max_ideal_acceleration_error", cy.max_ideal_acceleration_error},
                 {"max_position_deviation", cy.max_position_deviation},
                 {"max_tangential_velocity", cy.max_tangential_velocity},
                 {"min_tangential_velocity", cy.min_tangential_velocity},
                 {"max_penetration", cy.max_penetration},
                 {"max_normal_force", cy.max_normal_force},
                 {"max_friction_ratio", cy.max_friction_ratio},
                 {"max_bristle_ratio", cy.max_bristle_ratio},
                 {"max_damped_bound_ratio", cy.max_damped_bound_ratio},
                 {"stick_samples", cy.stick_samples},
                 {"stick_intervals", cy.stick_intervals},
                 {"driver_work", cy.driver_work},
                 {"contact_work", cy.contact_work},
                 {"energy_change", cy.energy_change},
                 {"energy_residual", cy.energy_residual}}}};
  std::ostringstream o;
  o << "v_s         " << table.stribeck_velocity << " m/s (1 % of the ideal max |v_t|)\n"
    << "cycle       " << cy.t_begin << " .. " << cy.t_end << " s, " << cy.samples << " samples, "
    << cy.contact_samples << " in contact\n"
    << "max |a|     " << cy.max_acceleration << " m/s^2 (ideal closed form " << cy.max_ideal_acceleration
    << ", ratio " << ratio << ")\n"
    << "max |dx|    " << cy.max_position_deviation << " m from the ideal slider\n";
  if (!d.ideal)
    o << "contact     max F_n " << cy.max_normal_force << " N, max |v_t| " << cy.max_tangential_velocity
      << " m/s, min |v_t| " << cy.min_tangential_velocity << " m/s, max penetration " << cy.max_penetration << " m\n"
      << "friction    max |F_t|/(mu_s F_n) " << cy.max_friction_ratio << ", bristle |sigma0 z|/mu_s "
      << cy.max_bristle_ratio << ", damped bound ratio " << cy.max_damped_bound_ratio << "\n"
      << "presliding  " << cy.stick_samples << " samples in " << cy.stick_intervals
      << " intervals with |v_t| < v_s and F_t != 0\n";
  o << "work        driver " << cy.driver_work << " J, contact " << cy.contact_work << " J, dE " << cy.energy_change
    << " J, residual " << cy.energy_residual;
  std::istringstream lines(o.str());
  for (std::string line; std::getline(lines, line);) a.lines.push_back(line);
  return a;
}

}  // namespace stickslip::mechanisms
