// The client parse (ParseClientSurvey, the respondent's WebAssembly module)
// against the full one (ParseSurvey): on every example survey, every test
// vector's definition and variants of their questions (open, confidential,
// broken), both accept or both reject with the same message; accepted, they
// give the same canonical JSON, page summaries, privacy texts and epsilons,
// and the same seeded reports. The client kinds are registered in the same
// order as the full ones.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/survey/kind_registry.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace deniable;

namespace {

const fs::path kSource = fs::path(DENIABLE_SOURCE_DIR);

json ReadJson(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str(), nullptr, false);
}

// Every survey definition the repository ships: examples/*-survey.json, the
// v1 vectors' surveys (and their bad definitions) and the kinds' vectors.
std::vector<json> ShippedDefinitions() {
  std::vector<json> definitions;
  for (const auto& entry : fs::directory_iterator(kSource / "examples")) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 12 && name.compare(name.size() - 12, 12, "-survey.json") == 0) {
      definitions.push_back(ReadJson(entry.path()));
    }
  }
  for (const auto* folder : {"testdata/vectors/v1", "testdata/vectors/kinds"}) {
    for (const auto& entry : fs::directory_iterator(kSource / folder)) {
      const json vector = ReadJson(entry.path());
      if (vector.contains("survey")) definitions.push_back(vector.at("survey"));
      for (const auto& item : vector.value("cases", json::array())) {
        if (item.contains("survey")) definitions.push_back(item.at("survey"));
      }
    }
  }
  return definitions;
}

// Variants of each question that take the parsers down their other paths:
// asked openly, answered in confidence, a privacy value neither knows, an
// unknown field, and each field removed in turn.
std::vector<json> QuestionVariants(const json& definition) {
  std::vector<json> variants;
  if (!definition.is_object() || !definition.contains("questions") || !definition.at("questions").is_array()) {
    return variants;
  }
  const json& questions = definition.at("questions");
  for (std::size_t q = 0; q < questions.size(); ++q) {
    if (!questions[q].is_object()) continue;
    auto vary = [&](const json& question) {
      json variant = definition;
      variant["questions"][q] = question;
      variants.push_back(variant);
    };
    for (const char* privacy : {"open", "central", "local", "bogus"}) {
      json question = questions[q];
      question["privacy"] = privacy;
      vary(question);
      question["budget"] = 1.5;
      vary(question);
    }
    json unknown = questions[q];
    unknown["colour"] = "red";
    vary(unknown);
    for (const auto& field : questions[q].items()) {
      json without = questions[q];
      without.erase(field.key());
      vary(without);
    }
  }
  return variants;
}

// The client's view of a parsed survey: what the page reads of each question.
json ClientView(const Survey& survey) {
  json questions = json::array();
  for (const Question& question : survey.questions) {
    const KindClient& client = *question.client;
    questions.push_back({{"type", client.type()},
                         {"definition", client.DefinitionToJson()},
                         {"mechanism", client.MechanismToJson()},
                         {"privacy", client.PrivacyToJson()},
                         {"summary", client.PageSummary()},
                         {"epsilon", client.epsilon() ? json(*client.epsilon()) : json()},
                         {"trust", static_cast<int>(client.trust())},
                         {"numeric", client.numeric_answers() ? json({client.numeric_answers()->range.low,
                                                                      client.numeric_answers()->range.high})
                                                              : json()}});
  }
  const auto total = TotalEpsilon(survey);
  return {{"survey", SurveyToJson(survey)}, {"total_epsilon", total ? json(*total) : json()}, {"questions", questions}};
}

void CheckSameParse(const json& definition) {
  const auto full = ParseSurvey(definition);
  const auto client = ParseClientSurvey(definition);
  CAPTURE(definition.dump());
  REQUIRE(full.ok() == client.ok());
  if (!full) {
    CHECK(client.error() == full.error());
    return;
  }
  CHECK(ClientView(*client) == ClientView(*full));
  for (const Question& question : client->questions) CHECK(question.kind == nullptr);
  for (const Question& question : full->questions) {
    CHECK(question.kind != nullptr);
    CHECK(question.client.get() == static_cast<const KindClient*>(question.kind.get()));
  }
}

}  // namespace

TEST_CASE("client survey: the client kinds are the full kinds, in the same order") {
  const auto full = RegisteredKinds();
  const auto client = RegisteredClientKinds();
  REQUIRE(client.size() == full.size());
  for (std::size_t i = 0; i < full.size(); ++i) CHECK(client[i].type == full[i].type);
  CHECK(FindClientKind("nope").error() == FindKind("nope").error());
}

TEST_CASE("client survey: the client parse accepts and rejects exactly what the full parse does") {
  const auto definitions = ShippedDefinitions();
  REQUIRE(definitions.size() > 30);
  std::size_t accepted = 0, variants = 0;
  for (const json& definition : definitions) {
    CheckSameParse(definition);
    if (ParseSurvey(definition)) ++accepted;
    for (const json& variant : QuestionVariants(definition)) {
      CheckSameParse(variant);
      ++variants;
    }
  }
  CHECK(accepted > 20);
  CHECK(variants > 200);
}

TEST_CASE("client survey: seeded reports from the client parse equal the vectors") {
  std::size_t cases = 0;
  for (const auto* folder : {"testdata/vectors/v1", "testdata/vectors/kinds"}) {
    for (const auto& entry : fs::directory_iterator(kSource / folder)) {
      const json vector = ReadJson(entry.path());
      if (!vector.contains("survey")) continue;
      const auto survey = ParseClientSurvey(vector.at("survey"));
      if (!survey) continue;
      for (const auto& item : vector.at("cases")) {
        if (!item.contains("seed") || !item.contains("answers")) continue;
        SeededRandom random(std::stoull(item.at("seed").get<std::string>()));
        const auto report = PerturbAnswers(*survey, item.at("answers"), random);
        CAPTURE(entry.path().filename().string());
        if (item.contains("report")) {
          REQUIRE(report.ok());
          CHECK(*report == item.at("report"));
        } else if (item.contains("error")) {
          REQUIRE(!report.ok());
          CHECK(report.error() == item.at("error").get<std::string>());
        }
        ++cases;
      }
    }
  }
  CHECK(cases > 50);
}
