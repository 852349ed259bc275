// Every registered kind of question through the same path (core/survey/
// kind_registry.h): definition round trip; perturb -> wire form -> decode,
// with the committed vectors (testdata/vectors/kinds/<type>.json, also
// checked in WebAssembly); aggregation and merging in any order; estimation;
// CSV rows; simulation with a skip rate; and the empirical-epsilon audit for
// kinds with a finite epsilon, which must catch an understated epsilon. A
// registered kind without a fixture (testdata/kinds/<type>.json) fails.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/survey/aggregate.h"
#include "core/survey/aggregate_format.h"
#include "core/survey/kind_registry.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/simulation.h"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace deniable;

namespace {

const fs::path kFixtures = fs::path(DENIABLE_SOURCE_DIR) / "testdata" / "kinds";
const fs::path kVectors = fs::path(DENIABLE_SOURCE_DIR) / "testdata" / "vectors" / "kinds";

json ReadJson(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str(), nullptr, false);
}

json FixtureSurvey(const json& fixture) {
  return {{"format", kSurveyFormat}, {"id", "kind-" + fixture.at("type").get<std::string>()}, {"version", 1},
          {"title", "Conformance of " + fixture.at("type").get<std::string>()}, {"questions", fixture.at("questions")}};
}

// Equal JSON, numbers within 1e-12 relative.
bool NearlyEqual(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) {
    const double x = a.get<double>(), y = b.get<double>();
    return std::fabs(x - y) <= 1e-12 * std::max({1.0, std::fabs(x), std::fabs(y)});
  }
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) if (!NearlyEqual(a[i], b[i])) return false;
    return true;
  }
  if (a.is_object()) {
    for (const auto& [key, value] : a.items()) if (!b.contains(key) || !NearlyEqual(value, b.at(key))) return false;
    return true;
  }
  return a == b;
}

// Estimation kept cheap: the bootstrap is not under test here.
const json kOptions = {{"replicates", "10"}};

// `count` reports from the fixture's answers in turn, seeded; stateful kinds
// (a model's rounds) answer against the state of the reports so far, as the
// page does, and every report is admitted.
std::vector<Report> MakeReports(const Survey& survey, const json& answers, int count, std::uint64_t seed) {
  SeededRandom random(seed);
  SurveyAggregate so_far(survey);
  std::vector<Report> reports;
  for (int i = 0; i < count; ++i) {
    const json stated = WithPublicStates(survey, so_far, answers[static_cast<std::size_t>(i) % answers.size()]);
    auto wire = PerturbAnswers(survey, stated, random);
    REQUIRE_MESSAGE(wire.ok(), (wire.ok() ? "" : wire.error()));
    auto report = ParseReport(survey, *wire);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error()));
    REQUIRE(so_far.Admits(survey, *report).ok());
    so_far.Add(*report);
    reports.push_back(std::move(report).value());
  }
  return reports;
}

// A report's cell for the audit: integer reports as they are; numbers put in
// one of `bins` equal bins over [low, high].
std::string Cell(const json& wire, double low, double high, int bins) {
  if (wire.is_object()) {  // e.g. a model's {"round", "component", "value"}: its numbers binned, the rest as they are
    std::string cell;
    for (const auto& [key, value] : wire.items()) {
      cell += key + "=" + (value.is_number_float() ? Cell(json::array({value}), low, high, bins) : value.dump()) + ";";
    }
    return cell;
  }
  if (!wire.is_array() || wire.empty() || !wire[0].is_number_float()) return wire.dump();
  std::string cell;
  for (const auto& value : wire) {
    const double share = (value.get<double>() - low) / (high - low);
    cell += std::to_string(std::min(bins - 1, std::max(0, static_cast<int>(share * bins)))) + ",";
  }
  return cell;
}

