// The Python module `stickslip` (python/bindings.hpp).
#include "python/bindings.hpp"

PYBIND11_MODULE(stickslip, m) {
  m.doc() =
      "stickslip: nonsmooth contact dynamics of mechanisms. Set-valued Coulomb stick-slip by\n"
      "complementarity (event-driven, Moreau-Jean), the regularized (penalty) route and the\n"
      "minimal form, on built-in scenarios and model files.";
  stickslip::python::bindScenario(m);
  stickslip::python::bindRun(m);
  auto lcp = m.def_submodule("lcp", "Complementarity solvers on NumPy data, and Siconos' .dat files");
  stickslip::python::bindLcp(lcp);
}
