// Blocks with a tiny group of respondents (issue 26, item 1) and the block's interval targets (item 3).
//
// A tiny group: 2,000 respondents answer all three attributes (sizes 2, 3, 4; e = 1) and s = 1, 3, 9 or 49 more
// answer only the first two, so the first two attributes' estimates read an m = 3 group and an m = 2 group of s.
// The m = 2 group cannot calibrate its own q (calibration_units.h). The bound: its respondents' true counts are
// in [0, s] for every option and pair cell, so "moving an estimate by no more than their share" is
//   0 <= count(with them) - count(without them) <= s      (counts; the m = 3 unit is the same in both),
// and for a frequency f = count / n, with n_B = n_A + s,
//   |f_B - f_A| = |delta - s f_A| / n_B <= s max(|f_A|, |1 - f_A|) / n_B.
// Norm-Sub (the consistent marginal) subtracts one common shift found by a monotone equation, so it moves each
// option by at most twice the largest input move. Before the fix the group's q came from its own s row sums: one
// respondent's binary row sum of 2 gives q = 1/2 and a divisor of 10^-6.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/frequency/norm_sub.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_estimate_options.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_results.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/joint_estimator.h"
#include "core/kinds/block/pmoue.h"

using namespace deniable;

namespace {

enum class Splits { kEqual, kDirichlet, kPersonalised };

const char* SplitsName(Splits splits) {
  switch (splits) {
    case Splits::kEqual: return "equal";
    case Splits::kDirichlet: return "Dirichlet(1)";
    case Splits::kPersonalised: return "personalised";
  }
  return "";
}

BlockDefinition SmallBlock(const std::vector<int>& sizes, double epsilon) {
  BlockDefinition block;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    BlockAttribute attribute{"a" + std::to_string(a), "a" + std::to_string(a), {}};
    for (int b = 0; b < sizes[a]; ++b) attribute.options.push_back(std::to_string(b));
    block.attributes.push_back(attribute);
  }
  block.epsilon_per_attribute = epsilon;
  block.joint_order = static_cast<int>(sizes.size());
  return block;
}

// A fixed dependent population over the block's attributes (cells in mixed radix, first attribute most significant).
std::vector<double> PopulationJoint(const std::vector<int>& sizes) {
  std::size_t cells = 1;
  for (int size : sizes) cells *= static_cast<std::size_t>(size);
  std::vector<double> joint(cells);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    double weight = 1.0;
    int previous = -1;
    for (std::size_t a = sizes.size(); a-- > 0;) {
      const int value = static_cast<int>(rest % static_cast<std::size_t>(sizes[a]));
      rest /= static_cast<std::size_t>(sizes[a]);
      weight *= (1.0 + value) * (previous < 0 ? 1.0 : std::exp(-0.8 * std::abs(value - previous)));
      previous = value;
    }
    joint[cell] = weight;
  }
  const double total = std::accumulate(joint.begin(), joint.end(), 0.0);
  for (double& p : joint) p /= total;
  return joint;
}

std::vector<int> Draw(const std::vector<double>& cumulative, const std::vector<int>& sizes, RandomSource& random) {
  const double u = UniformUnit(random);
  std::size_t cell = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin());
  cell = std::min(cell, cumulative.size() - 1);
  std::vector<int> values(sizes.size());
  for (std::size_t a = sizes.size(); a-- > 0;) {
    values[a] = static_cast<int>(cell % static_cast<std::size_t>(sizes[a]));
    cell /= static_cast<std::size_t>(sizes[a]);
  }
  return values;
}

