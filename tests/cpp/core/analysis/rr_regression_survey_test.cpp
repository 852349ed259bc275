// The regression analysis on a real survey: open covariates ("privacy":
// "open"), a randomised outcome through the categorical kind's own channel,
// reports made and parsed as the page and server do. Reproduces rr's rrreg
// on a forced-response item: GRR with k = 2 at epsilon ln 5 is the forced
// design p = 2/3, p1 = p0 = 1/6, and the result's log-likelihood is rrreg's
// formula at the reported coefficients.
#include <doctest.h>

#include <cmath>

#include "core/analysis/analysis.h"
#include "core/analysis/analysis_simulation.h"
#include "core/common/seeded_random.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/rr_simulate.h"

namespace deniable {
namespace {

using nlohmann::json;

Survey StudySurvey(const json& drugs_mechanism) {
  const json definition = {
      {"format", kSurveyFormat},
      {"id", "study"},
      {"version", 1},
      {"title", "Study"},
      {"questions",
       {{{"id", "gender"}, {"text", "Gender?"}, {"type", "categorical"}, {"options", {"Woman", "Man", "Other"}},
         {"privacy", "open"}},
        {{"id", "age"}, {"text", "Age?"}, {"type", "numeric"}, {"range", {18, 98}}, {"step", 1}, {"privacy", "open"}},
        {{"id", "drugs"}, {"text", "Used?"}, {"type", "categorical"}, {"options", {"No", "Yes"}},
         {"mechanism", drugs_mechanism}}}}};
  auto survey = ParseSurvey(definition);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  return std::move(survey).value();
}

// True coefficients: intercept, Man, Other, age.
const double kBeta[] = {0.5, 0.8, -0.4, -0.03};

struct Person {
  json answers;
  int report;
  double man, other, age;
};

std::vector<Person> Respondents(const Survey& survey, int n, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<Person> people;
  for (int i = 0; i < n; ++i) {
    const double u = UniformUnit(random);
    const int gender = u < 0.47 ? 0 : u < 0.94 ? 1 : 2;
    const int age = 18 + static_cast<int>(UniformBelow(random, 63));
    const double eta = kBeta[0] + kBeta[1] * (gender == 1) + kBeta[2] * (gender == 2) + kBeta[3] * age;
    const int drugs = Bernoulli(random, 1 / (1 + std::exp(-eta))) ? 1 : 0;
    json answers = {{"gender", gender}, {"age", age}, {"drugs", drugs}};
    auto wire = PerturbAnswers(survey, answers, random);
    REQUIRE(wire.ok());
    people.push_back({answers, wire->at("responses").at("drugs").get<int>(), double(gender == 1),
                      double(gender == 2), double(age)});
  }
  return people;
}

TEST_CASE("rr regression survey: rr's forced-response item, reproduced through the categorical kind") {
  const Survey survey = StudySurvey({{"name", "grr"}, {"epsilon", std::log(5.0)}});
  const json spec = {{"regress", "drugs"}, {"on", {"gender", "age"}}};
  auto analysis = ParseAnalysis(survey, spec);
  REQUIRE_MESSAGE(analysis.ok(), (analysis.ok() ? "" : analysis.error()));
  SeededRandom random(99);
  const auto people = Respondents(survey, 3000, 17);
  for (const auto& person : people) {
    json answers = person.answers;
    auto perturbed = PerturbAnswers(survey, answers, random);
    REQUIRE(perturbed.ok());
    json wire = *perturbed;
    wire["responses"]["drugs"] = person.report;  // the report drawn with the truth
    auto report = ParseReport(survey, wire);
    REQUIRE(report.ok());
    (*analysis)->Add(*report);
  }
  auto result = (*analysis)->Estimate(json::object(), nullptr);
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error()));
  const json& r = *result;
  CHECK(r["n"] == 3000);
  CHECK(r["converged"] == true);
  REQUIRE(r["coefficients"].size() == 4);
  const char* terms[] = {"(intercept)", "gender=Man", "gender=Other", "age"};
  double b[4];
  for (int j = 0; j < 4; ++j) {
    const json& c = r["coefficients"][j];
    CAPTURE(c.dump());
    CHECK(c["term"] == terms[j]);
    CHECK(c["outcome_level"] == "Yes");
    b[j] = c["estimate"].get<double>();
    // Within 4 of its own SEs of the truth: a false failure < 1e-4 each.
    CHECK(std::abs(b[j] - kBeta[j]) < 4 * c["std_error"].get<double>());
  }
  // rrreg's observed log-likelihood (forced-known design: c = p = 2/3, d = p1 = 1/6)
  // at the reported coefficients equals the result's.
  double rrreg = 0;
  for (const auto& person : people) {
    const double g = 1 / (1 + std::exp(-(b[0] + b[1] * person.man + b[2] * person.other + b[3] * person.age)));
    const double yes = 2.0 / 3 * g + 1.0 / 6;
    rrreg += person.report == 1 ? std::log(yes) : std::log(1 - yes);
  }
  CHECK(r["log_likelihood"].get<double>() == doctest::Approx(rrreg).epsilon(1e-9));
  REQUIRE(r["predictions"].size() == 3);
  CHECK(r["predictions"][1]["profile"]["gender"] == "Man");
}

TEST_CASE("rr regression survey: simulate's check against the open twin (the non-private fit)") {
  const Survey survey = StudySurvey({{"name", "grr"}, {"epsilon", 2.0}});
  const json spec = {{"regress", "drugs"}, {"on", {"gender", "age"}}};
  auto check = AnalysisCheck::Create(survey, spec, json::object());
  REQUIRE_MESSAGE(check.ok(), (check.ok() ? "" : check.error()));
  SeededRandom random(5);
  for (const auto& person : Respondents(survey, 1500, 6)) {
    auto wire = PerturbAnswers(survey, person.answers, random);
    REQUIRE(wire.ok());
    auto report = ParseReport(survey, *wire);
    REQUIRE(report.ok());
    (*check)->Add(person.answers, *report);
  }
  const json compared = (*check)->Compare();
  CAPTURE(compared.dump());
  REQUIRE_FALSE(compared["truth"].contains("error"));
  CHECK(compared["truth"]["n"] == 1500);
  // The twin's coefficients: the ordinary logistic fit on the true answers.
  CHECK(compared["truth"]["coefficients"].size() == 4);
  CHECK(compared["comparison"]["intervals"].get<int>() >= 4);
}

}  // namespace
}  // namespace deniable
