#include "dynamics/mechanism/clearance_preload.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "dynamics/model/constrained_response.hpp"
#include "dynamics/model/model_assembly.hpp"
#include "lcp/residual.hpp"

namespace stickslip::dynamics {
namespace {

double angleOf(const Eigen::VectorXd& q, BodyIndex b) { return b == kGround ? 0.0 : q(3 * b + 2); }

Eigen::Vector2d eccentricity(const PlanarModel& m, const RigidContact& c, const Eigen::VectorXd& q) {
  return m.pointPosition(q, c.body_i, c.journal_bearing.journal_centre_on_i) -
         m.pointPosition(q, c.body_j, c.journal_bearing.bearing_centre_on_j);
}

/// δ with K δⁿ = N, the compliant law's static penetration under the load N.
double staticPenetration(const NormalLaw& law, double normal) {
  return std::visit([&](const auto& l) { return std::pow(normal / l.stiffness, 1.0 / l.exponent); }, law);
}

/// The contacts that start preloaded, by index.
std::vector<std::size_t> preloaded(const RigidScenario& s) {
  std::vector<std::size_t> loaded;
  for (std::size_t k = 0; k < s.contacts.size(); ++k)
    if (s.contacts[k].preloaded) loaded.push_back(k);
  return loaded;
}

/// The preload's state: the preloaded contacts and the eccentricities e they settle at.
class Preload {
 public:
  explicit Preload(RigidScenario& s)
      : s_(s), m_(s.model), loaded_(preloaded(s)), closed_(withClosingJoints(s.model, s.contacts)) {
    bool driven = false;
    for (const PlanarJoint& j : m_.joints()) driven = driven || j.type == JointType::kRheonomicDriver;
    at_rest_ = !driven && s.v0.lpNorm<Eigen::Infinity>() == 0.0;
    rest_ = Eigen::VectorXd::Zero(m_.velocitySize());
  }

  /// Each journal's e from the initial state, at the clearance's distance (a centred one along x).
  void startFromInitialState() {
    const std::vector<std::size_t>& loaded = loaded_;
    const std::size_t nl = loaded.size();
    const PlanarModel& m = m_;
    RigidScenario& s = s_;
    std::vector<Eigen::Vector2d>& e = e_;
    e.resize(nl);
    for (std::size_t l = 0; l < nl; ++l) {
      const RigidContact& c = s.contacts[loaded[l]];
      e[l] = eccentricity(m, c, s.q0);
      if (e[l].norm() < 1e-3 * c.journal_bearing.clearance()) e[l] = Eigen::Vector2d::UnitX();  // centred
      e[l] *= c.journal_bearing.clearance() / e[l].norm();
    }
  }

  /// Steps 1–3: load, placement, assembly, until the eccentricities settle.
  void settleUnderLoad() {
    const std::vector<std::size_t>& loaded = loaded_;
    const std::size_t nl = loaded.size();
    const PlanarModel& m = m_;
    const PlanarModel& closed = closed_;
    RigidScenario& s = s_;
    std::vector<Eigen::Vector2d>& e = e_;
    const bool at_rest = at_rest_;
    const Eigen::VectorXd& rest = rest_;
    const PlanarModel passive = closed.withoutDrivers();
    for (int pass = 0;; ++pass) {
      place(e);
      PlanarModel locked = passive;
      for (std::size_t l = 0; l < nl; ++l) {
        const RigidContact& c = s.contacts[loaded[l]];
        const Eigen::Vector2d journal = m.pointPosition(s.q0, c.body_i, c.journal_bearing.journal_centre_on_i);
        const Eigen::Vector2d origin_j = m.pointPosition(s.q0, c.body_j, Eigen::Vector2d::Zero());
        const double theta_j = angleOf(s.q0, c.body_j);
        locked.addFixed(c.body_i, c.journal_bearing.journal_centre_on_i, c.body_j,
                        Eigen::Rotation2Dd(-theta_j).toRotationMatrix() * (journal - origin_j),
                        theta_j - angleOf(s.q0, c.body_i));
      }
      ConstrainedResponse response(locked);
      if (!response.update(0.0, s.q0, rest))
        fail(loaded[0], "the mechanism with its clearance joints locked is not a determinate structure (" +
                            response.message() + ")");
      Eigen::VectorXd lambda(locked.constraintCount());
      response.multipliers(rest, lambda);
      const std::vector<JointReaction> reactions = locked.reactions(0.0, s.q0, lambda);
      double change = 0.0;
      for (std::size_t l = 0; l < nl; ++l) {
        const RigidContact& c = s.contacts[loaded[l]];
        const JointReaction& weld = reactions[reactions.size() - nl + l];
        const Eigen::Vector2d force = weld.force_on_i;
        const double load = force.norm();
        const double tangential = at_rest ? weld.torque_on_i / c.journal_bearing.journal_radius : 0.0;
        if (std::abs(tangential) > load)
          fail(loaded[l], "at rest its locked joint carries a torque " + std::to_string(weld.torque_on_i) +
                              " N m that no contact force of magnitude " + std::to_string(load) +
                              " N on the journal's rim balances");
        const double normal = std::sqrt(load * load - tangential * tangential);
        const double delta =
            c.normal == RigidContact::Normal::kCompliant ? staticPenetration(*c.compliant_law, normal) : 0.0;
        // F rotated by −α is (−N, F_t), α the direction of n.
        const double alpha = std::atan2(force.y(), force.x()) - std::atan2(tangential, -normal);
        const Eigen::Vector2d next = (c.journal_bearing.clearance() + delta) * Eigen::Vector2d(std::cos(alpha), std::sin(alpha));
        change = std::max(change, (next - e[l]).norm());
        e[l] = next;
      }
      if (change <= 1e-15) break;
      if (pass == 50) fail(loaded[0], "the eccentricities do not settle (last change " + std::to_string(change) + " m)");
    }
    place(e);
  }