void AddRespondent(const BlockDefinition& block, const std::vector<int>& values, Splits splits, BlockAggregate& aggregate,
                   RandomSource& random) {
  BlockChoices choices{std::vector<bool>(values.size()), std::vector<double>(values.size(), 1.0)};
  for (std::size_t a = 0; a < values.size(); ++a) {
    choices.answered[a] = values[a] >= 0;
    if (splits == Splits::kDirichlet) {
      choices.weight[a] = std::clamp(GammaDraw(1.0, random), kLeastWeight, kLargestWeight);
    } else if (splits == Splits::kPersonalised) {
      choices.weight[a] = std::vector<double>{0.5, 1.0, 2.0}[UniformBelow(random, 3)];
    }
  }
  aggregate.AddReport(PerturbBlock(block, values, SplitBudget(block, choices), random));
}

std::vector<double> Cumulative(const std::vector<double>& joint) {
  std::vector<double> cumulative(joint.size());
  std::partial_sum(joint.begin(), joint.end(), cumulative.begin());
  return cumulative;
}

// Coverage of 95% intervals over many (replication, cell) pairs, and the mean error per cell.
struct Coverage {
  std::size_t hits = 0, total = 0;
  std::vector<double> error_sum, error_square;
  void Add(std::size_t cell, double error, double std_error) {
    if (error_sum.size() <= cell) {
      error_sum.resize(cell + 1, 0.0);
      error_square.resize(cell + 1, 0.0);
    }
    error_sum[cell] += error;
    error_square[cell] += error * error;
    hits += std::abs(error) <= kZ95 * std_error ? 1 : 0;
    ++total;
  }
  double rate() const { return static_cast<double>(hits) / static_cast<double>(total); }
  // At least 95% - 3.5 binomial SEs.
  double lowest() const { return 0.95 - 3.5 * std::sqrt(0.95 * 0.05 / static_cast<double>(total)); }
  // Every cell's mean error within 4 of its standard errors over the replications.
  bool Unbiased(int replications) const {
    for (std::size_t c = 0; c < error_sum.size(); ++c) {
      const double r = replications, mean = error_sum[c] / r;
      const double sd = std::sqrt(std::max(0.0, error_square[c] / r - mean * mean));
      if (std::abs(mean) > 4.0 * sd / std::sqrt(r)) return false;
    }
    return true;
  }
};

}  // namespace

