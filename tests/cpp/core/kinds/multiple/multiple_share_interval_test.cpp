// A "choose all that apply" question's share intervals with few reports per
// option, on a real checklist's shape: the population's shares of the eight
// Eysenck Personality Inventory questions that build/kinds_real_data asks as
// one checklist (psychTools' epi, 3,398 complete answers; tense, sleepless
// thoughts, palpitations, shaking, nightmares, aches, health worries,
// sleeplessness), at n = 200. With padding and sampling at epsilon 4 an
// option's report count is then small (a share of 0.2 gives about 6 reports
// of it), and the normal interval of a binomial share covers too little
// (0.889-0.921 for five of the eight options in the bench, 1000 surveys). Each
// option's report count is Binomial(n, lambda) for the population, so the
// exact (Clopper-Pearson) interval of lambda, mapped to the share, covers at
// least 95% at every n. Options are drawn independently: with padding as long
// as the cap, and with the bits, an option's reports depend on its own share
// alone, so the marginal shares are the whole shape. For these respondents
// (one fixed draw of 100, perturbed afresh), the score interval (the
// randomisation's variance taken at the share tested, not at the estimate)
// replaces estimate +- 1.96 SE, which covered 0.841-0.948 with padding.
//
// The same holds for padding's distribution of the number chosen at its two
// ends: P(none) is one dummy's share and P(l or more) one minus another's,
// each from a single binomial count (a respondent's set size is what the
// dummies see, drawn here from the checklist's real distribution of sizes).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/multiple/multiple_results.h"

using namespace deniable;
using nlohmann::json;

namespace {

const std::vector<double> kChecklistShares = {0.3037, 0.6519, 0.3693, 0.1460, 0.1883, 0.2098, 0.4779, 0.1978};

// Per option, the share of `surveys` surveys of n respondents whose interval covers its target: for the
// population, the checklist's share (respondents drawn afresh in each survey); for these respondents, their own
// share (one fixed draw of n respondents, perturbed afresh in each survey).
std::vector<double> Coverage(const json& mechanism, int n, int surveys, std::uint64_t seed,
                             IntervalTarget target = IntervalTarget::kPopulation) {
  json question = {{"id", "q"}, {"text", "Which apply to you?"}, {"type", "multiple"}, {"mechanism", mechanism}};
  for (std::size_t i = 0; i < kChecklistShares.size(); ++i) question["options"].push_back("option " + std::to_string(i));
  const auto kind = *MultipleQuestionKind::Parse(question, "q");
  const auto& multiple = dynamic_cast<const MultipleQuestionKind&>(*kind);
  std::vector<double> covered(kChecklistShares.size(), 0.0);
  SeededRandom random(seed);
  const auto draw = [&] {
    json set = json::array();
    for (std::size_t i = 0; i < kChecklistShares.size(); ++i) {
      if (UniformUnit(random) < kChecklistShares[i]) set.push_back(i);
    }
    return set;
  };
  std::vector<json> fixed;
  std::vector<double> truth = kChecklistShares;
  if (target == IntervalTarget::kRespondents) {
    truth.assign(kChecklistShares.size(), 0.0);
    for (int r = 0; r < n; ++r) {
      fixed.push_back(draw());
      for (const auto& i : fixed.back()) truth[i.get<std::size_t>()] += 1.0 / n;
    }
  }
  for (int s = 0; s < surveys; ++s) {
    auto aggregate = kind->NewAggregate();
    for (int r = 0; r < n; ++r) {
      const json set = fixed.empty() ? draw() : fixed[static_cast<std::size_t>(r)];
      aggregate->Add(**kind->Decode(*multiple.Perturb(set, random)));  // the device's report, as the server reads it
    }
    const json result = MultipleResultToJson(multiple, static_cast<const MultipleAggregate&>(*aggregate), target);
    for (std::size_t i = 0; i < kChecklistShares.size(); ++i) {
      const json& option = result["options"][i];
      REQUIRE(option["ci_low"].get<double>() <= option["share"].get<double>());
      REQUIRE(option["share"].get<double>() <= option["ci_high"].get<double>());
      covered[i] += option["ci_low"].get<double>() <= truth[i] && truth[i] <= option["ci_high"].get<double>();
    }
  }
  for (double& count : covered) count /= surveys;
  return covered;
}

// The checklist's distribution of the number chosen (0..8) among the 3,398 complete answers.
const std::vector<double> kChecklistSizes = {0.1092, 0.2095, 0.2269, 0.1801, 0.1245, 0.0815, 0.0459, 0.0188, 0.0035};

// A set of `size` options of 8, uniformly.
json SetOfSize(int size, RandomSource& random) {
  std::vector<int> options = {0, 1, 2, 3, 4, 5, 6, 7};
  json set = json::array();
  for (int i = 0; i < size; ++i) {
    const auto j = static_cast<std::size_t>(i) + static_cast<std::size_t>(UniformBelow(random, 8 - i));
    std::swap(options[static_cast<std::size_t>(i)], options[j]);
    set.push_back(options[static_cast<std::size_t>(i)]);
  }
  return set;
}

// Per number chosen, the share of surveys whose interval covers the checklist's share of it.
std::vector<double> SizeCoverage(double epsilon, int n, int surveys, std::uint64_t seed) {
  json question = {{"id", "q"}, {"text", "Which apply to you?"}, {"type", "multiple"},
                   {"mechanism", {{"name", "padding_sampling"}, {"epsilon", epsilon}}}};
  for (int i = 0; i < 8; ++i) question["options"].push_back("option " + std::to_string(i));
  const auto kind = *MultipleQuestionKind::Parse(question, "q");
  const auto& multiple = dynamic_cast<const MultipleQuestionKind&>(*kind);
  std::vector<double> covered(kChecklistSizes.size(), 0.0);
  SeededRandom random(seed);
  for (int s = 0; s < surveys; ++s) {
    auto aggregate = kind->NewAggregate();
    for (int r = 0; r < n; ++r) {
      double u = UniformUnit(random);
      int size = 0;
      while (size < 8 && u >= kChecklistSizes[static_cast<std::size_t>(size)]) u -= kChecklistSizes[static_cast<std::size_t>(size++)];
      aggregate->Add(**kind->Decode(*multiple.Perturb(SetOfSize(size, random), random)));
    }
    const json result = MultipleResultToJson(multiple, static_cast<const MultipleAggregate&>(*aggregate));
    for (std::size_t t = 0; t < kChecklistSizes.size(); ++t) {
      const json& row = result["number_chosen"]["distribution"][t];
      REQUIRE(row["ci_low"].get<double>() <= row["share"].get<double>());
      REQUIRE(row["share"].get<double>() <= row["ci_high"].get<double>());
      covered[t] += row["ci_low"].get<double>() <= kChecklistSizes[t] && kChecklistSizes[t] <= row["ci_high"].get<double>();
    }
  }
  for (double& count : covered) count /= surveys;
  return covered;
}

}  // namespace

