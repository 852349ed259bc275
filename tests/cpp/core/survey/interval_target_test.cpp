// What an interval is for (issue 26 item 3): categorical estimates, the
// levels mechanism's shares and central releases give 95% intervals for the
// population the respondents were drawn from by default (sampling and
// randomisation), and for these respondents under "interval": "respondents".
// Each is checked against its own target: a population truth (a fresh sample
// per survey) and the sample's own values. Coverage tolerances come from the
// binomial variance of the coverage count (4 standard errors: a false failure
// about 3e-5 per check), or, where a survey's intervals are not independent
// (a release's bins share one sample), from the spread of the per-survey
// counts across independent surveys.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/discrete_laplace.h"
#include "core/central/release_document.h"
#include "core/central/release_noise.h"
#include "core/central/release_request.h"
#include "core/common/seeded_random.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/categorical/categorical_results.h"
#include "core/numeric/levels/levels_mechanism.h"
#include "core/survey/simulation.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

// One answer drawn from `shares` (a population).
int DrawFrom(const std::vector<double>& shares, RandomSource& random) {
  double u = UniformUnit(random);
  for (std::size_t i = 0; i + 1 < shares.size(); ++i) {
    if (u < shares[i]) return static_cast<int>(i);
    u -= shares[i];
  }
  return static_cast<int>(shares.size()) - 1;
}

double CoverageFloor(double trials) { return 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / trials); }
double CoverageCeiling(double trials) { return 0.95 + 4.0 * std::sqrt(0.95 * 0.05 / trials); }

struct Coverage {
  std::vector<int> population;   // per option: population intervals holding the population's share
  std::vector<int> respondents;  // per option: respondents' intervals holding the sample's share
  int surveys = 0;
};

// `surveys` surveys of n respondents drawn from `shares`, each perturbed by
// `mechanism` and estimated for both targets.
Coverage RunSurveys(const CategoricalMechanism& mechanism, const std::vector<double>& shares, int n, int surveys,
                    std::uint64_t seed) {
  const std::size_t k = shares.size();
  Coverage coverage{std::vector<int>(k, 0), std::vector<int>(k, 0), surveys};
  SeededRandom random(seed);
  for (int s = 0; s < surveys; ++s) {
    std::vector<std::int64_t> support(k, 0), answers(k, 0);
    for (int r = 0; r < n; ++r) {
      const int answer = DrawFrom(shares, random);
      ++answers[static_cast<std::size_t>(answer)];
      const Support reported = mechanism.Perturb(answer, random).value();
      for (std::size_t i = 0; i < k; ++i) support[i] += reported[i];
    }
    const auto population = EstimateFrequencies(support, n, mechanism.probabilities(), IntervalTarget::kPopulation);
    const auto respondents = EstimateFrequencies(support, n, mechanism.probabilities(), IntervalTarget::kRespondents);
    for (std::size_t i = 0; i < k; ++i) {
      const double own = static_cast<double>(answers[i]) / n;
      coverage.population[i] += population.options[i].ci_low <= shares[i] && shares[i] <= population.options[i].ci_high;
      coverage.respondents[i] += respondents.options[i].ci_low <= own && own <= respondents.options[i].ci_high;
    }
  }
  return coverage;
}

std::unique_ptr<const CategoricalMechanism> Mechanism(CategoricalKind kind, int k, std::optional<double> epsilon) {
  return CreateCategoricalMechanism({kind, k, epsilon, 1}).value();
}

}  // namespace

