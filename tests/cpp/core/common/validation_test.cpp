// Numbers in the results' prose (warnings and notes) are rounded for reading
// (issue 27, item 12: "490.632493729 units", "+-5.155").
#include <doctest/doctest.h>

#include "core/common/validation.h"

using deniable::FormatSignificant;

TEST_CASE("FormatSignificant rounds to significant digits without an exponent") {
  CHECK(FormatSignificant(490.632493729, 3) == "491");
  CHECK(FormatSignificant(981.264987458, 3) == "981");
  CHECK(FormatSignificant(5.155, 2) == "5.2");
  CHECK(FormatSignificant(0.012345, 2) == "0.012");
  CHECK(FormatSignificant(1234567.0, 3) == "1230000");
  CHECK(FormatSignificant(-2.449, 2) == "-2.4");
  CHECK(FormatSignificant(0.0, 2) == "0");
  CHECK(FormatSignificant(9.96, 2) == "10");
}
