#include "dynamics/eom_methods/model_slider_crank.hpp"

#include <cmath>

namespace stickslip::dynamics {

SliderCrank buildSliderCrank(const SliderCrankData& data) {
  SliderCrank sc;
  PlanarModel& m = sc.model;
  const double a = 0.5 * data.crank_length, b = 0.5 * data.rod_length;
  sc.crank = m.addBody("crank", data.crank_mass, data.crank_inertia);
  sc.rod = m.addBody("rod", data.rod_mass, data.rod_inertia);
  sc.slider = m.addBody("slider", data.slider_mass, data.slider_inertia);
  m.addRevolute(kGround, Eigen::Vector2d::Zero(), sc.crank, Eigen::Vector2d(-a, 0.0), "O");
  m.addRevolute(sc.crank, Eigen::Vector2d(a, 0.0), sc.rod, Eigen::Vector2d(-b, 0.0), "A");
  m.addRevolute(sc.rod, Eigen::Vector2d(b, 0.0), sc.slider, Eigen::Vector2d::Zero(), "B");
  m.addTranslational(kGround, Eigen::Vector2d::Zero(), Eigen::Vector2d::UnitX(), sc.slider,
                     Eigen::Vector2d::Zero(), 0.0, "slide");
  m.setGravity(Eigen::Vector2d(0.0, -data.gravity));

  // Guess from the exact closed-form geometry; assembly then polishes it to round-off.
  const double th1 = data.crank_angle, w1 = data.crank_speed;
  const double c1 = std::cos(th1), s1 = std::sin(th1);
  const double th2 = -std::asin(data.crank_length * s1 / data.rod_length);
  const double xb = data.crank_length * c1 + data.rod_length * std::cos(th2);
  sc.q0.resize(9);
  sc.q0 << a * c1, a * s1, th1, data.crank_length * c1 + b * std::cos(th2),
      data.crank_length * s1 + b * std::sin(th2), th2, xb, 0.0, 0.0;
  sc.v0 = Eigen::VectorXd::Zero(9);
  sc.v0(PlanarModel::coordinate(sc.crank, 2)) = w1;
  sc.assembly = assemble(m, 0.0, {PlanarModel::coordinate(sc.crank, 2)}, sc.q0, sc.v0);
  return sc;
}

}  // namespace stickslip::dynamics
