// The levels mechanism (seed 003: LHP client, PLC + HierA server): level
// boundaries, the GRR and RR rates against the digest's vectors, the PLC law,
// unbiasedness and the variance formula, the exact-epsilon vectors of digest
// §4.3, an empirical audit of the joint report (above the paper's claim, at
// most the exact epsilon) with a broken variant it catches, and the results
// section.
#include <doctest/doctest.h>

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/distribution/bootstrap.h"
#include "core/numeric/levels/hiera_estimator.h"
#include "core/numeric/levels/level_shares.h"
#include "core/numeric/levels/levels_advice.h"
#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "tests/cpp/support/numeric_audit.h"

using namespace deniable;
using nlohmann::json;

namespace {

// The paper's configuration (digest §5.2): [-1, 1] in five equal intervals,
// budgets (5, 4, 3, 2, 1) x base.
std::unique_ptr<const LevelsMechanism> PaperLevels(double base, LevelsVariant variant = LevelsVariant::kPaper) {
  auto made = CreateLevels({-1.0, 1.0}, {-0.6, -0.2, 0.2, 0.6},
                           {5 * base, 4 * base, 3 * base, 2 * base, base}, variant);
  REQUIRE(made.ok());
  return std::move(made).value();
}

double Symmetric(const LevelsPrivacy& privacy, int a, int b) {
  return std::max(privacy.pair[a][b], privacy.pair[b][a]);
}

// The analytic per-respondent variance of HierA's unclamped estimate on
// [-1, 1] for reuse mu (digest §3.6), averaged over uniform answers.
double UniformHierAVariance(const LevelsMechanism& levels, int reuse) {
  const int points = 20000;
  double total = 0.0;
  for (int i = 0; i < points; ++i) total += levels.MeanVariance(-1.0 + 2.0 * (i + 0.5) / points, reuse);
  return total / points;
}

LevelBitCounts CountReports(const LevelsMechanism& levels, const std::vector<double>& answers, RandomSource& random) {
  const int k = levels.partition().levels();
  LevelBitCounts counts{std::vector<std::int64_t>(k), std::vector<std::int64_t>(k)};
  const auto atoms = levels.report_atoms();
  for (double answer : answers) {
    const double y = levels.Perturb(answer, random).value()[0];
    for (int d = 0; d < k; ++d) {
      if (y == atoms[levels.AtomIndex(d, +1)]) ++counts.plus[d];
      if (y == atoms[levels.AtomIndex(d, -1)]) ++counts.minus[d];
    }
  }
  return counts;
}

std::vector<double> Keeps(const LevelsMechanism& levels) {
  std::vector<double> keep;
  for (int d = 0; d < levels.partition().levels(); ++d) keep.push_back(levels.channel().KeepProbability(d));
  return keep;
}

}  // namespace

TEST_CASE("levels: intervals are half-open with the last closed; levels ordered by strictness; ties merged") {
  auto made = CreateLevels({0.0, 100.0}, {20.0, 50.0, 80.0}, {1.0, 3.0, 2.0, 1.0});
  REQUIRE(made.ok());
  const LevelPartition& partition = (*made)->partition();
  CHECK(partition.intervals() == 4);
  CHECK(partition.levels() == 3);  // epsilons 3, 2, 1: the two ends share the strictest
  CHECK(partition.level_epsilons() == std::vector<double>{3.0, 2.0, 1.0});
  CHECK(partition.IntervalOf(0.0) == 0);
  CHECK(partition.IntervalOf(19.999) == 0);
  CHECK(partition.IntervalOf(20.0) == 1);  // a boundary belongs to the interval above it
  CHECK(partition.IntervalOf(80.0) == 3);
  CHECK(partition.IntervalOf(100.0) == 3);  // the last interval is closed
  CHECK(partition.LevelOf(10.0) == 2);
  CHECK(partition.LevelOf(30.0) == 0);
  CHECK(partition.LevelOf(60.0) == 1);
  CHECK(partition.LevelOf(90.0) == 2);
  CHECK(partition.Normalise(0.0) == -1.0);
  CHECK(partition.Normalise(100.0) == 1.0);
  CHECK(partition.Normalise(50.0) == 0.0);
  CHECK(partition.LevelSpans(2).size() == 2);
}

