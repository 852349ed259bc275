// The set mechanisms of "choose all that apply" questions (set_mechanism.h)
// and their estimates (multiple_results.h, number_chosen.h):
//   1. parameters: the whole set's epsilon is exactly the claim, and m = 1 is OUE / SUE;
//   2. output rates: the reports' patterns follow the exact law (chi-square), a wrong q is rejected;
//   3. shares: unbiased, variance as the formula, 95% intervals cover 95% (population and these
//      respondents), and canaries (a biased estimate, a variance x2, intervals half as wide) are caught;
//   4. the number chosen: its mean and distribution unbiased and covered;
//   5. the empirical-epsilon audit on whole reports: never above the claim, close to it where the bound
//      is tight, and a mechanism whose bits each spend the whole epsilon is caught.
// Fixed seeds; every tolerance is a number of standard deviations of the quantity tested.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/multiple/multiple_advice.h"
#include "core/kinds/multiple/multiple_results.h"
#include "core/kinds/multiple/number_chosen.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::SampleMean;
using deniable::testing::SampleVariance;
using nlohmann::json;

namespace {

std::shared_ptr<const QuestionKind> KindOf(const json& mechanism, int options, int max_choices) {
  json question = {{"id", "q"}, {"text", "Which?"}, {"type", "multiple"}, {"mechanism", mechanism}};
  for (int i = 0; i < options; ++i) question["options"].push_back("option " + std::to_string(i));
  if (max_choices < options) question["max_choices"] = max_choices;
  auto kind = MultipleQuestionKind::Parse(question, "q");
  REQUIRE_MESSAGE(kind.ok(), (kind.ok() ? "" : kind.error()));
  return *kind;
}

const MultipleQuestionKind& Multiple(const std::shared_ptr<const QuestionKind>& kind) {
  return dynamic_cast<const MultipleQuestionKind&>(*kind);
}

// Each option chosen independently with its share.
std::vector<int> DrawSet(const std::vector<double>& shares, RandomSource& random) {
  std::vector<int> set;
  for (std::size_t i = 0; i < shares.size(); ++i) {
    if (Bernoulli(random, shares[i])) set.push_back(static_cast<int>(i));
  }
  return set;
}

// The exact probability of a report's support (its bits, or the one value) given a set.
double ReportProbability(const SetMechanism& mechanism, const std::vector<int>& set, const Support& report) {
  const auto raw = mechanism.raw_probabilities();
  const int k = mechanism.params().options;
  if (mechanism.is_bits()) {
    double probability = 1.0;
    std::vector<bool> in(static_cast<std::size_t>(k), false);
    for (int i : set) in[static_cast<std::size_t>(i)] = true;
    for (int i = 0; i < k; ++i) {
      const double one = in[static_cast<std::size_t>(i)] ? raw.p : raw.q;
      probability *= report[static_cast<std::size_t>(i)] ? one : 1.0 - one;
    }
    return probability;
  }
  const auto l = static_cast<std::size_t>(mechanism.padding());
  const std::size_t size = std::max(set.size(), l);
  std::vector<double> item(static_cast<std::size_t>(mechanism.outputs()), 0.0);
  for (int i : set) item[static_cast<std::size_t>(i)] = 1.0 / static_cast<double>(size);
  for (std::size_t j = 0; j + set.size() < l; ++j) item[static_cast<std::size_t>(k) + j] = 1.0 / static_cast<double>(size);
  double probability = 0.0;
  for (std::size_t v = 0; v < item.size(); ++v) probability += item[v] * (report[v] ? raw.p : raw.q);
  return probability;
}

std::string Key(const Support& support) {
  std::string key;
  for (auto bit : support) key += bit ? '1' : '0';
  return key;
}

// Every possible report: all 2^k bit patterns, or the k + l one-value reports.
std::vector<Support> AllReports(const SetMechanism& mechanism) {
  std::vector<Support> reports;
  const int outputs = mechanism.outputs();
  if (mechanism.is_bits()) {
    for (int pattern = 0; pattern < (1 << outputs); ++pattern) {
      Support bits(static_cast<std::size_t>(outputs));
      for (int i = 0; i < outputs; ++i) bits[static_cast<std::size_t>(i)] = (pattern >> i) & 1;
      reports.push_back(bits);
    }
  } else {
    for (int v = 0; v < outputs; ++v) reports.push_back(IndicesToSupport({v}, outputs));
  }
  return reports;
}

using Perturber = std::function<Support(const std::vector<int>&, RandomSource&)>;

// The chi-square p-value of `trials` reports of `set` against the exact law of `mechanism`.
double PatternPValue(const Perturber& perturb, const SetMechanism& mechanism, const std::vector<int>& set, int trials,
                     std::uint64_t seed) {
  const auto reports = AllReports(mechanism);
  std::map<std::string, std::size_t> index;
  std::vector<double> probabilities;
  for (std::size_t r = 0; r < reports.size(); ++r) {
    index[Key(reports[r])] = r;
    probabilities.push_back(ReportProbability(mechanism, set, reports[r]));
  }
  std::vector<std::int64_t> observed(reports.size(), 0);
  SeededRandom random(seed);
  for (int t = 0; t < trials; ++t) ++observed[index.at(Key(perturb(set, random)))];
  return testing::ChiSquarePValue(observed, probabilities);
}

const std::vector<json> kMechanisms = {{{"name", "symmetric_bits"}, {"epsilon", 2}},
                                       {{"name", "optimized_bits"}, {"epsilon", 2}},
                                       {{"name", "padding_sampling"}, {"epsilon", 2}}};

}  // namespace