TEST_CASE("block small groups: a group of 1, 3, 9 or 49 moves no marginal or cross-tab cell by more than its share; "
          "the estimates with it stay unbiased and cover") {
  const std::vector<int> sizes = {2, 3, 4};
  const BlockDefinition block = SmallBlock(sizes, 1.0);
  const std::vector<double> cumulative = Cumulative(PopulationJoint(sizes));
  const std::int64_t big = 2000;
  const int replications = 60;
  for (Splits splits : {Splits::kEqual, Splits::kDirichlet, Splits::kPersonalised}) {
    // Coverage pooled over the four group sizes (60 replications alone would test it weakly); bias per size.
    Coverage marginal_coverage, pair_coverage;
    for (std::int64_t s : {1, 3, 9, 49}) {
      double largest_count_move = 0.0, worst_excess = 0.0;
      Coverage marginal, pair;
      for (int r = 0; r < replications; ++r) {
        SeededRandom random(1000003u * static_cast<std::uint64_t>(s) + 7919u * static_cast<std::uint64_t>(splits) +
                            static_cast<std::uint64_t>(r));
        BlockAggregate without(sizes, block.joint_order);
        std::vector<double> own_first(2, 0.0), own_pair(6, 0.0);  // the respondents' own counts (with the group)
        for (std::int64_t i = 0; i < big; ++i) {
          const std::vector<int> values = Draw(cumulative, sizes, random);
          own_first[static_cast<std::size_t>(values[0])] += 1.0;
          own_pair[static_cast<std::size_t>(values[0] * 3 + values[1])] += 1.0;
          AddRespondent(block, values, splits, without, random);
        }
        BlockAggregate with = without;
        for (std::int64_t i = 0; i < s; ++i) {
          std::vector<int> values = Draw(cumulative, sizes, random);
          values[2] = -1;  // skips the third attribute: m = 2
          own_first[static_cast<std::size_t>(values[0])] += 1.0;
          own_pair[static_cast<std::size_t>(values[0] * 3 + values[1])] += 1.0;
          AddRespondent(block, values, splits, with, random);
        }
        const double n = static_cast<double>(big + s);
        for (int a = 0; a < 2; ++a) {
          const IntervalTarget own = IntervalTarget::kRespondents;
          const MarginalEstimate before = EstimateMarginal(without, a, BlockMode::kCalibrated, 1.0, own);
          const MarginalEstimate after = EstimateMarginal(with, a, BlockMode::kCalibrated, 1.0, own);
          double largest_input_move = 0.0;
          for (std::size_t b = 0; b < after.options.size(); ++b) {
            const double delta = after.options[b].count - before.options[b].count;
            largest_count_move = std::max(largest_count_move, std::abs(delta));
            worst_excess = std::max({worst_excess, -delta, delta - static_cast<double>(s)});
            const double f = before.options[b].frequency;
            const double move = std::abs(after.options[b].frequency - f);
            CHECK(move <= static_cast<double>(s) * std::max(std::abs(f), std::abs(1.0 - f)) / n + 1e-12);
            largest_input_move = std::max(largest_input_move, move);
            if (a == 0 && b == 0) {  // a binary attribute's two options miss together: one is counted
              marginal.Add(b, after.options[b].frequency - own_first[b] / n, after.options[b].std_error);
              marginal_coverage.Add(b, after.options[b].frequency - own_first[b] / n, after.options[b].std_error);
            }
          }
          for (std::size_t b = 0; b < after.options.size(); ++b) {
            CHECK(std::abs(after.options[b].consistent_frequency - before.options[b].consistent_frequency) <=
                  2.0 * largest_input_move + 1e-12);
          }
        }
        const JointCounts before = EstimateJoint(without, 0b011u, IntervalTarget::kRespondents);
        const JointCounts after = EstimateJoint(with, 0b011u, IntervalTarget::kRespondents);
        for (std::size_t c = 0; c < after.count.size(); ++c) {
          const double delta = after.count[c] - before.count[c];
          largest_count_move = std::max(largest_count_move, std::abs(delta));
          worst_excess = std::max({worst_excess, -delta, delta - static_cast<double>(s)});
          pair.Add(c, (after.count[c] - own_pair[c]) / n, std::sqrt(after.variance[c]) / n);
          pair_coverage.Add(c, (after.count[c] - own_pair[c]) / n, std::sqrt(after.variance[c]) / n);
        }
      }
      MESSAGE(std::string(SplitsName(splits)) << " splits, a group of " << s << ": largest count move " << largest_count_move
                              << ", beyond [0, s] by " << worst_excess << "; coverage marginal " << marginal.rate()
                              << ", pair " << pair.rate());
      CHECK(worst_excess <= 1e-9);
      CHECK(marginal.Unbiased(replications));
      CHECK(pair.Unbiased(replications));
    }
    MESSAGE(std::string(SplitsName(splits)) << " splits: coverage marginal " << marginal_coverage.rate() << " of "
                                            << marginal_coverage.total << ", pair " << pair_coverage.rate() << " of "
                                            << pair_coverage.total);
    CHECK(marginal_coverage.rate() >= marginal_coverage.lowest());
    CHECK(pair_coverage.rate() >= pair_coverage.lowest());
  }
}

