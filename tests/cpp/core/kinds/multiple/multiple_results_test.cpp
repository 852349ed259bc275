// A "choose all that apply" question's definition and results document
// (multiple_client.h, multiple_results.h): what the parser refuses, the
// results with no reports, the number chosen where the reports cannot give
// it (no estimate, said so), padding's truncation note, every estimate inside
// its own interval, and the CSV rows.
#include <doctest/doctest.h>

#include <string>

#include "core/common/seeded_random.h"
#include "core/kinds/multiple/multiple_results.h"
#include "core/kinds/multiple/multiple_truth.h"

using namespace deniable;
using nlohmann::json;

namespace {

json QuestionOf(int options, const json& mechanism) {
  json question = {{"id", "q"}, {"text", "Which?"}, {"type", "multiple"}, {"mechanism", mechanism}};
  for (int i = 0; i < options; ++i) question["options"].push_back("option " + std::to_string(i));
  return question;
}

std::string ParseError(const json& question) {
  auto kind = MultipleQuestionKind::Parse(question, "q");
  return kind.ok() ? "" : kind.error();
}

}  // namespace

TEST_CASE("multiple: the definition's errors name the field") {
  CHECK(ParseError(QuestionOf(4, {{"name", "optimized_bits"}, {"epsilon", 1}})).empty());
  json capped = QuestionOf(4, {{"name", "optimized_bits"}, {"epsilon", 1}});
  capped["max_choices"] = 5;
  CHECK(ParseError(capped).find("q.max_choices") != std::string::npos);
  CHECK(ParseError(QuestionOf(65, {{"name", "optimized_bits"}, {"epsilon", 1}})).find("q.options") != std::string::npos);
  CHECK(ParseError(QuestionOf(4, {{"name", "oue"}, {"epsilon", 1}})).find("unknown mechanism \"oue\"") != std::string::npos);
  CHECK(ParseError(QuestionOf(4, {{"name", "symmetric_bits"}, {"epsilon", 1}, {"padding", 2}}))
            .find("padding: applies only to padding_sampling") != std::string::npos);
  CHECK(ParseError(QuestionOf(4, {{"name", "padding_sampling"}, {"epsilon", 1}, {"padding", 5}})).find("padding") !=
        std::string::npos);
  CHECK(ParseError(QuestionOf(4, {{"name", "padding_sampling"}})).find("q.mechanism.epsilon") != std::string::npos);
  // The definition round trip: a default cap and padding are written only when they are not the defaults.
  auto kind = *MultipleQuestionKind::Parse(QuestionOf(4, {{"name", "padding_sampling"}, {"epsilon", 1}}), "q");
  CHECK(kind->DefinitionToJson().contains("max_choices") == false);
  CHECK(kind->MechanismToJson().at("padding") == 4);
  CHECK(kind->PrivacyToJson().at("guarantee").get<std::string>().find("whole set") != std::string::npos);
  SeededRandom random(3);
  CHECK_FALSE(kind->Perturb(json::array({0, 0}), random).ok());
  CHECK(kind->Perturb(json::array(), random).ok());
}

TEST_CASE("multiple: results with no reports are null and say so") {
  auto kind = *MultipleQuestionKind::Parse(QuestionOf(4, {{"name", "optimized_bits"}, {"epsilon", 1}}), "q");
  const auto& multiple = dynamic_cast<const MultipleQuestionKind&>(*kind);
  const json result = MultipleResultToJson(multiple, static_cast<const MultipleAggregate&>(*kind->NewAggregate()));
  CHECK(result.at("warning") == "no reports yet");
  CHECK(result.at("options")[0].at("share").is_null());
  CHECK(result.at("number_chosen").is_null());
  CHECK(MultipleCsvRows(result).size() == 4);
}