TEST_CASE("levels: definitions are validated with messages that name the field") {
  const NumericRange range{0.0, 10.0};
  auto parse = [&](const json& object) { return ParseNumericMechanism(object, range, "q.mechanism"); };
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}}).ok());
  CHECK(parse({{"name", "levels"}, {"epsilons", {1.0}}}).ok());  // one interval: Harmony at epsilon
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0}}}).error() ==
        "q.mechanism.epsilons: needs one epsilon per interval: 1 boundaries make 2 intervals, but there are 1 epsilons");
  CHECK(parse({{"name", "levels"}, {"boundaries", {6.0, 5.0}}, {"epsilons", {1.0, 2.0, 3.0}}}).error() ==
        "q.mechanism.boundaries[1]: must be increasing and inside (0, 10), but is 5");
  CHECK(parse({{"name", "levels"}, {"boundaries", {10.0}}, {"epsilons", {1.0, 2.0}}}).error() ==
        "q.mechanism.boundaries[0]: must be increasing and inside (0, 10), but is 10");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, -2.0}}}).error() ==
        "q.mechanism.epsilons[1]: epsilon must be finite and in [0.01, 30], but is -2");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}, {"variant", "x"}}).error() ==
        "q.mechanism.variant: must be \"paper\" or \"bounded\", but is \"x\"");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, "2"}}}).error() ==
        "q.mechanism.epsilons[1]: must be a finite number, but is \"2\"");
  CHECK(parse({{"name", "levels"}, {"epsilons", {1.0}}, {"mu", 2}}).error().find("mu") != std::string::npos);
  // The joint report's true epsilon must itself be an acceptable epsilon.
  const auto strong = parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {25.0, 20.0}}});
  REQUIRE(!strong.ok());
  CHECK(strong.error().find("-LDP, above the largest epsilon accepted (30)") != std::string::npos);
  // Canonical form round-trips.
  auto mechanism = parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}});
  CHECK(mechanism.value()->ParamsToJson() ==
        json{{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}, {"variant", "paper"}});
}

TEST_CASE("levels: GRR and RR probabilities match the digest's vectors (§5.6 c)") {
  const auto levels = PaperLevels(1.0);
  const LhpChannel& channel = levels->channel();
  const double keep_level[] = {0.973756, 0.931738, 0.833925, 0.648786, 0.404610};
  const double other_level[] = {0.006561, 0.017065, 0.041519, 0.087804, 0.148848};
  const double keep_bit[] = {0.993307, 0.982014, 0.952574, 0.880797, 0.731059};
  const double calibration[] = {1.013567, 1.037315, 1.104791, 1.313035, 2.163953};
  for (int t = 0; t < 5; ++t) {
    CHECK(channel.LevelProbability(t, t) == doctest::Approx(keep_level[t]).epsilon(2e-6));
    CHECK(channel.LevelProbability(t, (t + 1) % 5) == doctest::Approx(other_level[t]).epsilon(2e-5));
    CHECK(channel.KeepProbability(t) == doctest::Approx(keep_bit[t]).epsilon(2e-6));
    CHECK(channel.Calibration(t) == doctest::Approx(calibration[t]).epsilon(2e-6));
  }
  const auto half = PaperLevels(0.5);
  const double keep_half[] = {0.752819, 0.648786, 0.528396, 0.404610, 0.291875};
  for (int t = 0; t < 5; ++t) CHECK(half->channel().LevelProbability(t, t) == doctest::Approx(keep_half[t]).epsilon(2e-6));
  CHECK(ConversionFlipProbability(half->channel().KeepProbability(0), half->channel().KeepProbability(4)) ==
        doctest::Approx(0.355639).epsilon(2e-6));
  CHECK(ConversionFlipProbability(half->channel().KeepProbability(3), half->channel().KeepProbability(4)) ==
        doctest::Approx(0.235004).epsilon(2e-6));
}