// The largest log ratio between the report distributions of two answers that
// the sample shows beyond doubt: each cell's ratio from a lower bound of one
// probability and an upper bound of the other (5 standard deviations, so the
// audit does not fire by chance), over the cells and both directions.
double EmpiricalEpsilonLowerBound(const Survey& survey, const std::string& question, const json& answers, int n) {
  std::vector<std::vector<json>> samples(2);
  double low = INFINITY, high = -INFINITY;
  SeededRandom random(99);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < n; ++i) {
      auto wire = PerturbAnswers(survey, json{{question, answers[static_cast<std::size_t>(side)]}}, random);
      REQUIRE(wire.ok());
      const json& response = (*wire)["responses"][question];
      for (const auto& value : response) {  // an array's values, or an object's
        if (value.is_number_float()) low = std::min(low, value.get<double>()), high = std::max(high, value.get<double>());
      }
      samples[static_cast<std::size_t>(side)].push_back(response);
    }
  }
  std::map<std::string, std::array<double, 2>> counts;
  for (int side = 0; side < 2; ++side) {
    for (const auto& response : samples[static_cast<std::size_t>(side)]) {
      counts[Cell(response, low, high, 12)][static_cast<std::size_t>(side)] += 1.0;
    }
  }
  double bound = 0.0;
  for (const auto& [cell, count] : counts) {
    for (int side = 0; side < 2; ++side) {
      const double a = count[static_cast<std::size_t>(side)], b = count[static_cast<std::size_t>(1 - side)];
      const double a_low = a - 5.0 * std::sqrt(a), b_high = b + 5.0 * std::sqrt(b) + 5.0;
      if (a_low > 0.0) bound = std::max(bound, std::log(a_low / b_high));
    }
  }
  return bound;
}

// --- Serialised aggregates (core/survey/aggregate_format.h), for every kind.

// A copy of `blob` with `change` applied to its JSON.
template <typename Change>
std::string Changed(const std::string& blob, Change change) {
  json object = json::parse(blob);
  change(object);
  return object.dump();
}

// The blob's statistics' leaves (flattened JSON pointers) that `keep` accepts, in order.
template <typename Keep>
std::vector<json::json_pointer> StatisticsLeaves(const std::string& blob, Keep keep) {
  std::vector<json::json_pointer> leaves;
  const json flat = json::parse(blob).flatten();
  for (const auto& [pointer, value] : flat.items()) {
    if (pointer.rfind("/statistics/", 0) == 0 && keep(json::json_pointer(pointer), value)) leaves.emplace_back(pointer);
  }
  return leaves;
}

bool IsArrayCount(const json::json_pointer& pointer, const json& value) {
  const std::string last = pointer.back();
  return value.is_number_integer() && !last.empty() && std::isdigit(static_cast<unsigned char>(last[0]));
}

void CheckRefused(const Survey& survey, std::size_t q, const std::string& blob, const std::string& says) {
  const auto read = DeserializeAggregate(survey, q, blob);
  CHECK_FALSE(read.ok());
  if (!read.ok()) {
    CHECK_MESSAGE(read.error().find(says) != std::string::npos, read.error() << " (expected: " << says << ")");
  }
}

// A blob that is not question q's, or not well formed, is refused with a reason naming what is wrong.
void CheckRefusals(const Survey& survey, std::size_t q, const std::string& blob) {
  const std::string kind = json::parse(blob).at("kind");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["version"] = 2; }), "format version 2");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["format"] = "deniable.other"; }), "format");
  CheckRefused(survey, q, Changed(blob, [&](json& b) { b["kind"] = kind == "numeric" ? "categorical" : "numeric"; }),
               "the blob is of a question of kind");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["question"] = "elsewhere"; }), "question \"elsewhere\"");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["definition"] = "fnv1a64:0000000000000000"; }),
               "another definition of the question");
  Survey other = survey;
  other.id = "another-survey";
  CheckRefused(other, q, blob, "survey \"" + survey.id + "\"");
  CheckRefused(survey, q, blob.substr(0, blob.size() / 2), "not a JSON document");
  CheckRefused(survey, q, blob.substr(0, blob.size() - 1), "not a JSON document");
  CheckRefused(survey, q, "", "not a JSON document");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["statistics"]["n"] = -1; }), "statistics.n");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["statistics"]["extra"] = 1; }), "unknown field");
  CheckRefused(survey, q, Changed(blob, [](json& b) { b["statistics"].erase("n"); }), "statistics.n");
  // Tampered counts: the first count in an array made negative, made larger than anything n allows, or the
  // array lengthened; a double made null (how NaN would be written).
  const auto counts = StatisticsLeaves(blob, IsArrayCount);
  REQUIRE_FALSE(counts.empty());
  CheckRefused(survey, q, Changed(blob, [&](json& b) { b[counts[0]] = -1; }), "statistics");
  const std::string beyond = Changed(blob, [&](json& b) {
    b[counts[0]] = b[counts[0]].get<std::int64_t>() + (std::int64_t{1} << 40);
  });
  CheckRefused(survey, q, beyond, "statistics");
  CheckRefused(survey, q, Changed(blob, [&](json& b) { b[counts[0].parent_pointer()].push_back(0); }), "entries");
  CheckRefused(survey, q, Changed(blob, [&](json& b) { b[counts[0]] = 0.5; }), "statistics");
  const auto doubles = StatisticsLeaves(blob, [](const json::json_pointer&, const json& value) {
    return value.is_number_float();
  });
  if (!doubles.empty()) {
    CheckRefused(survey, q, Changed(blob, [&](json& b) { b[doubles[0]] = nullptr; }), "must be a finite number");
  }
}

