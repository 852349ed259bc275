// Questions answered in confidence (core/central/, the central trust
// model): definitions and their errors, the answer sent as it is and counted
// exactly, results that hold releases only, the release's exact intervals
// (release_noise.h) and their coverage on hard shapes, and a stochastic DP
// test of the product's calibration (a changed answer, sensitivity 2) with the
// add/remove calibration as the canary it must catch.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include <nlohmann/json.hpp>

#include "core/central/discrete_laplace.h"
#include "core/central/release_document.h"
#include "core/central/release_noise.h"
#include "core/common/seeded_random.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/stat_utils.h"

using nlohmann::json;
using namespace deniable;

namespace {

json Definition(const json& questions) {
  return {{"format", kSurveyFormat}, {"id", "c"}, {"version", 1}, {"title", "t"}, {"questions", questions}};
}

json CentralCategorical(json extra = json::object()) {
  json question = {{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"}, {"options", {"None", "A", "B"}},
                   {"privacy", "central"}, {"budget", 1}};
  question.update(extra);
  return question;
}

json CentralHistogram() {
  return {{"id", "age"}, {"text", "Age"}, {"type", "histogram"}, {"range", {0, 100}},
          {"histograms", {{{"name", "decades"}, {"bins", 10}}, {{"name", "halves"}, {"bins", 2}}}},
          {"privacy", "central"}, {"budget", 2}, {"admin_sees_counts", true}};
}

std::string ParseError(const json& question) {
  auto survey = ParseSurvey(Definition(json::array({question})));
  return survey.ok() ? "" : survey.error();
}

LedgerRelease MakeRelease(const ReleaseRequest& request, const std::vector<std::int64_t>& counts, RandomSource& random) {
  const auto drawn = RunRelease(request, counts, 2, random).value();
  LedgerRelease release;
  release.request = request;
  release.sensitivity = 2;
  release.values = drawn.values;
  for (const auto& group : drawn.groups) release.groups.push_back(group.bins);
  return release;
}

}  // namespace

TEST_CASE("central kind: definitions parse, round-trip, and name what is wrong") {
  auto survey = ParseSurvey(Definition({CentralCategorical(), CentralHistogram()}));
  REQUIRE(survey.ok());
  CHECK(survey->questions[0].kind->trust() == Trust::kCentral);
  CHECK(survey->questions[0].kind->confidential()->budget() == 1.0);
  CHECK(!survey->questions[0].kind->confidential()->admin_sees_counts());
  CHECK(survey->questions[1].kind->confidential()->admin_sees_counts());
  CHECK(*TotalEpsilon(*survey) == 3.0);  // a respondent can lose at most every budget
  const json canonical = SurveyToJson(*survey);
  CHECK(canonical["questions"][0] == json{{"id", "drug"}, {"text", "Which?"}, {"type", "categorical"},
                                          {"options", {"None", "A", "B"}}, {"privacy", "central"}, {"budget", 1.0},
                                          {"admin_sees_counts", false}});
  CHECK(SurveyToJson(*ParseSurvey(canonical)) == canonical);
  const auto layout = survey->questions[1].kind->confidential()->layout();
  CHECK(layout.labels.front() == "[0, 10)");
  CHECK(layout.labels.back() == "[90, 100]");
  REQUIRE(layout.views.size() == 2);
  CHECK(layout.views[1].bins[1].label == "[50, 100]");
  CHECK(layout.views[1].bins[1].first == 5);
  CHECK(layout.views[1].bins[1].end == 10);

  CHECK(ParseError(CentralCategorical({{"mechanism", {{"name", "grr"}, {"epsilon", 1}}}})) ==
        "questions[0].mechanism: a question answered in confidence has no mechanism (its answer is not randomised; "
        "each release chooses its method)");
  json no_budget = CentralCategorical();
  no_budget.erase("budget");
  CHECK(ParseError(no_budget) == "questions[0].budget: required for a question answered in confidence (the total "
                                 "epsilon its releases may spend)");
  CHECK(ParseError(CentralCategorical({{"budget", 0}})) ==
        "questions[0].budget: budget must be finite and in [0.01, 30], but is 0");
  CHECK(ParseError(CentralCategorical({{"admin_sees_counts", "yes"}})) ==
        "questions[0].admin_sees_counts: must be true or false, but is \"yes\"");
  CHECK(ParseError(CentralCategorical({{"privacy", "trusted"}})).find("questions[0].privacy: must be \"local\"") == 0);
  json local_with_budget = {{"id", "q"}, {"text", "q"}, {"type", "categorical"}, {"options", {"a", "b"}},
                            {"mechanism", {{"name", "grr"}, {"epsilon", 1}}}, {"budget", 1}};
  CHECK(ParseError(local_with_budget) ==
        "questions[0].budget: only for questions answered in confidence (\"privacy\": \"central\")");
  // Other kinds do not offer the central model (numeric questions are randomised or asked openly).
  json numeric = {{"id", "n"}, {"text", "n"}, {"type", "numeric"}, {"range", {0, 1}}, {"privacy", "central"},
                  {"mechanism", {{"name", "piecewise"}, {"epsilon", 1}}}};
  CHECK(ParseError(numeric) == "questions[0].privacy: a numeric question is \"local\" (randomised on the device) or "
                               "\"open\" (asked openly, sent as given), but is \"central\"");
}

TEST_CASE("central kind: the answer is sent as it is, validated, and counted exactly; results hold no counts") {
  auto survey = ParseSurvey(Definition({CentralCategorical(), CentralHistogram()})).value();
  SeededRandom random(1);
  const auto report = PerturbAnswers(survey, {{"drug", 2}, {"age", 42.5}}, random);
  REQUIRE(report.ok());
  CHECK(report->at("responses") == json{{"drug", 2}, {"age", 42.5}});
  CHECK(PerturbAnswers(survey, {{"drug", 3}, {"age", 1}}, random).error() ==
        "answers.drug: answer must be between 0 and 2, but is 3");
  CHECK(PerturbAnswers(survey, {{"drug", 0}, {"age", 100.5}}, random).error() ==
        "answers.age: must be between 0 and 100, but is 100.5");
  SurveyAggregate aggregate(survey);
  const std::vector<std::pair<int, double>> answers = {{2, 42.5}, {2, 0}, {0, 100}, {1, 99.9}, {2, 10}};
  for (const auto& [drug, age] : answers) {
    aggregate.Add(ParseReport(survey, {{"survey", "c"}, {"version", 1}, {"responses", {{"drug", drug}, {"age", age}}}})
                      .value());
  }
  CHECK(survey.questions[0].kind->confidential()->ExactCounts(aggregate.question(0)) ==
        std::vector<std::int64_t>{1, 1, 3});
  CHECK(survey.questions[1].kind->confidential()->ExactCounts(aggregate.question(1)) ==
        std::vector<std::int64_t>{1, 1, 0, 0, 1, 0, 0, 0, 0, 2});
  CHECK(!ParseReport(survey, {{"survey", "c"}, {"version", 1}, {"responses", {{"drug", 1}, {"age", -1}}}}).ok());

  const json results = SurveyResultsToJson(survey, aggregate);
  const json& drug = results["questions"][0];
  std::set<std::string> keys;
  for (const auto& item : drug.items()) keys.insert(item.key());
  CHECK(keys == std::set<std::string>{"id", "text", "type", "n", "interval_for", "epsilon", "privacy", "mechanism",
                                      "trust", "bins", "warning", "ledger"});
  CHECK(drug["n"] == 5);
  CHECK(drug["ledger"] == json{{"budget", 1.0}, {"spent", 0.0}, {"reserved", 0.0}, {"left", 1.0},
                               {"releases", json::array()}, {"scheduled", json::array()},
                               {"interval_for", IntervalForJson(IntervalTarget::kPopulation)}});

  // With a ledger, the results show its releases (the same numbers as stored).
  ReleaseLedger ledger(1.0);
  auto release = MakeRelease(*ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", 0.5}}), {1, 1, 3}, random);
  REQUIRE(ledger.Add(release).ok());
  const json with_release = SurveyResultsToJson(survey, aggregate, json::object(), {}, {{"drug", ledger}});
  const json& shown = with_release["questions"][0]["ledger"];
  CHECK(shown["spent"] == 0.5);
  REQUIRE(shown["releases"].size() == 1);
  for (std::size_t b = 0; b < 3; ++b) CHECK(shown["releases"][0]["bins"][b]["value"] == ledger.releases()[0].values[b]);
}

TEST_CASE("central kind: the interval half-widths are the exact quantile of one draw and a valid bound for sums") {
  for (double epsilon : {0.01, 0.1, 0.5, 1.0, 4.0}) {
    const auto noise = DiscreteLaplace::Create(epsilon, 2).value();
    const double decay = std::exp(-epsilon / 2.0);
    const std::int64_t h = DiscreteLaplaceHalfWidth(decay, 0.95);
    auto mass = [&](std::int64_t width) {
      // P(|N| <= w) = 1 - 2 a^(w+1) / (1 + a), checked against the sampler's own probabilities for small w.
      return 1.0 - 2.0 * std::pow(decay, static_cast<double>(width) + 1.0) / (1.0 + decay);
    };
    CHECK(mass(h) >= 0.95);
    if (h > 0) CHECK(mass(h - 1) < 0.95);
    if (h < 50) {
      double direct = 0.0;
      for (std::int64_t x = -h; x <= h; ++x) direct += noise.Probability(x);
      CHECK(direct == doctest::Approx(mass(h)).epsilon(1e-9));
    }
  }
  // Sums of k draws: the bound's empirical coverage is at least 95%, and not wildly conservative (within 2x the
  // normal approximation's half-width, which itself under-covers heavy tails). Chernoff is conservative: about
  // 99% coverage for 2 to 40 draws.
  SeededRandom random(5);
  for (std::int64_t k : {2, 5, 40}) {
    const double epsilon = 0.5;
    const double decay = std::exp(-epsilon / 2.0);
    const double half = NoiseSumHalfWidth(decay, k, 0.95);
    const auto noise = DiscreteLaplace::Create(epsilon, 2).value();
    const int trials = 20000;
    int covered = 0;
    for (int t = 0; t < trials; ++t) {
      std::int64_t sum = 0;
      for (std::int64_t i = 0; i < k; ++i) sum += noise.Draw(random);
      covered += std::abs(static_cast<double>(sum)) <= half ? 1 : 0;
    }
    const double coverage = static_cast<double>(covered) / trials;
    MESSAGE("k = " << k << ": half-width " << half << ", coverage " << coverage);
    CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / trials));
    CHECK(half <= 2.0 * 1.96 * std::sqrt(static_cast<double>(k) * noise.Variance()));
  }
}

