// Breakdowns by an open question (core/analysis/grouped_analysis.h), through
// the real pipeline: ParseSurvey, answers drawn from a known truth per group,
// PerturbAnswers and ParseReport. Statistical checks use fixed seeds and
// tolerances from the variance formula.
#include <doctest/doctest.h>

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

// "g" asked openly (groups A, B, C and a rare R), "y" randomised, "v" numeric, "h" a histogram.
Survey GroupSurvey(const std::string& mechanism) {
  json questions = json::array();
  questions.push_back({{"id", "g"}, {"text", "Group?"}, {"options", {"A", "B", "C", "R"}}, {"privacy", "open"}});
  questions.push_back({{"id", "y"}, {"text", "Y?"}, {"options", {"y0", "y1", "y2"}}, {"mechanism", Mechanism(mechanism)}});
  questions.push_back({{"id", "v"}, {"text", "V?"}, {"type", "numeric"}, {"range", {0, 10}},
                       {"mechanism", {{"name", "laplace"}, {"epsilon", 2}}}});
  questions.push_back({{"id", "h"}, {"text", "H?"}, {"type", "histogram"}, {"range", {0, 10}},
                       {"histograms", {{{"name", "h"}, {"bins", 2}}}}, {"mechanism", {{"name", "oue"}, {"epsilon", 2}}}});
  auto survey = ParseSurvey(
      {{"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"}, {"questions", questions}});
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return *survey;
}

const std::vector<double> kGroupShares = {0.5, 0.3, 0.18, 0.02};  // R: about 24 of 1200
// P(y | group): each group its own distribution.
const std::vector<std::vector<double>> kAnswerGivenGroup = {
    {0.6, 0.3, 0.1}, {0.2, 0.5, 0.3}, {0.1, 0.2, 0.7}, {0.3, 0.3, 0.4}};

std::size_t Draw(const std::vector<double>& shares, RandomSource& random) {
  double u = UniformUnit(random);
  for (std::size_t c = 0; c < shares.size(); ++c) {
    if ((u -= shares[c]) < 0.0) return c;
  }
  return shares.size() - 1;
}

std::unique_ptr<Analysis> Breakdown(const Survey& survey, const json& spec, int n, RandomSource& random,
                                    const std::vector<double>& shares = kGroupShares) {
  auto analysis = ParseAnalysis(survey, spec);
  REQUIRE_MESSAGE(analysis.ok(), analysis.error());
  for (int i = 0; i < n; ++i) {
    const std::size_t g = Draw(shares, random);
    const json answers = {{"g", g}, {"y", Draw(kAnswerGivenGroup[g], random)}, {"v", 2.0 + 2.0 * g}, {"h", 1.0 + 3.0 * g}};
    auto report = ParseReport(survey, *PerturbAnswers(survey, answers, random));
    REQUIRE(report.ok());
    (*analysis)->Add(*report);
  }
  return std::move(analysis).value();
}

json Estimate(const Analysis& analysis, const json& options = json::object()) {
  auto result = analysis.Estimate(options, nullptr);
  REQUIRE_MESSAGE(result.ok(), result.error());
  return *result;
}

}  // namespace

