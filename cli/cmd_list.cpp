// stickslip list: the built-in scenarios with one line each and the methods they run with.
#include <iomanip>
#include <ostream>

#include "cli/command.hpp"
#include "mechanisms/rigid_scenarios.hpp"

namespace stickslip::cli {
namespace {

void declare(po::options_description&, po::positional_options_description&) {}

int run(const po::variables_map&, std::ostream& out, std::ostream&) {
  out << "scenario (methods)\n";
  for (const auto& s : mechanisms::rigidScenarios())
    out << "  " << std::left << std::setw(22) << s.name
        << (s.moreau_jean ? "event-driven, moreau-jean" : "event-driven")
        << (s.name == "belt" || s.name == "flores-translational" ? ", penalty" : "")
        << (s.name == "dupont" ? ", minimal-form" : "")
        << "\n      " << s.summary << "\n";
  out << "  " << std::left << std::setw(22) << "journal-bearing" << "penalty\n"
      << "      journal in a bearing with clearance (review Table 5): free flight, impacts, "
         "continuous contact\n";
  out << "  " << std::left << std::setw(22) << "muvengei-lugre" << "penalty\n"
      << "      Muvengei et al. Table I: slider-crank at 2500 rpm, 0.5 mm clearance at the crank-rod "
         "joint, LuGre friction (--ideal: ideal joint)\n";
  out << "  " << std::left << std::setw(22) << "roller-crank" << "penalty\n"
      << "      crank, rod and roller rolling on the ground (review Tables 1-3), friction at the "
         "roller-ground contact, N from the constraint; --table compares the review's six models\n";
  out << "  " << std::left << std::setw(22) << "blajer-1" << "minimal-form\n"
      << "      Blajer & Markiewicz Example 1: four-bar with a sliding link, friction in every joint "
         "(DAE 26 -> 12)\n"
      << "  " << std::left << std::setw(22) << "blajer-2" << "minimal-form\n"
      << "      Blajer & Markiewicz Example 2: slider-crank, gravity along x, 6 sin 3t: stiction and "
         "reversals\n";
  return kExitOk;
}

}  // namespace

const Command& listCommand() {
  static const Command c{"list", "built-in scenarios and the methods they run with", declare, run};
  return c;
}

}  // namespace stickslip::cli