TEST_CASE("central kind: published intervals cover at their nominal rate on hard shapes, for every method") {
  // Concentrated (everything in one bin), sparse (most bins empty), Zipf-like (skewed, heavy tail), two-point.
  std::vector<std::vector<std::int64_t>> shapes;
  shapes.push_back(std::vector<std::int64_t>(32, 0));
  shapes.back()[7] = 500;
  shapes.push_back(std::vector<std::int64_t>(64, 0));
  for (std::size_t b = 0; b < 64; b += 9) shapes.back()[b] = static_cast<std::int64_t>(b % 4);
  shapes.push_back({});
  for (int b = 1; b <= 48; ++b) shapes.back().push_back(static_cast<std::int64_t>(std::floor(2000.0 / (b * b))));
  shapes.push_back(std::vector<std::int64_t>(40, 0));
  shapes.back()[3] = 60;
  shapes.back()[36] = 60;
  const ReleaseLayout layout{std::vector<std::string>(64, "bin"), {}};
  SeededRandom random(9);
  for (const char* method : {"dp_base", "sreb_gca", "ahp"}) {
    for (double epsilon : {0.1, 1.0}) {
      std::int64_t intervals = 0, covered = 0;
      for (const auto& counts : shapes) {
        const auto request = *ParseReleaseRequest({{"method", method}, {"epsilon", epsilon}});
        ReleaseLayout shaped{std::vector<std::string>(counts.size(), "bin"),
                             {{"halves", {{"low", 0, counts.size() / 2}, {"high", counts.size() / 2, counts.size()}}}}};
        for (int trial = 0; trial < 150; ++trial) {
          const LedgerRelease release = MakeRelease(request, counts, random);
          const json document = ReleaseDocument(release, shaped, IntervalTarget::kRespondents);  // the true counts
          for (std::size_t b = 0; b < counts.size(); ++b) {
            const json& bin = document["bins"][b];
            if (bin["ci_low"].is_null()) continue;
            ++intervals;
            CHECK(bin["ci_low"].get<double>() <= bin["value"].get<double>());
            CHECK(bin["value"].get<double>() <= bin["ci_high"].get<double>());
            const auto truth = static_cast<double>(counts[b]);
            covered += bin["ci_low"].get<double>() <= truth && truth <= bin["ci_high"].get<double>() ? 1 : 0;
          }
          for (const json& group : document["groups"]) {
            double mean = 0.0;
            for (std::size_t b : group["bins"]) mean += static_cast<double>(counts[b]);
            mean /= static_cast<double>(group["bins"].size());
            ++intervals;
            covered += group["ci_low"].get<double>() <= mean && mean <= group["ci_high"].get<double>() ? 1 : 0;
          }
          const double total = static_cast<double>(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}));
          ++intervals;
          covered += document["total"]["ci_low"].get<double>() <= total && total <= document["total"]["ci_high"].get<double>();
          for (const json& bin : document["views"][0]["bins"]) {
            if (bin["ci_low"].is_null()) continue;
            ++intervals;
            const std::size_t first = bin["label"] == "low" ? 0 : counts.size() / 2;
            double truth = 0.0;
            for (std::size_t b = first; b < first + counts.size() / 2; ++b) truth += static_cast<double>(counts[b]);
            covered += bin["ci_low"].get<double>() <= truth && truth <= bin["ci_high"].get<double>() ? 1 : 0;
          }
        }
      }
      const double coverage = static_cast<double>(covered) / static_cast<double>(intervals);
      MESSAGE(std::string(method) << " epsilon " << epsilon << ": " << intervals << " intervals, coverage " << coverage);
      // Intervals of one release use independent draws; 4 standard errors below nominal fails.
      CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / static_cast<double>(intervals)));
    }
  }
  (void)layout;
}