TEST_CASE("multiple: the population's share intervals cover at least 95% with few reports per option (a real checklist's shares, n = 200)") {
  constexpr int kN = 200, kSurveys = 2000;
  // An option's coverage over 2000 surveys has Monte-Carlo sd sqrt(0.95 * 0.05 / 2000) = 0.0049: 3 of them below 0.95.
  const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
  for (const char* name : {"padding_sampling", "optimized_bits", "symmetric_bits"}) {
    const auto coverage = Coverage({{"name", name}, {"epsilon", 4}}, kN, kSurveys, 41);
    MESSAGE(std::string(name) << ": the options' coverage " << *std::min_element(coverage.begin(), coverage.end()) << " to "
                 << *std::max_element(coverage.begin(), coverage.end()));
    for (std::size_t i = 0; i < coverage.size(); ++i) {
      INFO(std::string(name) << ", option " << i << " (share " << kChecklistShares[i] << "): coverage " << coverage[i]);
      CHECK(coverage[i] >= floor);
    }
  }
}

TEST_CASE("multiple: padding's shares of choosing none and all cover at least 95% with few reports (a real checklist's sizes, n = 200)") {
  constexpr int kN = 200, kSurveys = 2000;
  const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
  for (double epsilon : {1.0, 4.0}) {
    const auto coverage = SizeCoverage(epsilon, kN, kSurveys, 43);
    MESSAGE("epsilon " << epsilon << ": none " << coverage.front() << ", all eight " << coverage.back());
    INFO("epsilon " << epsilon);
    CHECK(coverage.front() >= floor);
    CHECK(coverage.back() >= floor);
  }
}

TEST_CASE("multiple: these respondents' share intervals cover 95% with few reports per option (a real checklist's shares, n = 100)") {
  constexpr int kN = 100, kSurveys = 2000;
  // A count's few values make an interval's coverage step above 95% at some shares (0.975 here): only the floor is checked.
  const double floor = 0.95 - 3.0 * std::sqrt(0.95 * 0.05 / kSurveys);
  for (const char* name : {"padding_sampling", "optimized_bits", "symmetric_bits"}) {
    const auto coverage = Coverage({{"name", name}, {"epsilon", 4}}, kN, kSurveys, 47, IntervalTarget::kRespondents);
    MESSAGE(std::string(name) << ": the options' coverage " << *std::min_element(coverage.begin(), coverage.end())
                              << " to " << *std::max_element(coverage.begin(), coverage.end()));
    for (std::size_t i = 0; i < coverage.size(); ++i) {
      INFO(std::string(name) << ", option " << i << ": coverage " << coverage[i]);
      CHECK(coverage[i] >= floor);
    }
  }
}