// Every question's aggregate, empty and with reports, reads back from its blob
// to one that writes the same blob and gives the same results and public state,
// bit for bit; the whole survey's too; blobs not its own are refused; and two
// partial aggregates (reports split between two nodes) read back from their
// blobs merge to the aggregate of all the reports (exactly where the statistics
// are counts; floating-point sums up to the order of additions).
// Cheaper still than kOptions: the estimates are compared, not studied.
const json kFormatOptions = {{"replicates", "2"}, {"estimation_cells", "20"}, {"points", "20"}};

void CheckAggregateFormat(const Survey& survey, const std::vector<Report>& reports) {
  SurveyAggregate all(survey), first(survey), second(survey);
  for (std::size_t i = 0; i < reports.size(); ++i) {
    all.Add(reports[i]);
    (i < reports.size() * 2 / 5 ? first : second).Add(reports[i]);
  }
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const QuestionKind& kind = *survey.questions[q].kind;
    INFO("question " << survey.questions[q].id);
    const auto empty = kind.NewAggregate();
    const std::string empty_blob = SerializeAggregate(survey, q, *empty);
    const auto empty_read = DeserializeAggregate(survey, q, empty_blob);
    REQUIRE_MESSAGE(empty_read.ok(), (empty_read.ok() ? "" : empty_read.error()));
    CHECK(SerializeAggregate(survey, q, **empty_read) == empty_blob);

    const KindAggregate& aggregate = all.question(q);
    REQUIRE(aggregate.n() > 0);
    const std::string blob = SerializeAggregate(survey, q, aggregate);
    const auto read = DeserializeAggregate(survey, q, blob);
    REQUIRE_MESSAGE(read.ok(), (read.ok() ? "" : read.error()));
    CHECK((*read)->type() == aggregate.type());
    CHECK((*read)->n() == aggregate.n());
    CHECK(SerializeAggregate(survey, q, **read) == blob);
    CHECK(kind.PublicState(**read) == kind.PublicState(aggregate));
    CHECK((*read)->Complete() == aggregate.Complete());
    CheckRefusals(survey, q, blob);
  }
  const std::string blob = SerializeSurveyAggregate(survey, all);
  const auto read = DeserializeSurveyAggregate(survey, blob);
  REQUIRE_MESSAGE(read.ok(), (read.ok() ? "" : read.error()));
  CHECK(read->respondents() == all.respondents());
  CHECK(SerializeSurveyAggregate(survey, *read) == blob);
  const json expected = SurveyResultsToJson(survey, all, kFormatOptions);
  CHECK(SurveyResultsToJson(survey, *read, kFormatOptions) == expected);  // every estimate, exactly
  CHECK_FALSE(DeserializeSurveyAggregate(survey, Changed(blob, [](json& b) { b["respondents"] = 1; })).ok());
  CHECK_FALSE(DeserializeSurveyAggregate(survey, Changed(blob, [](json& b) { b["questions"].erase(0); })).ok());

  // A node that reads its part back and goes on counting ends exactly where one that never stopped does, serving
  // the same public state (a model's round and coefficients) after every report.
  auto resumed = DeserializeSurveyAggregate(survey, SerializeSurveyAggregate(survey, first));
  REQUIRE(resumed.ok());
  SurveyAggregate going_on = first;
  bool same_states = true;
  for (std::size_t i = reports.size() * 2 / 5; i < reports.size(); ++i) {
    resumed.value().Add(reports[i]);
    going_on.Add(reports[i]);
    for (std::size_t q = 0; q < survey.questions.size(); ++q) {
      const QuestionKind& kind = *survey.questions[q].kind;
      same_states = same_states && kind.PublicState(resumed->question(q)) == kind.PublicState(going_on.question(q));
    }
  }
  CHECK(same_states);
  CHECK(SerializeSurveyAggregate(survey, *resumed) == blob);

  auto first_read = DeserializeSurveyAggregate(survey, SerializeSurveyAggregate(survey, first));
  const auto second_read = DeserializeSurveyAggregate(survey, SerializeSurveyAggregate(survey, second));
  REQUIRE(first_read.ok());
  REQUIRE(second_read.ok());
  REQUIRE(first_read.value().Merge(*second_read).ok());
  SurveyAggregate merged = first;
  REQUIRE(merged.Merge(second).ok());
  CHECK(SerializeSurveyAggregate(survey, *first_read) == SerializeSurveyAggregate(survey, merged));
  CHECK(NearlyEqual(json::parse(SerializeSurveyAggregate(survey, *first_read)), json::parse(blob)));
  CHECK(NearlyEqual(SurveyResultsToJson(survey, *first_read, kFormatOptions), expected));
}

