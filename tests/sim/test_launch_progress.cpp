// The progress line of long launches (sim/report/launch_progress.hpp): the time left
// reads as people read durations, from seconds to the years an absurd grid would take.
#include "sim/report/launch_progress.hpp"

#include <doctest/doctest.h>

TEST_CASE("durations read as seconds, minutes, hours, days or years") {
  CHECK(simt::readable_duration(3.24) == "3.2 s");
  CHECK(simt::readable_duration(59.9) == "59.9 s");
  CHECK(simt::readable_duration(246) == "4.1 min");
  CHECK(simt::readable_duration(9000) == "2.5 h");
  CHECK(simt::readable_duration(3.1 * 86400) == "3.1 days");
  CHECK(simt::readable_duration(2.9e4 * 365.25 * 86400) == "2.9e+04 years");
}