// The stochastic DP test (tests/cpp/support/stat_utils.h) on answer-change neighbours.
using deniable::testing::StochasticEpsilonLowerBound;

TEST_CASE("central kind: a release is epsilon-DP when one respondent changes their answer; add/remove noise is caught") {
  // One respondent's answer moves from bin 1 to bin 2: two counts change.
  const std::vector<std::int64_t> a = {1, 2, 0}, b = {1, 1, 1};
  const double epsilon = 1.0;
  const auto request = *ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", epsilon}});
  const auto product = [&](const std::vector<std::int64_t>& h, RandomSource& random) {
    return RunRelease(request, h, 2, random).value().values;  // what the server runs (kAnswerChangeSensitivity)
  };
  const double measured = StochasticEpsilonLowerBound(product, a, b, 300000, 78);
  MESSAGE("dp_base, sensitivity 2: stochastic lower bound " << measured);
  CHECK(measured <= epsilon);
  const auto sreb = *ParseReleaseRequest({{"method", "sreb_gca"}, {"epsilon", epsilon}});
  const double measured_sreb = StochasticEpsilonLowerBound(
      [&](const std::vector<std::int64_t>& h, RandomSource& random) { return RunRelease(sreb, h, 2, random).value().values; },
      a, b, 300000, 78);
  MESSAGE("sreb_gca, sensitivity 2: stochastic lower bound " << measured_sreb);
  CHECK(measured_sreb <= epsilon);
  // Canary: noise calibrated to adding or removing a record (sensitivity 1) loses up to 2 epsilon here.
  const double caught = StochasticEpsilonLowerBound(
      [&](const std::vector<std::int64_t>& h, RandomSource& random) { return RunRelease(request, h, 1, random).value().values; },
      a, b, 300000, 78);
  MESSAGE("canary, sensitivity 1: stochastic lower bound " << caught);
  CHECK(caught > epsilon);
}