TEST_CASE("levels: the client's reported level and bit follow GRR at eps_t and RR at eps_t* (sampled)") {
  const auto levels = PaperLevels(1.0);
  SeededRandom random(2026);
  const int trials = 200000;
  // An answer in level 5 (the strictest): v = 0.8.
  const auto atoms = levels->report_atoms();
  std::vector<int> by_level(5, 0), plus_by_level(5, 0);
  for (int i = 0; i < trials; ++i) {
    const double y = levels->Perturb(0.8, random).value()[0];
    for (int d = 0; d < 5; ++d) {
      if (y == atoms[levels->AtomIndex(d, +1)]) ++by_level[d], ++plus_by_level[d];
      if (y == atoms[levels->AtomIndex(d, -1)]) ++by_level[d];
    }
  }
  for (int d = 0; d < 5; ++d) {
    const double expected = levels->channel().LevelProbability(4, d);
    CHECK(std::abs(by_level[d] / double(trials) - expected) < 4.0 * std::sqrt(expected * (1 - expected) / trials));
    // P(+1 | v, d) = (1 + v c_d)/2 with c_d the REPORTED level's contrast.
    const double plus = levels->channel().PlusProbability(0.8, d);
    CHECK(std::abs(plus_by_level[d] / double(by_level[d]) - plus) < 4.0 * std::sqrt(plus * (1 - plus) / by_level[d]));
  }
}

TEST_CASE("levels: PLC flip probabilities match the digest; a converted bit looks perturbed at eps_j; i->j->l = i->l") {
  const auto levels = PaperLevels(1.0);
  const auto keep = Keeps(*levels);
  const double flips[4][5] = {{0, 0.011447, 0.041286, 0.114037, 0.265807},
                              {0, 0, 0.030538, 0.104994, 0.260320},
                              {0, 0, 0, 0.079299, 0.244728},
                              {0, 0, 0, 0, 0.196612}};
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 5; ++j) CHECK(ConversionFlipProbability(keep[i], keep[j]) == doctest::Approx(flips[i][j]).epsilon(1e-5));
  }
  // Composition: two conversions flip with f_ij + f_jl - 2 f_ij f_jl, which is f_il exactly.
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 4; ++j) {
      for (int l = j + 1; l < 5; ++l) {
        const double a = ConversionFlipProbability(keep[i], keep[j]);
        const double b = ConversionFlipProbability(keep[j], keep[l]);
        CHECK(a + b - 2 * a * b == doctest::Approx(ConversionFlipProbability(keep[i], keep[l])).epsilon(1e-12));
      }
    }
  }
  // Sampled: n true +1 bits perturbed at level 1, converted to level 4 (directly and via 2), keep +1 at rate p_4.
  SeededRandom random(7);
  const std::int64_t n = 1000000;
  const std::int64_t kept = SampleBinomial(n, keep[0], random);
  const auto direct = ConvertLevel(kept, n - kept, keep[0], keep[3], random);
  const auto step = ConvertLevel(kept, n - kept, keep[0], keep[1], random);
  const auto via = ConvertLevel(step.first, step.second, keep[1], keep[3], random);
  const double se = std::sqrt(keep[3] * (1 - keep[3]) / n);
  CHECK(std::abs(direct.first / double(n) - keep[3]) < 4 * se);
  CHECK(std::abs(via.first / double(n) - keep[3]) < 4 * se);
}

TEST_CASE("levels: the exact epsilon of the joint report matches digest §4.3 (never the paper's claim)") {
  const double base[] = {0.1, 0.5, 1.0};
  const double overall[] = {0.899, 3.947, 8.067};
  const double pair55[] = {0.122, 1.174, 3.417};
  const double pair15[] = {0.899, 3.947, 7.122};
  const double pair12[] = {0.643, 3.620, 8.067};
  for (int i = 0; i < 3; ++i) {
    const auto levels = PaperLevels(base[i]);
    const LevelsPrivacy& privacy = levels->privacy();
    CHECK(privacy.epsilon == doctest::Approx(overall[i]).epsilon(6e-4));
    CHECK(*levels->epsilon() == privacy.epsilon);
    CHECK(Symmetric(privacy, 4, 4) == doctest::Approx(pair55[i]).epsilon(1e-3));
    CHECK(Symmetric(privacy, 0, 4) == doctest::Approx(pair15[i]).epsilon(6e-4));
    CHECK(Symmetric(privacy, 0, 1) == doctest::Approx(pair12[i]).epsilon(6e-4));
    CHECK(privacy.claimed[0][1] == doctest::Approx(5 * base[i]));
    CHECK(levels->Describe()["paper_claimed_epsilon"] == 5 * base[i]);
  }
}

