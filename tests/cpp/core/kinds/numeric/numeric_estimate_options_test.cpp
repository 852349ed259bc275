// The numeric kind's estimation options read from JSON (an HTTP query's text
// values, the CLI's flags, numbers from C++): forms, defaults, canonical form.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "core/kinds/numeric/numeric_estimate_options.h"

using nlohmann::json;
using namespace deniable;

TEST_CASE("numeric estimation options: text and numbers read the same, bad forms are named") {
  const auto from_text = ParseNumericEstimateOptions(json{{"points", "50"}, {"bin_width", "2.5"}, {"estimator", "ems"}});
  REQUIRE(from_text.ok());
  CHECK(from_text->points == 50);
  CHECK(*from_text->bin_width == 2.5);
  CHECK(from_text->estimator == "ems");
  const auto from_numbers = ParseNumericEstimateOptions(json{{"points", 50.0}, {"bin_width", 2.5}, {"estimator", "ems"}});
  REQUIRE(from_numbers.ok());
  CHECK(NumericEstimateOptionsToJson(*from_numbers) == NumericEstimateOptionsToJson(*from_text));
  CHECK(ParseNumericEstimateOptions(json{{"points", "12abc"}}).error() == "points must be an integer, but is \"12abc\"");
  CHECK(ParseNumericEstimateOptions(json{{"points", 12.5}}).error() == "points must be an integer, but is 12.5");
  CHECK(ParseNumericEstimateOptions(json{{"bin_width", "nan"}}).error() ==
        "bin_width must be a finite number, but is \"nan\"");
  CHECK(ParseNumericEstimateOptions(json{{"estimator", 3}}).error() == "estimator must be a name, but is 3");
  CHECK_FALSE(ParseNumericEstimateOptions(json{{"bin_width", nullptr}})->bin_width.has_value());
  // Beyond int: clamped, so the range check names the range.
  CHECK(ParseNumericEstimateOptions(json{{"replicates", "99999999999"}})->replicates == 1000000000);
}

TEST_CASE("numeric estimation options: the defaults, however spelled, have one canonical form") {
  const auto defaults = CanonicalNumericEstimateOptions(json::object());
  REQUIRE(defaults.ok());
  CHECK(*CanonicalNumericEstimateOptions(json{{"points", "200"}, {"estimator", "pml"}}) == *defaults);
  CHECK(*CanonicalNumericEstimateOptions(json{{"points", "100"}}) != *defaults);
  CHECK(CanonicalNumericEstimateOptions(json{{"points", "x"}}).error() == "points must be an integer, but is \"x\"");
  CHECK(PublicNumericEstimateOptionNames() ==
        std::vector<std::string>{"estimator", "points", "bin_width", "estimation_cells", "replicates", "curvature_penalty",
                                 "mu", "clamp", "interval"});
  // The target is part of the canonical form (a results cache keyed by it keeps the two apart).
  CHECK(*CanonicalNumericEstimateOptions(json{{"interval", "population"}}) == *defaults);
  CHECK(*CanonicalNumericEstimateOptions(json{{"interval", "respondents"}}) != *defaults);
  CHECK(CanonicalNumericEstimateOptions(json{{"interval", "bias_aware"}}).error() ==
        "interval must be \"population\" (the default) or \"respondents\", but is \"bias_aware\"");
}
