// stickslip hold on spatial mechanisms (dynamics/statics/hold.hpp): static friction on the round
// cone against closed forms — a box on a plane tilted about any axis holds iff mu_s ≥ tan α, a
// rod leaning into the corner of two frictionless walls needs mu_s = tan θ / 2 at its foot
// whatever its azimuth — and the spatial slider-crank held by its guide's friction, whose load
// factors event-driven confirms by simulations started just inside and just outside them.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

std::string set(const std::string& key, double value) {
  std::ostringstream s;
  s << std::setprecision(17) << "parameters." << key << "=" << value;
  return s.str();
}

}  // namespace

TEST_CASE("spatial hold: a box on its four corners holds on a plane tilted by alpha iff mu_s >= tan(alpha), at any "
          "azimuth",
          "[cli][hold][spatial]") {
  const std::string file = std::string(STICKSLIP_SCENARIOS) + "/box_on_slope.yaml";
  const double alpha = 0.3;
  for (double azimuth : {0.0, 0.7, 2.0, -2.5}) {
    INFO("azimuth " << azimuth);
    for (double factor : {1.0 + 1e-7, 1.0 - 1e-7}) {
      const Run r = cli({"hold", file, "--json", "--no-margins", "--set", set("angle", alpha), "--set",
                         set("azimuth", azimuth), "--set", set("mu_static", factor * std::tan(alpha)), "--set",
                         set("mu_kinetic", 0.1)});
      INFO(r.err);
      const json j = json::parse(r.out);
      CHECK(r.code == (factor > 1.0 ? 0 : 1));
      CHECK(j["holds"] == (factor > 1.0));
      CHECK(j["exact"] == true);
      CHECK(j["cross_check"]["ok"] == true);
      CHECK(j["indeterminacy"] == 6);  // 12 reactions, 6 equations
      if (factor < 1.0) continue;
      // The corners' normal forces carry m g cos α, their friction forces (world vectors) the
      // weight's part along the plane, −m (g − (g·n) n).
      double normal = 0.0;
      Eigen::Vector3d friction = Eigen::Vector3d::Zero();
      for (const auto& e : j["elements"]) {
        normal += e["N"].get<double>();
        for (int k = 0; k < 3; ++k) friction(k) += e["F_vector"][k].get<double>();
      }
      CHECK(normal == Approx(1.5 * 9.81 * std::cos(alpha)).epsilon(1e-9));
      const Eigen::Vector3d n(std::sin(alpha) * std::cos(azimuth), std::sin(alpha) * std::sin(azimuth),
                              std::cos(alpha));
      const Eigen::Vector3d weight(0.0, 0.0, -1.5 * 9.81);
      CHECK((friction + weight - weight.dot(n) * n).norm() < 1e-9);
    }
  }
  // The margins on the round cones, at the file's values (mu_s 0.35 above tan 0.3): each corner's
  // critical mu_s within [0, mu_s], and each reaction within its interval over the holding ones.
  const Run r = cli({"hold", file, "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["cross_check"]["ok"] == true);
  // The intervals stop cutting when their bounds stand still (6 518 programs when each ran its
  // 200 rounds, ringing the cones of the corners whose friction they do not depend on).
  CHECK(j["lp_solves"].get<int>() < 2000);
  for (const auto& e : j["elements"]) {
    INFO(e["name"]);
    CHECK(e["critical_mu_s"].get<double>() >= 0.0);
    CHECK(e["critical_mu_s"].get<double>() <= 0.35);
    CHECK(e["N_range"][0].get<double>() <= e["N"].get<double>() + 1e-9);
    CHECK(e["N"].get<double>() <= e["N_range"][1].get<double>() + 1e-9);
    for (int k = 0; k < 3; ++k) {
      CHECK(e["F_vector_range"][k][0].get<double>() <= e["F_vector"][k].get<double>() + 1e-9);
      CHECK(e["F_vector"][k].get<double>() <= e["F_vector_range"][k][1].get<double>() + 1e-9);
    }
  }
}

TEST_CASE("spatial hold: a rod leaning into a corner of frictionless walls needs mu_s = tan(theta)/2 at its foot",
          "[cli][hold][spatial]") {
  const std::string file = std::string(STICKSLIP_SCENARIOS) + "/rod_in_corner.yaml";
  const double weight = 2.0 * 9.81;
  for (double tilt : {0.3, 0.5}) {
    for (double azimuth : {0.3, 0.6, 1.2}) {
      INFO("tilt " << tilt << ", azimuth " << azimuth);
      const Run r = cli({"hold", file, "--json", "--set", set("tilt", tilt), "--set", set("azimuth", azimuth)});
      INFO(r.err);
      REQUIRE(r.code == 0);
      const json j = json::parse(r.out);
      CHECK(j["indeterminacy"] == 0);
      CHECK(j["cross_check"]["ok"] == true);
      CHECK(j["critical_mu_s"]["foot"].get<double>() == Approx(std::tan(tilt) / 2).epsilon(1e-9));
      // The walls push W tan θ / 2 along the foot's direction, split by it into x and y.
      for (const auto& e : j["elements"]) {
        const double n = e["N"].get<double>();
        if (e["name"] == "foot") {
          CHECK(n == Approx(weight).epsilon(1e-12));
          CHECK(e["F"].get<double>() == Approx(weight * std::tan(tilt) / 2).epsilon(1e-10));
        }
        if (e["name"] == "wall-x") CHECK(n == Approx(weight * std::tan(tilt) * std::cos(azimuth) / 2).epsilon(1e-10));
        if (e["name"] == "wall-y") CHECK(n == Approx(weight * std::tan(tilt) * std::sin(azimuth) / 2).epsilon(1e-10));
      }
    }
  }
  // Friction at the walls too: the reactions become indeterminate and the foot needs less.
  const Run r = cli({"hold", file, "--json", "--set", "parameters.mu_wall=0.3"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  CHECK(j["indeterminacy"].get<int>() > 0);
  CHECK(j["cross_check"]["ok"] == true);
  CHECK(j["critical_mu_s"]["foot"].get<double>() < std::tan(0.5) / 2 - 1e-3);
  // Each world component of each contact's friction ranges over the holding reactions around
  // the max-margin one, within the cone's reach μs N_max.
  bool spread = false;
  for (const auto& e : j["elements"]) {
    const double reach = e["mu_s"].get<double>() * e["N_range"][1].get<double>();
    for (int k = 0; k < 3; ++k) {
      const double low = e["F_vector_range"][k][0].get<double>(), high = e["F_vector_range"][k][1].get<double>();
      const double at = e["F_vector"][k].get<double>();
      CHECK(low <= at + 1e-9);
      CHECK(at <= high + 1e-9);
      CHECK(-reach - 1e-9 <= low);
      CHECK(high <= reach + 1e-9);
      spread = spread || high - low > 1e-3;
    }
  }
  CHECK(spread);
  const Run open = cli({"hold", file, "--json", "--set", "parameters.mu_floor=0.27"});  // below tan(0.5)/2
  CHECK(open.code == 1);
  CHECK(json::parse(open.out)["violated"][0]["element"] == "foot");
  // A configuration given by hand: the count, unit Euler parameters and no penetration.
  const Run few = cli({"hold", file, "--at", "1,2,3"});
  CHECK(few.code == 2);
  CHECK_THAT(few.err, Catch::Contains("expected 7 coordinates (x, y, z, e0, e1, e2, e3 per body)"));
  const Run norm = cli({"hold", file, "--at", "0.1,0.1,0.5,1,0,0,0.1"});
  CHECK(norm.code == 2);
  CHECK_THAT(norm.err, Catch::Contains("body 'rod' has Euler parameters of norm 1.00"));
  const Run sunk = cli({"hold", file, "--at", "0.1,0.1,0.5,1,0,0,0"});
  CHECK(sunk.code == 2);
  CHECK_THAT(sunk.err, Catch::Contains("contact 'foot' penetrates by 0.1 m"));
}

TEST_CASE("spatial hold: the slider-crank held by its guide's friction, its load factors confirmed by event-driven "
          "and minimal-form runs from rest just inside and just outside them",
          "[cli][hold][spatial]") {
  const std::vector<std::string> pose{"--set", "parameters.crank_speed=0", "--set", "parameters.psi=0.6",
                                      "--set", "parameters.mu_static=0.2",  "--set", "parameters.mu_kinetic=0.15"};
  std::vector<std::string> args{"hold", "spatial-slider-crank", "--json", "--set", "parameters.push=1"};
  args.insert(args.end(), pose.begin(), pose.end());
  const Run r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 1);  // 1 N does not hold it: the guide's friction cannot take gravity's pull
  const json j = json::parse(r.out);
  CHECK(j["cross_check"]["ok"] == true);
  const double low = j["load_factor"]["low"].get<double>(), high = j["load_factor"]["high"].get<double>();
  REQUIRE(low > 1.0);
  REQUIRE(high > low);
  CHECK(j["load_factor"]["first_high"][0]["element"] == "guide");
  for (double push : {low * (1.0 - 1e-3), low * (1.0 + 1e-3), high * (1.0 - 1e-3), high * (1.0 + 1e-3)}) {
    const bool inside = push > low && push < high;
    INFO("push " << push << " N, " << (inside ? "inside" : "outside"));
    for (const char* method : {"event-driven", "minimal-form"}) {
      INFO(method);
      std::vector<std::string> run{"run", "spatial-slider-crank", "--method", method, "--t-end", "0.1", "--json",
                                   "--set", set("push", push)};
      run.insert(run.end(), pose.begin(), pose.end());
      const Run s = cli(run);
      INFO(s.err);
      REQUIRE(s.code == 0);
      const json k = json::parse(s.out);
      double speed = 0.0;
      for (const auto& v : k["final_v"]) speed = std::max(speed, std::abs(v.get<double>()));
      if (inside) {
        CHECK(k["stick_fraction"].get<double>() == 1.0);
        CHECK(speed < 1e-9);
      } else {
        CHECK(k["stick_fraction"].get<double>() == 0.0);
        CHECK(speed > 1e-2);
      }
    }
    std::vector<std::string> at{"hold", "spatial-slider-crank", "--no-margins", "--set", set("push", push)};
    at.insert(at.end(), pose.begin(), pose.end());
    CHECK(cli(at).code == (inside ? 0 : 1));
  }
}