TEST_CASE("central kind: a release scheduled at a count reserves its epsilon until it is made or cancelled") {
  ReleaseLedger ledger(1.0);
  const auto request = [](double epsilon) { return *ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", epsilon}}); };
  REQUIRE(ledger.Schedule({"", request(0.5), 100, "2026-11-25T00:00:00Z"}).ok());
  REQUIRE(ledger.Schedule({"", request(0.2), 300, "2026-11-25T00:00:00Z"}).ok());
  CHECK(ledger.reserved() == doctest::Approx(0.7));
  CHECK(ledger.left() == doctest::Approx(0.3));
  CHECK(ledger.CanSpend(0.4).error() == "a release of epsilon 0.4 would exceed this question's budget of 1: 0 is spent, "
                                        "0.7 is reserved by scheduled releases, 0.3 is left");
  CHECK(ledger.Due(99).empty());
  REQUIRE(ledger.Due(100).size() == 1);
  CHECK(ledger.Due(100)[0].id == "s1");
  LedgerRelease made;
  made.values = {1, 2};
  made.groups = {{0}, {1}};
  made.respondents = 100;
  REQUIRE(ledger.Fulfil("s1", made).ok());
  CHECK(ledger.spent() == doctest::Approx(0.5));
  CHECK(ledger.releases()[0].request.epsilon == 0.5);
  CHECK(ledger.reserved() == doctest::Approx(0.2));
  // Stored and read back with its reservation and id counter.
  const auto restored = ReleaseLedger::FromJson(ledger.ToJson());
  REQUIRE(restored.ok());
  CHECK(restored->ToJson() == ledger.ToJson());
  REQUIRE(ledger.Cancel("s2").ok());
  CHECK(ledger.left() == doctest::Approx(0.5));
  CHECK(!ledger.Cancel("s2").ok());
  REQUIRE(ledger.Schedule({"", request(0.1), 5, ""}).ok());
  CHECK(ledger.scheduled().back().id == "s3");  // ids are never reused
}

TEST_CASE("central kind: every published group mean is unbiased with the noise's variance, for every method") {
  // z = (published mean x m - true group sum) / sd(draw) over every group of every release: mean 0 and variance 1
  // (each group's error is its one draw). Tolerances from the variance formula: the mean within 5/sqrt(N), the
  // variance within 5 sqrt(Var(z^2)/N), Var(z^2) = E z^4 - 1 = 5 for Laplace-like draws (kurtosis 6).
  std::vector<std::int64_t> counts(64, 0);
  for (std::size_t b = 0; b < counts.size(); ++b) counts[b] = static_cast<std::int64_t>((b * 37) % 11 == 0 ? 300 : b % 5);
  SeededRandom random(21);
  for (const char* method : {"dp_base", "sreb_gca", "ahp"}) {
    const auto request = *ParseReleaseRequest({{"method", method}, {"epsilon", 0.5}});
    const double decay = PublishedNoiseDecay(request, 2);
    const double sd = std::sqrt(2.0 * decay) / (1.0 - decay);
    double sum = 0.0, sum_squares = 0.0;
    std::int64_t n = 0;
    for (int trial = 0; trial < 400; ++trial) {
      const LedgerRelease release = MakeRelease(request, counts, random);
      for (const auto& group : release.groups) {
        std::int64_t truth = 0;
        for (std::size_t b : group) truth += counts[b];
        const double z = (release.values[group.front()] * static_cast<double>(group.size()) - static_cast<double>(truth)) / sd;
        sum += z;
        sum_squares += z * z;
        ++n;
      }
    }
    const double mean = sum / static_cast<double>(n);
    const double variance = sum_squares / static_cast<double>(n) - mean * mean;
    MESSAGE(std::string(method) << ": " << n << " group draws, mean z " << mean << ", variance " << variance);
    CHECK(std::fabs(mean) < 5.0 / std::sqrt(static_cast<double>(n)));
    CHECK(std::fabs(variance - 1.0) < 5.0 * std::sqrt(5.0 / static_cast<double>(n)));
  }
}