TEST_CASE("categorical: the population variance is lambda (1 - lambda) / (n (p - q)^2) for every mechanism, and "
          "the respondents' is that less exactly f (1 - f) / n") {
  const std::vector<std::int64_t> support = {412, 268, 301, 190};
  const std::int64_t n = 1000;
  for (const auto& mechanism : {Mechanism(CategoricalKind::kGrr, 4, 1.0), Mechanism(CategoricalKind::kOue, 4, 1.0),
                                Mechanism(CategoricalKind::kSue, 4, 2.0),
                                Mechanism(CategoricalKind::kNegativeSurvey, 4, 1.0),
                                Mechanism(CategoricalKind::kNegativeSurvey, 4, std::nullopt)}) {
    const auto pq = mechanism->probabilities();
    const auto shown = EstimateFrequencies(support, n, pq);  // the default
    const auto narrow = EstimateFrequencies(support, n, pq, IntervalTarget::kRespondents);
    for (std::size_t i = 0; i < support.size(); ++i) {
      const double lambda = static_cast<double>(support[i]) / n;
      const double f = shown.options[i].frequency;
      CAPTURE(CategoricalKindName(mechanism->params().kind));
      CAPTURE(f);
      if (f < 0.0 || f > 1.0) continue;  // clipped plug-in: checked below
      const double gap = pq.p - pq.q;
      CHECK(shown.options[i].std_error ==
            doctest::Approx(std::sqrt(lambda * (1.0 - lambda) / (n * gap * gap))).epsilon(1e-12));
      CHECK(shown.options[i].std_error * shown.options[i].std_error -
                narrow.options[i].std_error * narrow.options[i].std_error ==
            doctest::Approx(f * (1.0 - f) / n).epsilon(1e-9));
      CHECK(shown.options[i].ci_high - shown.options[i].ci_low ==
            doctest::Approx(2.0 * kZ95 * shown.options[i].std_error).epsilon(1e-12));
    }
  }
  // A frequency estimated outside [0, 1] plugs in the nearest frequency: the
  // population's variance is then the respondents' (f (1 - f) = 0), never less.
  const auto pq = Mechanism(CategoricalKind::kGrr, 2, 1.0)->probabilities();
  const auto outside = EstimateFrequencies({200, 800}, 1000, pq);  // f_0 < 0
  REQUIRE(outside.options[0].frequency < 0.0);
  CHECK(outside.options[0].std_error ==
        doctest::Approx(EstimateFrequencies({200, 800}, 1000, pq, IntervalTarget::kRespondents).options[0].std_error));
}

TEST_CASE("categorical results: population by default, stated under interval_for; respondents on request") {
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "s"},
                             {"questions", {{{"id", "q"}, {"text", "q"}, {"options", {"a", "b", "c"}},
                                             {"mechanism", {{"name", "grr"}, {"epsilon", 1.0}}}}}}});
  REQUIRE(survey.ok());
  const Question& question = survey->questions[0];
  const CategoricalAggregate aggregate(600, {260, 190, 150});
  const auto shown = question.kind->Estimate(aggregate, json::object(), {}).value();
  const auto narrow = question.kind->Estimate(aggregate, {{"interval", "respondents"}}, {}).value();
  CHECK(shown["interval_for"]["target"] == "population");
  CHECK(narrow["interval_for"]["target"] == "respondents");
  for (std::size_t i = 0; i < 3; ++i) {
    const double f = shown["options"][i]["frequency"].get<double>();
    const double wide = shown["options"][i]["std_error"].get<double>();
    const double tight = narrow["options"][i]["std_error"].get<double>();
    CHECK(wide * wide - tight * tight == doctest::Approx(f * (1.0 - f) / 600.0).epsilon(1e-9));
    // The consistent interval still holds its own estimate, for both targets.
    for (const json* result : {&shown, &narrow}) {
      const json& option = (*result)["options"][i];
      CHECK(option["consistent_ci_low"].get<double>() <= option["consistent_frequency"].get<double>());
      CHECK(option["consistent_frequency"].get<double>() <= option["consistent_ci_high"].get<double>());
      CHECK(option["consistent_ci_low"].get<double>() <= std::max(0.0, option["ci_low"].get<double>()));
    }
  }
  CHECK(!question.kind->Estimate(aggregate, {{"interval", "everyone"}}, {}).ok());
  // The advisor's planning variance is the population's at f -> 0 (where sampling adds nothing).
  const auto pq = CategoricalKindOf(question).mechanism().probabilities();
  CHECK(PlanningFrequencyVariance(pq, 600.0) == doctest::Approx(PopulationFrequencyVariance(pq, 0.0, 600.0)));
}