TEST_CASE("multiple: the whole set's epsilon is the claim, and one choice of k is unary encoding") {
  for (auto kind : {SetMechanismKind::kSymmetricBits, SetMechanismKind::kOptimizedBits}) {
    for (int k : {2, 4, 9, 64}) {
      for (int m : {1, 2, k / 2, k}) {
        if (m < 1) continue;
        for (double epsilon : {0.1, 1.0, 4.0}) {
          const auto pq = SetBitsProbabilities(kind, k, m, epsilon);
          INFO(SetMechanismName(kind) << " k " << k << " m " << m << " eps " << epsilon);
          CHECK(SetBitsEpsilon(pq, k, m) == doctest::Approx(epsilon).epsilon(1e-9));
          CHECK(pq.p > pq.q);
        }
      }
    }
  }
  // m = 1 (one choice of k >= 2): optimized_bits is OUE and symmetric_bits is SUE at the same epsilon.
  for (auto [set_kind, categorical] : {std::pair{SetMechanismKind::kOptimizedBits, CategoricalKind::kOue},
                                       std::pair{SetMechanismKind::kSymmetricBits, CategoricalKind::kSue}}) {
    const auto expected = (*CreateCategoricalMechanism({categorical, 6, 1.5, 1}))->probabilities();
    const auto pq = SetBitsProbabilities(set_kind, 6, 1, 1.5);
    CHECK(pq.p == doctest::Approx(expected.p).epsilon(1e-12));
    CHECK(pq.q == doctest::Approx(expected.q).epsilon(1e-12));
  }
  // Padding: an option in a padded set of l is reported with q + (p - q) / l.
  const auto padding = *CreateSetMechanism({SetMechanismKind::kPaddingSampling, 5, 3, 1.0, 0});
  CHECK(padding->padding() == 3);
  CHECK(padding->outputs() == 8);
  const double e = std::exp(1.0);
  CHECK(padding->probabilities().p == doctest::Approx(1.0 / (e + 7) + (e - 1) / (e + 7) / 3));
  CHECK_FALSE(CreateSetMechanism({SetMechanismKind::kPaddingSampling, 5, 3, 1.0, 4}).ok());  // l > m
  CHECK_FALSE(CreateSetMechanism({SetMechanismKind::kOptimizedBits, 65, 3, 1.0, 0}).ok());
  CHECK_FALSE(CreateSetMechanism({SetMechanismKind::kOptimizedBits, 5, 6, 1.0, 0}).ok());
  CHECK(ReadSetAnswer(json::array({2, 0}), 4, 2).value() == std::vector<int>{0, 2});
  CHECK_FALSE(ReadSetAnswer(json::array({1, 1}), 4, 2).ok());
  CHECK_FALSE(ReadSetAnswer(json::array({0, 1, 2}), 4, 2).ok());
  CHECK_FALSE(ReadSetAnswer(json::array({4}), 4, 4).ok());
  CHECK_FALSE(ReadSetAnswer(json(1), 4, 4).ok());
}

