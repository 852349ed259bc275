// The consistent cross-tab of a block (issue 26, item 2): on tables with strong dependence, conditional shares of
// 5% and 75% and structural zeros, under equal and personalised (Dirichlet) splits, at n where the unbiased cells are
// informative, the consistent table is no further from the respondents' own table than the unbiased cells it is
// made from, and keeps the zeros near 0 and the conditional shares where they are (the variance-weighted
// projection onto the margins it uses: tests/cpp/core/frequency/consistent_joint_test.cpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/seeded_random.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/frequency/consistent_joint.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;

namespace {

BlockDefinition Block(const std::vector<int>& sizes, double epsilon) {
  BlockDefinition block;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    BlockAttribute attribute{"a" + std::to_string(a), "a" + std::to_string(a) + "?", {}};
    for (int b = 0; b < sizes[a]; ++b) attribute.options.push_back("o" + std::to_string(b));
    block.attributes.push_back(attribute);
  }
  block.epsilon_per_attribute = epsilon;
  block.bounds = {0.1, 4.0};
  block.joint_order = static_cast<int>(sizes.size());
  return block;
}

struct Drawn {
  CrossTab table;
  std::vector<double> truth;  // the respondents' own table
};

// n respondents from `joint` (every attribute answered), PMOUE with equal splits (alpha 0) or Gamma(alpha) weights;
// the cross-tab of all the attributes, fitted to the calibrated marginals' consistent versions.
Drawn Draw(const BlockDefinition& block, const std::vector<double>& joint, std::int64_t n, double alpha,
           std::uint64_t seed) {
  SeededRandom random(seed);
  const std::vector<int> sizes = block.sizes();
  BlockAggregate aggregate(sizes, block.joint_order);
  std::vector<double> cumulative(joint.size()), truth(joint.size(), 0.0);
  std::partial_sum(joint.begin(), joint.end(), cumulative.begin());
  BlockChoices choices{std::vector<bool>(sizes.size(), true), std::vector<double>(sizes.size(), 1.0)};
  for (std::int64_t r = 0; r < n; ++r) {
    const double u = UniformUnit(random) * cumulative.back();
    const std::size_t cell = std::min<std::size_t>(
        static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()),
        joint.size() - 1);
    truth[cell] += 1.0 / static_cast<double>(n);
    std::vector<int> values(sizes.size());
    for (std::size_t a = sizes.size(), rest = cell; a-- > 0; rest /= static_cast<std::size_t>(sizes[a])) {
      values[a] = static_cast<int>(rest % static_cast<std::size_t>(sizes[a]));
    }
    if (alpha > 0.0) {
      for (double& w : choices.weight) w = std::clamp(GammaDraw(alpha, random), kLeastWeight, kLargestWeight);
    }
    aggregate.AddReport(PerturbBlock(block, values, SplitBudget(block, choices), random));
  }
  std::vector<std::vector<double>> margins;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    std::vector<double> margin;
    for (const auto& option :
         EstimateMarginal(aggregate, static_cast<int>(a), BlockMode::kCalibrated, block.epsilon_per_attribute).options) {
      margin.push_back(option.consistent_frequency);
    }
    margins.push_back(margin);
  }
  auto table = EstimateCrossTab(aggregate, block, (std::uint32_t{1} << sizes.size()) - 1, CrossTabOptions{}, margins);
  REQUIRE(table.ok());
  return {*table, truth};
}

double Avd(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum / 2.0;
}

// The spread of the unbiased table's AVD over repeated surveys: with cell errors e_c ~ N(0, se_c^2),
// Var(|e_c|) = (1 - 2/pi) se_c^2, so sd(AVD) is at most sum_c sqrt((1 - 2/pi)) se_c / 2 (any correlation).
double AvdSpread(const std::vector<double>& std_error) {
  double sum = 0.0;
  for (double se : std_error) sum += std::sqrt(1.0 - 2.0 / M_PI) * se / 2.0;
  return sum;
}

constexpr int kRuns = 4;



}  // namespace

TEST_CASE("block consistent cross-tab: conditional shares 5% and 75% and a structural zero kept, no further from "
          "the truth than the unbiased cells, equal and Dirichlet splits") {
  // Education (3) x uninsured (2): uninsured among the first 5%, the second 75%, the third none (a structural zero).
  const std::vector<double> rows = {0.5, 0.3, 0.2}, share = {0.05, 0.75, 0.0};
  std::vector<double> joint;
  for (std::size_t r = 0; r < 3; ++r) {
    joint.push_back(rows[r] * (1.0 - share[r]));
    joint.push_back(rows[r] * share[r]);
  }
  const BlockDefinition block = Block({3, 2}, 1.0);
  for (double alpha : {0.0, 1.0}) {
    double consistent_avd = 0.0, unbiased_avd = 0.0, spread = 0.0;
    for (int run = 0; run < kRuns; ++run) {
      const Drawn drawn = Draw(block, joint, 100000, alpha, 300 + static_cast<std::uint64_t>(run) + (alpha > 0 ? 50 : 0));
      const CrossTab& t = drawn.table;
      consistent_avd += Avd(t.consistent, drawn.truth) / kRuns;
      unbiased_avd += Avd(t.frequency, drawn.truth) / kRuns;
      spread += AvdSpread(t.std_error) / kRuns;
      INFO("alpha " << alpha << ", run " << run);
      // The structural zero: within 3 standard errors of 0 (the unbiased cell's own noise).
      CHECK(t.consistent[5] <= 3.0 * t.std_error[5]);
      // The conditional shares: each within 3 standard errors (the cell's, over its row's share) of the truth's.
      for (std::size_t r = 0; r < 2; ++r) {
        const double row = t.consistent[2 * r] + t.consistent[2 * r + 1];
        const double truth_row = drawn.truth[2 * r] + drawn.truth[2 * r + 1];
        INFO("row " << r << ": consistent share " << t.consistent[2 * r + 1] / row << ", truth "
                    << drawn.truth[2 * r + 1] / truth_row);
        CHECK(std::abs(t.consistent[2 * r + 1] / row - drawn.truth[2 * r + 1] / truth_row) <=
              3.0 * t.std_error[2 * r + 1] / truth_row);
      }
    }
    MESSAGE(std::string(alpha > 0 ? "Dirichlet" : "equal") << " splits: AVD consistent " << consistent_avd << ", unbiased "
                                                << unbiased_avd << " (spread of the mean " << spread / std::sqrt(kRuns)
                                                << ")");
    CHECK(consistent_avd <= unbiased_avd + 3.0 * spread / std::sqrt(kRuns));
  }
}

