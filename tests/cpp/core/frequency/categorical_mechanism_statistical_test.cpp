// Statistical tests of every categorical mechanism, with fixed seeds and
// tolerances derived from the mechanism's own variance formula:
//   1. output distribution: chi-square goodness of fit against the exact
//      distribution, specified here independently of core (from the papers);
//   2. unbiasedness, 3. variance against the formula, 4. 95% CI coverage;
//   5. an empirical-epsilon audit that must not exceed the claimed epsilon.
// Every check is also run on a deliberately broken variant ("canary") and must
// reject it: a test that cannot fail proves nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "core/frequency/frequency_estimator.h"
#include "core/common/seeded_random.h"
#include "tests/cpp/support/stat_utils.h"

using namespace deniable;
using deniable::testing::AuditEpsilon;
using deniable::testing::ChiSquarePValue;

namespace {

struct Case {
  std::string name;
  CategoricalParams params;
};

// The mechanisms under test: every kind, several k and epsilon.
const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"grr k=2 eps=1", {CategoricalKind::kGrr, 2, 1.0, 1}},
      {"grr k=6 eps=0.5", {CategoricalKind::kGrr, 6, 0.5, 1}},
      {"oue k=5 eps=1", {CategoricalKind::kOue, 5, 1.0, 1}},
      {"sue k=4 eps=2", {CategoricalKind::kSue, 4, 2.0, 1}},
      {"negative k=5 s=1 eps=1", {CategoricalKind::kNegativeSurvey, 5, 1.0, 1}},
      {"negative k=6 s=2 eps=1.5", {CategoricalKind::kNegativeSurvey, 6, 1.5, 2}},
      {"negative pure k=5 s=1", {CategoricalKind::kNegativeSurvey, 5, std::nullopt, 1}},
      {"negative pure k=6 s=2", {CategoricalKind::kNegativeSurvey, 6, std::nullopt, 2}},
  };
  return cases;
}

std::unique_ptr<const CategoricalMechanism> Make(const CategoricalParams& params) {
  auto mechanism = CreateCategoricalMechanism(params);
  REQUIRE(mechanism.ok());
  return std::move(mechanism).value();
}

double Binomial(int n, int r) {
  if (r < 0 || r > n) return 0.0;
  return std::exp(std::lgamma(n + 1.0) - std::lgamma(r + 1.0) - std::lgamma(n - r + 1.0));
}

// Exact probability that answer x yields support pattern `pattern` (bit i = option i),
// written from the mechanisms' definitions in the papers, not from core.
double PatternProbability(const CategoricalParams& params, int x, unsigned pattern) {
  const int k = params.options;
  const int size = __builtin_popcount(pattern);
  const bool has_x = (pattern >> x) & 1U;
  const double e = params.epsilon ? std::exp(*params.epsilon) : 0.0;
  switch (params.kind) {
    case CategoricalKind::kGrr:
      if (size != 1) return 0.0;
      return has_x ? e / (e + k - 1) : 1.0 / (e + k - 1);
    case CategoricalKind::kOue:
    case CategoricalKind::kSue: {
      const double p = params.kind == CategoricalKind::kOue ? 0.5 : std::sqrt(e) / (std::sqrt(e) + 1);
      const double q = params.kind == CategoricalKind::kOue ? 1 / (e + 1) : 1 / (std::sqrt(e) + 1);
      double probability = 1.0;
      for (int i = 0; i < k; ++i) {
        const bool bit = (pattern >> i) & 1U;
        const double one = i == x ? p : q;
        probability *= bit ? one : 1 - one;
      }
      return probability;
    }
    case CategoricalKind::kNegativeSurvey: {
      const int s = params.reported_options;
      if (size != s) return 0.0;
      const double w = params.epsilon ? 1.0 / e : 0.0;  // weight of sets that contain the answer
      const double normaliser = w * Binomial(k - 1, s - 1) + Binomial(k - 1, s);
      return (has_x ? w : 1.0) / normaliser;
    }
  }
  return 0.0;
}

unsigned PatternOf(const Support& support) {
  unsigned pattern = 0;
  for (std::size_t i = 0; i < support.size(); ++i) pattern |= static_cast<unsigned>(support[i]) << i;
  return pattern;
}

// Chi-square p-value of `draws` reports of answer x against the exact distribution of `claimed`.
double OutputDistributionPValue(const CategoricalMechanism& mechanism, const CategoricalParams& claimed, int x,
                                std::int64_t draws, std::uint64_t seed) {
  const unsigned cells = 1U << claimed.options;
  std::vector<std::int64_t> observed(cells, 0);
  std::vector<double> expected(cells);
  for (unsigned pattern = 0; pattern < cells; ++pattern) expected[pattern] = PatternProbability(claimed, x, pattern);
  SeededRandom random(seed);
  for (std::int64_t t = 0; t < draws; ++t) ++observed[PatternOf(*mechanism.Perturb(x, random))];
  return ChiSquarePValue(observed, expected);
}

