// What a histogram question's intervals are for (issue 26, item 3; core/survey/interval_target.h): by default
// the population the respondents were drawn from (sampling + randomisation), with {"interval": "respondents"}
// these respondents' own shares; the results say which under "interval_for". Each run draws 2,000 answers
// from a fixed distribution (earnings-like, histogram_draw.h); the population truth is its exact share, the
// respondents' truth the sample's own.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/histogram/histogram_estimate_options.h"
#include "core/kinds/histogram/histogram_results.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/survey/results.h"
#include "core/survey/simulation.h"
#include "tests/cpp/support/histogram_draw.h"

using nlohmann::json;
using namespace deniable;
using namespace deniable::testing;

namespace {

struct Coverage {
  int consumer_covered = 0, consumer_total = 0, exact_custom_covered = 0, exact_custom_total = 0,
      cut_custom_covered = 0, cut_custom_total = 0;
};

// One survey of n answers drawn from the lognormal shape (Box-Muller on its log), estimated for `target`;
// each interval checked against the target's truth.
void OneSurvey(const HistogramQuestionKind& kind, const CdfShape& shape, IntervalTarget target, int n,
               RandomSource& random, Coverage& coverage) {
  std::vector<double> answers;
  std::vector<std::int64_t> cells(static_cast<std::size_t>(kind.partition().cells()), 0);
  while (static_cast<int>(answers.size()) < n) {
    const double x = 500.0 * std::exp(0.7 * StandardNormal(random));
    if (x > shape.high) continue;  // the shape is truncated to the range
    answers.push_back(x);
    ++cells[static_cast<std::size_t>(kind.partition().CellOf(x))];
  }
  const auto truth = [&](double low, double high, bool last) {
    if (target == IntervalTarget::kPopulation) return shape.Share(low, high);
    double count = 0;
    for (double a : answers) count += a >= low && (a < high || (last && a <= high)) ? 1 : 0;
    return count / n;
  };
  const auto covers = [](const json& bin, double t) {
    return bin.at("ci_low").get<double>() <= t && t <= bin.at("ci_high").get<double>() ? 1 : 0;
  };
  HistogramEstimateOptions options;
  options.interval = target;
  options.edges = std::vector<double>{0, 250, 400, 500, 700, 1000, 1500, 2000, 5000};  // 400 and 700 cut cells
  const json result = HistogramResultToJson(kind, DrawHistogramAggregate(kind, cells, random), options);
  CHECK(result.at("interval_for") == IntervalForJson(target));
  for (const auto& histogram : result.at("histograms")) {
    const auto& bins = histogram.at("bins");
    for (std::size_t b = 0; b < bins.size(); ++b) {
      coverage.consumer_covered += covers(bins[b], truth(bins[b].at("low").get<double>(), bins[b].at("high").get<double>(), b + 1 == bins.size()));
      ++coverage.consumer_total;
    }
  }
  const auto& custom = result.at("custom").at("bins");
  for (std::size_t b = 0; b < custom.size(); ++b) {
    const int hit = covers(custom[b], truth(custom[b].at("low").get<double>(), custom[b].at("high").get<double>(), b + 1 == custom.size()));
    if (custom[b].at("exact").get<bool>()) coverage.exact_custom_covered += hit, ++coverage.exact_custom_total;
    else coverage.cut_custom_covered += hit, ++coverage.cut_custom_total;
  }
}

}  // namespace

TEST_CASE("histogram intervals: population by default, respondents on request, each covering its own truth") {
  // SUE at epsilon 4: the randomisation's variance (q(1-q)/(p-q)^2 = 0.18 per cell) is below the sampling's for
  // bins of 20-50% (pi(1-pi) = 0.16-0.25), so an interval for the respondents covers the population ~82%.
  const CdfShape shape = CdfShapes()[1];
  const json consumers = {{{"name", "tenths"}, {"bins", 10}}, {{"name", "bands"}, {"edges", {0, 250, 500, 1000, 5000}}}};
  for (const char* mechanism : {"sue", "tree"}) {
    auto owned = HistogramKind(mechanism, 4.0, {0, 5000}, consumers);
    const auto& kind = static_cast<const HistogramQuestionKind&>(*owned);
    for (IntervalTarget target : {IntervalTarget::kPopulation, IntervalTarget::kRespondents}) {
      INFO(std::string(mechanism) << ", intervals for the " << IntervalTargetName(target));
      SeededRandom random(target == IntervalTarget::kPopulation ? 3 : 4);
      Coverage coverage;
      constexpr int kRuns = 400;
      for (int r = 0; r < kRuns; ++r) OneSurvey(kind, shape, target, 2000, random, coverage);
      // 14 consumer bins a run; runs independent, bins within a run not: the SE of the coverage is at most that
      // of 400 independent intervals, 1.1 points; 4 SE. The tree's interval uses the decomposition's variance,
      // which bounds its least-squares estimate's: at least 95%, not about.
      const double consumer = static_cast<double>(coverage.consumer_covered) / coverage.consumer_total;
      const double tolerance = 4.0 * std::sqrt(0.95 * 0.05 / kRuns);
      MESSAGE(std::string(mechanism) << ", for the " << IntervalTargetName(target) << ": consumer bins " << consumer
              << ", exact custom " << static_cast<double>(coverage.exact_custom_covered) / coverage.exact_custom_total
              << ", cut custom " << static_cast<double>(coverage.cut_custom_covered) / coverage.cut_custom_total);
      CHECK(consumer >= 0.95 - tolerance);
      if (std::string(mechanism) == "sue") CHECK(consumer <= 0.95 + tolerance);
      // Custom bins: exact ones as consumer bins; cut ones hold whatever the answers do inside the cut cells.
      CHECK(static_cast<double>(coverage.exact_custom_covered) / coverage.exact_custom_total >= 0.95 - tolerance);
      CHECK(static_cast<double>(coverage.cut_custom_covered) / coverage.cut_custom_total >= 0.95 - tolerance);
    }
  }
}

