// The histogram kind (core/kinds/histogram/): definitions and their errors, the client's bits and their rates,
// report validation, the estimates through the whole survey path (unbiased, variance as the formula, intervals
// cover, consistent histograms that agree), bins asked for after collection, per-question options, the advisor,
// and the empirical-epsilon audit for sue and oue with a broken variant it catches.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/histogram/consumer_bins.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/stat_utils.h"

using nlohmann::json;
using namespace deniable;

namespace {

json Definition(const json& question) {
  return {{"format", kSurveyFormat}, {"id", "h"}, {"version", 1}, {"title", "t"}, {"questions", {question}}};
}

json HistogramQuestion(const std::string& mechanism, double epsilon, const json& histograms, json range = {0, 100}) {
  return {{"id", "x"}, {"text", "x?"}, {"type", "histogram"}, {"range", range}, {"histograms", histograms},
          {"mechanism", {{"name", mechanism}, {"epsilon", epsilon}}}};
}

std::string ParseError(const json& question) {
  auto survey = ParseSurvey(Definition(question));
  return survey.ok() ? "" : survey.error();
}

}  // namespace

TEST_CASE("histogram definitions: the fine partition, and errors that name the field") {
  auto survey = ParseSurvey(Definition(HistogramQuestion("sue", 1, {{{"name", "a"}, {"bins", 3}}, {{"name", "b"}, {"bins", 5}},
                                                           {{"name", "c"}, {"bins", 7}}})));
  REQUIRE(survey.ok());
  const auto& kind = HistogramKindOf(survey->questions[0]);
  CHECK(kind.partition().cells() == 13);  // digest 6.2: {3, 5, 7} -> 13 cells, never slivers
  CHECK(kind.PageSummary().at("fine_edges").size() == 14);
  CHECK(ParseError(HistogramQuestion("sue", 1, {{{"name", "a"}, {"edges", {0, 50, 40, 100}}}})) ==
        "questions[0].histograms[0].edges[2]: 40 is not above the previous edge 50");
  CHECK(ParseError(HistogramQuestion("grr", 1, {{{"name", "a"}, {"bins", 2}}})).find("questions[0].mechanism.name") == 0);
  CHECK(ParseError(HistogramQuestion("sue", 0, {{{"name", "a"}, {"bins", 2}}})).find("questions[0].mechanism") == 0);
  CHECK(ParseError(HistogramQuestion("sue", 1, {{{"name", "a"}, {"bins", 4096}}, {{"name", "b"}, {"bins", 4095}}}))
            .find("questions[0].histograms") == 0);  // 8190 fine cells > 4096
  json no_histograms = HistogramQuestion("sue", 1, json::array());
  CHECK(ParseError(no_histograms).find("questions[0].histograms") == 0);
}

TEST_CASE("histogram client: clamped one-hot, each bit at p for the answer's cell and q elsewhere (sue and oue)") {
  for (const char* name : {"sue", "oue"}) {
    INFO(std::string(name));
    auto survey = ParseSurvey(Definition(HistogramQuestion(name, 2.0, {{{"name", "a"}, {"bins", 4}}})));
    REQUIRE(survey.ok());
    const auto& kind = HistogramKindOf(survey->questions[0]);
    const auto pq = kind.mechanism().probabilities();
    SeededRandom random(7);
    constexpr int kTrials = 40000;
    std::vector<int> ones(4, 0);
    for (int t = 0; t < kTrials; ++t) {
      // 60 is in cell 2 ([50, 75)); 500 is clamped to 100, in the last cell.
      auto wire = kind.Perturb(t % 2 == 0 ? json(60.0) : json(500.0), random);
      REQUIRE(wire.ok());
      REQUIRE(wire->size() == 4);
      for (int k = 0; k < 4; ++k) ones[static_cast<std::size_t>(k)] += (*wire)[static_cast<std::size_t>(k)].get<int>();
    }
    // Half the reports have their 1 at cell 2, half at cell 3: each of those bits is at (p + q) / 2.
    const double half = kTrials / 2.0;
    const std::vector<double> expected = {kTrials * pq.q, kTrials * pq.q, half * (pq.p + pq.q), half * (pq.p + pq.q)};
    for (int k = 0; k < 4; ++k) {
      const double e = expected[static_cast<std::size_t>(k)];
      const double sd = std::sqrt(kTrials * (e / kTrials) * (1 - e / kTrials));
      CHECK(std::fabs(ones[static_cast<std::size_t>(k)] - e) <= 4.5 * sd);
    }
    CHECK_FALSE(kind.Perturb("60", random).ok());
    CHECK_FALSE(kind.Perturb(json(), random).ok());
  }
}

