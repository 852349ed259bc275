// A model's rounds (model_rounds.h, seed 003): one sampled component per report,
// per-round sums that merge in any order, admission in order so that a round
// never takes more than its batch, rounds dealt to chains in turn, the public
// state equal to a full replay, and max_rounds.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/model_survey.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("regression: each report carries one uniformly drawn component; rounds merge in any order") {
  auto survey = ParseSurvey(ModelSurvey(2.0, 30, 1.0));
  REQUIRE(survey.ok());
  SeededRandom random(4);
  SurveyAggregate all(*survey), odd(*survey), even(*survey);
  std::vector<int> components(3, 0);
  for (int i = 0; i < 300; ++i) {
    const json answers = WithPublicStates(*survey, all, json{{"fit", {{"features", {i % 10, (i % 7) - 3}}, {"target", (i * 13) % 100}}}});
    auto wire = PerturbAnswers(*survey, answers, random);
    REQUIRE(wire.ok());
    ++components[(*wire)["responses"]["fit"]["component"].get<int>()];
    auto report = ParseReport(*survey, *wire);
    REQUIRE(report.ok());
    REQUIRE(all.Admits(*survey, *report).ok());
    all.Add(*report);
    (i % 2 ? odd : even).Add(*report);
  }
  for (int count : components) CHECK(std::abs(count - 100) < 4 * std::sqrt(300 * (1.0 / 3) * (2.0 / 3)));
  REQUIRE(odd.Merge(even).ok());
  // Equal up to the rounding of sums added in another order.
  const json merged = PublicStatesToJson(*survey, odd)["questions"]["fit"];
  const json sequential = PublicStatesToJson(*survey, all)["questions"]["fit"];
  CHECK(merged["round"] == sequential["round"]);
  for (int j = 0; j < 3; ++j) {
    CHECK(merged["coefficients"][j].get<double>() == doctest::Approx(sequential["coefficients"][j].get<double>()).epsilon(1e-12));
  }
  CHECK(sequential["rounds_completed"] == 10);
}

TEST_CASE("regression: reports counted together are admitted in order, so a round never takes more than its batch") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  auto gradient = [&](long long round, int component) {
    auto report = ParseReport(*survey, json{{"survey", "m"}, {"version", 1},
                                            {"responses", {{"fit", {{"round", round}, {"component", component}, {"value", 0.5}}}}}});
    REQUIRE(report.ok());
    return *report;
  };
  aggregate.Add(gradient(1, 0));
  // Four reports for round 1, each admitted alone (two places left): counted together, the first two fill it.
  const std::vector<Report> batch = {gradient(1, 1), gradient(1, 2), gradient(1, 0), gradient(1, 1)};
  for (const Report& report : batch) CHECK(aggregate.Admits(*survey, report).ok());
  std::vector<const Report*> pointers;
  for (const Report& report : batch) pointers.push_back(&report);
  const std::vector<Status> admitted = aggregate.AdmitInOrder(*survey, pointers);
  REQUIRE(admitted.size() == 4);
  CHECK(admitted[0].ok());
  CHECK(admitted[1].ok());
  REQUIRE_FALSE(admitted[2].ok());
  CHECK(admitted[2].error() == "questions.fit: round 1 is closed; the current round is 2: fetch the model's state again and prepare a new report");
  CHECK_FALSE(admitted[3].ok());
  // The aggregate itself is unchanged by the judgement.
  CHECK(PublicStatesToJson(*survey, aggregate)["questions"]["fit"]["reports_in_round"] == 1);
}

TEST_CASE("regression: rounds are dealt to the chains in turn; the state is the current round's chain's") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 2));
  REQUIRE(survey.ok());
  CHECK(ModelOf(*survey).chains() == 2);
  CHECK(ParseSurvey(ModelSurvey(1.0, 1, 1.0))->questions[3].kind->DefinitionToJson().count("chains") == 0);
  CHECK(ModelOf(*ParseSurvey(ModelSurvey(1.0, 1, 1.0))).chains() == kDefaultModelChains);
  auto refused = ParseSurvey(ModelSurvey(1.0, 1, 1.0, 1.0, 0));
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("chains") != std::string::npos);
  SurveyAggregate aggregate(*survey);
  auto state = [&] { return PublicStatesToJson(*survey, aggregate)["questions"]["fit"]; };
  aggregate.Add(Gradient(*survey, 1, 0, 0.5));  // chain 1, step 1: b0 = -1 * 0.5
  CHECK(state()["round"] == 2);
  CHECK(state()["coefficients"] == json{0.0, 0.0, 0.0});  // chain 2 has not moved
  aggregate.Add(Gradient(*survey, 2, 1, -0.25));  // chain 2, step 1: b1 = +0.25
  CHECK(state()["coefficients"] == json{-0.5, 0.0, 0.0});  // round 3: chain 1 again
  aggregate.Add(Gradient(*survey, 3, 0, 0.5));  // chain 1, step 2: rate 1/sqrt(2)
  CHECK(state()["coefficients"] == json{0.0, 0.25, 0.0});
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["rounds"][3]["chain"] == 1);
  CHECK(result["rounds"][3]["coefficients"][0].get<double>() == doctest::Approx(-0.5 - 0.5 / std::sqrt(2.0)));
  // Chain 1 averages its rounds 3 (the last half of 1 and 3), chain 2 its round 2.
  CHECK(result["coefficients"]["by_chain"][0]["averaged_rounds"] == json{3, 3});
  CHECK(result["coefficients"]["normalised"][0].get<double>() == doctest::Approx((-0.5 - 0.5 / std::sqrt(2.0)) / 2));
}