TEST_CASE("histogram interval option: read, validated, canonical, and stated in the results") {
  CHECK(ParseHistogramEstimateOptions(json::object())->interval == IntervalTarget::kPopulation);
  CHECK(ParseHistogramEstimateOptions(json{{"interval", "respondents"}})->interval == IntervalTarget::kRespondents);
  CHECK(ParseHistogramEstimateOptions(json{{"interval", "sample"}}).error() ==
        "interval must be \"population\" (the default) or \"respondents\", but is \"sample\"");
  CHECK(*CanonicalHistogramEstimateOptions(json::object()) == json{{"interval", "population"}});
  CHECK(*CanonicalHistogramEstimateOptions(json{{"interval", "respondents"}, {"width", "5"}}) ==
        json{{"interval", "respondents"}, {"width", 5.0}});
  const auto names = PublicHistogramEstimateOptionNames();
  CHECK(std::find(names.begin(), names.end(), "interval") != names.end());
  // The planned half-width behind the sample-size warning counts the sampling too, for the population:
  // a bin of a half at n = 2000 adds 0.25 / 2000 to the randomisation's variance.
  auto owned = HistogramKind("sue", 4.0, {0, 1}, {{{"name", "halves"}, {"bins", 2}}});
  const auto& kind = static_cast<const HistogramQuestionKind&>(*owned);
  SeededRandom random(5);
  const HistogramAggregate aggregate = DrawHistogramAggregate(kind, {1000, 1000}, random);
  HistogramEstimateOptions population, respondents;
  respondents.interval = IntervalTarget::kRespondents;
  const auto planned = [&](const HistogramEstimateOptions& options) {
    return HistogramResultToJson(kind, aggregate, options).at("histograms")[0].at("expected_ci_half_width").get<double>();
  };
  const double randomisation = planned(respondents) / kZ95;
  // The widest of the two bins (the same randomisation's variance; F (1 - F) at each one's unbiased share).
  double sampling = 0.0;
  const json result = HistogramResultToJson(kind, aggregate, respondents);
  for (const auto& bin : result.at("histograms")[0].at("bins")) {
    const double share = bin.at("frequency").get<double>();
    sampling = std::max(sampling, share * (1 - share) / 2000);
  }
  CHECK(planned(population) / kZ95 == doctest::Approx(std::sqrt(randomisation * randomisation + sampling)).epsilon(1e-9));
}

TEST_CASE("histogram simulate: the truth compared is the intervals' own target (population shares or the sample's)") {
  const json definition = {{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "s"},
                           {"questions", {{{"id", "x"}, {"text", "x"}, {"type", "histogram"}, {"range", {0, 100}},
                                           {"histograms", {{{"name", "quarters"}, {"bins", 4}}}},
                                           {"mechanism", {{"name", "sue"}, {"epsilon", 2}}}}}}};
  const Survey survey = ParseSurvey(definition).value();
  SimulationOptions options;
  options.respondents = 2000;
  for (const char* target : {"population", "respondents"}) {
    INFO(target);
    options.estimate = {{"interval", target}};
    const json question = Simulate(survey, json{{"x", {{"distribution", "uniform"}}}}, options).value().at("questions")[0];
    CHECK(question.at("interval_for").at("target") == target);
    CHECK(question.at("truth_for") == target);
    for (const auto& share : question.at("truth").at("quarters")) {
      const double count = share.get<double>() * 2000;
      if (std::string(target) == "population") {
        // The uniform's quarters, from at least 10^5 draws of its own: 4 SE of a share of 1/4 is 0.0055.
        CHECK(std::fabs(share.get<double>() - 0.25) <= 4 * std::sqrt(0.25 * 0.75 / 100000));
      } else {
        CHECK(count == doctest::Approx(std::round(count)));  // the sample's own counts
      }
    }
  }
}