// Every kind's results state what their intervals are for ("interval_for",
// issue 26 item 3; questions answered in confidence: the test below).
bool KindStatesItsTarget(std::string_view /*type*/) { return true; }

void CheckKind(const KindEntry& kind) {
  const fs::path fixture_path = kFixtures / (std::string(kind.type) + ".json");
  const fs::path vector_path = kVectors / (std::string(kind.type) + ".json");
  REQUIRE_MESSAGE(fs::exists(fixture_path), "registered kind \"" << kind.type << "\" has no conformance fixture "
                                                                 << fixture_path.string());
  REQUIRE_MESSAGE(fs::exists(vector_path), "registered kind \"" << kind.type << "\" has no vectors "
                                                                << vector_path.string() << " (run gen_kind_vectors)");
  const json fixture = ReadJson(fixture_path);
  auto parsed = ParseSurvey(FixtureSurvey(fixture));
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error()));
  const Survey survey = std::move(parsed).value();
  // Questions of other kinds may appear as the context a kind needs (a model's variables).
  bool has_optional = false;
  for (const auto& question : survey.questions) {
    has_optional = has_optional || (!question.required && question.kind->type() == kind.type);
  }
  CHECK_MESSAGE(has_optional, "the fixture needs an optional question");

  SUBCASE("the canonical definition parses back to itself") {
    const json canonical = SurveyToJson(survey);
    CHECK(SurveyToJson(*ParseSurvey(canonical)) == canonical);
  }
  SUBCASE("the committed vectors reproduce, and every report decodes") {
    const json vectors = ReadJson(vector_path);
    CHECK(vectors.at("survey") == FixtureSurvey(fixture));
    REQUIRE(vectors.at("cases").size() >= fixture.at("answers").size());
    for (const auto& item : vectors.at("cases")) {
      SeededRandom random(std::stoull(item.at("seed").get<std::string>()));
      const auto report = PerturbAnswers(survey, item.at("answers"), random);
      REQUIRE(report.ok());
      CHECK(*report == item.at("report"));
      CHECK(ParseReport(survey, *report).ok());
      for (const auto& question : survey.questions) {
        const bool skipped = !item.at("answers").contains(question.id) || item.at("answers").at(question.id).is_null();
        CHECK(report->at("responses").contains(question.id) == !skipped);
      }
    }
  }
  SUBCASE("aggregates merge in any order to the same results; n counts each question's respondents") {
    const auto reports = MakeReports(survey, fixture.at("answers"), 400, 5);
    SurveyAggregate all(survey), first(survey), second(survey);
    for (std::size_t i = 0; i < reports.size(); ++i) {
      all.Add(reports[i]);
      (i < 150 ? first : second).Add(reports[i]);
    }
    SurveyAggregate ab = first, ba = second;
    REQUIRE(ab.Merge(second).ok());
    REQUIRE(ba.Merge(first).ok());
    const json expected = SurveyResultsToJson(survey, all, kOptions);
    // Equal up to rounding: floating-point sums (the unbiased mean's) depend on the order of additions.
    CHECK(NearlyEqual(SurveyResultsToJson(survey, ab, kOptions), expected));
    CHECK(NearlyEqual(SurveyResultsToJson(survey, ba, kOptions), expected));
    CHECK(expected.at("respondents") == 400);
    for (std::size_t q = 0; q < survey.questions.size(); ++q) {
      const auto& question = survey.questions[q];
      const json& result = expected.at("questions")[q];
      INFO(question.id);
      CHECK_FALSE(result.contains("error"));
      CHECK(result.at("id") == question.id);
      CHECK(result.at("type") == question.kind->type());
      std::int64_t answered = 0;
      for (std::size_t i = 0; i < 400; ++i) {
        const json& answers = fixture.at("answers")[i % fixture.at("answers").size()];
        answered += answers.contains(question.id) && !answers.at(question.id).is_null() ? 1 : 0;
      }
      CHECK(result.at("n") == answered);
      CHECK(result.value("skipped", std::int64_t{0}) == (question.required ? 0 : 400 - answered));
      CHECK(result.contains("required") == !question.required);
      CHECK_FALSE(question.kind->CsvRows(result).empty());
      CHECK(result.at("privacy") == question.kind->PrivacyToJson());
    }
  }
  SUBCASE("aggregates serialise exactly, refuse blobs not theirs, and merge from blobs as partials") {
    CheckAggregateFormat(survey, MakeReports(survey, fixture.at("answers"), 200, 11));
  }
  SUBCASE("results say what their intervals are for, with the target asked for") {
    if (!KindStatesItsTarget(kind.type)) return;
    const auto reports = MakeReports(survey, fixture.at("answers"), 200, 7);
    SurveyAggregate all(survey);
    for (const auto& report : reports) all.Add(report);
    for (const char* target : {"", "population", "respondents"}) {
      json options = kOptions;
      if (*target != '\0') options["interval"] = target;
      const json document = SurveyResultsToJson(survey, all, options);
      for (std::size_t q = 0; q < survey.questions.size(); ++q) {
        if (survey.questions[q].kind->type() != kind.type) continue;
        INFO(survey.questions[q].id << " asked for \"" << target << "\"");
        const json& result = document.at("questions")[q];
        REQUIRE(result.contains("interval_for"));
        // A kind without an honest interval for the target asked gives the population's and says why.
        const std::string asked = *target == '\0' ? "population" : target;
        if (result.at("interval_for").at("target") != asked) {
          CHECK(result.at("interval_for").at("target") == "population");
          CHECK(result.at("interval_for").at("note").is_string());
        }
        CHECK(result.at("interval_for").at("meaning").is_string());
      }
    }
  }
  SUBCASE("estimation options are the kind's to check, and a bad one is named") {
    CHECK(ValidateEstimateOptions(survey, kOptions).ok());
    CHECK(kind.canonical_estimate_options(json::object()).ok());
  }
  SUBCASE("simulation with a skip rate gives truth and errors per question") {
    SimulationOptions options{600, 3, nullptr, 1000000};
    options.estimate = kOptions;
    auto document = Simulate(survey, fixture.at("truth"), options);
    REQUIRE_MESSAGE(document.ok(), (document.ok() ? "" : document.error()));
    for (std::size_t q = 0; q < survey.questions.size(); ++q) {
      const json& result = document->at("questions")[q];
      CHECK(result.contains("truth"));
      CHECK(result.at("errors").is_object());
      CHECK_FALSE(survey.questions[q].kind->SimulationText(result).empty());
      if (!survey.questions[q].required) CHECK(result.at("skipped").get<int>() > 0);
    }
  }
  SUBCASE("the empirical epsilon stays within the claim, and an understated claim is caught") {
    const auto& audit = fixture.at("audit");
    const auto index = survey.QuestionIndex(audit.at("question").get<std::string>());
    REQUIRE(index);
    const auto claimed = survey.questions[*index].epsilon();
    REQUIRE_MESSAGE(claimed, "the audit question needs a finite epsilon");
    const double measured = EmpiricalEpsilonLowerBound(survey, survey.questions[*index].id, audit.at("answers"), 100000);
    MESSAGE(kind.type << ": empirical epsilon lower bound " << measured << " for claimed " << *claimed);
    CHECK(measured <= *claimed);
    // A kind that claimed a third of its epsilon (a broken privacy statement) is caught.
    CHECK(measured > *claimed / 3.0);
  }
}

}  // namespace