namespace {

json Simulated(const json& question, const json& truth, int n, std::uint64_t seed) {
  auto kind = *MultipleQuestionKind::Parse(question, "q");
  const auto& multiple = dynamic_cast<const MultipleQuestionKind&>(*kind);
  auto sampler = std::move(multiple.ParseTruth(truth, "truth")).value();
  auto aggregate = kind->NewAggregate();
  SeededRandom random(seed);
  for (int i = 0; i < n; ++i) aggregate->Add(**kind->Decode(*kind->Perturb(*sampler->Draw(random), random)));
  json result = MultipleResultToJson(multiple, static_cast<const MultipleAggregate&>(*aggregate));
  result.update(sampler->Compare(result));
  return result;
}

}  // namespace

TEST_CASE("multiple: where the reports cannot give the number chosen, no estimate and a note; the mean stays") {
  // 64 options, any number chosen, epsilon 1: each bit at 1/64, and the channel of the number of 1s is singular
  // to double precision.
  json shares = json::array();
  for (int i = 0; i < 64; ++i) shares.push_back(i < 4 ? 0.5 : 0.02);
  const json result = Simulated(QuestionOf(64, {{"name", "symmetric_bits"}, {"epsilon", 1}}), {{"shares", shares}}, 300, 5);
  CHECK(result.at("number_chosen").at("distribution").is_null());
  CHECK(result.at("number_chosen").at("note").get<std::string>().find("no honest interval exists") != std::string::npos);
  CHECK(result.at("number_chosen").at("mean").is_number());
  CHECK(result.at("number_chosen").at("std_error").get<double>() > 0.0);
  // 8 options, any number chosen, epsilon 1: the channel is invertible (condition number about 10^5) but a
  // share's standard error would reach 10^6: no distribution, said so.
  json eight = json::array();
  for (double share : {0.30, 0.65, 0.37, 0.15, 0.19, 0.21, 0.48, 0.20}) eight.push_back(share);
  const json checklist = Simulated(QuestionOf(8, {{"name", "symmetric_bits"}, {"epsilon", 1}}), {{"shares", eight}}, 3000, 11);
  CHECK(checklist.at("number_chosen").at("distribution").is_null());
  CHECK(checklist.at("number_chosen").at("note").get<std::string>().find("no useful interval exists") != std::string::npos);
  CHECK(checklist.at("number_chosen").at("mean").is_number());
  // k = 4 at epsilon 4: a distribution, each estimate inside its interval.
  const json small = Simulated(QuestionOf(4, {{"name", "symmetric_bits"}, {"epsilon", 4}}),
                               {{"shares", {0.5, 0.2, 0.3, 0.1}}}, 2000, 7);
  REQUIRE(small.at("number_chosen").at("distribution").is_array());
  CHECK(small.at("number_chosen").at("distribution").size() == 5);
  for (const auto& row : small.at("number_chosen").at("distribution")) {
    CHECK(row.at("ci_low").get<double>() <= row.at("share").get<double>());
    CHECK(row.at("share").get<double>() <= row.at("ci_high").get<double>());
  }
  for (const auto& option : small.at("options")) {
    CHECK(option.at("consistent_ci_low").get<double>() <= option.at("consistent_share").get<double>());
    CHECK(option.at("consistent_share").get<double>() <= option.at("consistent_ci_high").get<double>());
  }
  CHECK(MultipleCsvRows(small).size() == 4 + 1 + 5);
  CHECK_FALSE(MultipleSimulationText(small).empty());
}

TEST_CASE("multiple: padding shorter than the cap says its larger sets are under-counted, and lumps them") {
  json question = QuestionOf(5, {{"name", "padding_sampling"}, {"epsilon", 2}, {"padding", 2}});
  const json result = Simulated(question, {{"values", {json::array({0, 1, 2}), json::array({1}), json::array()}}}, 1500, 9);
  CHECK(result.at("truncation").get<std::string>().find("under-estimated") != std::string::npos);
  const auto& distribution = result.at("number_chosen").at("distribution");
  REQUIRE(distribution.size() == 3);
  CHECK(distribution[2].at("or_more") == true);
  // A truth of independent shares needs no cap.
  question["max_choices"] = 3;
  auto kind = *MultipleQuestionKind::Parse(question, "q");
  CHECK_FALSE(kind->ParseTruth({{"shares", {0.1, 0.1, 0.1, 0.1, 0.1}}}, "truth").ok());
}