TEST_CASE("multiple: reports follow the exact law of each mechanism, and a wrong q is rejected") {
  for (const auto& definition : kMechanisms) {
    const auto kind = KindOf(definition, 4, 3);
    const SetMechanism& mechanism = Multiple(kind).mechanism();
    INFO(definition.dump());
    const Perturber perturb = [&](const std::vector<int>& set, RandomSource& random) {
      return mechanism.Perturb(set, random);
    };
    for (const std::vector<int>& set : {std::vector<int>{}, {1}, {0, 2, 3}}) {
      CHECK(PatternPValue(perturb, mechanism, set, 40000, 3 + set.size()) > 1e-4);
    }
  }
  // A canary: bits drawn at the epsilon of one bit (q of epsilon, not of epsilon / d) are rejected.
  const auto kind = KindOf(kMechanisms[0], 4, 3);
  const auto broken = *CreateSetMechanism({SetMechanismKind::kSymmetricBits, 4, 1, 2.0 * 2, 0});  // d = 2, not 4
  const Perturber wrong = [&](const std::vector<int>& set, RandomSource& random) { return broken->Perturb(set, random); };
  CHECK(PatternPValue(wrong, Multiple(kind).mechanism(), {1}, 40000, 9) < 1e-6);
}

namespace {

// R replicate surveys of n respondents; per option, the replicates' estimates and what each said of itself.
struct Replicates {
  std::vector<std::vector<double>> estimates, std_errors;  // [option][replicate]
  std::vector<double> truth;                               // per option, the target the intervals aim at
  std::vector<double> formula_variance;                    // per option, the formula's variance
  std::vector<double> mean_chosen, mean_chosen_se;         // per replicate
  std::vector<std::vector<double>> distribution, distribution_se;  // [replicate][c]
};

// Population target: each replicate draws new respondents from `shares`. Respondents target: the same
// respondents in every replicate (drawn once with seed 1), only the randomisation changes.
Replicates Replicate(const MultipleQuestionKind& kind, const std::vector<double>& shares, int n, int replicates,
                     IntervalTarget target, std::uint64_t seed) {
  const SetMechanism& mechanism = kind.mechanism();
  const std::size_t k = shares.size();
  Replicates out;
  out.estimates.assign(k, {});
  out.std_errors.assign(k, {});
  SeededRandom fixed_random(1);
  std::vector<std::vector<int>> fixed;
  std::vector<double> sample_shares(k, 0.0);
  for (int j = 0; j < n; ++j) {
    fixed.push_back(DrawSet(shares, fixed_random));
    for (int i : fixed.back()) sample_shares[static_cast<std::size_t>(i)] += 1.0 / n;
  }
  const bool population = target == IntervalTarget::kPopulation;
  out.truth = population ? shares : sample_shares;
  const auto pq = mechanism.probabilities();
  for (std::size_t i = 0; i < k; ++i) {
    out.formula_variance.push_back(population ? PopulationFrequencyVariance(pq, shares[i], n)
                                              : FrequencyVariance(pq, sample_shares[i], n));
  }
  SeededRandom random(seed);
  for (int r = 0; r < replicates; ++r) {
    auto aggregate = kind.NewAggregate();
    for (int j = 0; j < n; ++j) {
      const auto set = population ? DrawSet(shares, random) : fixed[static_cast<std::size_t>(j)];
      aggregate->Add(MultipleResponse(mechanism.Perturb(set, random)));
    }
    const json result = MultipleResultToJson(kind, static_cast<const MultipleAggregate&>(*aggregate), target);
    for (std::size_t i = 0; i < k; ++i) {
      out.estimates[i].push_back(result["options"][i]["share"].get<double>());
      out.std_errors[i].push_back(result["options"][i]["std_error"].get<double>());
    }
    const json& chosen = result["number_chosen"];
    out.mean_chosen.push_back(chosen["mean"].get<double>());
    out.mean_chosen_se.push_back(chosen["std_error"].get<double>());
    std::vector<double> shares_c, ses_c;
    for (const auto& row : chosen["distribution"]) {
      shares_c.push_back(row["share"].get<double>());
      ses_c.push_back(row["std_error"].get<double>());
    }
    out.distribution.push_back(shares_c);
    out.distribution_se.push_back(ses_c);
  }
  return out;
}

// Unbiased: every option's mean estimate within 5 standard errors (formula variance / R) of its target.
bool Unbiased(const Replicates& reps, double scale = 1.0) {
  for (std::size_t i = 0; i < reps.truth.size(); ++i) {
    const double replicates = static_cast<double>(reps.estimates[i].size());
    if (std::fabs(scale * SampleMean(reps.estimates[i]) - reps.truth[i]) > 5.0 * std::sqrt(reps.formula_variance[i] / replicates)) {
      return false;
    }
  }
  return true;
}

// The replicates' variance matches the formula: the ratio's sd is sqrt(2 / (R - 1)); 4 of them.
bool VarianceMatches(const Replicates& reps, double formula_scale = 1.0) {
  for (std::size_t i = 0; i < reps.truth.size(); ++i) {
    const double ratio = SampleVariance(reps.estimates[i]) / (formula_scale * reps.formula_variance[i]);
    if (std::fabs(ratio - 1.0) > 4.0 * std::sqrt(2.0 / (static_cast<double>(reps.estimates[i].size()) - 1.0))) return false;
  }
  return true;
}

// 95% intervals (estimate +- 1.96 * width_scale * reported SE) cover within 5 binomial sd of 95%.
double Coverage(const Replicates& reps, double width_scale = 1.0) {
  double covered = 0.0, total = 0.0;
  for (std::size_t i = 0; i < reps.truth.size(); ++i) {
    for (std::size_t r = 0; r < reps.estimates[i].size(); ++r) {
      const double half = kZ95 * width_scale * reps.std_errors[i][r];
      covered += std::fabs(reps.estimates[i][r] - reps.truth[i]) <= half ? 1.0 : 0.0;
      total += 1.0;
    }
  }
  return covered / total;
}

bool CoverageNominal(double coverage, double trials) {
  return std::fabs(coverage - 0.95) <= 5.0 * std::sqrt(0.95 * 0.05 / trials);
}

const std::vector<double> kShares = {0.05, 0.3, 0.6, 0.15};

}  // namespace

