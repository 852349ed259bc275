// Cross-tabulations of two randomised questions (core/analysis/cross_analysis.h),
// through the real pipeline: a survey parsed by ParseSurvey, answers drawn
// from a known joint truth, reports made by PerturbAnswers and validated by
// ParseReport. Statistical checks use fixed seeds and tolerances from the
// variance formula.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/common/random_source.h"
#include "core/common/seeded_random.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json Mechanism(const std::string& name) {
  if (name == "negative") return {{"name", "negative"}, {"epsilon", 1.0}, {"reported_options", 1}};
  return {{"name", name}, {"epsilon", 2.0}};
}

Survey PairSurvey(const std::string& first, const std::string& second) {
  json questions = json::array();
  questions.push_back({{"id", "a"}, {"text", "A?"}, {"options", {"a0", "a1", "a2"}}, {"mechanism", Mechanism(first)}});
  questions.push_back({{"id", "b"}, {"text", "B?"}, {"options", {"b0", "b1", "b2"}}, {"mechanism", Mechanism(second)}});
  auto survey = ParseSurvey({{"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"}, {"questions", questions}});
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return *survey;
}

// A dependent 3 x 3 truth with a rare cell (a2, b0) = 0.01.
const std::vector<double> kTruth = {0.30, 0.05, 0.05,  //
                                    0.04, 0.20, 0.06,  //
                                    0.01, 0.09, 0.20};

std::size_t DrawCell(const std::vector<double>& truth, RandomSource& random) {
  double u = UniformUnit(random);
  for (std::size_t c = 0; c < truth.size(); ++c) {
    if ((u -= truth[c]) < 0.0) return c;
  }
  return truth.size() - 1;
}

std::unique_ptr<Analysis> CrossOf(const Survey& survey, int n, RandomSource& random) {
  auto analysis = ParseAnalysis(survey, {{"cross", {"a", "b"}}});
  REQUIRE_MESSAGE(analysis.ok(), analysis.error());
  for (int i = 0; i < n; ++i) {
    const std::size_t cell = DrawCell(kTruth, random);
    auto report = ParseReport(survey, *PerturbAnswers(survey, {{"a", cell / 3}, {"b", cell % 3}}, random));
    REQUIRE(report.ok());
    (*analysis)->Add(*report);
  }
  return std::move(analysis).value();
}

json Estimate(const Analysis& analysis) {
  auto result = analysis.Estimate(json::object(), nullptr);
  REQUIRE_MESSAGE(result.ok(), result.error());
  return *result;
}

}  // namespace

TEST_CASE("cross-tab: the results document's shape, and a consistent table that is a distribution with the margins") {
  SeededRandom random(3);
  const Survey survey = PairSurvey("grr", "oue");
  const auto analysis = CrossOf(survey, 2000, random);
  const json result = Estimate(*analysis);
  CHECK(result["analysis"] == json{{"cross", {"a", "b"}}});
  CHECK(result["n"] == 2000);
  CHECK(result["interval_for"]["target"] == "population");
  REQUIRE(result["questions"].size() == 2);
  CHECK(result["questions"][1]["labels"] == json{"b0", "b1", "b2"});
  REQUIRE(result["cells"].size() == 9);
  CHECK(result["cells"][5]["labels"] == json{"a1", "b2"});
  double total = 0.0;
  std::vector<double> row(3, 0.0), column(3, 0.0);
  for (std::size_t c = 0; c < 9; ++c) {
    const json& cell = result["cells"][c];
    const double consistent = cell["consistent"];
    CHECK(consistent >= 0.0);
    CHECK(cell["ci_low"].get<double>() <= cell["estimate"].get<double>());
    CHECK(cell["estimate"].get<double>() <= cell["ci_high"].get<double>());
    CHECK(cell["consistent_ci_low"].get<double>() <= consistent);
    CHECK(consistent <= cell["consistent_ci_high"].get<double>());
    total += consistent;
    row[c / 3] += consistent;
    column[c % 3] += consistent;
  }
  CHECK(total == doctest::Approx(1.0).epsilon(1e-9));
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(row[i] == doctest::Approx(result["marginals"][0]["consistent"][i].get<double>()).epsilon(1e-8));
    CHECK(column[i] == doctest::Approx(result["marginals"][1]["consistent"][i].get<double>()).epsilon(1e-8));
  }
  CHECK(result["consistent_method"]["converged"] == true);
  // The respondents' intervals are narrower: they leave out the sampling of the answers.
  const json respondents = *analysis->Estimate({{"interval", "respondents"}}, nullptr);
  CHECK(respondents["interval_for"]["target"] == "respondents");
  CHECK(respondents["cells"][0]["std_error"].get<double>() < result["cells"][0]["std_error"].get<double>());
  CHECK(respondents["cells"][0]["estimate"] == result["cells"][0]["estimate"]);
}