// Threshold for every goodness-of-fit test: a correct mechanism fails with probability 1e-6.
constexpr double kRejectBelow = 1e-6;

}  // namespace

TEST_CASE("output distribution matches the exact distribution (chi-square), and a broken mechanism is rejected") {
  for (const auto& c : Cases()) {
    INFO(c.name);
    const auto mechanism = Make(c.params);
    for (int x : {0, c.params.options - 1}) {
      CHECK(OutputDistributionPValue(*mechanism, c.params, x, 200000, 11 + x) > kRejectBelow);
    }
  }
  // Canaries: a GRR that uses 1.3 instead of eps = 1, and a negative survey that
  // forgets to down-weight the answer, must be rejected.
  CategoricalParams claimed{CategoricalKind::kGrr, 4, 1.0, 1};
  CHECK(OutputDistributionPValue(*Make({CategoricalKind::kGrr, 4, 1.3, 1}), claimed, 1, 200000, 5) < kRejectBelow);
  CategoricalParams negative{CategoricalKind::kNegativeSurvey, 5, 1.0, 1};
  CHECK(OutputDistributionPValue(*Make({CategoricalKind::kNegativeSurvey, 5, 0.5, 1}), negative, 2, 200000, 6) <
        kRejectBelow);
}

namespace {

// R repetitions of perturbing a fixed population (true counts fixed) and estimating.
struct Repetitions {
  std::vector<double> truth;                     // f_i
  std::vector<double> formula_sd;                // sd of f_hat_i from the variance formula
  std::vector<std::vector<double>> estimates;    // [r][i]
  std::vector<std::vector<double>> reported_sd;  // [r][i] the estimator's plug-in sd
};

Repetitions Repeat(const CategoricalMechanism& mechanism, int n, int repetitions, std::uint64_t seed,
                   SupportProbabilities estimator_pq) {
  const int k = mechanism.options();
  Repetitions result;
  std::vector<int> answers;
  for (int i = 0; i < n; ++i) answers.push_back(i * i % 7 % k);  // a fixed, uneven population
  std::vector<int> true_counts(k, 0);
  for (int a : answers) ++true_counts[a];
  const auto pq = mechanism.probabilities();
  for (int i = 0; i < k; ++i) {
    const double f = static_cast<double>(true_counts[i]) / n;
    result.truth.push_back(f);
    result.formula_sd.push_back(std::sqrt(FrequencyVariance(pq, f, n)));
  }
  SeededRandom random(seed);
  for (int r = 0; r < repetitions; ++r) {
    std::vector<std::int64_t> counts(k, 0);
    for (int a : answers) {
      const auto support = *mechanism.Perturb(a, random);
      for (int i = 0; i < k; ++i) counts[i] += support[i];
    }
    // A fixed population of answers: the intervals for these respondents.
    const auto estimate = EstimateFrequencies(counts, n, estimator_pq, IntervalTarget::kRespondents);
    std::vector<double> f, sd;
    for (const auto& option : estimate.options) {
      f.push_back(option.frequency);
      sd.push_back(option.std_error);
    }
    result.estimates.push_back(f);
    result.reported_sd.push_back(sd);
  }
  return result;
}

// Unbiased: the mean over R repetitions is within 5 sd/sqrt(R) of the truth
// (false failure probability 5.7e-7 per option).
bool Unbiased(const Repetitions& reps, int i) {
  double mean = 0.0;
  for (const auto& f : reps.estimates) mean += f[i];
  mean /= static_cast<double>(reps.estimates.size());
  return std::fabs(mean - reps.truth[i]) <= 5.0 * reps.formula_sd[i] / std::sqrt(reps.estimates.size());
}

// The empirical variance over R repetitions matches the formula: s^2 / sigma^2 is
// chi2(R-1)/(R-1), sd sqrt(2/(R-1)); accept within 5 sd. `claimed_sd` is what is tested.
bool VarianceMatches(const Repetitions& reps, int i, double claimed_sd) {
  const double r = static_cast<double>(reps.estimates.size());
  double mean = 0.0, squares = 0.0;
  for (const auto& f : reps.estimates) mean += f[i];
  mean /= r;
  for (const auto& f : reps.estimates) squares += (f[i] - mean) * (f[i] - mean);
  const double ratio = squares / (r - 1.0) / (claimed_sd * claimed_sd);
  return std::fabs(ratio - 1.0) <= 5.0 * std::sqrt(2.0 / (r - 1.0));
}

// 95% intervals (estimate +- 1.96 reported sd) cover the truth in 95% of repetitions:
// binomial sd sqrt(0.95 * 0.05 / R); accept within 5 sd.
bool CoverageOk(const Repetitions& reps, int i, double sd_scale) {
  const double r = static_cast<double>(reps.estimates.size());
  int covered = 0;
  for (std::size_t t = 0; t < reps.estimates.size(); ++t) {
    const double half = kZ95 * reps.reported_sd[t][i] * sd_scale;
    covered += std::fabs(reps.estimates[t][i] - reps.truth[i]) <= half;
  }
  return std::fabs(covered / r - 0.95) <= 5.0 * std::sqrt(0.95 * 0.05 / r);
}

constexpr int kRespondents = 1000;
constexpr int kRepetitions = 2000;

}  // namespace

