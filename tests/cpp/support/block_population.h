// Blocks in a test (seed 002): a survey around one block question, its
// definition, a dependent joint over (3, 4, 2), a population of respondents
// drawn from a joint and their reports, and replications of an estimate
// checked for bias, variance and coverage; shared by the tests of
// core/kinds/block/.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_question_kind.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/survey.h"

namespace deniable::testing {

inline nlohmann::json Definition(const nlohmann::json& question) {
  return {{"format", kSurveyFormat}, {"id", "b"}, {"version", 1}, {"title", "t"}, {"questions", {question}}};
}

inline nlohmann::json Attribute(const std::string& id, int options) {
  nlohmann::json labels = nlohmann::json::array();
  for (int i = 0; i < options; ++i) labels.push_back(id + std::to_string(i));
  return {{"id", id}, {"text", id + "?"}, {"options", labels}};
}

inline nlohmann::json BlockQuestion(std::vector<int> sizes, double epsilon, nlohmann::json bounds = nullptr) {
  nlohmann::json attributes = nlohmann::json::array();
  const char* names[] = {"age", "income", "education", "health", "region", "work"};
  for (std::size_t a = 0; a < sizes.size(); ++a) attributes.push_back(Attribute(names[a], sizes[a]));
  nlohmann::json mechanism = {{"name", "pmoue"}, {"epsilon_per_attribute", epsilon}};
  if (!bounds.is_null()) mechanism["share_bounds"] = bounds;
  return {{"id", "block"}, {"text", "About you"}, {"type", "block"}, {"attributes", attributes}, {"mechanism", mechanism}};
}

inline std::string ParseError(const nlohmann::json& question) {
  auto survey = ParseSurvey(Definition(question));
  return survey.ok() ? "" : survey.error();
}

inline BlockDefinition Block(std::vector<int> sizes, double epsilon, ShareBounds bounds = {}) {
  auto survey = ParseSurvey(Definition(BlockQuestion(sizes, epsilon, {bounds.low, bounds.high})));
  REQUIRE(survey.ok());
  return BlockKindOf(survey->questions[0]).block();
}

// A dependent joint over (3, 4, 2): income rises with age, the third attribute follows income.
inline std::vector<double> DependentJoint() {
  std::vector<double> joint;
  for (int a = 0; a < 3; ++a) {
    for (int i = 0; i < 4; ++i) {
      for (int h = 0; h < 2; ++h) {
        const double age = 1.0 + a, income = std::exp(-std::abs(i - a) * 0.9), health = h == (i >= 2) ? 0.8 : 0.2;
        joint.push_back(age * income * health);
      }
    }
  }
  const double total = std::accumulate(joint.begin(), joint.end(), 0.0);
  for (double& p : joint) p /= total;
  return joint;
}

inline std::vector<int> CellValues(std::size_t cell, const std::vector<int>& sizes) {
  std::vector<int> values(sizes.size());
  for (std::size_t a = sizes.size(); a-- > 0;) {
    values[a] = static_cast<int>(cell % static_cast<std::size_t>(sizes[a]));
    cell /= static_cast<std::size_t>(sizes[a]);
  }
  return values;
}

// The consistent frequencies of the calibrated marginals of the first `attributes` attributes.
inline std::vector<std::vector<double>> ConsistentMargins(const BlockAggregate& aggregate, int attributes,
                                                          double epsilon_per_attribute) {
  std::vector<std::vector<double>> margins;
  for (int a = 0; a < attributes; ++a) {
    std::vector<double> margin;
    for (const auto& option : EstimateMarginal(aggregate, a, BlockMode::kCalibrated, epsilon_per_attribute).options) {
      margin.push_back(option.consistent_frequency);
    }
    margins.push_back(margin);
  }
  return margins;
}

struct Population {
  BlockAggregate aggregate;
  std::vector<std::vector<std::int64_t>> answered_counts;  // per attribute, among those who answered it
  std::vector<std::int64_t> joint_all;                     // cells of the whole joint, respondents answering all
  std::vector<std::int64_t> first_pair;                    // the first two attributes' joint among their answerers
};

// n respondents from `joint`; each attribute skipped with `skip`; shares from Gamma(alpha) weights (alpha <= 0:
// equal split).
inline Population Simulate(const BlockDefinition& block, const std::vector<double>& joint, std::int64_t n, double skip,
                    double alpha, std::uint64_t seed) {
  SeededRandom random(seed);
  const std::vector<int> sizes = block.sizes();
  Population population{BlockAggregate(sizes, block.joint_order), {}, std::vector<std::int64_t>(joint.size(), 0),
                        std::vector<std::int64_t>(static_cast<std::size_t>(sizes[0] * sizes[1]), 0)};
  for (int size : sizes) population.answered_counts.emplace_back(static_cast<std::size_t>(size), 0);
  std::vector<double> cumulative(joint.size());
  std::partial_sum(joint.begin(), joint.end(), cumulative.begin());
  for (std::int64_t r = 0; r < n; ++r) {
    const double u = UniformUnit(random) * cumulative.back();
    const std::size_t cell = static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) -
                                                      cumulative.begin());
    std::vector<int> values = CellValues(std::min(cell, joint.size() - 1), sizes);
    BlockChoices choices{std::vector<bool>(sizes.size(), true), std::vector<double>(sizes.size(), 1.0)};
    bool all = true;
    for (std::size_t a = 0; a < sizes.size(); ++a) {
      if (a > 0 && UniformUnit(random) < skip) {  // the first attribute is always answered
        values[a] = -1;
        choices.answered[a] = false;
        all = false;
      }
      if (alpha > 0.0) choices.weight[a] = std::clamp(GammaDraw(alpha, random), kLeastWeight, kLargestWeight);
    }
    for (std::size_t a = 0; a < sizes.size(); ++a) {
      if (values[a] >= 0) ++population.answered_counts[a][static_cast<std::size_t>(values[a])];
    }
    if (all) ++population.joint_all[std::min(cell, joint.size() - 1)];
    if (values[1] >= 0) ++population.first_pair[static_cast<std::size_t>(values[0] * sizes[1] + values[1])];
    population.aggregate.AddReport(PerturbBlock(block, values, SplitBudget(block, choices), random));
  }
  return population;
}