TEST_CASE("cross-tab specs are validated with errors naming the field") {
  const Survey survey = PairSurvey("grr", "sue");
  CHECK(ParseAnalysis(survey, {{"cross", {"a"}}}).error() ==
        "analysis.cross: must be a list of 2 or 3 question ids, but is [\"a\"]");
  CHECK(ParseAnalysis(survey, {{"cross", {"a", "zz"}}}).error() == "analysis.cross[1]: no question \"zz\" in survey \"s\"");
  CHECK(ParseAnalysis(survey, {{"cross", {"a", "a"}}}).error() == "analysis.cross[1]: \"a\" is named twice");
  CHECK(ParseAnalysis(survey, {{"cross", {"a", "b"}}, {"x", 1}}).error() ==
        "analysis.x: unknown field (a cross-tab has only \"cross\")");
  const json numeric = {{"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"},
                        {"questions", {{{"id", "a"}, {"text", "A?"}, {"options", {"x", "y"}},
                                        {"mechanism", {{"name", "grr"}, {"epsilon", 1}}}},
                                       {{"id", "v"}, {"text", "V?"}, {"type", "numeric"}, {"range", {0, 1}},
                                        {"mechanism", {{"name", "laplace"}, {"epsilon", 1}}}}}}};
  CHECK(ParseAnalysis(*ParseSurvey(numeric), {{"cross", {"a", "v"}}}).error() ==
        "analysis.cross[1]: question \"v\" (numeric) has no categories to cross (categorical questions, histograms "
        "with a leaf level, and open questions have)");
}

// Every pair of mechanisms: the unbiased cells' mean over replications is within 4 standard errors of the
// truth (the replications' mean has sd se / sqrt(R)), and the 95% intervals cover at least 95% - 4 sd of the
// binomial count over all the cells' intervals (sd = sqrt(0.95 * 0.05 / intervals)).
TEST_CASE("cross-tab cells are unbiased and their intervals cover, for every pair of categorical mechanisms") {
  const std::vector<std::string> mechanisms = {"grr", "oue", "sue", "negative"};
  constexpr int kReplications = 16;
  constexpr int kRespondents = 1200;
  int intervals = 0, covered = 0;
  double unbiased_error = 0.0, consistent_error = 0.0, product_error = 0.0;
  std::uint64_t seed = 100;
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    for (std::size_t j = i; j < mechanisms.size(); ++j) {
      CAPTURE(mechanisms[i]);
      CAPTURE(mechanisms[j]);
      const Survey survey = PairSurvey(mechanisms[i], mechanisms[j]);
      std::vector<double> mean(9, 0.0), se(9, 0.0);
      for (int r = 0; r < kReplications; ++r) {
        SeededRandom random(seed++);
        const json result = Estimate(*CrossOf(survey, kRespondents, random));
        const json& margins = result["marginals"];
        for (std::size_t c = 0; c < 9; ++c) {
          const json& cell = result["cells"][c];
          const double estimate = cell["estimate"];
          mean[c] += estimate / kReplications;
          se[c] += cell["std_error"].get<double>() / kReplications;
          ++intervals;
          covered += cell["ci_low"].get<double>() <= kTruth[c] && kTruth[c] <= cell["ci_high"].get<double>();
          unbiased_error += std::abs(estimate - kTruth[c]);
          consistent_error += std::abs(cell["consistent"].get<double>() - kTruth[c]);
          product_error += std::abs(margins[0]["consistent"][c / 3].get<double>() *
                                        margins[1]["consistent"][c % 3].get<double>() -
                                    kTruth[c]);
        }
      }
      for (std::size_t c = 0; c < 9; ++c) {
        CAPTURE(c);
        CHECK(std::abs(mean[c] - kTruth[c]) <= 4.0 * se[c] / std::sqrt(kReplications));
      }
    }
  }
  const double coverage = static_cast<double>(covered) / intervals;
  CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / intervals));
  MESSAGE("coverage " << coverage << " of " << intervals << "; mean abs error: unbiased " << unbiased_error / intervals
                      << ", consistent " << consistent_error / intervals << ", product of marginals "
                      << product_error / intervals);
  // The consistent table is a projection of sorts towards the truth's constraints (non-negative, the margins):
  // on this truth it is closer on average than the unbiased cells, and the product of the margins, which
  // assumes independence, is further than both (its error is the dependence: sum |pi - pi_a pi_b| / 9 = 0.081).
  CHECK(consistent_error < unbiased_error);
  CHECK(product_error > unbiased_error);
}