TEST_CASE("categorical coverage: each interval covers its own target at 95%, a rare option and a real-like shape") {
  // The real survey of issue 26: 2,435 respondents, a yes/no item with 27% yes
  // by GRR at epsilon 1.6; its respondents' interval (+-2.2 points) covered the
  // population's share in about 88% of surveys, the population's (+-2.8) in 95%.
  SUBCASE("real-like: 2,435 respondents, 27% yes") {
    const auto grr = Mechanism(CategoricalKind::kGrr, 2, 1.6);
    const int surveys = 800;
    const Coverage coverage = RunSurveys(*grr, {0.73, 0.27}, 2435, surveys, 26);
    const double population = coverage.population[1] / static_cast<double>(surveys);
    const double respondents = coverage.respondents[1] / static_cast<double>(surveys);
    MESSAGE("population coverage " << population << ", respondents' coverage " << respondents);
    CHECK(population >= CoverageFloor(surveys));
    CHECK(population <= CoverageCeiling(surveys));
    CHECK(respondents >= CoverageFloor(surveys));
    CHECK(respondents <= CoverageCeiling(surveys));
  }
  SUBCASE("a rare option (2%) under every mechanism") {
    const std::vector<double> shares = {0.6, 0.25, 0.1, 0.03, 0.02};
    const int surveys = 300, n = 1000;
    std::vector<int> population(shares.size(), 0), respondents(shares.size(), 0);
    int runs = 0;
    std::uint64_t seed = 100;
    for (const auto& mechanism : {Mechanism(CategoricalKind::kGrr, 5, 1.0), Mechanism(CategoricalKind::kOue, 5, 1.0),
                                  Mechanism(CategoricalKind::kSue, 5, 1.0),
                                  Mechanism(CategoricalKind::kNegativeSurvey, 5, 2.0)}) {
      const Coverage coverage = RunSurveys(*mechanism, shares, n, surveys, ++seed);
      for (std::size_t i = 0; i < shares.size(); ++i) {
        population[i] += coverage.population[i];
        respondents[i] += coverage.respondents[i];
      }
      runs += surveys;
    }
    for (std::size_t i = 0; i < shares.size(); ++i) {
      CAPTURE(i);
      const double wide = population[i] / static_cast<double>(runs), tight = respondents[i] / static_cast<double>(runs);
      MESSAGE("option " << i << " (share " << shares[i] << "): population " << wide << ", respondents " << tight);
      CHECK(wide >= CoverageFloor(runs));
      CHECK(wide <= CoverageCeiling(runs));
      CHECK(tight >= CoverageFloor(runs));
      CHECK(tight <= CoverageCeiling(runs));
    }
  }
}

TEST_CASE("simulate checks the categorical intervals against their own target") {
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "s"}, {"version", 1}, {"title", "s"},
                             {"questions", {{{"id", "q"}, {"text", "q"}, {"options", {"no", "yes"}},
                                             {"mechanism", {{"name", "grr"}, {"epsilon", 1.6}}}}}}});
  REQUIRE(survey.ok());
  const json truth = {{"q", {{"frequencies", {0.73, 0.27}}}}};
  SimulationOptions options{2435, 3, nullptr, 1000000000};
  const json shown = Simulate(*survey, truth, options).value()["questions"][0];
  CHECK(shown["errors"]["ci_target"] == "population");
  CHECK(shown["population"][1].get<double>() == doctest::Approx(0.27));
  int covered = 0;
  for (std::size_t i = 0; i < 2; ++i) {
    const double share = shown["population"][i].get<double>();
    covered += shown["options"][i]["ci_low"].get<double>() <= share && share <= shown["options"][i]["ci_high"].get<double>();
  }
  CHECK(shown["errors"]["ci_coverage"].get<double>() == doctest::Approx(covered / 2.0));
  options.estimate = {{"interval", "respondents"}};
  const json narrow = Simulate(*survey, truth, options).value()["questions"][0];
  CHECK(narrow["errors"]["ci_target"] == "respondents");
  CHECK(narrow["interval_for"]["target"] == "respondents");
}