TEST_CASE("breakdown: each group has the question's own results, and differences against the reference") {
  const Survey survey = GroupSurvey("grr");
  SeededRandom random(5);
  const auto analysis = Breakdown(survey, {{"by", "g"}, {"question", "y"}}, 600, random, {0.5, 0.3, 0.2, 0.0});
  const json result = Estimate(*analysis);
  CHECK(result["analysis"] == json{{"by", "g"}, {"question", "y"}});
  CHECK(result["n"] == 600);
  CHECK(result["interval_for"]["target"] == "population");
  CHECK(result["by"]["labels"] == json{"A", "B", "C", "R"});
  REQUIRE(result["groups"].size() == 4);
  std::int64_t total = 0;
  for (std::size_t g = 0; g < 3; ++g) {
    const json& group = result["groups"][g];
    CHECK(group["n"] == group["respondents"]);
    CHECK(group["result"]["n"] == group["n"]);  // the kind's own results document
    CHECK(group["result"]["options"].size() == 3);
    total += group["n"].get<std::int64_t>();
  }
  CHECK(total == 600);
  CHECK(result["groups"][3]["n"] == 0);  // nobody in R: an empty group, not a hidden one
  CHECK(result["groups"][3]["result"].is_null());
  CHECK(result["differences"]["reference"] == "A");
  const json& rows = result["differences"]["rows"];
  REQUIRE(rows.size() == 6);  // B and C against A, three options each
  const json& a0 = result["groups"][0]["result"]["options"][0];
  const json& b0 = result["groups"][1]["result"]["options"][0];
  CHECK(rows[0]["group"] == "B");
  CHECK(rows[0]["label"] == "y0");
  CHECK(rows[0]["measure"] == "frequency");
  CHECK(rows[0]["estimate"].get<double>() ==
        doctest::Approx(b0["frequency"].get<double>() - a0["frequency"].get<double>()));
  const double se = std::hypot(a0["std_error"].get<double>(), b0["std_error"].get<double>());
  CHECK(rows[0]["std_error"].get<double>() == doctest::Approx(se));
  CHECK(rows[0]["ci_high"].get<double>() - rows[0]["estimate"].get<double>() == doctest::Approx(1.959963984540054 * se));
  // A chosen reference.
  // (No rare group here: hiding R would hide the next smallest group too, C, and leave no reference.)
  const auto by_c =
      Breakdown(survey, {{"by", "g"}, {"question", "y"}, {"reference", "C"}}, 100, random, {0.4, 0.3, 0.3, 0.0});
  const json against_c = Estimate(*by_c);
  CHECK(against_c["analysis"]["reference"] == "C");
  CHECK(against_c["differences"]["reference"] == "C");
  REQUIRE_FALSE(against_c["differences"]["rows"].empty());
  CHECK(against_c["differences"]["rows"][0]["group"] == "A");
}

TEST_CASE("breakdown: groups of 1 to 4 respondents are hidden") {
  const Survey survey = GroupSurvey("oue");
  auto analysis = ParseAnalysis(survey, {{"by", "g"}, {"question", "y"}});
  REQUIRE(analysis.ok());
  SeededRandom random(9);
  for (int i = 0; i < 23; ++i) {
    const int g = i < 20 ? 0 : 3;  // 20 in A, 3 in R
    (*analysis)->Add(*ParseReport(survey, *PerturbAnswers(survey, {{"g", g}, {"y", 1}, {"v", 1.0}, {"h", 1.0}}, random)));
  }
  const json result = Estimate(**analysis);
  CHECK(result["groups"][3]["respondents"] == "<5");
  CHECK(result["groups"][3]["n"] == "<5");
  CHECK(result["groups"][3]["result"].is_null());
  CHECK(result["groups"][0]["n"] == 20);
  CHECK(result["differences"]["rows"].empty());
  CHECK(result["warning"] == "groups of fewer than 5 respondents are hidden.");
}

TEST_CASE("breakdown works for every kind: numeric and histogram questions by group") {
  const Survey survey = GroupSurvey("sue");
  SeededRandom random(21);
  for (const char* question : {"v", "h"}) {
    CAPTURE(std::string(question));
    const auto analysis = Breakdown(survey, {{"by", "g"}, {"question", question}}, 400, random, {0.5, 0.5, 0.0, 0.0});
    const json result = Estimate(*analysis);
    CHECK(result["groups"][0]["result"]["n"] == result["groups"][0]["n"]);
    CHECK(result["groups"][1]["result"].is_object());
    CHECK(result["differences"]["reference"] == "A");
    CHECK_FALSE(result["differences"]["rows"].empty());
    for (const json& row : result["differences"]["rows"]) {
      CHECK(row["group"] == "B");
      if (row["std_error"].is_null()) {
        CHECK(row["note"].is_string());
        CHECK(row["ci_low"].is_null());
      } else {
        CHECK(row["ci_low"].get<double>() <= row["estimate"].get<double>());
      }
    }
  }
}

