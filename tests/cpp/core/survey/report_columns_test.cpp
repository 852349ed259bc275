// ReportColumns (core/survey/report_columns.h): each kind's report as the
// columns of the reports' export, and the channel a researcher rebuilds the
// likelihood from. Exact values for each kind's wire forms; every kind's
// conformance fixture perturbed through the real client path gives one value
// per column; questions answered in confidence have no columns at all.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/survey/kind_registry.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

using nlohmann::json;
using namespace deniable;

namespace {

Survey SurveyOf(const json& questions) {
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "t"}, {"questions", questions}});
  REQUIRE_MESSAGE(survey.ok(), survey.error());
  return std::move(survey).value();
}

const ReportColumns& ColumnsOf(const Survey& survey, std::size_t q) {
  const ReportColumns* columns = survey.questions.at(q).kind->report_columns();
  REQUIRE(columns != nullptr);
  return *columns;
}

std::vector<std::string> Suffixes(const ReportColumns& columns) {
  std::vector<std::string> suffixes;
  for (const auto& column : columns.Columns()) suffixes.push_back(column.suffix);
  return suffixes;
}

}  // namespace

TEST_CASE("report columns: categorical grr is the option reported, with the rr designs of its binary items") {
  const Survey survey = SurveyOf(json::array({{{"id", "drug"}, {"text", "Drug?"}, {"options", {"No", "Yes"}},
                                               {"mechanism", {{"name", "grr"}, {"epsilon", std::log(5.0)}}}}}));
  const ReportColumns& columns = ColumnsOf(survey, 0);
  CHECK(Suffixes(columns) == std::vector<std::string>{""});
  CHECK(columns.Columns()[0].value_labels == json{{"0", "No"}, {"1", "Yes"}});
  CHECK(columns.ColumnValues(1) == std::vector<json>{1});
  const json channel = columns.Channel();
  // Binary randomized response at epsilon ln 5 is rr's forced design p = 2/3, forced yes = forced no = 1/6.
  CHECK(channel["rr_forced_known"][1]["p"].get<double>() == doctest::Approx(2.0 / 3));
  CHECK(channel["rr_forced_known"][1]["p1"].get<double>() == doctest::Approx(1.0 / 6));
  CHECK(channel["rr_forced_known"][1]["p0"].get<double>() == doctest::Approx(1.0 / 6));
  CHECK(channel["rr_mirrored"]["p"].get<double>() == doctest::Approx(5.0 / 6));
  CHECK(channel["channel_matrix"][0][1].get<double>() == doctest::Approx(1.0 / 6));
}

TEST_CASE("report columns: oue, sue and negative surveys give one 0/1 column per option") {
  const Survey survey = SurveyOf(json::array(
      {{{"id", "a"}, {"text", "A?"}, {"options", {"x", "y", "z"}}, {"mechanism", {{"name", "oue"}, {"epsilon", 1}}}},
       {{"id", "b"}, {"text", "B?"}, {"options", {"x", "y", "z"}}, {"mechanism", {{"name", "sue"}, {"epsilon", 1}}}},
       {{"id", "c"}, {"text", "C?"}, {"options", {"x", "y", "z", "w"}},
        {"mechanism", {{"name", "negative"}, {"epsilon", 1.5}, {"reported_options", 2}}}}}));
  CHECK(Suffixes(ColumnsOf(survey, 0)) == std::vector<std::string>{".bit_0", ".bit_1", ".bit_2"});
  CHECK(ColumnsOf(survey, 0).ColumnValues(json{0, 1, 1}) == std::vector<json>{0, 1, 1});
  CHECK(ColumnsOf(survey, 0).Columns()[2].meaning == "bit 2: 1 when the report supports option 2 'z'");
  CHECK(ColumnsOf(survey, 1).ColumnValues(json{1, 0, 0}) == std::vector<json>{1, 0, 0});
  // The negative survey's wire form names the options that are not the answer.
  CHECK(ColumnsOf(survey, 2).ColumnValues(json{0, 3}) == std::vector<json>{1, 0, 0, 1});
  CHECK(ColumnsOf(survey, 2).Channel()["reported_options"] == 2);
  CHECK_FALSE(ColumnsOf(survey, 2).Channel().contains("rr_forced_known"));
}