TEST_CASE("block consistent cross-tab: a 4 x 3 x 2 table with strong dependence and a structural zero") {
  // The second attribute follows the first closely, the third the second; the cells (3, 0, *) cannot occur.
  std::vector<double> joint;
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 2; ++c) {
        const double ab = (a == 3 && b == 0) ? 0.0 : std::exp(-2.0 * std::abs(a * 2.0 / 3.0 - b));
        joint.push_back(ab * (c == (b >= 1) ? 0.9 : 0.1));
      }
    }
  }
  const BlockDefinition block = Block({4, 3, 2}, 1.0);
  for (double alpha : {0.0, 1.0}) {
    double consistent_avd = 0.0, unbiased_avd = 0.0, spread = 0.0;
    for (int run = 0; run < kRuns; ++run) {
      const Drawn drawn = Draw(block, joint, 100000, alpha, 400 + static_cast<std::uint64_t>(run) + (alpha > 0 ? 50 : 0));
      const CrossTab& t = drawn.table;
      consistent_avd += Avd(t.consistent, drawn.truth) / kRuns;
      unbiased_avd += Avd(t.frequency, drawn.truth) / kRuns;
      spread += AvdSpread(t.std_error) / kRuns;
      INFO("alpha " << alpha << ", run " << run);
      for (std::size_t zero : {18, 19}) CHECK(t.consistent[zero] <= 3.0 * t.std_error[zero]);
    }
    MESSAGE(std::string(alpha > 0 ? "Dirichlet" : "equal") << " splits: AVD consistent " << consistent_avd << ", unbiased "
                                                << unbiased_avd << " (spread of the mean " << spread / std::sqrt(kRuns)
                                                << ")");
    CHECK(consistent_avd <= unbiased_avd + 3.0 * spread / std::sqrt(kRuns));
  }
}

TEST_CASE("block cross-tab results: every consistent cell inside its own interval (the unbiased one clipped to "
          "[0, 1] and widened to hold it)") {
  // age x income with a structural zero (age 0 never has income 2) and strong dependence, through the survey path.
  nlohmann::json attributes = nlohmann::json::array();
  for (const auto& [id, size] : std::vector<std::pair<std::string, int>>{{"age", 3}, {"income", 3}}) {
    nlohmann::json labels = nlohmann::json::array();
    for (int i = 0; i < size; ++i) labels.push_back(id + std::to_string(i));
    attributes.push_back({{"id", id}, {"text", id + "?"}, {"options", labels}});
  }
  const nlohmann::json question = {{"id", "block"}, {"text", "About you"}, {"type", "block"}, {"attributes", attributes},
                                   {"mechanism", {{"name", "pmoue"}, {"epsilon_per_attribute", 1.0}}}};
  auto survey = ParseSurvey({{"format", kSurveyFormat}, {"id", "b"}, {"version", 1}, {"title", "t"}, {"questions", {question}}});
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  SeededRandom random(61);
  for (int r = 0; r < 4000; ++r) {
    const int age = r % 3, income = age == 0 ? (r % 10 == 0 ? 1 : 0) : (UniformUnit(random) < 0.8 ? age : 0);
    auto wire = PerturbAnswers(*survey, {{"block", {{"answers", {{"age", age}, {"income", income}}}}}}, random);
    REQUIRE(wire.ok());
    auto report = ParseReport(*survey, *wire);
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  const nlohmann::json results = SurveyResultsToJson(*survey, aggregate, nlohmann::json::object());
  const nlohmann::json& cells = results["questions"][0]["crosstab"]["cells"];
  REQUIRE(cells.size() == 9);
  int moved_out = 0;  // cells whose consistent value is outside the unbiased interval
  for (const auto& cell : cells) {
    const double consistent = cell["consistent_frequency"].get<double>();
    const double low = cell["consistent_ci_low"].get<double>(), high = cell["consistent_ci_high"].get<double>();
    CHECK(low <= consistent);
    CHECK(consistent <= high);
    CHECK(low == doctest::Approx(std::min(std::clamp(cell["ci_low"].get<double>(), 0.0, 1.0), consistent)));
    CHECK(high == doctest::Approx(std::max(std::clamp(cell["ci_high"].get<double>(), 0.0, 1.0), consistent)));
    moved_out += consistent < cell["ci_low"].get<double>() || consistent > cell["ci_high"].get<double>() ? 1 : 0;
  }
  MESSAGE(moved_out << " of 9 consistent cells outside the unbiased interval, inside their own");
}