TEST_CASE("histogram reports: exactly one 0/1 bit per fine cell") {
  auto survey = ParseSurvey(Definition(HistogramQuestion("oue", 1, {{{"name", "a"}, {"bins", 3}}})));
  REQUIRE(survey.ok());
  const auto& kind = HistogramKindOf(survey->questions[0]);
  CHECK(kind.Decode(json{0, 1, 0}).ok());
  CHECK(kind.Decode(json{0, 1}).error() == "a oue report must be an array of 3 bits");
  CHECK(kind.Decode(json{0, 2, 0}).error() == "bit 1 must be 0 or 1, but is 2");
  CHECK_FALSE(kind.Decode(json{0, 1.0, 0}).ok());
  CHECK_FALSE(kind.Decode(json("010")).ok());
}

namespace {

// n respondents' fixed answers (a skewed population) through the whole survey path: perturb, parse, aggregate, results.
json SurveyResult(const Survey& survey, const std::vector<double>& answers, RandomSource& random, const json& options = json::object()) {
  SurveyAggregate aggregate(survey);
  for (double answer : answers) {
    auto wire = PerturbAnswers(survey, json{{"x", answer}}, random);
    REQUIRE(wire.ok());
    auto report = ParseReport(survey, *wire);
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  return SurveyResultsToJson(survey, aggregate, options).at("questions")[0];
}

}  // namespace

TEST_CASE("histogram estimates: unbiased, variance as the formula, intervals cover, CDF and quartiles (200 surveys)") {
  const json histograms = {{{"name", "halves"}, {"bins", 2}}, {{"name", "fifths"}, {"bins", 5}},
                           {{"name", "bands"}, {"edges", {0, 10, 30, 100}}}};
  std::vector<double> answers;
  for (int i = 0; i < 1000; ++i) answers.push_back(100.0 * std::pow((i + 0.5) / 1000.0, 2.0));
  for (const char* name : {"sue", "oue"}) {
    INFO(std::string(name));
    auto survey = ParseSurvey(Definition(HistogramQuestion(name, 2.0, histograms)));
    REQUIRE(survey.ok());
    const auto& kind = HistogramKindOf(survey->questions[0]);
    const auto pq = kind.mechanism().probabilities();
    SeededRandom random(name[0] == 's' ? 11 : 12);
    constexpr int kSurveys = 200;
    std::map<std::string, std::vector<double>> sum, squares, truth;
    std::map<std::string, std::vector<int>> cells;
    int covered = 0, intervals = 0, quartiles_covered = 0;
    for (int s = 0; s < kSurveys; ++s) {
      // Fixed answers: the intervals for these respondents are the ones to check against their own shares.
      const json result = SurveyResult(*survey, answers, random, json{{"interval", "respondents"}});
      for (const auto& histogram : result.at("histograms")) {
        const std::string consumer = histogram.at("name").get<std::string>();
        const auto& bins = histogram.at("bins");
        if (s == 0) {
          sum[consumer].assign(bins.size(), 0.0);
          squares[consumer].assign(bins.size(), 0.0);
          for (const auto& bin : bins) {
            double count = 0;
            for (double a : answers) count += a >= bin.at("low").get<double>() && (a < bin.at("high").get<double>() || bin.at("high") == 100.0) ? 1 : 0;
            truth[consumer].push_back(count);
            cells[consumer].push_back(bin.at("fine_cells").get<int>());
          }
          // Consistent: non-negative and summing to 1.
          double total = 0;
          for (const auto& bin : bins) total += bin.at("consistent_frequency").get<double>();
          CHECK(total == doctest::Approx(1.0));
        }
        for (std::size_t b = 0; b < bins.size(); ++b) {
          const double count = bins[b].at("count").get<double>();
          sum[consumer][b] += count;
          squares[consumer][b] += count * count;
          const double f = truth[consumer][b] / 1000.0;
          covered += bins[b].at("ci_low").get<double>() <= f && f <= bins[b].at("ci_high").get<double>() ? 1 : 0;
          ++intervals;
          CHECK(bins[b].at("consistent_frequency").get<double>() >= 0.0);
        }
      }
      const auto& quartiles = result.at("quantiles");
      const double median = quartiles.at("median").at("value").get<double>();
      CHECK(quartiles.at("median").at("low").get<double>() <= median);
      CHECK(median <= quartiles.at("median").at("high").get<double>());
      // The answers' median is 25 (100 x 0.5^2).
      quartiles_covered += quartiles.at("median").at("low").get<double>() <= 25.0 && 25.0 <= quartiles.at("median").at("high").get<double>() ? 1 : 0;
    }
    for (const auto& [consumer, totals] : sum) {
      for (std::size_t b = 0; b < totals.size(); ++b) {
        INFO(consumer << " bin " << b);
        const double variance = BinCountVariance(pq, truth[consumer][b], cells[consumer][b], 1000.0);
        const double mean = totals[b] / kSurveys;
        const double sample_variance = (squares[consumer][b] - kSurveys * mean * mean) / (kSurveys - 1);
        CHECK(std::fabs(mean - truth[consumer][b]) <= 4.0 * std::sqrt(variance / kSurveys));
        CHECK(sample_variance == doctest::Approx(variance).epsilon(4.0 * std::sqrt(2.0 / (kSurveys - 1))));
      }
    }
    // 2000 intervals at 95%: SE 0.49 points; 4 SE.
    CHECK(static_cast<double>(covered) / intervals == doctest::Approx(0.95).epsilon(0.021));
    CHECK(quartiles_covered >= 180);  // at least 90% of 200 (a 95% interval: P(fewer) < 1e-3)
  }
}

TEST_CASE("histogram results: consumers agree on shared unions, and bins after collection are exact on fine cells") {
  auto survey = ParseSurvey(Definition(HistogramQuestion("oue", 3.0, {{{"name", "halves"}, {"bins", 2}}, {{"name", "quarters"}, {"bins", 4}}})));
  REQUIRE(survey.ok());
  std::vector<double> answers;
  for (int i = 0; i < 500; ++i) answers.push_back(std::fmod(i * 37.0, 100.0));
  SeededRandom random(5);
  const json result = SurveyResult(*survey, answers, random, json{{"x.edges", "0,50,62.5,100"}});
  const auto& halves = result.at("histograms")[0].at("bins");
  const auto& quarters = result.at("histograms")[1].at("bins");
  // [0, 50) is halves' first bin and quarters' first two: equal in both versions.
  CHECK(halves[0].at("count").get<double>() ==
        doctest::Approx(quarters[0].at("count").get<double>() + quarters[1].at("count").get<double>()));
  CHECK(halves[0].at("consistent_frequency").get<double>() ==
        doctest::Approx(quarters[0].at("consistent_frequency").get<double>() + quarters[1].at("consistent_frequency").get<double>()));
  const auto& custom = result.at("custom");
  REQUIRE(custom.is_object());
  CHECK_FALSE(custom.at("exact").get<bool>());  // 62.5 cuts the fine cell [50, 75)
  const auto& bins = custom.at("bins");
  REQUIRE(bins.size() == 3);
  CHECK(bins[0].at("exact").get<bool>());
  CHECK(bins[0].at("frequency").get<double>() == doctest::Approx(halves[0].at("frequency").get<double>()));
  CHECK(bins[0].at("bias_bound").get<double>() == 0.0);
  // [50, 62.5) is half of [50, 75): half its estimate, bounded by the cell's share.
  CHECK_FALSE(bins[1].at("exact").get<bool>());
  CHECK(bins[1].at("frequency").get<double>() == doctest::Approx(0.5 * quarters[2].at("frequency").get<double>()));
  // Whatever the answers do in the cut cell, at most half its share is misplaced; smooth answers (these are
  // even within a cell) much less.
  CHECK(bins[1].at("worst_case_bias").get<double>() == doctest::Approx(0.5 * quarters[2].at("consistent_frequency").get<double>()));
  CHECK(bins[1].at("bias_bound").get<double>() < bins[1].at("worst_case_bias").get<double>());
  // Its interval holds both extremes: none of the cell's answers in the bin, and all of them.
  CHECK(bins[1].at("ci_low").get<double>() <= 0.0);
  CHECK(bins[1].at("ci_high").get<double>() >= quarters[2].at("frequency").get<double>());
  // Bin width after collection, and errors naming the option.
  CHECK(SurveyResult(*survey, answers, random, json{{"x.width", "25"}}).at("custom").at("exact").get<bool>());
  CHECK(ValidateEstimateOptions(*survey, json{{"x.edges", "0,50,40"}}).error() ==
        "question \"x\": edges[2]: 40 is not above the previous edge 50");
  CHECK(ValidateEstimateOptions(*survey, json{{"y.edges", "0,50"}}).error() == "y.edges: the survey has no question \"y\"");
  CHECK(ValidateEstimateOptions(*survey, json{{"x.edges", "0,500"}}).error().find("edges[1] must be inside the range") !=
        std::string::npos);
  CHECK(OptionsForQuestion(json{{"bin_width", "5"}, {"x.bin_width", "10"}, {"y.points", "3"}}, "x") ==
        json{{"bin_width", "10"}});
}

TEST_CASE("histogram advisor: CHP wins for similar consumers, the baseline for a coarse one at small epsilon") {
  const auto advice = [](const json& histograms, double epsilon, std::int64_t n) {
    auto survey = ParseSurvey(Definition(HistogramQuestion("oue", epsilon, histograms, {0, 1})));
    REQUIRE(survey.ok());
    return *survey->questions[0].kind->DesignAdvice(n);
  };
  const json folds357 = {{{"name", "3"}, {"bins", 3}}, {{"name", "5"}, {"bins", 5}}, {{"name", "7"}, {"bins", 7}}};
  // Digest 3.5 and 5.6: {3, 5, 7} at eps 3, N = 13,683: one report over 13 cells beats three reports at eps/3.
  const json similar = advice(folds357, 3.0, 13683);
  CHECK(similar.at("baseline_better_for").empty());
  // SUE's per-bin MSE is the digest's 13 N sigma^2 / K: 21,920 / 13,150 / 9,395 at Baltimore's N.
  const auto& sue = similar.at("mechanisms")[0];
  REQUIRE(sue.at("name") == "sue");
  CHECK(sue.at("count_mse_per_bin")[0].get<double>() == doctest::Approx(21920).epsilon(0.002));
  CHECK(sue.at("count_mse_per_bin")[2].get<double>() == doctest::Approx(9395).epsilon(0.002));
  // At eps = 15 OUE's p(1-p) term dominates: SUE is recommended.
  CHECK(advice(folds357, 15.0, 13683).at("recommended") == "sue");
  // {2, 100}-fold at eps 1: the 2-fold consumer's bins are 50 fine cells each; its own report at eps/2 is better.
  const json coarse = advice({{{"name", "coarse"}, {"bins", 2}}, {{"name", "fine"}, {"bins", 100}}}, 1.0, 13683);
  CHECK(coarse.at("baseline_better_for") == json{"coarse"});
  CHECK(coarse.at("reason").get<std::string>().find("\"coarse\"") != std::string::npos);
}

TEST_CASE("histogram audit: empirical epsilon within the claim for sue and oue; broken sue and oue are caught") {
  for (const char* name : {"sue", "oue"}) {
    INFO(std::string(name));
    auto survey = ParseSurvey(Definition(HistogramQuestion(name, 1.0, {{{"name", "a"}, {"bins", 3}}})));
    REQUIRE(survey.ok());
    const auto& kind = HistogramKindOf(survey->questions[0]);
    const deniable::testing::PerturbFunction through_kind = [&kind](int cell, RandomSource& random) {
      auto wire = kind.Perturb(kind.partition().BoundaryValue(cell), random);
      return *kind.mechanism().Decode(*wire);
    };
    const auto audit = deniable::testing::AuditEpsilon(through_kind, 0, 2, 200000, 1e-6, 17);
    MESSAGE(std::string(name) << ": audit lower bound " << audit.lower_bound << " for claimed 1");
    CHECK(audit.lower_bound <= 1.0);
    CHECK(audit.lower_bound >= 0.8);
  }
  // Broken variants claiming 1: SUE with the paper's f written with eps where eps/2 belongs (bits flipped for
  // 2 eps), and OUE with q for 2 eps. Each is caught.
  for (CategoricalKind kind : {CategoricalKind::kSue, CategoricalKind::kOue}) {
    auto broken = CreateCategoricalMechanism({kind, 3, 2.0, 1});
    const deniable::testing::PerturbFunction perturb = [&broken](int cell, RandomSource& random) {
      return *(*broken)->Perturb(cell, random);
    };
    CHECK(deniable::testing::AuditEpsilon(perturb, 0, 2, 200000, 1e-6, 19).lower_bound > 1.0);
  }
}