TEST_CASE("report columns: numeric questions give each reported value, and the output range") {
  const Survey survey = SurveyOf(json::array(
      {{{"id", "h"}, {"text", "H?"}, {"type", "numeric"}, {"range", {0, 10}}, {"mechanism", {{"name", "laplace"}, {"epsilon", 1}}}},
       {{"id", "r"}, {"text", "R?"}, {"type", "numeric"}, {"range", {0, 10}},
        {"mechanism", {{"name", "rvns"}, {"window", 5}, {"values", 3}, {"window_mode", "fresh"}}}}}));
  CHECK(Suffixes(ColumnsOf(survey, 0)) == std::vector<std::string>{""});
  CHECK(ColumnsOf(survey, 0).ColumnValues(json{3.25}) == std::vector<json>{3.25});
  const json channel = ColumnsOf(survey, 0).Channel();
  CHECK(channel["name"] == "laplace");
  CHECK(channel["input_range"] == json{0, 10});
  CHECK(channel["output_range"].size() == 2);
  CHECK(Suffixes(ColumnsOf(survey, 1)) == std::vector<std::string>{".value_0", ".value_1", ".value_2"});
  CHECK(ColumnsOf(survey, 1).ColumnValues(json{0.5, 0.25, 1}) == std::vector<json>{0.5, 0.25, 1});
}

TEST_CASE("report columns: a tree histogram gives the level and that level's bits, empty beyond them") {
  const Survey survey = SurveyOf(json::array({{{"id", "rent"}, {"text", "Rent?"}, {"type", "histogram"},
                                               {"range", {0, 4000}},
                                               {"histograms", {{{"name", "fine"}, {"bins", 64}}, {{"name", "halves"}, {"bins", 2}}}},
                                               {"mechanism", {{"name", "tree"}, {"epsilon", 1}}}}}));
  const TreeShape shape = HistogramKindOf(survey.questions[0]).shape();
  REQUIRE(shape.height >= 2);  // so that level 1 has fewer nodes than there are bit columns
  const ReportColumns& columns = ColumnsOf(survey, 0);
  const auto suffixes = Suffixes(columns);
  REQUIRE(suffixes.size() == static_cast<std::size_t>(shape.Leaves()) + 1);
  CHECK(suffixes[0] == ".level");
  CHECK(suffixes[1] == ".bit_0");
  json bits = json::array();
  for (int j = 0; j < shape.NodesAt(1); ++j) bits.push_back(j % 2);
  const auto values = columns.ColumnValues({{"level", 1}, {"bits", bits}});
  REQUIRE(values.size() == suffixes.size());
  CHECK(values[0] == 1);
  for (int j = 0; j < shape.NodesAt(1); ++j) CHECK(values[static_cast<std::size_t>(j) + 1] == j % 2);
  for (std::size_t i = static_cast<std::size_t>(shape.NodesAt(1)) + 1; i < values.size(); ++i) CHECK(values[i].is_null());
  const json channel = columns.Channel();
  CHECK(channel["levels"].size() == static_cast<std::size_t>(shape.height));
  CHECK(channel["levels"][0]["nodes"].size() == static_cast<std::size_t>(shape.NodesAt(1)));
  CHECK(channel["levels"][0]["nodes"][0].get<std::string>().rfind("[0, ", 0) == 0);
  // The node holding the range's high end is closed there; nodes past the cells (padding) say so.
  int closed = 0;
  for (const json& node : channel["levels"][0]["nodes"]) {
    const std::string label = node.get<std::string>();
    closed += label.size() > 5 && label.compare(label.size() - 5, 5, "4000]") == 0;
    CHECK((label[0] == '[' || label.rfind("beyond the range", 0) == 0));
  }
  CHECK(closed == 1);
}