TEST_CASE("regression: the public state is kept as rounds close, equal to a full replay, also after merges and late reports") {
  auto survey = ParseSurvey(ModelSurvey(1.0, 3, 1.0, 1.0, 4));
  REQUIRE(survey.ok());
  const auto& kind = *survey->questions[3].kind;
  const ModelDefinition& model = ModelOf(*survey);
  SeededRandom random(11);
  auto whole = kind.NewAggregate();
  auto first_half = kind.NewAggregate(), second_half = kind.NewAggregate();
  auto& whole_model = static_cast<ModelAggregate&>(*whole);
  for (int report = 0; report < 90; ++report) {
    const long long round = whole_model.CurrentRound();
    const GradientResponse response(round, static_cast<int>(UniformBelow(random, 3)), 2.0 * UniformUnit(random) - 1.0);
    whole->Add(response);
    (report % 2 == 0 ? first_half : second_half)->Add(response);
    const ModelTrajectory replay = ReplayModel(model, whole_model);
    REQUIRE(whole_model.CurrentCoefficients() == replay.current);
    CHECK(kind.PublicState(*whole)->at("rounds_completed") == replay.steps.size());
  }
  CHECK(whole_model.CurrentRound() == 31);
  // Merged halves (each with out-of-order rounds of its own) give the same state.
  REQUIRE(first_half->Merge(*second_half).ok());
  CHECK(static_cast<const ModelAggregate&>(*first_half).CurrentCoefficients() == whole_model.CurrentCoefficients());
  // A report counted in a closed round (replayed from an older database) moves every later step of its chain.
  whole->Add(GradientResponse(2, 0, 0.9));
  const ModelTrajectory replay = ReplayModel(model, whole_model);
  CHECK(whole_model.CurrentCoefficients() == replay.current);
  CHECK(kind.PublicState(*whole)->at("coefficients") == json(replay.current));
}

TEST_CASE("regression: max_rounds bounds the rounds; a complete model refuses gradients and takes the report without them") {
  json definition = ModelSurvey(1.0, 1, 1.0, 1.0, 2);
  CHECK(ModelOf(*ParseSurvey(definition)).max_rounds() == kDefaultModelMaxRounds);
  CHECK(ParseSurvey(definition)->questions[3].kind->DefinitionToJson().count("max_rounds") == 0);
  for (const auto& [rounds, message] : std::vector<std::pair<json, std::string>>{
           {0, "questions[3].max_rounds: must be between 1 and 100000, but is 0"},
           {100001, "questions[3].max_rounds: must be between 1 and 100000, but is 100001"},
           {1, "questions[3].max_rounds: must be at least the number of chains (2), so that every chain trains, but is 1"}}) {
    definition["questions"][3]["max_rounds"] = rounds;
    const auto refused = ParseSurvey(definition);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error() == message);
  }
  definition["questions"][3]["max_rounds"] = 4;
  auto survey = ParseSurvey(definition);
  REQUIRE(survey.ok());
  CHECK(survey->questions[3].kind->DefinitionToJson()["max_rounds"] == 4);
  SurveyAggregate aggregate(*survey);
  auto state = [&] { return PublicStatesToJson(*survey, aggregate)["questions"]["fit"]; };
  auto report = [&](const json& response) {
    auto parsed = ParseReport(*survey, json{{"survey", "m"}, {"version", 1}, {"responses", {{"fit", response}}}});
    REQUIRE(parsed.ok());
    return *parsed;
  };
  // While the model takes reports, its part cannot be left out (null).
  const Report none = report(nullptr);
  CHECK(aggregate.Admits(*survey, none).error().find("questions.fit: the model still takes reports (round 1 of at most 4)") == 0);
  CHECK_FALSE(aggregate.RefusedAsComplete(none));
  CHECK(state().count("complete") == 0);
  for (long long round = 1; round <= 4; ++round) {
    REQUIRE(aggregate.Admits(*survey, Gradient(*survey, round, 0, 0.5)).ok());
    aggregate.Add(Gradient(*survey, round, 0, 0.5));
  }
  // Complete: round 5 would be past the cap. Refused as complete (409 model_complete), the null admitted.
  CHECK(state()["complete"] == true);
  CHECK(state()["round"] == 5);
  const Report past = Gradient(*survey, 5, 1, 0.5);
  const Status refused = aggregate.Admits(*survey, past);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().find("questions.fit: the model is complete: its 4 rounds (max_rounds) are all done") == 0);
  CHECK(aggregate.RefusedAsComplete(past));
  CHECK(aggregate.Admits(*survey, none).ok());
  // The respondent's device, given that state, computes and sends nothing for the model.
  SeededRandom random(3);
  const auto answer = survey->questions[3].kind->Perturb(
      json{{"features", {1, 0}}, {"target", 5}, {"state", state()}}, random);
  REQUIRE(answer.ok());
  CHECK(answer->is_null());
  aggregate.Add(none);
  CHECK(aggregate.question(3).n() == 4);
  const json result = SurveyResultsToJson(*survey, aggregate)["questions"][3];
  CHECK(result["complete"] == true);
  CHECK(result["max_rounds"] == 4);
  CHECK(result["rounds_completed"] == 4);
  CHECK(result["note"].get<std::string>().find("the model is complete") == 0);
}
