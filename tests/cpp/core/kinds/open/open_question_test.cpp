// Questions asked openly (core/kinds/open/, "privacy": "open"): definitions
// and their errors, the answer sent as given and counted exactly, exact
// results with sampling intervals for the population (Clopper-Pearson, t,
// order-statistic) and none for these respondents, small counts hidden, the
// identity channel the analyses use, the survey's epsilon without them, and
// the intervals' coverage of the population.
#include <doctest/doctest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/open/open_intervals.h"
#include "core/kinds/open/open_privacy.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using nlohmann::json;
using namespace deniable;

namespace {

json Definition(const json& questions) {
  return {{"format", kSurveyFormat}, {"id", "o"}, {"version", 1}, {"title", "t"}, {"questions", questions}};
}

const json kGender = {{"id", "gender"}, {"text", "Gender?"}, {"type", "categorical"},
                      {"options", {"Woman", "Man", "Other", "Prefer not to say"}}, {"privacy", "open"}};
const json kAge = {{"id", "age"}, {"text", "Age?"}, {"type", "numeric"}, {"range", {18, 98}}, {"step", 1},
                   {"privacy", "open"}};
const json kDrug = {{"id", "drug"}, {"text", "Used?"}, {"type", "categorical"}, {"options", {"No", "Yes"}},
                    {"mechanism", {{"name", "grr"}, {"epsilon", 1}}}};

Survey Parse(const std::vector<json>& questions) {
  auto survey = ParseSurvey(Definition(json(questions)));
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  return std::move(survey).value();
}

std::string ParseError(json question) {
  auto survey = ParseSurvey(Definition(json::array({question})));
  REQUIRE_FALSE(survey.ok());
  return survey.error();
}

// The results of `answers` (one per respondent) to the survey's first question.
json ResultOf(const Survey& survey, const std::string& id, const std::vector<json>& answers, const json& options = {}) {
  SurveyAggregate aggregate(survey);
  SeededRandom random(1);
  for (const json& answer : answers) {
    auto wire = PerturbAnswers(survey, json{{id, answer}}, random);
    REQUIRE(wire.ok());
    CHECK(wire->at("responses").at(id) == answer);  // sent as given
    auto report = ParseReport(survey, *wire);
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  return SurveyResultsToJson(survey, aggregate, options.is_null() ? json::object() : options).at("questions")[0];
}

}  // namespace

TEST_CASE("open questions: canonical form, and fields that belong to randomised or confidential questions") {
  const Survey survey = Parse({kGender, kAge, kDrug});
  const json canonical = SurveyToJson(survey);
  CHECK(canonical.at("questions")[0].at("privacy") == "open");
  CHECK(canonical.at("questions")[1].at("privacy") == "open");
  CHECK_FALSE(canonical.at("questions")[0].contains("mechanism"));
  CHECK(SurveyToJson(Parse(canonical.at("questions").get<std::vector<json>>())) == canonical);
  // The open questions are outside the epsilon: the survey's total is the randomised question's.
  REQUIRE(TotalEpsilon(survey).has_value());
  CHECK(*TotalEpsilon(survey) == doctest::Approx(1.0));

  json with_mechanism = kGender;
  with_mechanism["mechanism"] = {{"name", "grr"}, {"epsilon", 1}};
  CHECK(ParseError(with_mechanism) ==
        "questions[0].mechanism: a question asked openly (\"privacy\": \"open\") has no mechanism (its answer is sent "
        "as given)");
  json with_budget = kGender;
  with_budget["budget"] = 1;
  CHECK(ParseError(with_budget).find("questions[0].budget: a question asked openly") == 0);
  json unknown = kAge;
  unknown["privacy"] = "secret";
  CHECK(ParseError(unknown).find("questions[0].privacy: a numeric question is \"local\"") == 0);
  json categorical = kGender;
  categorical["privacy"] = "hidden";
  CHECK(ParseError(categorical).find("or \"open\" (asked openly, sent as given)") != std::string::npos);
}

TEST_CASE("an open categorical question: exact shares, exact (Clopper-Pearson) intervals for the population, small counts hidden") {
  const Survey survey = Parse({kGender});
  std::vector<json> answers(30, 0);
  answers.insert(answers.end(), 67, 1);
  answers.insert(answers.end(), 3, 2);
  const json result = ResultOf(survey, "gender", answers);
  CHECK(result.at("privacy").at("trust") == "open");
  CHECK(result.at("privacy").at("epsilon").is_null());
  CHECK(result.at("n") == 100);
  CHECK(result.at("interval_for").at("target") == "population");
  const json& woman = result.at("options")[0];
  CHECK(woman.at("count") == 30);
  CHECK(woman.at("frequency").get<double>() == doctest::Approx(0.30));
  // Clopper-Pearson 95% for 30/100 (R: binom.test(30, 100)$conf.int = 0.2124064 0.3998147).
  CHECK(woman.at("ci_low").get<double>() == doctest::Approx(0.2124064).epsilon(1e-6));
  CHECK(woman.at("ci_high").get<double>() == doctest::Approx(0.3998147).epsilon(1e-6));
  CHECK(woman.at("std_error").get<double>() == doctest::Approx(std::sqrt(0.3 * 0.7 / 100)));
  const json& other = result.at("options")[2];
  CHECK(other.at("count").is_null());
  CHECK(other.at("frequency").is_null());
  CHECK(other.at("hidden") == "fewer than 5 respondents");
  // n minus the shown counts would give "Other" away: the smallest other count (the empty option) is hidden too.
  CHECK(result.at("options")[3].at("count").is_null());
  CHECK(result.at("options")[3].at("hidden") == "hidden so that a smaller count cannot be worked out");
  CHECK(result.at("options")[1].at("count") == 67);

  const json exact = ResultOf(survey, "gender", answers, {{"interval", "respondents"}});
  CHECK(exact.at("interval_for").at("target") == "respondents");
  CHECK(exact.at("options")[1].at("ci_low") == exact.at("options")[1].at("frequency"));
  CHECK(exact.at("options")[1].at("ci_high") == exact.at("options")[1].at("frequency"));
}

TEST_CASE("an open numeric question: exact mean with a t interval, quantiles within a bin, nothing below 5 answers") {
  const Survey survey = Parse({kAge});
  std::vector<json> answers;
  for (int age = 20; age < 60; ++age) answers.push_back(age);  // 40 answers, mean 39.5, sd sqrt(136.67)
  const json result = ResultOf(survey, "age", answers);
  const json& mean = result.at("statistics").at("mean");
  CHECK(mean.at("value").get<double>() == doctest::Approx(39.5));
  const double half = 2.0226909 * std::sqrt(1640.0 / 12.0) / std::sqrt(40.0);  // t(39) 0.975 quantile
  CHECK(mean.at("high").get<double>() == doctest::Approx(39.5 + half).epsilon(1e-5));
  CHECK(mean.at("std_error").get<double>() == doctest::Approx(std::sqrt(1640.0 / 12.0 / 40.0)));
  const json& median = result.at("statistics").at("median");
  // The 20th smallest answer (39) lies in the 1/1000 bin [38.96, 39.04).
  CHECK(median.at("value").get<double>() == doctest::Approx(39.0).epsilon(1e-3));
  CHECK(median.at("low").get<double>() <= 39.0);
  CHECK(median.at("high").get<double>() >= 39.0);
  for (const auto& [name, statistic] : result.at("statistics").items()) {
    if (statistic.at("low").is_null()) continue;
    INFO(name);
    CHECK(statistic.at("low").get<double>() <= statistic.at("value").get<double>());
    CHECK(statistic.at("value").get<double>() <= statistic.at("high").get<double>());
  }
  const json few = ResultOf(survey, "age", {30, 31, 32, 33});
  CHECK(few.at("statistics").is_null());
  CHECK(few.at("warning") == "fewer than 5 answers: not shown");
}

TEST_CASE("open questions give the identity channel: exact categories and values for the analyses") {
  const Survey survey = Parse({kGender, kAge, kDrug});
  SeededRandom random(3);
  auto wire = PerturbAnswers(survey, {{"gender", 2}, {"age", 41}, {"drug", 1}}, random);
  REQUIRE(wire.ok());
  auto report = ParseReport(survey, *wire);
  REQUIRE(report.ok());
  const CategoryChannel* gender = survey.questions[0].kind->category_channel();
  REQUIRE(gender != nullptr);
  CHECK(gender->ExactCategory(*report->responses[0]) == std::optional<std::size_t>(2));
  CHECK(gender->Likelihood(*report->responses[0]) == std::vector<double>{0, 0, 1, 0});
  CHECK(gender->category_labels() == std::vector<std::string>{"Woman", "Man", "Other", "Prefer not to say"});
  const ValueChannel* age = survey.questions[1].kind->value_channel();
  REQUIRE(age != nullptr);
  CHECK(age->ExactValue(*report->responses[1]) == std::optional<double>(41.0));
  CHECK(survey.questions[0].kind->trust() == Trust::kOpen);
  CHECK(survey.questions[2].kind->trust() == Trust::kLocal);
}

TEST_CASE("small counts of open answers: hidden, and one more where subtraction would give one away") {
  using Counts = std::vector<std::int64_t>;
  CHECK(HiddenCounts(Counts{13, 12, 13, 3}) == std::vector<bool>{false, true, false, true});
  CHECK(HiddenCounts(Counts{3, 0, 50}) == std::vector<bool>{true, true, false});
  CHECK(HiddenCounts(Counts{3, 2, 50}) == std::vector<bool>{true, true, false});  // only their sum is known
  CHECK(HiddenCounts(Counts{0, 5, 50}) == std::vector<bool>{false, false, false});
  CHECK(HiddenCounts(Counts{4}) == std::vector<bool>{true});
}

TEST_CASE("open intervals cover the population at their nominal rate (rare share, skewed values)") {
  // 2,000 samples each; the coverage's binomial sd at 0.95 is 0.0049: 3 sd below 0.95 fails.
  SeededRandom random(7);
  int share_covered = 0, quantile = 0;
  const int samples = 2000;
  for (int s = 0; s < samples; ++s) {
    std::int64_t count = 0;
    std::vector<std::int64_t> bins(100, 0);
    for (int i = 0; i < 200; ++i) {
      count += UniformUnit(random) < 0.03 ? 1 : 0;
      // Exponential(1) truncated at 10, in bins of 0.1: median ln 2 of the untruncated (truncation moves it 3e-5).
      const double x = std::min(-std::log(1 - UniformUnit(random)), 9.999);
      ++bins[static_cast<std::size_t>(x * 10)];
    }
    const OpenInterval share = ShareInterval(count, 200);
    share_covered += share.low <= 0.03 && 0.03 <= share.high ? 1 : 0;
    const OpenInterval median = QuantileInterval(bins, 0.0, 0.1, 0.5);
    quantile += median.low <= std::log(2.0) && std::log(2.0) <= median.high ? 1 : 0;
  }
  MESSAGE("share coverage " << double(share_covered) / samples << ", median " << double(quantile) / samples);
  CHECK(double(share_covered) / samples >= 0.95 - 3 * 0.0049);
  CHECK(double(quantile) / samples >= 0.95 - 3 * 0.0049);
}
