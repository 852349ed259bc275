// Simulation: the survey designer's tool runs the real client and server paths.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "core/simulation.h"

using namespace deniable;
using nlohmann::json;

namespace {

json ReadJson(const std::string& relative) {
  std::ifstream file(std::string(DENIABLE_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str());
}

}  // namespace

TEST_CASE("simulating the demo survey: estimates, truth and errors per question, reproducible") {
  const auto survey = *ParseSurvey(ReadJson("examples/demo-survey.json"));
  const auto truth = ReadJson("examples/demo-truth.json");
  auto first = Simulate(survey, truth, {20000, 7, nullptr, 100000});
  REQUIRE(first.ok());
  CHECK(*Simulate(survey, truth, {20000, 7, nullptr, 100000}) == *first);
  CHECK((*first)["respondents"] == 20000);
  CHECK((*first)["total_epsilon"].get<double>() == doctest::Approx(3.5));
  for (const auto& question : (*first)["questions"]) {
    INFO(question["id"].get<std::string>());
    CHECK(question["n"] == 20000);
    CHECK(question["truth"].size() == question["options"].size());
    // With n = 20000 the 95% intervals are a few points wide: L-inf error well under 0.1.
    CHECK(question["errors"]["linf"].get<double>() < 0.1);
    CHECK(question["errors"]["l1"].get<double>() >= question["errors"]["linf"].get<double>());
    CHECK(question["warning"].is_null());
  }
}

TEST_CASE("simulation reports progress and rejects a bad truth with a clear message") {
  const auto survey = *ParseSurvey(ReadJson("examples/demo-survey.json"));
  std::vector<std::int64_t> progress;
  auto truth = ReadJson("examples/demo-truth.json");
  REQUIRE(Simulate(survey, truth, {300, 1, [&](std::int64_t done) { progress.push_back(done); }, 100}).ok());
  CHECK(progress == std::vector<std::int64_t>{100, 200, 300});

  auto missing = truth;
  missing.erase("stress");
  CHECK(Simulate(survey, missing, {}).error() == "truth.stress: missing (every question needs a truth)");
  auto wrong_length = truth;
  wrong_length["drugs"]["frequencies"] = {1.0};
  CHECK(Simulate(survey, wrong_length, {}).error() ==
        "truth.drugs.frequencies: must be an array of 2 non-negative weights, one per option");
  auto negative = truth;
  negative["drugs"]["frequencies"] = {1.0, -1.0};
  CHECK(Simulate(survey, negative, {}).error() ==
        "truth.drugs.frequencies: weights must be finite and non-negative, found -1.0");
  auto extra = truth;
  extra["other"] = {{"frequencies", {1.0}}};
  CHECK(Simulate(survey, extra, {}).error() == "truth.other: no question with this id");
  CHECK(Simulate(survey, truth, {0, 1, nullptr, 1}).error() ==
        "respondents must be between 1 and 100000000, but is 0");
}
