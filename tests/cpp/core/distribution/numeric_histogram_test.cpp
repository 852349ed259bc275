// The mergeable numeric histogram (numeric_histogram.h): counts, clamping, sums,
// validation, merge and its JSON form.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>
#include <nlohmann/json.hpp>

#include "core/distribution/numeric_histogram.h"

using namespace deniable;

TEST_CASE("numeric histogram: counts, clamping, sums and validation") {
  CHECK_FALSE(NumericHistogram::Create({1.0, 1.0}, 4));
  CHECK(NumericHistogram::Create({1.0, 1.0}, 4).error() ==
        "histogram range must be finite with low < high, but is [1, 1]");
  CHECK_FALSE(NumericHistogram::Create({0.0, 1.0}, 0));
  CHECK_FALSE(NumericHistogram::Create({0.0, NAN}, 4));

  auto histogram = NumericHistogram::Create({0.0, 4.0}, 4).value();
  CHECK(histogram.cell_width() == 1.0);
  CHECK(histogram.Add({0.5, 1.0, 3.99}));
  CHECK(histogram.Add({-7.0}));        // below the range: first cell
  CHECK(histogram.Add({4.0, 100.0}));  // at and above the top: last cell
  CHECK(histogram.counts() == std::vector<std::int64_t>{2, 1, 0, 3});
  CHECK(histogram.reports() == 3);
  CHECK(histogram.values() == 6);
  // Sums use the raw, unclamped values (the unbiased mean mechanisms need them).
  CHECK(histogram.sum() == doctest::Approx(0.5 + 1.0 + 3.99 - 7.0 + 4.0 + 100.0));
  CHECK(histogram.sum_of_squares() == doctest::Approx(0.25 + 1.0 + 3.99 * 3.99 + 49.0 + 16.0 + 10000.0));

  // A report with a non-finite value is rejected whole.
  const auto before = histogram;
  CHECK(histogram.Add({1.0, NAN}).error() == "value 1 must be a finite number");
  CHECK_FALSE(histogram.Add({}));
  CHECK(histogram == before);
}

TEST_CASE("numeric histogram: merge checks the shape first and adds everything") {
  auto a = NumericHistogram::Create({0.0, 1.0}, 8).value();
  auto b = NumericHistogram::Create({0.0, 1.0}, 8).value();
  REQUIRE(a.Add({0.1, 0.9}));
  REQUIRE(b.Add({0.3}));
  REQUIRE(b.Add({0.95}));
  REQUIRE(a.Merge(b));
  CHECK(a.reports() == 3);
  CHECK(a.values() == 4);
  CHECK(a.counts() == std::vector<std::int64_t>{1, 0, 1, 0, 0, 0, 0, 2});
  CHECK(a.sum() == doctest::Approx(2.25));

  const auto unchanged = a;
  auto other_cells = NumericHistogram::Create({0.0, 1.0}, 16).value();
  auto other_range = NumericHistogram::Create({0.0, 2.0}, 8).value();
  CHECK(a.Merge(other_cells).error() ==
        "cannot merge numeric histograms of different shapes: 8 cells over [0, 1] and 16 cells over [0, 1]");
  CHECK_FALSE(a.Merge(other_range));
  CHECK(a == unchanged);
}

TEST_CASE("numeric histogram: JSON round trip and strict parsing") {
  auto histogram = NumericHistogram::Create({-1.5, 2.5}, 5).value();
  REQUIRE(histogram.Add({0.1, 2.4}));
  REQUIRE(histogram.Add({-1.0, 0.3}));
  const auto json = histogram.ToJson();
  CHECK(json["format"] == "deniable.numeric_histogram/v1");
  const auto parsed = NumericHistogram::FromJson(json);
  REQUIRE(parsed);
  CHECK(*parsed == histogram);
  CHECK(NumericHistogram::FromJson(nlohmann::json::parse(json.dump())).value() == histogram);

  auto wrong_sum = json;
  wrong_sum["counts"][0] = 5;
  CHECK(NumericHistogram::FromJson(wrong_sum).error() ==
        "numeric histogram.counts: must sum to values (4), but sum to 8");
  auto wrong_length = json;
  wrong_length["counts"].push_back(0);
  CHECK_FALSE(NumericHistogram::FromJson(wrong_length));
  auto negative = json;
  negative["counts"][1] = -1;
  CHECK_FALSE(NumericHistogram::FromJson(negative));
  auto unknown = json;
  unknown["extra"] = 1;
  CHECK(NumericHistogram::FromJson(unknown).error().find("unknown field") != std::string::npos);
  auto bad_format = json;
  bad_format["format"] = "other";
  CHECK_FALSE(NumericHistogram::FromJson(bad_format));
  auto few_values = json;
  few_values["reports"] = 5;
  CHECK(NumericHistogram::FromJson(few_values).error() ==
        "numeric histogram.values: must be at least reports (5), but is 4");
  CHECK_FALSE(NumericHistogram::FromJson(nlohmann::json::array()));
}