TEST_CASE("levels: the bounded variant's stated guarantee holds for every pair of levels") {
  const auto bounded = PaperLevels(1.0, LevelsVariant::kBounded);
  const LevelsPrivacy& privacy = bounded->privacy();
  for (int t = 0; t < 5; ++t) {
    for (int u = 0; u < 5; ++u) CHECK(privacy.pair[t][u] <= privacy.claimed[t][u] + 1e-12);
  }
  CHECK(*bounded->epsilon() <= 5.0 + 1e-12);
  CHECK(*bounded->epsilon() > 4.0);  // the lenient level's GRR does spend most of it
}

TEST_CASE("levels audit: the joint report measures above the paper's claim and at most its exact epsilon") {
  const auto levels = PaperLevels(1.0);
  // The worst pair is an answer at the top of level 1 (v = -0.6) against the bottom of level 2 (v = -0.6 from
  // above): reported as level 1 with bit -1... found by search over the atoms, as a tester who knows the law would.
  const auto atoms = levels->report_atoms();
  std::vector<testing::OutputInterval> events;
  for (double atom : atoms) events.push_back({atom - 1e-9, atom + 1e-9});
  // Answers: the ends that ExactLevelsPrivacy finds worst for the pair (1, 2).
  const double x0 = -1.0, x1 = -0.2 - 1e-12;  // -1 in level 1; just below -0.2, the top of level 2
  const auto audit = testing::AuditNumericEpsilon(testing::PerturbWith(*levels), x0, x1, events, 3000000, 0.01, 11);
  MESSAGE("levels audit: lower bound " << audit.lower_bound << ", claimed 5, exact " << *levels->epsilon());
  CHECK(audit.lower_bound > 5.0);
  CHECK(audit.lower_bound <= *levels->epsilon());

  // A broken client that sends the true level in the clear (no GRR) is caught: the lower bound exceeds the exact
  // epsilon the correct mechanism states.
  const auto broken = [&levels](double answer, RandomSource& random) {
    const int t = levels->partition().LevelOf(answer);
    const double v = levels->partition().Normalise(answer);
    int bit = Bernoulli(random, (1.0 + v) / 2.0) ? 1 : -1;
    if (!Bernoulli(random, levels->channel().KeepProbability(t))) bit = -bit;
    return std::vector<double>{levels->report_atoms()[levels->AtomIndex(t, bit)]};
  };
  const auto caught = testing::AuditNumericEpsilon(broken, x0, x1, events, 300000, 0.01, 12);
  CHECK(caught.lower_bound > *levels->epsilon());
}

TEST_CASE("levels: HierA is unbiased unclamped and its variance matches the formula, for mu = 1 and 2") {
  const auto levels = PaperLevels(1.0);
  const auto keep = Keeps(*levels);
  const int n = 2000, trials = 1500;
  SeededRandom random(99);
  std::vector<double> answers(n);
  for (int i = 0; i < n; ++i) answers[i] = -1.0 + 2.0 * (i + 0.5) / n;  // uniform on [-1, 1], mean 0
  for (int reuse : {1, 2}) {
    double sum = 0.0, sum_squares = 0.0, estimated_variance = 0.0;
    for (int trial = 0; trial < trials; ++trial) {
      const auto counts = CountReports(*levels, answers, random);
      const auto estimate = EstimateHierA(counts, keep, {reuse, false}, random);
      REQUIRE(estimate.ok());
      sum += estimate->mean;
      sum_squares += estimate->mean * estimate->mean;
      estimated_variance += estimate->variance;
    }
    const double analytic = UniformHierAVariance(*levels, reuse) / n;
    const double mean = sum / trials;
    const double mse = sum_squares / trials;  // the truth is 0
    MESSAGE("mu " << reuse << ": n*MSE " << n * mse << ", analytic " << n * analytic);
    CHECK(std::abs(mean) < 4.0 * std::sqrt(analytic / trials));
    // The MSE of `trials` draws has relative standard error sqrt(2/trials) = 3.7%.
    CHECK(std::abs(mse / analytic - 1.0) < 4.0 * std::sqrt(2.0 / trials));
    // The reports' own variance estimate targets a sample from a population: it adds the answers' own spread
    // (1/3 on [-1, 1] for these uniform answers), which fixed answers do not have: conservative by exactly that.
    const double with_spread = analytic + (1.0 / 3.0) / n;
    CHECK(std::abs(estimated_variance / trials / with_spread - 1.0) < 0.02);
  }
  // The digest's analytic table (§5.6 a), uniform, base 1: 1.276 (mu 1) and 1.443 (mu 2); base 0.1: 113.5, 132.4.
  CHECK(UniformHierAVariance(*levels, 1) == doctest::Approx(1.276).epsilon(2e-3));
  CHECK(UniformHierAVariance(*levels, 2) == doctest::Approx(1.443).epsilon(2e-3));
  const auto small = PaperLevels(0.1);
  CHECK(UniformHierAVariance(*small, 1) == doctest::Approx(113.5).epsilon(2e-3));
  CHECK(UniformHierAVariance(*small, 2) == doctest::Approx(132.4).epsilon(2e-3));
}

