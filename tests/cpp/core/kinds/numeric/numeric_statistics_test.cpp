// The statistics' intervals (numeric_statistics.h, bootstrap.h): exactly how
// each is built from the bootstrap's replicates, the blur and the answers'
// grid, on hand-made samples (issue 26: intervals no wider than they must be).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/distribution/bootstrap.h"
#include "core/kinds/numeric/answer_step.h"
#include "core/kinds/numeric/numeric_statistics.h"
#include "core/numeric/gaussian_pdp.h"

using namespace deniable;

namespace {

constexpr NumericRange kRange{0.0, 10.0};  // 10 cells of width 1

// A smooth distribution on the 10 cells, with `shift` of the first cell's mass moved to the last.
GridDistribution Hump(double shift) {
  std::vector<double> p = {0.02, 0.05, 0.09, 0.14, 0.2, 0.2, 0.14, 0.09, 0.05, 0.02};
  p.front() -= shift;
  p.back() += shift;
  return MakeGridDistribution(kRange, p).value();
}

BootstrapSample SampleOf(const GridDistribution& fitted, const GridDistribution& world,
                         const std::vector<double>& shifts) {
  BootstrapSample sample;
  sample.fitted = fitted;
  sample.world = world;
  for (double shift : shifts) sample.replicates.push_back(Hump(shift));
  return sample;
}

}  // namespace

TEST_CASE("statistic intervals: the estimate +- z x the replicates' root-mean-square error about their world") {
  const GridDistribution fitted = Hump(0.004);
  const GridDistribution world = Hump(0.0);
  const BootstrapSample sample = SampleOf(fitted, world, {0.001, 0.003, 0.006, 0.01, 0.002});
  const SummaryIntervals intervals = StatisticIntervals(sample).value();
  const double z = PortableNormalQuantile(0.975);
  auto expected = [&](double SummaryStatistics::*field) {
    std::vector<double> values;
    for (const auto& replicate : sample.replicates) values.push_back(Summarize(replicate).*field);
    double mean = 0.0;
    for (double v : values) mean += v / values.size();
    double squares = 0.0;
    for (double v : values) squares += (v - mean) * (v - mean);
    const double bias = mean - Summarize(world).*field;
    return z * std::sqrt(squares / (values.size() - 1) + bias * bias);
  };
  const SummaryStatistics estimate = Summarize(fitted);
  // Symmetric about the estimate (the old hull of the basic and percentile
  // intervals was not: [t - q_hi, t - q_lo] joined with [t + q_lo, t + q_hi]).
  CHECK(intervals.mean.low == doctest::Approx(estimate.mean - expected(&SummaryStatistics::mean)));
  CHECK(intervals.mean.high == doctest::Approx(estimate.mean + expected(&SummaryStatistics::mean)));
  CHECK(intervals.standard_deviation.high - estimate.standard_deviation ==
        doctest::Approx(expected(&SummaryStatistics::standard_deviation)));
  // Quantiles: half a cell more on each side (the old rule added a whole cell).
  const double half = expected(&SummaryStatistics::median) + 0.5;
  CHECK(intervals.median.low == doctest::Approx(estimate.median - half));
  CHECK(intervals.median.high == doctest::Approx(estimate.median + half));
  // The other methods are unchanged: the basic interval is the reverse percentile one.
  const SummaryIntervals basic = StatisticIntervals(sample, 0.95, BandMethod::kBasic).value();
  std::vector<double> means;
  for (const auto& replicate : sample.replicates) means.push_back(Summarize(replicate).mean);
  CHECK(basic.mean.low == doctest::Approx(estimate.mean - (Percentile(means, 0.975) - Summarize(world).mean)));
}

TEST_CASE("numeric statistics: the blur widens the quartiles, not the median") {
  const GridDistribution fitted = Hump(0.0);
  const BootstrapSample sample = SampleOf(fitted, fitted, {0.0, 0.0, 0.0});  // no spread, no bias
  const SummaryIntervals intervals = StatisticIntervals(sample).value();
  const SummaryStatistics estimate = Summarize(fitted);
  // A blur whose IQR is 3: the quadrature rule's share of the fitted IQR.
  const Resolution resolution{5.0, 3.5, 6.5};
  const double blur = QuantileBlurInQuadrature(estimate, resolution);
  REQUIRE(blur > 0.1);
  const nlohmann::json statistics = NumericStatisticsToJson(sample, intervals, std::nullopt, resolution, std::nullopt);
  const nlohmann::json& lower = statistics["lower_quartile"];
  CHECK(lower["low"].get<double>() == doctest::Approx(estimate.lower_quartile - 0.5 - blur));
  CHECK(lower["high"].get<double>() == doctest::Approx(estimate.lower_quartile + 0.5 + blur));
  const nlohmann::json& upper = statistics["upper_quartile"];
  CHECK(upper["low"].get<double>() == doctest::Approx(estimate.upper_quartile - 0.5 - blur));
  CHECK(upper["high"].get<double>() == doctest::Approx(estimate.upper_quartile + 0.5 + blur));
  const nlohmann::json& median = statistics["median"];
  CHECK(median["low"].get<double>() == doctest::Approx(estimate.median - 0.5));
  CHECK(median["high"].get<double>() == doctest::Approx(estimate.median + 0.5));
  CHECK(median["interval_for"] == "population");
}

TEST_CASE("numeric statistics: on a declared step a quantile's interval ends round to the nearest grid value") {
  const GridDistribution fitted = Hump(0.0);
  const BootstrapSample sample = SampleOf(fitted, fitted, {0.0, 0.0, 0.0});
  const SummaryIntervals intervals = StatisticIntervals(sample).value();
  const auto step = AnswerStep::Parse({{"step", 1.0}}, kRange, "q").value();
  REQUIRE(step);
  const nlohmann::json statistics =
      NumericStatisticsToJson(sample, intervals, std::nullopt, Resolution{5.0, 5.0, 5.0}, step);
  // The median is 5 (a symmetric hump), its interval [4.5, 5.5] before rounding:
  // the nearest grid values are 5 and 6 (half-way rounds up) where rounding
  // outwards gave [4, 6], a step wider than the answers' median can need.
  const nlohmann::json& median = statistics["median"];
  CHECK(median["value"].get<double>() == doctest::Approx(5.0));
  CHECK(median["low"].get<double>() == doctest::Approx(step->Nearest(4.5)));
  CHECK(median["high"].get<double>() == doctest::Approx(step->Nearest(5.5)));
  CHECK(median["high"].get<double>() - median["low"].get<double>() <= 1.0 + 1e-12);
}
