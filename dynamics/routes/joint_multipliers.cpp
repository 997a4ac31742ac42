#include "dynamics/routes/joint_multipliers.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "dynamics/model/constrained_response.hpp"

namespace stickslip::dynamics {
namespace {

Eigen::Index requireColumn(const RunResult& run, const std::string& name) {
  const Eigen::Index c = run.column(name);
  if (c < 0) throw std::invalid_argument("jointMultiplierHistory: the run has no column '" + name + "'");
  return c;
}

}  // namespace

bool rebuildsJointMultipliers(const Mechanism& m) {
  return m.constraintCount() > 0 &&
         std::none_of(m.contacts().begin(), m.contacts().end(), [](const RigidContact& c) { return c.spatial(); });
}

Eigen::MatrixXd jointMultiplierHistory(const Mechanism& m, const RunResult& run, double alpha, double beta) {
  if (!rebuildsJointMultipliers(m))
    throw std::invalid_argument("jointMultiplierHistory: a mechanism without joints, or with spatial contacts");
  const Eigen::Index nq = m.positionSize(), nv = m.velocitySize();
  std::vector<Eigen::Index> contact_force, joint_torque;
  for (const RigidContact& c : m.contacts()) {
    contact_force.push_back(requireColumn(run, c.name + ".N"));
    contact_force.push_back(requireColumn(run, c.name + ".F"));
  }
  for (const JointFriction& j : m.jointFriction()) joint_torque.push_back(requireColumn(run, j.name + ".F"));

  ConstrainedResponse response(m, alpha, beta);
  ContactKinematics k;
  m.resizeContacts(k);
  Eigen::MatrixXd out(run.history.rows(), m.constraintCount());
  Eigen::VectorXd q(nq), v(nv), force(nv), lambda(m.constraintCount());
  for (Eigen::Index i = 0; i < run.history.rows(); ++i) {
    const double t = run.history(i, 0);
    q = run.history.row(i).segment(1, nq).transpose();
    v = run.history.row(i).segment(1 + nq, nv).transpose();
    force.setZero();
    if (!contact_force.empty()) {
      m.evaluateContacts(t, q, v, k, false);
      for (std::size_t r = 0; r < contact_force.size(); ++r)
        force += run.history(i, contact_force[r]) * k.jacobian.row(Eigen::Index(r)).transpose();
    }
    for (std::size_t e = 0; e < joint_torque.size(); ++e)
      m.addJointFrictionRow(e, run.history(i, joint_torque[e]), force);
    if (!response.update(t, q, v)) {
      out.row(i).setConstant(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    response.multipliers(force, lambda);
    out.row(i) = lambda.transpose();
  }
  return out;
}

}  // namespace stickslip::dynamics