TEST_CASE("block intervals: the population by default (sampling + randomisation), the respondents' on request; "
          "each covers its own truth") {
  // e = 4: the randomisation's variance per respondent (f/4 + (1 - f) q (1 - q)) / (1/2 - q)^2 is 0.28-0.58, the
  // sampling's f (1 - f) 0.16-0.25, so the respondents' interval covers a population share only about 89% of the time.
  const std::vector<int> sizes = {3, 2};
  const BlockDefinition block = SmallBlock(sizes, 4.0);
  const std::vector<double> population = PopulationJoint(sizes);
  const std::vector<double> cumulative = Cumulative(population);
  std::vector<double> first(3, 0.0);
  for (std::size_t c = 0; c < population.size(); ++c) first[c / 2] += population[c];
  const std::int64_t n = 1000;
  const int replications = 150;
  Coverage population_marginal, population_pair, respondents_marginal, respondents_pair, respondents_on_population;
  for (int r = 0; r < replications; ++r) {
    SeededRandom random(424242u + static_cast<std::uint64_t>(r));
    BlockAggregate aggregate(sizes, block.joint_order);
    std::vector<double> own_first(3, 0.0), own_pair(6, 0.0);
    for (std::int64_t i = 0; i < n; ++i) {
      const std::vector<int> values = Draw(cumulative, sizes, random);
      own_first[static_cast<std::size_t>(values[0])] += 1.0;
      own_pair[static_cast<std::size_t>(values[0] * 2 + values[1])] += 1.0;
      AddRespondent(block, values, Splits::kEqual, aggregate, random);
    }
    const double count = static_cast<double>(n);
    const MarginalEstimate by_default = EstimateMarginal(aggregate, 0, BlockMode::kCalibrated, 4.0);
    const MarginalEstimate respondents =
        EstimateMarginal(aggregate, 0, BlockMode::kCalibrated, 4.0, IntervalTarget::kRespondents);
    for (std::size_t b = 0; b < 3; ++b) {
      population_marginal.Add(b, by_default.options[b].frequency - first[b], by_default.options[b].std_error);
      respondents_marginal.Add(b, respondents.options[b].frequency - own_first[b] / count, respondents.options[b].std_error);
      respondents_on_population.Add(b, respondents.options[b].frequency - first[b], respondents.options[b].std_error);
    }
    const JointCounts joint_default = EstimateJoint(aggregate, 0b11u);
    const JointCounts joint_respondents = EstimateJoint(aggregate, 0b11u, IntervalTarget::kRespondents);
    for (std::size_t c = 0; c < 6; ++c) {
      population_pair.Add(c, joint_default.count[c] / count - population[c], std::sqrt(joint_default.variance[c]) / count);
      respondents_pair.Add(c, (joint_respondents.count[c] - own_pair[c]) / count,
                           std::sqrt(joint_respondents.variance[c]) / count);
      respondents_on_population.Add(3 + c, joint_respondents.count[c] / count - population[c],
                                    std::sqrt(joint_respondents.variance[c]) / count);
    }
  }
  MESSAGE("population target: marginal " << population_marginal.rate() << ", pair " << population_pair.rate()
                                         << "; respondents target: marginal " << respondents_marginal.rate() << ", pair "
                                         << respondents_pair.rate() << "; respondents' intervals on the population "
                                         << respondents_on_population.rate());
  CHECK(population_marginal.rate() >= population_marginal.lowest());
  CHECK(population_pair.rate() >= population_pair.lowest());
  CHECK(respondents_marginal.rate() >= respondents_marginal.lowest());
  CHECK(respondents_pair.rate() >= respondents_pair.lowest());
  // Why the population is the default: the respondents' intervals miss it (expected about 0.89, SE 0.009).
  CHECK(respondents_on_population.rate() < 0.93);
}