TEST_CASE("multiple: shares are unbiased, their variance is the formula's, 95% intervals cover 95%") {
  constexpr int kN = 1000, kReplicates = 300;
  for (const auto& definition : kMechanisms) {
    // max_choices = k, and padding l = k: every set fits, so padding is unbiased too.
    const auto kind = KindOf(definition, 4, 4);
    for (auto target : {IntervalTarget::kPopulation, IntervalTarget::kRespondents}) {
      INFO(definition.dump() << " for the " << IntervalTargetName(target));
      const auto reps = Replicate(Multiple(kind), kShares, kN, kReplicates, target, 17);
      CHECK(Unbiased(reps));
      CHECK(VarianceMatches(reps));
      const double coverage = Coverage(reps);
      MESSAGE(definition.at("name").get<std::string>() << " " << IntervalTargetName(target) << ": coverage " << coverage);
      CHECK(CoverageNominal(coverage, 4.0 * kReplicates));
    }
  }
}

TEST_CASE("multiple: canaries: a biased share, a variance x2 and intervals half as wide are all caught") {
  const auto kind = KindOf(kMechanisms[2], 4, 4);
  const auto reps = Replicate(Multiple(kind), kShares, 1000, 300, IntervalTarget::kPopulation, 23);
  CHECK(Unbiased(reps));
  // Padding's share without its factor l (the item's frequency, not the option's share) is biased.
  CHECK_FALSE(Unbiased(reps, 1.0 / 4.0));
  CHECK_FALSE(VarianceMatches(reps, 2.0));
  CHECK_FALSE(VarianceMatches(reps, 0.5));
  CHECK_FALSE(CoverageNominal(Coverage(reps, 0.5), 1200.0));
}