TEST_CASE("levels: every record counts mu times (compensation), so constant answers give the exact mean noise-free") {
  // With keep probabilities all 1 - tiny the bits are the discretised answers; all +1 bits: the mean is 1 for any mu.
  const std::vector<double> keep = {0.999999, 0.99999, 0.9999};
  const LevelBitCounts counts{{100, 50, 25}, {0, 0, 0}};
  SeededRandom random(1);
  for (int reuse = 1; reuse <= 5; ++reuse) {
    const auto estimate = EstimateHierA(counts, keep, {reuse, false}, random);
    REQUIRE(estimate.ok());
    double size = 0.0;
    for (const auto& column : estimate->columns) size += column.size;
    CHECK(size == reuse * 175.0);
    CHECK(estimate->mean == doctest::Approx(1.0).epsilon(1e-3));
  }
}

TEST_CASE("levels: clamping bounds each column's mean to [-1, 1] and is reported") {
  const std::vector<double> keep = {0.6, 0.55};
  const LevelBitCounts counts{{10, 0}, {0, 10}};  // column 0 debiases to 10/0.2 = 50 > N
  SeededRandom random(1);
  const auto clamped = EstimateHierA(counts, keep, {1, true}, random);
  REQUIRE(clamped.ok());
  CHECK(clamped->clamped_any);
  CHECK(clamped->columns[0].sum == 10.0);
  CHECK(clamped->columns[1].sum == -10.0);
  const auto free = EstimateHierA(counts, keep, {1, false}, random);
  CHECK(!free->clamped_any);
  CHECK(free->columns[0].sum == doctest::Approx(50.0));
}

TEST_CASE("levels: shares of the levels invert the GRR; the results section states the mean in data units") {
  auto made = CreateLevels({0.0, 100.0}, {50.0}, {2.0, 1.0});
  REQUIRE(made.ok());
  const auto& levels = **made;
  SeededRandom random(5);
  std::vector<std::int64_t> counts(levels.report_atoms().size(), 0);
  const auto atoms = levels.report_atoms();
  const int n = 40000;
  double true_mean = 0.0;
  for (int i = 0; i < n; ++i) {
    const double answer = i % 4 == 0 ? 75.0 : 25.0;  // 25% in the upper (strict) level
    true_mean += answer / n;
    const double y = levels.Perturb(answer, random).value()[0];
    ++counts[std::lower_bound(atoms.begin(), atoms.end(), y) - atoms.begin()];
  }
  const auto section = levels.EstimateFromAtoms(counts, {});
  REQUIRE(section.ok());
  const json& mean = (*section)["mean"];
  CHECK(mean["ci_low"].get<double>() <= true_mean);
  CHECK(mean["ci_high"].get<double>() >= true_mean);
  const json& upper = (*section)["levels"][1];
  CHECK(upper["epsilon"] == 1.0);
  CHECK(std::abs(upper["share_unclipped"].get<double>() - 0.25) < 4.0 * upper["std_error"].get<double>());
  CHECK(upper["intervals"][0]["low"] == 50.0);
  CHECK(upper["intervals"][0]["closed_high"] == true);
  // Clamped (the paper's mode) with a clamped column: no interval, and it says why.
  std::vector<std::int64_t> lopsided(atoms.size(), 0);
  lopsided[levels.AtomIndex(1, +1)] = 3;
  const auto clamped = levels.EstimateFromAtoms(lopsided, {1, true});
  REQUIRE(clamped.ok());
  CHECK((*clamped)["mean"]["ci_low"].is_null());
  CHECK((*clamped)["mean"]["note"].get<std::string>().find("no honest interval") != std::string::npos);
}