  /// Step 4: an equilibrium of the real model, the compliant journals stuck.
  void equilibrateCompliant() {
    const std::vector<std::size_t>& loaded = loaded_;
    const std::size_t nl = loaded.size();
    const PlanarModel& m = m_;
    const Eigen::Index nv = m.velocitySize();
    RigidScenario& s = s_;
    std::vector<Eigen::Vector2d>& e = e_;
    const bool at_rest = at_rest_;
    const Eigen::VectorXd& rest = rest_;
    bool compliant = false;
    for (std::size_t k : loaded) compliant = compliant || s.contacts[k].normal == RigidContact::Normal::kCompliant;
    if (at_rest && compliant) {
      ConstrainedResponse response(m);
      ContactKinematics kin;
      const Eigen::Index nx = Eigen::Index(2 * nl);
      auto acceleration = [&](const Eigen::VectorXd& x) {
        std::vector<Eigen::Vector2d> ecc(nl);
        for (std::size_t l = 0; l < nl; ++l) ecc[l] = x.segment<2>(Eigen::Index(2 * l));
        place(ecc);
        if (!response.update(0.0, s.q0, rest)) fail(loaded[0], response.message());
        evaluateContacts(m, s.contacts, 0.0, s.q0, rest, kin);
        const Eigen::MatrixXd& g = response.inverseMass();
        Eigen::VectorXd a = response.freeAcceleration();
        Eigen::MatrixXd jt(Eigen::Index(nl), nv);
        for (std::size_t l = 0; l < nl; ++l) {
          const RigidContact& c = s.contacts[loaded[l]];
          const auto row = Eigen::Index(2 * loaded[l]);
          if (c.normal == RigidContact::Normal::kCompliant)
            a += g * (normalForce(*c.compliant_law, -kin.gap(Eigen::Index(loaded[l])), 0.0, c.impact_velocity) *
                      kin.jacobian.row(row).transpose());
          jt.row(Eigen::Index(l)) = kin.jacobian.row(row + 1);
        }
        const Eigen::MatrixXd g_jt = g * jt.transpose();
        const Eigen::VectorXd tangential = (jt * g_jt).ldlt().solve(-(jt * a));
        return Eigen::VectorXd(a + g_jt * tangential);
      };
      Eigen::VectorXd x(nx);
      for (std::size_t l = 0; l < nl; ++l) x.segment<2>(Eigen::Index(2 * l)) = e[l];
      const double step = 1e-7 * x.cwiseAbs().maxCoeff();  // e ≈ c, ∂a/∂e ≈ K-scale
      for (int it = 0; it < 8; ++it) {
        const Eigen::VectorXd a = acceleration(x);
        if (a.lpNorm<Eigen::Infinity>() < 1e-12) break;
        Eigen::MatrixXd jac(nv, nx);
        for (Eigen::Index i = 0; i < nx; ++i) {
          const Eigen::VectorXd d = step * Eigen::VectorXd::Unit(nx, i);
          jac.col(i) = (acceleration(x + d) - acceleration(x - d)) / (2.0 * step);
        }
        x -= jac.colPivHouseholderQr().solve(a);
      }
      for (std::size_t l = 0; l < nl; ++l) e[l] = x.segment<2>(Eigen::Index(2 * l));
      place(e);
    }
  }