TEST_CASE("levels: the shares' respondents' variance is the population's less exactly pi (1 - pi) / n; the mean "
          "keeps the population interval and says why") {
  auto made = CreateLevels({0.0, 100.0}, {30.0, 60.0}, {3.0, 2.0, 1.0});
  REQUIRE(made.ok());
  const auto& levels = **made;
  const auto atoms = levels.report_atoms();
  std::vector<std::int64_t> counts(atoms.size(), 0);
  SeededRandom random(8);
  const int n = 5000;
  for (int i = 0; i < n; ++i) {
    const double answer = i % 5 == 0 ? 80.0 : (i % 5 < 3 ? 45.0 : 10.0);
    const double y = levels.Perturb(answer, random).value()[0];
    ++counts[static_cast<std::size_t>(std::lower_bound(atoms.begin(), atoms.end(), y) - atoms.begin())];
  }
  const json shown = levels.EstimateFromAtoms(counts, {}).value();
  const json narrow = levels.EstimateFromAtoms(counts, {1, false, IntervalTarget::kRespondents}).value();
  CHECK(shown["interval_for"]["target"] == "population");
  CHECK(narrow["interval_for"]["target"] == "respondents");
  for (std::size_t t = 0; t < 3; ++t) {
    const double pi = shown["levels"][t]["share_unclipped"].get<double>();
    REQUIRE(pi > 0.0);
    const double wide = shown["levels"][t]["std_error"].get<double>();
    const double tight = narrow["levels"][t]["std_error"].get<double>();
    CHECK(wide * wide - tight * tight == doctest::Approx(pi * (1.0 - pi) / n).epsilon(1e-9));
  }
  CHECK(narrow["mean"]["std_error"] == shown["mean"]["std_error"]);
  CHECK(narrow["mean"]["note"].is_string());
}

TEST_CASE("levels coverage: the level shares cover the population's shares and the respondents' own") {
  auto made = CreateLevels({0.0, 100.0}, {50.0}, {2.0, 1.0});
  REQUIRE(made.ok());
  const auto& levels = **made;
  const auto atoms = levels.report_atoms();
  const double upper_share = 0.3;  // answers above 50 (the strict level)
  const int surveys = 600, n = 800;
  int wide_covered = 0, tight_covered = 0;
  SeededRandom random(31);
  for (int s = 0; s < surveys; ++s) {
    std::vector<std::int64_t> counts(atoms.size(), 0);
    int upper = 0;
    for (int i = 0; i < n; ++i) {
      const bool strict = UniformUnit(random) < upper_share;
      upper += strict;
      const double y = levels.Perturb(strict ? 70.0 : 20.0, random).value()[0];
      ++counts[static_cast<std::size_t>(std::lower_bound(atoms.begin(), atoms.end(), y) - atoms.begin())];
    }
    const json shown = levels.EstimateFromAtoms(counts, {}).value()["levels"][1];
    const json narrow =
        levels.EstimateFromAtoms(counts, {1, false, IntervalTarget::kRespondents}).value()["levels"][1];
    const double own = static_cast<double>(upper) / n;
    wide_covered += shown["ci_low"].get<double>() <= upper_share && upper_share <= shown["ci_high"].get<double>();
    tight_covered += narrow["ci_low"].get<double>() <= own && own <= narrow["ci_high"].get<double>();
  }
  const double wide = wide_covered / static_cast<double>(surveys), tight = tight_covered / static_cast<double>(surveys);
  MESSAGE("strict level's share: population coverage " << wide << ", respondents' " << tight);
  CHECK(wide >= CoverageFloor(surveys));
  CHECK(wide <= CoverageCeiling(surveys));
  CHECK(tight >= CoverageFloor(surveys));
  CHECK(tight <= CoverageCeiling(surveys));
}

TEST_CASE("central: discrete Laplace noise plus a normal sample error is covered by sqrt((h + 1/2)^2 + (z sd)^2)") {
  // Exact convolution: P(|N + Z| <= H) = sum_k P(N = k) P(|k + Z| <= H).
  auto phi = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  double worst = 1.0;
  for (double epsilon : {0.05, 0.2, 0.5, 1.0, 2.0, 4.0, 8.0}) {
    const auto noise = DiscreteLaplace::Create(epsilon).value();
    const double decay = std::exp(-epsilon);
    const double h = static_cast<double>(DiscreteLaplaceHalfWidth(decay, 0.95));
    const auto reach = static_cast<std::int64_t>(std::ceil(std::log(1e-13) / std::log(decay)));
    for (double sd : {0.02, 0.1, 0.3, 0.7, 1.0, 2.0, 5.0, 30.0, 1000.0}) {
      const double half = WithSamplingHalfWidth(h, sd * sd);
      double covered = 0.0;
      for (std::int64_t k = -reach; k <= reach; ++k) {
        const double x = static_cast<double>(k);
        covered += noise.Probability(k) * (phi((half - x) / sd) - phi((-half - x) / sd));
      }
      CAPTURE(epsilon);
      CAPTURE(sd);
      CHECK(covered >= 0.95 - 1e-9);
      worst = std::min(worst, covered);
    }
  }
  MESSAGE("worst exact coverage " << worst);
  CHECK(WithSamplingHalfWidth(7.0, 0.0) == 7.0);  // no sample error: the noise's exact half-width
}

