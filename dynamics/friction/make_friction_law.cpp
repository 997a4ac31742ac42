#include "dynamics/friction/make_friction_law.hpp"

#include <array>
#include <sstream>
#include <stdexcept>
#include <string>

#include "dynamics/friction/dynamic_laws.hpp"
#include "dynamics/friction/static_laws.hpp"
#include "dynamics/friction/switching_laws.hpp"

namespace stickslip::dynamics {
namespace {

using Maker = std::unique_ptr<FrictionLaw> (*)(const FrictionParameters&);

template <class Law>
std::unique_ptr<FrictionLaw> make(const FrictionParameters& p) {
  return std::make_unique<Law>(p);
}

struct Entry {
  std::string_view name;
  Maker maker;
};

constexpr std::array kCatalogue = {
    Entry{"coulomb", &make<CoulombFriction>},
    Entry{"coulomb-viscous", &make<CoulombViscousFriction>},
    Entry{"coulomb-stiction", &make<CoulombStictionFriction>},
    Entry{"stribeck", &make<StribeckFriction>},
    Entry{"hess-soom", &make<HessSoomFriction>},
    Entry{"karnopp", &make<KarnoppFriction>},
    Entry{"switch", &make<SwitchFriction>},
    Entry{"linear", &make<LinearFriction>},
    Entry{"tanh", &make<TanhFriction>},
    Entry{"threlfall", &make<ThrelfallFriction>},
    Entry{"linear-stiction", &make<LinearStictionFriction>},
    Entry{"bengisu-akay", &make<BengisuAkayFriction>},
    Entry{"ambrosio", &make<AmbrosioFriction>},
    Entry{"armstrong", &make<ArmstrongFriction>},
    Entry{"awrejcewicz", &make<AwrejcewiczFriction>},
    Entry{"wojewoda", &make<WojewodaFriction>},
    Entry{"brown-mcphee", &make<BrownMcPheeFriction>},
    Entry{"dahl", &make<DahlFriction>},
    Entry{"lugre", &make<LuGreFriction>},
    Entry{"lugre-wojtyra", &make<LuGreWojtyraFriction>},
    Entry{"lugre-nondimensional", &make<LuGreNondimensionalFriction>},
    Entry{"elasto-plastic", &make<ElastoPlasticFriction>},
    Entry{"reset-integrator", &make<ResetIntegratorFriction>},
    Entry{"bliman-sorine-1", &make<BlimanSorine1Friction>},
    Entry{"bliman-sorine-2", &make<BlimanSorine2Friction>},
    Entry{"gms", &make<GmsFriction>},
    Entry{"gonthier", &make<GonthierFriction>},
    Entry{"liang", &make<LiangFriction>},
    Entry{"bristle", &make<BristleFriction>},
    Entry{"harnoy-friedland", &make<HarnoyFriedlandFriction>},
    Entry{"leuven", &make<LeuvenFriction>},
};

constexpr auto kLawNames = [] {
  std::array<std::string_view, kCatalogue.size()> names{};
  for (std::size_t i = 0; i < kCatalogue.size(); ++i) names[i] = kCatalogue[i].name;
  return names;
}();

}  // namespace

std::span<const std::string_view> frictionLawNames() { return kLawNames; }

std::unique_ptr<FrictionLaw> makeFrictionLaw(std::string_view name, const FrictionParameters& p) {
  for (const Entry& e : kCatalogue) {
    if (e.name != name) continue;
    p.validate("makeFrictionLaw(" + std::string(name) + ")");
    return e.maker(p);
  }
  std::ostringstream os;
  os << "makeFrictionLaw: expected one of";
  for (std::string_view n : kLawNames) os << ' ' << n;
  os << ", got '" << name << "'";
  throw std::invalid_argument(os.str());
}

}  // namespace stickslip::dynamics