TEST_CASE("report columns: a block gives each attribute's bits, empty for an attribute not answered") {
  const Survey survey = SurveyOf(json::array(
      {{{"id", "me"}, {"text", "About you"}, {"type", "block"},
        {"attributes", {{{"id", "age"}, {"text", "Age"}, {"options", {"young", "old"}}},
                        {{"id", "smoker"}, {"text", "Smoke?"}, {"options", {"no", "yes", "quit"}}}}},
        {"mechanism", {{"name", "pmoue"}, {"epsilon_per_attribute", 1}}}}}));
  const ReportColumns& columns = ColumnsOf(survey, 0);
  CHECK(Suffixes(columns) ==
        std::vector<std::string>{".age.bit_0", ".age.bit_1", ".smoker.bit_0", ".smoker.bit_1", ".smoker.bit_2"});
  CHECK(columns.ColumnValues({{"attributes", {"smoker"}}, {"bits", {{0, 0, 1}}}}) ==
        std::vector<json>{nullptr, nullptr, 0, 0, 1});
}

TEST_CASE("report columns: a model's gradient report is its round, component and value") {
  const Survey survey = SurveyOf(json::array(
      {{{"id", "x"}, {"text", "X?"}, {"type", "numeric"}, {"range", {0, 10}}, {"mechanism", {{"name", "piecewise"}, {"epsilon", 1}}}},
       {{"id", "y"}, {"text", "Y?"}, {"type", "numeric"}, {"range", {0, 10}}, {"mechanism", {{"name", "piecewise"}, {"epsilon", 1}}}},
       {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"}, {"features", {"x"}},
        {"epsilon", 1}}}));
  const ReportColumns& columns = ColumnsOf(survey, 2);
  CHECK(Suffixes(columns) == std::vector<std::string>{".round", ".component", ".value", ".squared_error"});
  CHECK(columns.Columns()[1].value_labels == json{{"0", "intercept"}, {"1", "x"}});
  CHECK(columns.ColumnValues({{"round", 2}, {"component", 1}, {"value", -0.5}}) ==
        std::vector<json>{2, 1, -0.5, nullptr});
  // A held-out round's report.
  CHECK(columns.ColumnValues({{"round", 9}, {"squared_error", 0.25}}) == std::vector<json>{9, nullptr, nullptr, 0.25});
}

TEST_CASE("report columns: open questions give the answer as given") {
  const Survey survey = SurveyOf(json::array(
      {{{"id", "region"}, {"text", "Region?"}, {"options", {"North", "South"}}, {"privacy", "open"}},
       {{"id", "age"}, {"text", "Age?"}, {"type", "numeric"}, {"range", {18, 99}}, {"privacy", "open"}}}));
  CHECK(Suffixes(ColumnsOf(survey, 0)) == std::vector<std::string>{""});
  CHECK(ColumnsOf(survey, 0).Columns()[0].value_labels == json{{"0", "North"}, {"1", "South"}});
  CHECK(ColumnsOf(survey, 0).ColumnValues(1) == std::vector<json>{1});
  CHECK(ColumnsOf(survey, 1).ColumnValues(42.5) == std::vector<json>{42.5});
  CHECK(ColumnsOf(survey, 1).Channel()["name"] == "open");
}

TEST_CASE("report columns: questions answered in confidence have none") {
  const Survey survey = SurveyOf(json::array({{{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"},
                                               {"options", {"None", "A"}}, {"privacy", "central"}, {"budget", 1}}}));
  CHECK(survey.questions[0].kind->report_columns() == nullptr);
}

TEST_CASE("report columns: every kind's fixture answers, perturbed, give one value per column") {
  for (const KindEntry& entry : RegisteredKinds()) {
    std::ifstream file(std::string(DENIABLE_SOURCE_DIR) + "/testdata/kinds/" + std::string(entry.type) + ".json");
    if (!file) continue;  // kinds without a fixture (central) are covered above
    const json fixture = json::parse(file);
    const Survey survey = SurveyOf(fixture.at("questions"));
    SeededRandom random(7);
    for (const json& answers : fixture.at("answers")) {
      auto report = PerturbAnswers(survey, answers, random);
      if (!report) continue;  // answers that need a public state first (models)
      for (const Question& question : survey.questions) {
        const ReportColumns* columns = question.kind->report_columns();
        if (!columns || !report->at("responses").contains(question.id)) continue;
        INFO(entry.type << " " << question.id << " " << report->at("responses").at(question.id));
        const auto values = columns->ColumnValues(report->at("responses").at(question.id));
        CHECK(values.size() == columns->Columns().size());
        CHECK(std::any_of(values.begin(), values.end(), [](const json& v) { return !v.is_null(); }));
      }
    }
  }
}