TEST_CASE("every registered kind passes the conformance path") {
  for (const KindEntry& kind : RegisteredKinds()) {
    INFO("kind " << kind.type);
    SUBCASE(std::string(kind.type).c_str()) { CheckKind(kind); }
  }
}

TEST_CASE("questions answered in confidence state their intervals' target, in the results and their ledger") {
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "central"}, {"version", 1}, {"title", "t"},
                             {"questions",
                              {{{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"},
                                {"options", {"None", "A", "B"}}, {"privacy", "central"}, {"budget", 1}},
                               {{"id", "age"}, {"text", "Age"}, {"type", "histogram"}, {"range", {0, 100}},
                                {"histograms", {{{"name", "decades"}, {"bins", 10}}}}, {"privacy", "central"},
                                {"budget", 2}}}}});
  REQUIRE(survey.ok());
  const SurveyAggregate aggregate(*survey);
  for (const char* target : {"", "population", "respondents"}) {
    const json options = *target == '\0' ? json::object() : json{{"interval", target}};
    const json document = SurveyResultsToJson(*survey, aggregate, options);
    for (const json& result : document.at("questions")) {
      INFO(result.at("id") << " asked for \"" << target << "\"");
      const std::string expected = *target == '\0' ? "population" : target;
      CHECK(result.at("interval_for").at("target") == expected);
      CHECK(result.at("ledger").at("interval_for").at("target") == expected);
    }
  }
}

