// The tree of the histogram kind's `tree` mechanism (hierarchy.h; its design: tree_design_test.cpp): decompositions, the consistent
// leaves, and the tree through the survey path: level shares as the design's weights,
// unbiased ranges with the variance of level_estimates.h, intervals that cover, and the epsilon audit.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/histogram/hierarchy.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/kinds/histogram/tree_design.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/stat_utils.h"

using nlohmann::json;
using namespace deniable;

TEST_CASE("tree decomposition: the fewest nodes, the root for everything, fan-out 2 and 4") {
  const TreeShape binary{2, 3};  // 8 leaves
  const auto nodes = Decompose(binary, 1, 7);
  std::vector<std::pair<int, int>> got;
  for (const TreeNode& node : nodes) got.emplace_back(node.level, node.index);
  CHECK(got == std::vector<std::pair<int, int>>{{3, 1}, {2, 1}, {2, 2}, {3, 6}});
  CHECK(Decompose(binary, 0, 8).size() == 1);
  CHECK(Decompose(binary, 0, 8)[0].level == 0);
  CHECK(Decompose(binary, 4, 8)[0].level == 1);
  const TreeShape quaternary{4, 2};  // 16 leaves
  CHECK(Decompose(quaternary, 0, 12).size() == 3);  // three level-1 nodes
  CHECK(Decompose(quaternary, 3, 5).size() == 2);   // two leaves across a boundary
  // A level without reports is passed over for its children.
  CHECK(Decompose(quaternary, 0, 12, [](int level) { return level != 1; }).size() == 12);
}