// Replications of one design: per option (or joint cell), the estimate's error against the respondents' own
// distribution, the reported variance, and whether the interval covered.
struct Replications {
  std::vector<std::vector<double>> errors, variances;
  std::vector<std::vector<bool>> covered;
  void Add(std::size_t cell, double error, double variance) {
    if (errors.size() <= cell) {
      errors.resize(cell + 1);
      variances.resize(cell + 1);
      covered.resize(cell + 1);
    }
    errors[cell].push_back(error);
    variances[cell].push_back(variance);
    covered[cell].push_back(std::abs(error) <= kZ95 * std::sqrt(variance));
  }
  // Checks unbiasedness (mean error within 4 SEs of the replications), the variance (empirical over reported
  // within [low, 1 + 3.5 sqrt(2/R)]) and coverage (at least 95% - 3.5 binomial SEs over all cells).
  void Check(const std::string& what, double lowest_variance_ratio) const {
    std::size_t hits = 0, total = 0;
    for (std::size_t c = 0; c < errors.size(); ++c) {
      const double r = static_cast<double>(errors[c].size());
      const double mean = std::accumulate(errors[c].begin(), errors[c].end(), 0.0) / r;
      double square = 0.0;
      for (double e : errors[c]) square += (e - mean) * (e - mean);
      const double empirical = square / (r - 1.0);
      const double reported = std::accumulate(variances[c].begin(), variances[c].end(), 0.0) / r;
      INFO(what << " cell " << c << ": mean error " << mean << ", empirical variance " << empirical << ", reported "
                << reported);
      CHECK(std::abs(mean) <= 4.0 * std::sqrt(empirical / r));
      CHECK(empirical / reported <= 1.0 + 3.5 * std::sqrt(2.0 / r));
      CHECK(empirical / reported >= lowest_variance_ratio);
      for (bool hit : covered[c]) hits += hit ? 1 : 0;
      total += covered[c].size();
    }
    const double coverage = static_cast<double>(hits) / static_cast<double>(total);
    MESSAGE(what << ": coverage " << coverage << " of " << total << " intervals");
    CHECK(coverage >= 0.95 - 3.5 * std::sqrt(0.95 * 0.05 / static_cast<double>(total)));
  }
};

}  // namespace deniable::testing