namespace {

// The sizes' law under independent shares: the Poisson-binomial of `shares`.
std::vector<double> SizeLaw(const std::vector<double>& shares) {
  std::vector<double> sizes = {1.0};
  for (double share : shares) {
    std::vector<double> next(sizes.size() + 1, 0.0);
    for (std::size_t c = 0; c < sizes.size(); ++c) next[c] += sizes[c] * (1 - share), next[c + 1] += sizes[c] * share;
    sizes = next;
  }
  return sizes;
}

// The mean number chosen: unbiased, its SE the replicates' sd, its interval covering.
void CheckMeanChosen(const Replicates& reps, const std::vector<double>& shares, int replicates) {
  double mean = 0.0;
  for (double share : shares) mean += share;
  const double mean_sd = std::sqrt(SampleVariance(reps.mean_chosen));
  CHECK(std::fabs(SampleMean(reps.mean_chosen) - mean) <= 5.0 * mean_sd / std::sqrt(replicates));
  // The reported SE is the replicates' sd (within 4 sd of a variance ratio).
  CHECK(SampleMean(reps.mean_chosen_se) == doctest::Approx(mean_sd).epsilon(4.0 * std::sqrt(0.5 / (replicates - 1))));
  double covered = 0.0;
  for (int r = 0; r < replicates; ++r) covered += std::fabs(reps.mean_chosen[r] - mean) <= kZ95 * reps.mean_chosen_se[r] ? 1.0 : 0.0;
  MESSAGE("mean covered " << covered / replicates << "; mean's sd " << mean_sd << ", bias " << SampleMean(reps.mean_chosen) - mean);
  CHECK(CoverageNominal(covered / replicates, replicates));
}

// The distribution, shown in every replicate: unbiased per size, intervals covering.
void CheckDistribution(const Replicates& reps, const std::vector<double>& sizes, int replicates) {
  double covered = 0.0, cells = 0.0;
  for (int r = 0; r < replicates; ++r) {
    REQUIRE(reps.distribution[r].size() == sizes.size());
    for (std::size_t c = 0; c < sizes.size(); ++c) {
      covered += std::fabs(reps.distribution[r][c] - sizes[c]) <= kZ95 * reps.distribution_se[r][c] ? 1.0 : 0.0;
      cells += 1.0;
    }
  }
  MESSAGE("distribution covered " << covered / cells);
  CHECK(CoverageNominal(covered / cells, cells / 2.0));  // the cells of a replicate are correlated: half as many
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    std::vector<double> column, ses;
    for (int r = 0; r < replicates; ++r) column.push_back(reps.distribution[r][c]), ses.push_back(reps.distribution_se[r][c]);
    MESSAGE("  c = " << c << ": truth " << sizes[c] << ", mean " << SampleMean(column) << ", sd "
                     << std::sqrt(SampleVariance(column)) << ", mean SE " << SampleMean(ses));
    CHECK(std::fabs(SampleMean(column) - sizes[c]) <= 5.0 * std::sqrt(SampleVariance(column) / replicates));
  }
}

}  // namespace

TEST_CASE("multiple: the number chosen: mean and distribution unbiased, intervals cover") {
  constexpr int kN = 2000, kReplicates = 300;
  for (const auto& definition : kMechanisms) {
    INFO(definition.dump());
    const auto kind = KindOf(definition, 4, 4);
    const auto reps = Replicate(Multiple(kind), kShares, kN, kReplicates, IntervalTarget::kPopulation, 29);
    CheckMeanChosen(reps, kShares, kReplicates);
    if (definition.at("name") == "padding_sampling") {
      CheckDistribution(reps, SizeLaw(kShares), kReplicates);
      continue;
    }
    // The bits at epsilon 2 over 4 options: the inverse of the number-of-1s channel would give shares with
    // standard errors of 0.4-5 (measured), more than a share can span: no distribution, in every replicate.
    for (int r = 0; r < kReplicates; ++r) CHECK(reps.distribution[r].empty());
  }
  // Where the bits' channel says enough (2 options at epsilon 4: epsilon 2 per bit), their distribution is shown
  // and covers.
  const std::vector<double> two = {0.3, 0.6};
  for (std::size_t m = 0; m < 2; ++m) {
    INFO(kMechanisms[m].at("name").get<std::string>());
    json definition = kMechanisms[m];
    definition["epsilon"] = 4;
    const auto reps = Replicate(Multiple(KindOf(definition, 2, 2)), two, kN, kReplicates, IntervalTarget::kPopulation, 31);
    CheckMeanChosen(reps, two, kReplicates);
    CheckDistribution(reps, SizeLaw(two), kReplicates);
  }
}

