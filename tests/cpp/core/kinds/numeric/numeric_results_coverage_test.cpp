// A fixed-seed subset of the interval coverage benchmark (bench/coverage.cc):
// smooth, skewed, concentrated and discrete answers through Square Wave
// (epsilon 1) and Laplace (epsilon 4), and a pile against the range's end
// through RVNS, at n = 3000, 10 surveys each. Every published statistic's
// estimate must lie inside its own interval, always; a withheld statistic has
// neither value nor interval, and says why; and the mean's, sd's, median's and
// quartiles' intervals must cover the respondents' own statistic in at least
// 8 of 10 surveys (at a true coverage of 95%, P(at most 7 of 10) = 1.2%).
// Skewness and kurtosis are not held to it: the benchmark measures them below
// nominal on some shapes, and the dashboard says so. The CDF's, histogram's
// and density's pointwise bands must hold the answers' own values at 85% of
// points or more on average.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "bench/coverage_bands.h"
#include "bench/coverage_shapes.h"
#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/survey.h"

using nlohmann::json;
using namespace deniable;

namespace {

struct Cell {
  const char* shape;
  json mechanism;
};

const coverage::Shape& ShapeNamed(const std::string& name) {
  static const auto shapes = coverage::Shapes();
  for (const auto& shape : shapes) {
    if (shape.name == name) return shape;
  }
  FAIL("no shape " << name);
  return shapes.front();
}

}  // namespace

TEST_CASE("numeric intervals: estimates inside, withheld statistics say why, coverage on hard shapes") {
  const json square_wave = {{"name", "square_wave"}, {"epsilon", 1}};
  const json laplace = {{"name", "laplace"}, {"epsilon", 4}};
  const std::vector<Cell> cells = {
      {"normal", square_wave},       {"chi_square_2", square_wave}, {"concentrated", square_wave},
      {"ratings", square_wave},      {"normal", laplace},           {"concentrated", laplace},
      {"ratings", laplace},
      // Integers declared with step 1: quartiles are atoms (80% covered without the step at n = 30,000).
      {"integers", laplace},
      // RVNS with the window a tenth of the range, answers piled against the low end.
      {"pareto_tail", {{"name", "rvns"}, {"window", 100}, {"values", 2}, {"window_mode", "fresh"}}},
  };
  for (const Cell& cell : cells) {
    const auto& shape = ShapeNamed(cell.shape);
    INFO(shape.name << " " << cell.mechanism.dump());
    const Survey survey = *ParseSurvey(coverage::SurveyDefinition(shape, cell.mechanism));
    const auto& kind = NumericKindOf(survey.questions[0]);
    std::map<std::string, int> covered;
    double cdf_share = 0.0, histogram_share = 0.0, density_share = 0.0;  // summed over the seeds
    for (int seed = 1; seed <= 10; ++seed) {
      SeededRandom random(static_cast<std::uint64_t>(seed) * 7919u + 3000u);
      const auto answers = coverage::DrawAnswers(shape, 3000, random);
      NumericAggregate aggregate{0, *NumericHistogram::ForMechanism(kind.mechanism())};
      for (double answer : answers) REQUIRE(aggregate.AddValues(*kind.mechanism().Perturb(answer, random)).ok());
      const auto result = NumericResultToJson(kind, aggregate, NumericEstimateOptions{});
      REQUIRE(result.ok());
      CHECK((*result)["bootstrap"]["interval"] == "bias_aware");
      const auto truth = coverage::Truth(answers);
      cdf_share += coverage::CdfBandShare((*result)["cdf"], answers) / 10.0;
      histogram_share += coverage::HistogramBandShare((*result)["histogram"], answers) / 10.0;
      density_share += coverage::DensityBandShare((*result)["density"], answers, shape.range) / 10.0;
      for (const auto& [name, statistic] : (*result)["statistics"].items()) {
        if (statistic["value"].is_null()) {  // withheld: no interval either, and a reason
          CHECK(statistic["low"].is_null());
          CHECK(statistic["high"].is_null());
          CHECK(statistic["note"].is_string());
          continue;
        }
        const double low = statistic["low"].get<double>(), high = statistic["high"].get<double>();
        const double value = statistic["value"].get<double>();
        CHECK_MESSAGE(low <= value, name << " seed " << seed);
        CHECK_MESSAGE(value <= high, name << " seed " << seed);
        covered[name] += low <= truth.at(name) && truth.at(name) <= high ? 1 : 0;
      }
    }
    for (const char* name : {"mean", "std_dev", "median", "lower_quartile", "upper_quartile"}) {
      CHECK_MESSAGE(covered[name] >= 8, name << " covered " << covered[name] << " of 10");
    }
    MESSAGE("bands: CDF " << cdf_share << ", histogram " << histogram_share << ", density " << density_share);
    // Pointwise bands: on average at least 85% of points covered (95% nominal).
    // RVNS's pile covered 41% / 65% / 60% before the bands allowed for mass
    // the reports cannot see (detection_limits.h).
    CHECK(cdf_share >= 0.85);
    CHECK(histogram_share >= 0.85);
    CHECK(density_share >= 0.85);
  }
}