TEST_CASE("estimates are unbiased, their variance matches the formula, and 95% CIs cover 95%") {
  for (const auto& c : Cases()) {
    INFO(c.name);
    const auto mechanism = Make(c.params);
    const auto reps = Repeat(*mechanism, kRespondents, kRepetitions, 21, mechanism->probabilities());
    for (int i = 0; i < c.params.options; ++i) {
      INFO("option " << i << " truth " << reps.truth[i]);
      CHECK(Unbiased(reps, i));
      CHECK(VarianceMatches(reps, i, reps.formula_sd[i]));
      CHECK(CoverageOk(reps, i, 1.0));
    }
  }
}

TEST_CASE("canaries: a biased estimator, a variance misreported x2 and intervals too narrow are all caught") {
  const auto mechanism = Make({CategoricalKind::kOue, 5, 1.0, 1});
  const auto pq = mechanism->probabilities();
  // Biased: an estimator that ignores q (divides C_i by n p).
  const auto biased = Repeat(*mechanism, kRespondents, kRepetitions, 22, {pq.p, 0.0});
  const auto honest = Repeat(*mechanism, kRespondents, kRepetitions, 22, pq);
  bool any_bias_detected = false;
  for (int i = 0; i < 5; ++i) any_bias_detected |= !Unbiased(biased, i);
  CHECK(any_bias_detected);
  for (int i = 0; i < 5; ++i) {
    CHECK_FALSE(VarianceMatches(honest, i, honest.formula_sd[i] * std::sqrt(2.0)));  // variance x2
    CHECK_FALSE(VarianceMatches(honest, i, honest.formula_sd[i] / std::sqrt(2.0)));  // variance /2
    CHECK_FALSE(CoverageOk(honest, i, 0.8));                                         // intervals 20% narrow
  }
}

namespace {

constexpr std::int64_t kAuditTrials = 200000;
constexpr double kAuditAlpha = 1e-6;  // P(lower bound > true epsilon) <= 1e-6

deniable::testing::PerturbFunction PerturbOf(const CategoricalMechanism& mechanism) {
  return [&mechanism](int x, RandomSource& random) { return *mechanism.Perturb(x, random); };
}

}  // namespace

TEST_CASE("empirical-epsilon audit: never above the claimed epsilon, and close to it") {
  for (const auto& c : Cases()) {
    if (!c.params.epsilon) continue;
    INFO(c.name);
    const auto mechanism = Make(c.params);
    const auto audit = AuditEpsilon(PerturbOf(*mechanism), 0, 1, kAuditTrials, kAuditAlpha, 31);
    MESSAGE(c.name << ": claimed " << *c.params.epsilon << ", audit lower bound " << audit.lower_bound
                   << ", point " << audit.point);
    CHECK(audit.lower_bound <= *c.params.epsilon);
    // Power: the audit's events attain the worst-case ratio, so with 200000
    // trials the bound comes within 20% of the truth; otherwise the audit is too weak.
    CHECK(audit.lower_bound >= 0.8 * *c.params.epsilon);
  }
}

TEST_CASE("the audit catches broken mechanisms: epsilon overstated x2, no noise, and the pure negative survey") {
  // Each runs at a larger true epsilon than the 1.0 it claims.
  const std::vector<CategoricalParams> broken = {
      {CategoricalKind::kGrr, 3, 2.0, 1},
      {CategoricalKind::kOue, 5, 2.0, 1},
      {CategoricalKind::kNegativeSurvey, 6, 2.0, 2},
      {CategoricalKind::kGrr, 3, 30.0, 1},  // effectively no noise
  };
  for (const auto& params : broken) {
    const auto mechanism = Make(params);
    CHECK(AuditEpsilon(PerturbOf(*mechanism), 0, 1, kAuditTrials, kAuditAlpha, 41).lower_bound > 1.0);
  }
  // The pure negative survey has no finite epsilon: the audit's bound is large
  // and grows with the number of trials (a report can rule the answer out).
  const auto pure = Make({CategoricalKind::kNegativeSurvey, 5, std::nullopt, 1});
  CHECK(AuditEpsilon(PerturbOf(*pure), 0, 1, kAuditTrials, kAuditAlpha, 51).lower_bound > 5.0);
}