TEST_CASE("levels advisor: the mean's error at equal exact epsilon, from the same variance formulas") {
  const auto levels = PaperLevels(1.0);
  const auto advice = levels->Advice(10000);
  REQUIRE(advice.has_value());
  const json& rows = (*advice)["rows"];
  REQUIRE(rows.size() == 6);
  CHECK((*advice)["epsilon"].get<double>() == doctest::Approx(8.067).epsilon(1e-3));
  // This question's row: HierA's per-respondent variance (digest §5.6 a: 1.276 for uniform answers, base 1), plus
  // the answers' own for the population (uniform on [-1, 1]: 1/3).
  CHECK(rows[0]["mechanism"] == "levels");
  CHECK(rows[0]["std_error"].get<double>() == doctest::Approx(std::sqrt((1.276 + 1.0 / 3.0) / 10000)).epsilon(2e-3));
  // The bounded variant rescaled to the same exact epsilon.
  CHECK(rows[1]["mechanism"] == "levels_bounded");
  CHECK(rows[1]["epsilon"].get<double>() == doctest::Approx(*levels->epsilon()).epsilon(1e-6));
  // Piecewise at the exact epsilon: Var = t^2/(s-1) + (s+3)/(3(s-1)^2), s = e^(eps/2), averaged over t ~ U[-1, 1].
  const double s = std::exp(*levels->epsilon() / 2.0);
  const double piecewise = (1.0 / 3.0) / (s - 1.0) + (s + 3.0) / (3.0 * (s - 1.0) * (s - 1.0));
  CHECK(rows[2]["mechanism"] == "piecewise");
  CHECK(rows[2]["std_error"].get<double>() == doctest::Approx(std::sqrt((piecewise + 1.0 / 3.0) / 10000)).epsilon(1e-4));
  CHECK(rows[5]["mechanism"] == "square_wave");
  CHECK(rows[5]["std_error"].is_number());
  // At its true epsilon the paper's mechanism is far from the best: Piecewise at 8.07 wins.
  CHECK((*advice)["best"] != "levels");
  // The rescaled budgets give exactly the target epsilon.
  const auto budgets = BudgetsForExactEpsilon(*levels, LevelsVariant::kBounded, 3.0);
  REQUIRE(budgets.has_value());
  auto rescaled = CreateLevels({-1.0, 1.0}, {-0.6, -0.2, 0.2, 0.6}, *budgets, LevelsVariant::kBounded);
  CHECK(*(*rescaled)->epsilon() == doctest::Approx(3.0).epsilon(1e-6));
}

TEST_CASE("levels: HierA's 95% interval covers on hard shapes at small n (concentrated, discrete, skewed)") {
  // n = 300 respondents, 2000 trials per shape; the interval uses the reports' own variance estimate, which
  // includes the answers' spread, so it may over-cover; it must not under-cover beyond chance (4 binomial SE).
  const auto levels = PaperLevels(0.5);
  const auto keep = Keeps(*levels);
  const int n = 300, trials = 2000;
  std::vector<std::pair<std::string, std::vector<double>>> shapes;
  shapes.push_back({"concentrated at a boundary", std::vector<double>(n, -0.2)});
  std::vector<double> two_points, skewed;
  for (int i = 0; i < n; ++i) {
    two_points.push_back(i % 10 == 0 ? 1.0 : -1.0);
    skewed.push_back(std::min(1.0, -1.0 + 0.3 * -std::log(1.0 - (i + 0.5) / n)));
  }
  shapes.push_back({"two points, 10% at the top", two_points});
  shapes.push_back({"skewed (exponential from -1)", skewed});
  SeededRandom random(31);
  for (const auto& [name, answers] : shapes) {
    double truth = 0.0;
    for (double x : answers) truth += x / n;
    int covered = 0;
    for (int trial = 0; trial < trials; ++trial) {
      const auto estimate = EstimateHierA(CountReports(*levels, answers, random), keep, {1, false}, random).value();
      covered += std::abs(estimate.mean - truth) <= 1.959963984540054 * std::sqrt(estimate.variance);
    }
    const double coverage = static_cast<double>(covered) / trials;
    MESSAGE(name << ": coverage " << coverage);
    CHECK(coverage >= 0.95 - 4.0 * std::sqrt(0.95 * 0.05 / trials));
  }
}