namespace {

// The audit's lower bound on epsilon from whole reports of two answers (every report pattern an event).
testing::AuditResult AuditSets(const SetMechanism& mechanism, const std::vector<int>& a, const std::vector<int>& b,
                               std::int64_t trials, std::uint64_t seed) {
  const auto reports = AllReports(mechanism);
  std::map<std::string, std::size_t> index;
  for (std::size_t r = 0; r < reports.size(); ++r) index[Key(reports[r])] = r;
  std::vector<std::int64_t> hits0(reports.size(), 0), hits1(reports.size(), 0);
  SeededRandom random(seed);
  for (std::int64_t t = 0; t < trials; ++t) {
    ++hits0[index.at(Key(mechanism.Perturb(a, random)))];
    ++hits1[index.at(Key(mechanism.Perturb(b, random)))];
  }
  return testing::EpsilonFromEventCounts(hits0, hits1, trials, 1e-6);
}

}  // namespace

TEST_CASE("multiple: the empirical-epsilon audit stays within the claim, and a mechanism spending epsilon per bit is caught") {
  constexpr std::int64_t kTrials = 200000;
  // k = 4, m = 2: two disjoint sets of two differ in all 4 bits, where the bits' bound is tight.
  for (const auto& definition : kMechanisms) {
    const auto kind = KindOf(definition, 4, 2);
    const SetMechanism& mechanism = Multiple(kind).mechanism();
    const auto audit = AuditSets(mechanism, {0, 1}, {2, 3}, kTrials, 31);
    MESSAGE(definition.at("name").get<std::string>() << ": claimed 2, audit lower bound " << audit.lower_bound
                                                     << ", point " << audit.point);
    CHECK(audit.lower_bound <= 2.0);
    // The bits attain the claim on this pair: the audit must see most of it (power). Padding's one sampled
    // item attains only ln(1 + (e^eps - 1) / l) on any pair: its claim of eps is conservative.
    if (mechanism.is_bits()) CHECK(audit.lower_bound >= 0.8 * 2.0);
  }
  // Broken: each bit at the whole epsilon (no composition) while the question claims 2: caught.
  const auto broken = *CreateSetMechanism({SetMechanismKind::kSymmetricBits, 4, 2, 2.0 * 4, 0});
  const auto caught = AuditSets(*broken, {0, 1}, {2, 3}, kTrials, 37);
  MESSAGE("per-bit epsilon, claimed 2: audit lower bound " << caught.lower_bound);
  CHECK(caught.lower_bound > 2.0);
}

TEST_CASE("multiple: the advisor compares the mechanisms and recommends the smallest standard error") {
  const auto advice = AdviseSet(16, 2, 4.0, 1000);
  REQUIRE(advice.mechanisms.size() == 3);
  double best = INFINITY;
  for (const auto& item : advice.mechanisms) best = std::min(best, item.std_error);
  for (const auto& item : advice.mechanisms) {
    if (item.mechanism == advice.recommended) CHECK(item.std_error == best);
  }
  // Sparse answers (m = 1 of 16) at a large epsilon: padding (then grr over k + 1) beats the bits.
  CHECK(AdviseSet(16, 1, 4.0, 1000).recommended == "padding_sampling");
  // Every option may be chosen (m = k) and epsilon is small: the symmetric bits win.
  CHECK(AdviseSet(4, 4, 1.0, 1000).recommended == "symmetric_bits");
  const auto json = SetAdviceToJson(advice);
  CHECK(json.at("mechanisms").size() == 3);
}
