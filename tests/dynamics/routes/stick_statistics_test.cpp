// dynamics::stickStatistics: stick time and stick/slip transitions replayed from event lists.
#include <catch2/catch.hpp>

#include "dynamics/routes/stick_statistics.hpp"

using namespace stickslip::dynamics;

TEST_CASE("stickStatistics replays one contact's modes", "[dynamics][stick]") {
  // The belt's closed form (DESIGN 7): stick until 7.3575 s, slip 2.6185 s, stick 4.905 s, ...
  const std::vector<ContactEvent> events{{7.3575, 0, EventKind::kSlipNegative},
                                         {9.976, 0, EventKind::kStick},
                                         {14.881, 0, EventKind::kSlipNegative},
                                         {17.5, 0, EventKind::kStick}};
  const StickStatistics s = stickStatistics(events, {true}, 0.0, 20.0);
  CHECK(s.transitions == 4);
  REQUIRE(s.intervals.size() == 3);
  CHECK(s.stick_time == Approx(7.3575 + (14.881 - 9.976) + 2.5));
  CHECK(s.stick_fraction == Approx(s.stick_time / 20.0));
  // Starting in slip, the first slip event is a reversal, not a transition.
  const StickStatistics t = stickStatistics(events, {false}, 0.0, 20.0);
  CHECK(t.transitions == 3);
  CHECK(t.stick_time == Approx((14.881 - 9.976) + 2.5));
}

TEST_CASE("stickStatistics: reversals, openings, several contacts", "[dynamics][stick]") {
  const std::vector<ContactEvent> events{{1.0, 0, EventKind::kSlipPositive},  // leaves stick
                                         {2.0, 0, EventKind::kSlipNegative},  // reversal
                                         {3.0, 0, EventKind::kStick},         // enters
                                         {3.0, 0, EventKind::kSlipPositive},  // leaves at once
                                         {4.0, 1, EventKind::kStick},         // contact 1 enters
                                         {5.0, 1, EventKind::kOpen},          // and opens
                                         {5.0, 1, EventKind::kClose},         // closes (no change)
                                         {6.0, 1, EventKind::kImpact}};       // not sticking
  const StickStatistics s = stickStatistics(events, {true, false}, 0.0, 10.0);
  CHECK(s.transitions == 5);
  REQUIRE(s.intervals.size() == 2);  // [0, 1] and [4, 5]; the zero-length stick at 3 s is dropped
  CHECK(s.stick_time == Approx(2.0));
  CHECK(s.stick_fraction == Approx(0.2));
}

TEST_CASE("stickStatistics merges overlapping intervals of different contacts",
          "[dynamics][stick]") {
  const std::vector<ContactEvent> events{{1.0, 0, EventKind::kStick},
                                         {2.0, 1, EventKind::kStick},
                                         {3.0, 0, EventKind::kSlipPositive},
                                         {4.0, 1, EventKind::kSlipNegative}};
  const StickStatistics s = stickStatistics(events, {}, 0.0, 5.0);
  CHECK(s.transitions == 4);
  REQUIRE(s.intervals.size() == 1);
  CHECK(s.stick_time == Approx(3.0));
}

TEST_CASE("stickStatistics from known intervals", "[dynamics][stick]") {
  const StickStatistics s = stickStatistics({{0.0, 0.4}, {4.1, 4.35}, {8.0, 10.0}}, 0.0, 10.0);
  CHECK(s.transitions == 4);  // no entry at the start, no exit at the end
  CHECK(s.stick_time == Approx(2.65));
  CHECK_THROWS_AS(stickStatistics({}, 1.0, 0.0), std::invalid_argument);
}
