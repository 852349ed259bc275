// The shared test vectors (testdata/vectors/v1, written by tests/tools/gen_vectors.cc)
// reproduce natively: each case is one deep-equality assertion that names its
// file and case. tests/wasm/vectors.test.mjs checks the same files against the
// WebAssembly module.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/frequency/frequency_estimator.h"
#include "core/survey/report.h"
#include "core/common/seeded_random.h"
#include "core/survey/survey.h"
#include "core/kinds/categorical/categorical_results.h"

using namespace deniable;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kVectorDir = fs::path(DENIABLE_SOURCE_DIR) / "testdata" / "vectors" / "v1";

struct VectorFile {
  std::string name;
  json content;
};

std::vector<VectorFile> LoadVectors() {
  std::vector<VectorFile> files;
  for (const auto& entry : fs::directory_iterator(kVectorDir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    files.push_back({entry.path().filename().string(), json::parse(text.str(), nullptr, false)});
  }
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return files;
}

std::string Where(const VectorFile& file, const json& item) {
  return file.name + ", case \"" + item.value("name", std::string("?")) + "\"";
}

std::uint64_t Seed(const json& item) { return std::stoull(item.at("seed").get<std::string>()); }

// A case's outcome in the vector's own shape: {"report": ...} or {"error": ...}.
json PerturbOutcome(const Survey& survey, const json& item) {
  SeededRandom random(Seed(item));
  auto report = PerturbAnswers(survey, item.at("answers"), random);
  return report ? json{{"report", *report}} : json{{"error", report.error()}};
}

void CheckPerturbCases(const VectorFile& file, const char* expected_field) {
  auto survey = ParseSurvey(file.content.at("survey"));
  REQUIRE_MESSAGE(survey.ok(), file.name << ": survey is invalid: " << (survey ? "" : survey.error()));
  for (const auto& item : file.content.at("cases")) {
    const json expected = {{expected_field, item.at(expected_field)}};
    const json actual = PerturbOutcome(*survey, item);
    CHECK_MESSAGE(actual == expected, Where(file, item) << ": expected " << expected.dump() << ", got "
                                                        << actual.dump());
  }
}

void CheckDefinitionErrors(const VectorFile& file) {
  for (const auto& item : file.content.at("cases")) {
    auto survey = ParseSurvey(item.at("survey"));
    const json actual = survey ? json{{"survey", SurveyToJson(*survey)}} : json{{"error", survey.error()}};
    const json expected = {{"error", item.at("error")}};
    CHECK_MESSAGE(actual == expected, Where(file, item) << ": expected " << expected.dump() << ", got "
                                                        << actual.dump());
  }
}

// null in a vector stands for NaN (no reports yet).
bool NumbersMatch(double actual, const json& expected, double tolerance) {
  if (expected.is_null()) return std::isnan(actual);
  const double want = expected.get<double>();
  return std::fabs(actual - want) <= tolerance * std::max(1.0, std::fabs(want));
}

bool OptionMatches(const OptionEstimate& actual, const json& expected, double tolerance) {
  return NumbersMatch(actual.count, expected.at("count"), tolerance) &&
         NumbersMatch(actual.frequency, expected.at("frequency"), tolerance) &&
         NumbersMatch(actual.std_error, expected.at("std_error"), tolerance) &&
         NumbersMatch(actual.ci_low, expected.at("ci_low"), tolerance) &&
         NumbersMatch(actual.ci_high, expected.at("ci_high"), tolerance) &&
         NumbersMatch(actual.consistent_frequency, expected.at("consistent_frequency"), tolerance);
}

std::string EstimateToText(const FrequencyEstimate& estimate) {
  std::ostringstream out;
  out.precision(17);
  for (const auto& o : estimate.options) {
    out << "{count " << o.count << ", frequency " << o.frequency << ", std_error " << o.std_error << ", ci ["
        << o.ci_low << ", " << o.ci_high << "], consistent " << o.consistent_frequency << "} ";
  }
  return out.str();
}

void CheckEstimates(const VectorFile& file) {
  const double tolerance = file.content.at("tolerance").get<double>();
  for (const auto& item : file.content.at("cases")) {
    auto survey = ParseSurvey(item.at("survey"));
    REQUIRE_MESSAGE(survey.ok(), Where(file, item) << ": survey is invalid");
    const auto counts = item.at("support_counts").get<std::vector<std::int64_t>>();
    const auto target = ReadIntervalTarget(item);  // "interval": "respondents", or the population
    REQUIRE(target.ok());
    const auto estimate = EstimateFrequencies(counts, item.at("n").get<std::int64_t>(),
                                              CategoricalKindOf(survey->questions.at(0)).mechanism().probabilities(), *target);
    const auto& expected = item.at("expected");
    bool matches = estimate.options.size() == expected.size();
    for (std::size_t i = 0; matches && i < expected.size(); ++i) {
      matches = OptionMatches(estimate.options[i], expected[i], tolerance);
    }
    CHECK_MESSAGE(matches, Where(file, item) << ": expected " << expected.dump() << ", got "
                                             << EstimateToText(estimate));
  }
}

}  // namespace

TEST_CASE("the committed test vectors are all present and well formed") {
  const auto files = LoadVectors();
  std::set<std::string> names;
  for (const auto& file : files) {
    names.insert(file.name);
    CHECK_MESSAGE(!file.content.is_discarded(), file.name << " is not valid JSON");
    if (file.content.is_discarded()) continue;
    CHECK_MESSAGE(file.content.value("format", "") == "deniable.vectors/v1", file.name << ": wrong format");
    CHECK_MESSAGE(file.content.contains("cases"), file.name << ": no cases");
    if (file.content.contains("cases")) CHECK_MESSAGE(!file.content.at("cases").empty(), file.name << ": no cases");
  }
  for (const char* expected : {"grr_1.json", "grr_2.json", "oue_1.json", "sue_1.json", "negative_1.json",
                               "negative_2.json", "survey_1.json", "answers_bad_1.json", "definition_bad_1.json",
                               "estimate_1.json", "rvns_1.json", "rvns_2.json", "rvns_3.json", "rvns_4.json",
                               "laplace_1.json", "duchi_1.json", "piecewise_1.json", "hybrid_1.json",
                               "square_wave_1.json", "levels_1.json", "levels_2.json", "numeric_answers_bad_1.json"}) {
    CHECK_MESSAGE(names.count(expected) == 1, "missing vector file " << expected);
  }
}

TEST_CASE("every committed test vector reproduces with native core") {
  for (const auto& file : LoadVectors()) {
    if (file.content.is_discarded()) continue;  // reported by the test above
    const std::string kind = file.content.value("kind", "");
    if (kind == "perturb") {
      CheckPerturbCases(file, "report");
    } else if (kind == "perturb_error") {
      CheckPerturbCases(file, "error");
    } else if (kind == "definition_error") {
      CheckDefinitionErrors(file);
    } else if (kind == "estimate") {
      CheckEstimates(file);
    } else {
      FAIL_CHECK(file.name << ": unknown vector kind \"" << kind << "\"");
    }
  }
}