TEST_CASE("a kind missing from the conformance fixtures fails the test") {
  std::size_t fixtures = 0;
  for (const auto& file : fs::directory_iterator(kFixtures)) fixtures += file.path().extension() == ".json" ? 1 : 0;
  CHECK(fixtures == RegisteredKinds().size());
  for (const KindEntry& kind : RegisteredKinds()) {
    CHECK_MESSAGE(fs::exists(kFixtures / (std::string(kind.type) + ".json")), "no fixture for " << kind.type);
  }
}

TEST_CASE("aggregates of questions answered in confidence, openly or by levels serialise like every kind's") {
  const json definition = {
      {"format", kSurveyFormat}, {"id", "variants"}, {"version", 1}, {"title", "t"},
      {"questions",
       {{{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"}, {"options", {"None", "A", "B"}},
         {"privacy", "central"}, {"budget", 1}},
        {{"id", "age"}, {"text", "Age"}, {"type", "histogram"}, {"range", {0, 100}},
         {"histograms", {{{"name", "decades"}, {"bins", 10}}}}, {"privacy", "central"}, {"budget", 2}},
        {{"id", "gender"}, {"text", "Gender?"}, {"type", "categorical"}, {"options", {"Woman", "Man", "Other"}},
         {"privacy", "open"}},
        {{"id", "years"}, {"text", "Years?"}, {"type", "numeric"}, {"range", {18, 98}}, {"step", 1},
         {"privacy", "open"}},
        {{"id", "hours"}, {"text", "Hours?"}, {"type", "numeric"}, {"range", {0, 10}},
         {"mechanism", {{"name", "levels"}, {"boundaries", {5}}, {"epsilons", {1, 2}}}}}}}};
  auto survey = ParseSurvey(definition);
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  const json answers = json::array({{{"drug", 0}, {"age", 34}, {"gender", 0}, {"years", 40}, {"hours", 2.5}},
                                    {{"drug", 2}, {"age", 81}, {"gender", 1}, {"years", 67}, {"hours", 9}},
                                    {{"drug", 1}, {"age", 5}, {"gender", 2}, {"years", 18}, {"hours", 5}}});
  std::vector<std::string> kinds;
  for (std::size_t q = 0; q < survey->questions.size(); ++q) {
    kinds.emplace_back(survey->questions[q].kind->NewAggregate()->type());
  }
  CHECK(kinds ==
        std::vector<std::string>{"confidential", "confidential", "open_categorical", "open_numeric", "numeric"});
  CheckAggregateFormat(*survey, MakeReports(*survey, answers, 120, 13));

  SurveyAggregate aggregate(*survey);
  for (const auto& report : MakeReports(*survey, answers, 30, 17)) aggregate.Add(report);
  // A blob of another question of another kind, and of another definition of the same question.
  CheckRefused(*survey, 2, SerializeAggregate(*survey, 0, aggregate.question(0)), "kind \"confidential\"");
  json changed = definition;
  changed["questions"][0]["budget"] = 2;
  auto redefined = ParseSurvey(changed);
  REQUIRE(redefined.ok());
  CheckRefused(*redefined, 0, SerializeAggregate(*survey, 0, aggregate.question(0)),
               "another definition of the question");
  // The question's text is not part of what the statistics mean: a corrected wording keeps its blobs.
  json reworded = definition;
  reworded["questions"][0]["text"] = "Which one?";
  auto edited = ParseSurvey(reworded);
  REQUIRE(edited.ok());
  CHECK(DeserializeAggregate(*edited, 0, SerializeAggregate(*survey, 0, aggregate.question(0))).ok());
  // Exact counts must account for every respondent once: a count moved by one is refused, even within n.
  for (std::size_t q : {0, 2}) {
    const std::string blob = SerializeAggregate(*survey, q, aggregate.question(q));
    const std::string moved = Changed(blob, [](json& b) {
      json& count = b["statistics"]["counts"][0];
      count = count.get<std::int64_t>() + 1;
    });
    CheckRefused(*survey, q, moved, "must sum to n");
  }
  // Doubles come back bit for bit, whatever they are (the open question's mean: any finite double reads).
  const std::string years = SerializeAggregate(*survey, 3, aggregate.question(3));
  for (const double mean : {0.1 + 0.2, -0.0, 5e-324, 1.0 / 3.0, 1e300, 45.000000000000007}) {
    const auto read =
        DeserializeAggregate(*survey, 3, Changed(years, [&](json& b) { b["statistics"]["mean"] = mean; }));
    REQUIRE(read.ok());
    const double back = json::parse(SerializeAggregate(*survey, 3, **read)).at("statistics").at("mean").get<double>();
    CHECK(std::memcmp(&back, &mean, sizeof mean) == 0);
  }
  // A blob of another question of the same kind (both answered in confidence).
  CheckRefused(*survey, 1, SerializeAggregate(*survey, 0, aggregate.question(0)), "question \"drug\"");
}

TEST_CASE("a model's aggregate read back replays its chains: it goes on training, completes and scores as before") {
  // The conformance fixture's model on two chains with small rounds, so that the chains trained before the blob
  // was written train again after it, and the model completes (scoring on its held-out rounds) within the reports.
  json fixture = ReadJson(kFixtures / "linear_regression.json");
  json questions = json::array();
  for (json question : fixture.at("questions")) {
    if (question.at("id") == "model_duchi") continue;
    if (question.at("id") == "model") {
      question.update({{"chains", 2}, {"batch", 5}, {"max_rounds", 16}, {"holdout", 0.25}});
    }
    questions.push_back(question);
  }
  fixture["questions"] = questions;
  for (json& answer : fixture.at("answers")) answer.erase("model_duchi");
  auto survey = ParseSurvey(FixtureSurvey(fixture));
  REQUIRE_MESSAGE(survey.ok(), (survey.ok() ? "" : survey.error()));
  const auto reports = MakeReports(*survey, fixture.at("answers"), 120, 19);
  SurveyAggregate all(*survey);
  for (const auto& report : reports) all.Add(report);
  REQUIRE(all.question(2).Complete());
  CheckAggregateFormat(*survey, reports);
}