TEST_CASE("block results state their interval target; a wide interval's warning names the noise, not n alone") {
  const std::vector<int> sizes = {2, 3};
  const BlockDefinition block = SmallBlock(sizes, 0.5);
  const std::vector<double> cumulative = Cumulative(PopulationJoint(sizes));
  SeededRandom random(9);
  BlockAggregate aggregate(sizes, block.joint_order);
  for (int i = 0; i < 3000; ++i) AddRespondent(block, Draw(cumulative, sizes, random), Splits::kEqual, aggregate, random);
  auto document = [&](const nlohmann::json& options) {
    auto parsed = ParseBlockEstimateOptions(options);
    REQUIRE(parsed.ok());
    auto result = BlockResultToJson(block, aggregate, *parsed, nlohmann::json::object(), nlohmann::json::object());
    REQUIRE(result.ok());
    return *result;
  };
  const nlohmann::json population = document(nlohmann::json::object());
  const nlohmann::json respondents = document({{"interval", "respondents"}});
  CHECK(population["interval_for"] == IntervalForJson(IntervalTarget::kPopulation));
  CHECK(respondents["interval_for"] == IntervalForJson(IntervalTarget::kRespondents));
  // The population's intervals are wider by the sampling variance, for the marginals and the cross-tab's cells.
  const auto& wide = population["attributes"][1]["options"][0];
  const auto& narrow = respondents["attributes"][1]["options"][0];
  CHECK(wide["frequency"] == narrow["frequency"]);
  CHECK(wide["std_error"].get<double>() > narrow["std_error"].get<double>());
  // (A cell estimated below 0 or above 1 adds no sampling variance: pi (1 - pi) is plugged in at 0 or 1.)
  bool wider = false;
  for (std::size_t c = 0; c < 6; ++c) {
    const double with_sampling = population["crosstab"]["cells"][c]["std_error"].get<double>();
    const double without = respondents["crosstab"]["cells"][c]["std_error"].get<double>();
    CHECK(with_sampling >= without);
    wider = wider || with_sampling > without;
  }
  CHECK(wider);
  CHECK(ParseBlockEstimateOptions({{"interval", "sample"}}).error() ==
        "interval must be \"population\" (the default) or \"respondents\", but is \"sample\"");
  // At e = 0.5 and n = 3000 the intervals are about +-14 points: the warning says why and what would help.
  const std::string warning = population["attributes"][1]["warning"].get<std::string>();
  MESSAGE(warning);
  CHECK(warning.rfind("95% intervals are up to ±", 0) == 0);
  CHECK(warning.find(": the randomisation's noise at an effective epsilon of 0.") != std::string::npos);  // about 0.5
  CHECK(warning.find("over 3000 reports; about ") != std::string::npos);
  CHECK(warning.find(" reports would bring them to ±10 points") != std::string::npos);
  CHECK(warning.find("too small") == std::string::npos);
}

TEST_CASE("block simulate: interval coverage is of the truth the intervals are for") {
  // Intervals of width 2e-9 around the population's shares cover every population share and no drawn share
  // (999 draws: a drawn share k / 999 is never 0.3, 0.7 or a cell's 0.1 ... 0.4).
  const BlockDefinition block = SmallBlock({2, 2}, 1.0);
  const std::vector<double> weights = {0.1, 0.2, 0.3, 0.4};
  auto sampler = ParseBlockTruth(block, {{"weights", weights}}, "truth");
  REQUIRE(sampler.ok());
  SeededRandom random(3);
  for (int i = 0; i < 999; ++i) REQUIRE((*sampler)->Draw(random).ok());
  auto interval = [](double p) {
    return nlohmann::json{{"frequency", p}, {"consistent_frequency", p}, {"ci_low", p - 1e-9}, {"ci_high", p + 1e-9}};
  };
  nlohmann::json result = {
      {"attributes",
       {{{"options", {interval(0.3), interval(0.7)}}}, {{"options", {interval(0.4), interval(0.6)}}}}},
      {"crosstab",
       {{"attributes", {"a0", "a1"}}, {"cells", {interval(0.1), interval(0.2), interval(0.3), interval(0.4)}}}}};
  for (IntervalTarget target : {IntervalTarget::kPopulation, IntervalTarget::kRespondents}) {
    result["interval_for"] = IntervalForJson(target);
    const nlohmann::json errors = (*sampler)->Compare(result)["errors"];
    const double expected = target == IntervalTarget::kPopulation ? 1.0 : 0.0;
    CHECK(errors["coverage_of"] == std::string(IntervalTargetName(target)));
    CHECK(errors["attributes"][0]["ci_coverage"] == expected);
    CHECK(errors["attributes"][1]["ci_coverage"] == expected);
    CHECK(errors["crosstab"]["ci_coverage"] == expected);
  }
}