  /// Step 5: velocities, each preloaded journal rolling in its bearing.
  void rollVelocities() {
    const std::vector<std::size_t>& loaded = loaded_;
    const std::size_t nl = loaded.size();
    const PlanarModel& m = m_;
    const PlanarModel& closed = closed_;
    const Eigen::Index nv = m.velocitySize();
    RigidScenario& s = s_;
    const Eigen::VectorXd& rest = rest_;
    const Eigen::Index mj = closed.constraintCount(), nh = Eigen::Index(s.initial_held.size());
    const Eigen::Index rows = mj + Eigen::Index(2 * nl) + nh;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(rows, nv);
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(rows);
    Eigen::MatrixXd d(mj, nv);
    closed.jacobian(0.0, s.q0, d);
    a.topRows(mj) = d;
    Eigen::VectorXd phi_t(mj);
    closed.constraintTimeDerivative(0.0, s.q0, phi_t);
    rhs.head(mj) = -phi_t;
    ContactKinematics kin;
    evaluateContacts(m, s.contacts, 0.0, s.q0, rest, kin);
    for (std::size_t l = 0; l < nl; ++l)
      a.middleRows(mj + Eigen::Index(2 * l), 2) = kin.jacobian.middleRows(Eigen::Index(2 * loaded[l]), 2);
    for (Eigen::Index h = 0; h < nh; ++h) {
      a(mj + 2 * Eigen::Index(nl) + h, s.initial_held[std::size_t(h)]) = 1.0;
      rhs(mj + 2 * Eigen::Index(nl) + h) = s.v0(s.initial_held[std::size_t(h)]);
    }
    s.v0 += a.completeOrthogonalDecomposition().solve(rhs - a * s.v0);
    const double residual = (a * s.v0 - rhs).lpNorm<Eigen::Infinity>();
    if (!(residual <= 1e-9 * std::max(1.0, rhs.lpNorm<Eigen::Infinity>())))
      fail(loaded[0],
           "no velocity closes the joints with the journals rolling in their bearings and the held "
           "velocities kept (residual " +
               lcp::scientific(residual) + ")");
  }

 private:
  [[noreturn]] void fail(std::size_t k, const std::string& why) const {
    throw std::invalid_argument(s_.contacts[k].name + ": cannot start preloaded: " + why);
  }

  /// The other coordinates assembled to the eccentricities `ecc`: each journal pinned to its
  /// bearing at r_B + e (a point fixed on the bearing's body, refreshed as that body turns).
  void place(const std::vector<Eigen::Vector2d>& ecc) {
    const std::vector<std::size_t>& loaded = loaded_;
    const std::size_t nl = loaded.size();
    const PlanarModel& m = m_;
    const PlanarModel& closed = closed_;
    RigidScenario& s = s_;
    double off = 0.0;
    for (int it = 0; it < 20; ++it) {
      PlanarModel pinned = closed;
      for (std::size_t l = 0; l < nl; ++l) {
        const RigidContact& c = s.contacts[loaded[l]];
        const Eigen::Vector2d on_j = c.journal_bearing.bearing_centre_on_j +
                                     Eigen::Rotation2Dd(-angleOf(s.q0, c.body_j)).toRotationMatrix() * ecc[l];
        pinned.addRevolute(c.body_i, c.journal_bearing.journal_centre_on_i, c.body_j, on_j);
      }
      Eigen::VectorXd v = s.v0;
      const AssemblyResult r = assemble(pinned, 0.0, s.initial_held, s.q0, v);
      if (!r.ok()) fail(loaded[0], "the mechanism does not assemble with the journals against their bearings (" +
                                       std::string(toString(r.status)) + ": " + r.message + ")");
      off = 0.0;
      for (std::size_t l = 0; l < nl; ++l)
        off = std::max(off, (eccentricity(m, s.contacts[loaded[l]], s.q0) - ecc[l]).norm());
      if (off <= 1e-15) return;
    }
    // Round-off stalls the refresh near 1e-15 m, more near a dead centre, where the assembly
    // is ill-conditioned (1.1e-13 m at θ1 = 3.1075 and 3.175 on zheng-equilibrium): only a miss
    // of the clearance's scale fails.
    if (off > 1e-6 * s.contacts[loaded[0]].journal_bearing.clearance()) {
      std::ostringstream text;
      text << "the journals do not settle at their eccentricities against the bearings (off by " << off << " m)";
      fail(loaded[0], text.str());
    }
  }

  RigidScenario& s_;
  const PlanarModel& m_;
  const std::vector<std::size_t> loaded_;
  const PlanarModel closed_;
  bool at_rest_ = false;
  Eigen::VectorXd rest_;
  std::vector<Eigen::Vector2d> e_;
};

}  // namespace

void preloadClearanceJoints(RigidScenario& s) {
  if (preloaded(s).empty()) return;  // nothing to place: no closing joints built
  Preload preload(s);
  preload.startFromInitialState();
  preload.settleUnderLoad();
  preload.equilibrateCompliant();
  preload.rollVelocities();
}

}  // namespace stickslip::dynamics