TEST_CASE("cross-tab of an open question and a randomised one is the breakdown by group, and small groups are hidden") {
  const json definition = {
      {"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"},
      {"questions",
       {{{"id", "g"}, {"text", "G?"}, {"options", {"A", "B", "R", "S"}}, {"privacy", "open"}},
        {{"id", "y"}, {"text", "Y?"}, {"options", {"y0", "y1"}}, {"mechanism", {{"name", "oue"}, {"epsilon", 1}}}}}}};
  auto parsed = ParseSurvey(definition);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error());
  const Survey survey = *parsed;
  auto cross = std::move(ParseAnalysis(survey, {{"cross", {"g", "y"}}})).value();
  auto by = std::move(ParseAnalysis(survey, {{"by", "g"}, {"question", "y"}})).value();
  SeededRandom random(17);
  for (int i = 0; i < 303; ++i) {
    // R: 3 respondents; S: none, hidden with R so that 303 minus the shown groups does not give R's count.
    const int g = i < 200 ? 0 : i < 300 ? 1 : 2;
    auto report = *ParseReport(survey, *PerturbAnswers(survey, {{"g", g}, {"y", static_cast<int>(i % 3 == 0)}}, random));
    cross->Add(report);
    by->Add(report);
  }
  const json table = Estimate(*cross);
  const json groups = Estimate(*by);
  for (std::size_t g = 0; g < 2; ++g) {
    const double share = groups["groups"][g]["n"].get<double>() / 303.0;
    for (std::size_t y = 0; y < 2; ++y) {
      CHECK(table["cells"][g * 2 + y]["estimate"].get<double>() ==
            doctest::Approx(share * groups["groups"][g]["result"]["options"][y]["frequency"].get<double>()));
      CHECK(table["cells"][g * 2 + y]["hidden"] == false);
    }
  }
  for (std::size_t y = 0; y < 4; ++y) {
    CHECK(table["cells"][4 + y]["hidden"] == true);
    CHECK(table["cells"][4 + y]["estimate"].is_null());
    CHECK(table["cells"][4 + y]["consistent"].is_null());
  }
  CHECK(table["marginals"][0]["frequency"][2].is_null());
  CHECK(table["marginals"][0]["frequency"][3].is_null());
  CHECK(groups["groups"][3]["n"] == "hidden");
  CHECK(table["warning"] == "cells whose combination of open answers has fewer than 5 respondents are hidden.");
  // The open question's own marginal is exact: no randomisation, so no width for these respondents.
  const json respondents = *cross->Estimate({{"interval", "respondents"}}, nullptr);
  CHECK(respondents["marginals"][0]["std_error"][0] == 0.0);
}

TEST_CASE("cross-tab of two open questions: exact counts, and the maximum likelihood table is the observed one") {
  const json definition = {
      {"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"},
      {"questions",
       {{{"id", "g"}, {"text", "G?"}, {"options", {"A", "B"}}, {"privacy", "open"}},
        {{"id", "h"}, {"text", "H?"}, {"options", {"x", "y", "z"}}, {"privacy", "open"}}}}};
  auto parsed = ParseSurvey(definition);
  REQUIRE_MESSAGE(parsed.ok(), parsed.error());
  const Survey survey = *parsed;
  auto cross = std::move(ParseAnalysis(survey, {{"cross", {"g", "h"}}})).value();
  const std::vector<int> counts = {10, 20, 30, 5, 15, 20};  // 100 respondents
  SeededRandom random(1);
  for (std::size_t cell = 0; cell < counts.size(); ++cell) {
    for (int i = 0; i < counts[cell]; ++i) {
      cross->Add(*ParseReport(survey, *PerturbAnswers(survey, {{"g", cell / 3}, {"h", cell % 3}}, random)));
    }
  }
  const json result = Estimate(*cross);
  const json respondents = *cross->Estimate({{"interval", "respondents"}}, nullptr);
  for (std::size_t cell = 0; cell < counts.size(); ++cell) {
    CAPTURE(cell);
    const double share = counts[cell] / 100.0;
    CHECK(result["cells"][cell]["estimate"].get<double>() == doctest::Approx(share).epsilon(1e-12));
    CHECK(result["cells"][cell]["consistent"].get<double>() == doctest::Approx(share).epsilon(1e-6));
    // The population's: the cell's share sampled, sqrt(f (1 - f) / (n - 1)); these respondents': exact.
    CHECK(result["cells"][cell]["std_error"].get<double>() ==
          doctest::Approx(std::sqrt(share * (1 - share) / 99.0)).epsilon(1e-12));
    CHECK(respondents["cells"][cell]["std_error"] == 0.0);
  }
  CHECK(result["warning"].is_null());
  // A cancelled estimation fails (the server discards it).
  CHECK(cross->Estimate(json::object(), [] { return true; }).error() == "estimation cancelled");
}