TEST_CASE("tree consistency: consistent input comes back unchanged; any input comes back summing to 1") {
  const TreeShape shape{2, 2};
  // Leaves 0.1, 0.2, 0.3, 0.4; level 1: 0.3, 0.7.
  const std::vector<std::vector<double>> exact = {{0.3, 0.7}, {0.1, 0.2, 0.3, 0.4}};
  const auto leaves = LeastSquaresLeaves(shape, exact, {0.01, 0.01}, 4);
  REQUIRE(leaves.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(leaves[i] == doctest::Approx(exact[1][i]));
  // Noisy input: level 1 says 0.5/0.5, the leaves 0.2 each (sum 0.8): equal variances weigh them together.
  const auto fitted = LeastSquaresLeaves(shape, {{0.5, 0.5}, {0.2, 0.2, 0.2, 0.2}}, {0.01, 0.01}, 4);
  double total = 0;
  for (double f : fitted) {
    total += f;
    CHECK(f == doctest::Approx(0.25));
  }
  CHECK(total == doctest::Approx(1.0));
  // A padding leaf (3 real leaves of 4) stays empty.
  const auto padded = LeastSquaresLeaves(shape, {{0.6, 0.4}, {0.3, 0.3, 0.4, 0.1}}, {0.01, 0.01}, 3);
  CHECK(padded.size() == 3);
  CHECK(padded[0] + padded[1] + padded[2] == doctest::Approx(1.0));
}

namespace {

json TreeSurvey(double epsilon) {
  return {{"format", kSurveyFormat}, {"id", "t"}, {"version", 1}, {"title", "t"},
          {"questions", {{{"id", "x"}, {"text", "x?"}, {"type", "histogram"}, {"range", {0, 64}},
                          {"histograms", {{{"name", "cells"}, {"bins", 64}}, {{"name", "quarters"}, {"bins", 4}}}},
                          {"mechanism", {{"name", "tree"}, {"epsilon", epsilon}}}}}}};
}

}  // namespace

TEST_CASE("tree reports: {level, bits}, levels drawn by the design's weights, bad reports named") {
  auto survey = ParseSurvey(TreeSurvey(2.0));
  REQUIRE(survey.ok());
  const auto& kind = HistogramKindOf(survey->questions[0]);
  REQUIRE(kind.hierarchical());
  const TreeShape shape = kind.shape();
  SeededRandom random(3);
  std::vector<std::int64_t> levels(static_cast<std::size_t>(shape.height), 0);
  constexpr int kTrials = 20000;
  for (int t = 0; t < kTrials; ++t) {
    auto wire = kind.Perturb(10.5, random);
    REQUIRE(wire.ok());
    const int level = wire->at("level").get<int>();
    CHECK(wire->at("bits").size() == static_cast<std::size_t>(shape.NodesAt(level)));
    ++levels[static_cast<std::size_t>(level) - 1];
  }
  CHECK(deniable::testing::ChiSquarePValue(levels, kind.tree()->level_weights) > 1e-4);
  CHECK(kind.Decode(json{{"level", 1}, {"bits", std::vector<int>(static_cast<std::size_t>(shape.NodesAt(1)), 0)}}).ok());
  CHECK(kind.Decode(json{{"level", 0}, {"bits", {0}}}).error() ==
        "level must be an integer from 1 to " + std::to_string(shape.height) + ", but is 0");
  CHECK(kind.Decode(json{0, 1}).error().find("a tree report must be an object") == 0);
  CHECK_FALSE(kind.Decode(json{{"level", 1}, {"bits", {0}}}).ok());
}

TEST_CASE("tree estimates: unbiased least-squares ranges, variance within the decomposition's, intervals cover (200 surveys)") {
  auto survey = ParseSurvey(TreeSurvey(2.0));
  REQUIRE(survey.ok());
  std::vector<double> answers;
  for (int i = 0; i < 2000; ++i) answers.push_back(64.0 * std::pow((i + 0.5) / 2000.0, 1.5));
  std::vector<double> truth(4, 0.0);  // the quarters
  for (double a : answers) truth[static_cast<std::size_t>(std::min(3, static_cast<int>(a / 16)))] += 1.0 / 2000;
  SeededRandom random(21);
  constexpr int kSurveys = 200;
  std::vector<double> sum(4, 0.0), squares(4, 0.0), reported_variance(4, 0.0);
  int covered = 0;
  for (int s = 0; s < kSurveys; ++s) {
    SurveyAggregate aggregate(*survey);
    for (double answer : answers) {
      auto report = ParseReport(*survey, *PerturbAnswers(*survey, json{{"x", answer}}, random));
      REQUIRE(report.ok());
      aggregate.Add(*report);
    }
    // Fixed answers: the interval for these respondents is the one to check against their own shares.
    const json bins = SurveyResultsToJson(*survey, aggregate, json{{"interval", "respondents"}})
                          .at("questions")[0].at("histograms")[1].at("bins");
    for (std::size_t b = 0; b < 4; ++b) {
      const double f = bins[b].at("frequency").get<double>();
      sum[b] += f;
      squares[b] += f * f;
      reported_variance[b] += std::pow(bins[b].at("std_error").get<double>(), 2) / kSurveys;
      covered += bins[b].at("ci_low").get<double>() <= truth[b] && truth[b] <= bins[b].at("ci_high").get<double>() ? 1 : 0;
    }
  }
  for (std::size_t b = 0; b < 4; ++b) {
    INFO("quarter " << b);
    const double mean = sum[b] / kSurveys;
    const double variance = (squares[b] - kSurveys * mean * mean) / (kSurveys - 1);
    CHECK(std::fabs(mean - truth[b]) <= 4.0 * std::sqrt(reported_variance[b] / kSurveys));
    // The least-squares estimate's variance is at most the decomposition's (reported): 4 SE of a sample variance.
    CHECK(variance <= reported_variance[b] * (1.0 + 4.0 * std::sqrt(2.0 / (kSurveys - 1))));
  }
  // 800 intervals at least 95%: SE 0.77 points; 4 SE below.
  CHECK(covered / (4.0 * kSurveys) >= 0.95 - 4 * 0.0077);
}

TEST_CASE("tree audit: within the claimed epsilon, and a tree claiming half its epsilon is caught") {
  // Reports of answers in leaf 0 and leaf 63, by (level, bits): the largest log ratio the sample shows beyond doubt.
  const auto audit = [](const Survey& survey, std::uint64_t seed) {
    const auto& kind = HistogramKindOf(survey.questions[0]);
    std::map<std::string, std::array<std::int64_t, 2>> counts;
    SeededRandom random(seed);
    constexpr int kTrials = 200000;
    for (int side = 0; side < 2; ++side) {
      for (int t = 0; t < kTrials; ++t) {
        const json wire = *kind.Perturb(side == 0 ? 0.5 : 63.5, random);
        // Only the level and the two answers' nodes matter (the other bits are alike for both answers).
        const int level = wire.at("level").get<int>();
        const int span = kind.shape().SpanOf(level);
        const auto& bits = wire.at("bits");
        counts[std::to_string(level) + ":" + bits[0].dump() + bits[static_cast<std::size_t>(63 / span)].dump()]
              [static_cast<std::size_t>(side)]++;
      }
    }
    double bound = 0.0;
    for (const auto& [cell, count] : counts) {
      for (int side = 0; side < 2; ++side) {
        const double low = deniable::testing::BinomialLowerBound(count[static_cast<std::size_t>(side)], kTrials, 1e-6);
        const double high = deniable::testing::BinomialUpperBound(count[static_cast<std::size_t>(1 - side)], kTrials, 1e-6);
        if (low > 0.0) bound = std::max(bound, std::log(low / high));
      }
    }
    return bound;
  };
  auto honest = ParseSurvey(TreeSurvey(1.0));
  REQUIRE(honest.ok());
  const double measured = audit(*honest, 5);
  MESSAGE("tree: audit lower bound " << measured << " for claimed 1");
  CHECK(measured <= 1.0);
  CHECK(measured >= 0.8);
  // The same tree run at epsilon 2 while claiming 1 (a broken privacy statement): caught.
  auto broken = ParseSurvey(TreeSurvey(2.0));
  REQUIRE(broken.ok());
  CHECK(audit(*broken, 6) > 1.0);
}

TEST_CASE("tree results before every level has reports: bins without an estimate are null, and a warning says why") {
  auto survey = ParseSurvey(TreeSurvey(2.0));
  REQUIRE(survey.ok());
  const auto& kind = HistogramKindOf(survey->questions[0]);
  SurveyAggregate aggregate(*survey);
  // One report at level 1 only.
  json bits = json::array();
  for (int v = 0; v < kind.shape().NodesAt(1); ++v) bits.push_back(v == 0 ? 1 : 0);
  auto report = ParseReport(*survey, json{{"survey", "t"}, {"version", 1}, {"responses", {{"x", {{"level", 1}, {"bits", bits}}}}}});
  REQUIRE(report.ok());
  aggregate.Add(*report);
  const json result = SurveyResultsToJson(*survey, aggregate).at("questions")[0];
  REQUIRE_FALSE(result.contains("error"));
  CHECK(result.at("histograms")[0].at("bins")[0].at("frequency").is_null());  // a single cell needs the leaves
  CHECK(result.at("warning").get<std::string>().find("no report has yet described a level") != std::string::npos);
  CHECK(result.at("cdf").is_null());
  CHECK_FALSE(kind.CsvRows(result).empty());
}