TEST_CASE("central releases: population intervals cover n times the population's shares, the respondents' cover "
          "their own counts") {
  const std::vector<double> shares = {0.4, 0.25, 0.15, 0.1, 0.05, 0.03, 0.015, 0.005};
  const int n = 2000;
  const ReleaseLayout layout{std::vector<std::string>(shares.size(), "bin"),
                             {{"halves", {{"low", 0, 4}, {"high", 4, 8}}}}};
  SeededRandom random(12);
  for (const char* method : {"dp_base", "sreb_gca"}) {
    const auto request = ParseReleaseRequest({{"method", method}, {"epsilon", 1.0}}).value();
    const int surveys = 300;
    // Per survey, the intervals' covered share (bins share one sample, so surveys are the independent units).
    std::vector<double> wide_share, tight_share;
    for (int s = 0; s < surveys; ++s) {
      std::vector<std::int64_t> counts(shares.size(), 0);
      for (int r = 0; r < n; ++r) ++counts[static_cast<std::size_t>(DrawFrom(shares, random))];
      const auto drawn = RunRelease(request, counts, 2, random).value();
      LedgerRelease release;
      release.request = request;
      release.sensitivity = 2;
      release.respondents = n;
      release.values = drawn.values;
      for (const auto& group : drawn.groups) release.groups.push_back(group.bins);
      for (const IntervalTarget target : {IntervalTarget::kPopulation, IntervalTarget::kRespondents}) {
        const json document = ReleaseDocument(release, layout, target);
        CHECK(document["interval_for"]["target"] == std::string(IntervalTargetName(target)));
        auto truth = [&](std::size_t first, std::size_t end) {  // the target of a sum of bins
          double sum = 0.0;
          for (std::size_t b = first; b < end; ++b) {
            sum += target == IntervalTarget::kPopulation ? n * shares[b] : static_cast<double>(counts[b]);
          }
          return sum;
        };
        int intervals = 0, covered = 0;
        auto check = [&](const json& interval, double value) {
          if (interval["ci_low"].is_null()) return;
          ++intervals;
          covered += interval["ci_low"].get<double>() <= value && value <= interval["ci_high"].get<double>();
        };
        for (std::size_t b = 0; b < shares.size(); ++b) check(document["bins"][b], truth(b, b + 1));
        for (const json& group : document["groups"]) {
          double mean = 0.0;
          for (std::size_t b : group["bins"]) mean += truth(b, b + 1);
          check(group, mean / static_cast<double>(group["bins"].size()));
        }
        check(document["views"][0]["bins"][0], truth(0, 4));
        check(document["views"][0]["bins"][1], truth(4, 8));
        (target == IntervalTarget::kPopulation ? wide_share : tight_share)
            .push_back(intervals > 0 ? static_cast<double>(covered) / intervals : 1.0);
      }
    }
    for (const auto* shares_covered : {&wide_share, &tight_share}) {
      const double mean = std::accumulate(shares_covered->begin(), shares_covered->end(), 0.0) / surveys;
      double squares = 0.0;
      for (double x : *shares_covered) squares += (x - mean) * (x - mean);
      const double standard_error = std::sqrt(squares / (surveys - 1.0) / surveys);
      MESSAGE(std::string(method) << std::string(shares_covered == &wide_share ? " population" : " respondents") << ": coverage " << mean
                     << " (standard error " << standard_error << ")");
      CHECK(mean >= 0.95 - 4.0 * standard_error);
    }
  }
}