TEST_CASE("breakdown specs are validated with errors naming the field") {
  const Survey survey = GroupSurvey("grr");
  CHECK(ParseAnalysis(survey, {{"by", "y"}, {"question", "v"}}).error() ==
        "analysis.by: question \"y\" (categorical) is not a categorical question asked openly, so its groups are not "
        "known exactly (cross it with {\"cross\": [...]} instead)");
  CHECK(ParseAnalysis(survey, {{"by", "g"}}).error() == "analysis.question: required field is missing");
  CHECK(ParseAnalysis(survey, {{"by", "g"}, {"question", "g"}}).error() ==
        "analysis.question: the same question as analysis.by");
  CHECK(ParseAnalysis(survey, {{"by", "g"}, {"question", "y"}, {"reference", "Z"}}).error() ==
        "analysis.reference: must be one of the options of \"g\", but is \"Z\"");
  CHECK(ParseAnalysis(survey, {{"by", "nope"}, {"question", "y"}}).error() ==
        "analysis.by: no question \"nope\" in survey \"s\"");
}

// Per mechanism of y: each group's frequencies averaged over replications lie within 4 standard errors of the
// truth P(y | group) (the mean of R estimates has sd se / sqrt(R)); the groups' 95% intervals and the
// differences' intervals (against A) cover at least 95% - 4 binomial sd of the time. The rare group R
// (2%: about 24 of 1200) is included.
TEST_CASE("group estimates and their differences are unbiased and cover, for every categorical mechanism") {
  constexpr int kReplications = 12;
  constexpr int kRespondents = 1200;
  int intervals = 0, covered = 0, differences = 0, differences_covered = 0;
  std::uint64_t seed = 500;
  for (const char* mechanism : {"grr", "oue", "sue", "negative"}) {
    const std::string name = mechanism;
    CAPTURE(name);
    const Survey survey = GroupSurvey(mechanism);
    std::vector<double> mean(12, 0.0), se(12, 0.0);
    std::vector<int> seen(12, 0);
    for (int r = 0; r < kReplications; ++r) {
      SeededRandom random(seed++);
      const json result = Estimate(*Breakdown(survey, {{"by", "g"}, {"question", "y"}}, kRespondents, random));
      for (std::size_t g = 0; g < 4; ++g) {
        const json& group = result["groups"][g]["result"];
        if (group.is_null()) continue;  // R hidden (fewer than 5) in this replication
        for (std::size_t y = 0; y < 3; ++y) {
          const json& option = group["options"][y];
          const double truth = kAnswerGivenGroup[g][y];
          mean[g * 3 + y] += option["frequency"].get<double>();
          se[g * 3 + y] += option["std_error"].get<double>();
          ++seen[g * 3 + y];
          ++intervals;
          covered += option["ci_low"].get<double>() <= truth && truth <= option["ci_high"].get<double>();
        }
      }
      for (const json& row : result["differences"]["rows"]) {
        const std::size_t g = row["group"] == "B" ? 1 : row["group"] == "C" ? 2 : 3;
        const std::size_t y = row["label"] == "y0" ? 0 : row["label"] == "y1" ? 1 : 2;
        const double truth = kAnswerGivenGroup[g][y] - kAnswerGivenGroup[0][y];
        ++differences;
        differences_covered += row["ci_low"].get<double>() <= truth && truth <= row["ci_high"].get<double>();
      }
    }
    for (std::size_t cell = 0; cell < 12; ++cell) {
      CAPTURE(cell);
      REQUIRE(seen[cell] > 0);
      const double k = seen[cell];
      CHECK(std::abs(mean[cell] / k - kAnswerGivenGroup[cell / 3][cell % 3]) <= 4.0 * (se[cell] / k) / std::sqrt(k));
    }
  }
  const double coverage = static_cast<double>(covered) / intervals;
  const double difference_coverage = static_cast<double>(differences_covered) / differences;
  MESSAGE("group intervals cover " << coverage << " of " << intervals << "; differences " << difference_coverage
                                   << " of " << differences);
  CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / intervals));
  CHECK(difference_coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / differences));
}
