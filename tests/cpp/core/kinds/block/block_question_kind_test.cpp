// The block kind (core/kinds/block/, seed 002 PLDP / PMOUE): definitions and their errors, the split (from
// choices only, within bounds, summing to m e), PMOUE's bit rates per share, report validation, the digest's test
// vectors, marginals (calibrated: unbiased under unequal splits, variance as the formula, intervals cover; paper
// mode's measured bias), the joint estimator on a known dependent table (unbiased, intervals cover, consistent
// version), the paper's LASSO (fits the marginals, cannot see dependence), Situation 2, and the privacy audits
// (exhaustive: e^(sum e_j) with a fixed split, a value-dependent split caught; sampled, through the kind).
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_question_kind.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/frequency/consistent_joint.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/joint_estimator.h"
#include "core/kinds/block/lasso_joint.h"
#include "core/kinds/block/pmoue.h"
#include "core/kinds/block/privacy_audit.h"
#include "core/frequency/norm_sub.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/stat_utils.h"

using nlohmann::json;
using namespace deniable;

namespace {

json Definition(const json& question) {
  return {{"format", kSurveyFormat}, {"id", "b"}, {"version", 1}, {"title", "t"}, {"questions", {question}}};
}

json Attribute(const std::string& id, int options) {
  json labels = json::array();
  for (int i = 0; i < options; ++i) labels.push_back(id + std::to_string(i));
  return {{"id", id}, {"text", id + "?"}, {"options", labels}};
}

json BlockQuestion(std::vector<int> sizes, double epsilon, json bounds = nullptr) {
  json attributes = json::array();
  const char* names[] = {"age", "income", "education", "health", "region", "work"};
  for (std::size_t a = 0; a < sizes.size(); ++a) attributes.push_back(Attribute(names[a], sizes[a]));
  json mechanism = {{"name", "pmoue"}, {"epsilon_per_attribute", epsilon}};
  if (!bounds.is_null()) mechanism["share_bounds"] = bounds;
  return {{"id", "block"}, {"text", "About you"}, {"type", "block"}, {"attributes", attributes}, {"mechanism", mechanism}};
}

std::string ParseError(const json& question) {
  auto survey = ParseSurvey(Definition(question));
  return survey.ok() ? "" : survey.error();
}

BlockDefinition Block(std::vector<int> sizes, double epsilon, ShareBounds bounds = {}) {
  auto survey = ParseSurvey(Definition(BlockQuestion(sizes, epsilon, {bounds.low, bounds.high})));
  REQUIRE(survey.ok());
  return BlockKindOf(survey->questions[0]).block();
}

// A dependent joint over (3, 4, 2): income rises with age, the third attribute follows income.
std::vector<double> DependentJoint() {
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

std::vector<int> CellValues(std::size_t cell, const std::vector<int>& sizes) {
  std::vector<int> values(sizes.size());
  for (std::size_t a = sizes.size(); a-- > 0;) {
    values[a] = static_cast<int>(cell % static_cast<std::size_t>(sizes[a]));
    cell /= static_cast<std::size_t>(sizes[a]);
  }
  return values;
}

struct Population {
  BlockAggregate aggregate;
  std::vector<std::vector<std::int64_t>> answered_counts;  // per attribute, among those who answered it
  std::vector<std::int64_t> joint_all;                     // cells of the whole joint, respondents answering all
  std::vector<std::int64_t> first_pair;                    // the first two attributes' joint among their answerers
};

// n respondents from `joint`; each attribute skipped with `skip`; shares from Gamma(alpha) weights (alpha <= 0:
// equal split).
Population Simulate(const BlockDefinition& block, const std::vector<double>& joint, std::int64_t n, double skip,
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

}  // namespace

TEST_CASE("block definition: valid blocks parse; errors name the field") {
  CHECK(ParseError(BlockQuestion({3, 4}, 1.0)) == "");
  CHECK(ParseError(BlockQuestion({3}, 1.0)) == "questions[0].attributes: must be an array of 2 to 12 attributes");
  CHECK(ParseError(BlockQuestion({3, 4}, 0.0)).find("questions[0].mechanism.epsilon_per_attribute") == 0);
  CHECK(ParseError(BlockQuestion({3, 4}, 1.0, {1.5, 4})) ==
        "questions[0].mechanism.share_bounds: must satisfy 0 < low <= 1 <= high <= 12 (the equal split must fit), but "
        "is [1.5,4]");
  CHECK(ParseError(BlockQuestion({3, 4}, 20.0, {0.25, 4})).find("questions[0].mechanism.share_bounds: the largest share") ==
        0);
  // Without bounds, the default [0.25, 4] narrows to keep shares within 30: [0.25, 1.5] at e = 20.
  auto high_epsilon = ParseSurvey(Definition(BlockQuestion({3, 4}, 20.0)));
  REQUIRE(high_epsilon.ok());
  CHECK(BlockKindOf(high_epsilon->questions[0]).block().bounds.high == doctest::Approx(1.5));
  json duplicate = BlockQuestion({3, 4}, 1.0);
  duplicate["attributes"][1]["id"] = "age";
  CHECK(ParseError(duplicate) == "questions[0].attributes[1].id: duplicate attribute id \"age\"");
  json too_many_options = BlockQuestion({3, 65}, 1.0);
  CHECK(ParseError(too_many_options) == "questions[0].attributes[1].options: must be an array of 2 to 64 option labels");
  json bad_name = BlockQuestion({3, 4}, 1.0);
  bad_name["mechanism"]["name"] = "oue";
  CHECK(ParseError(bad_name) == "questions[0].mechanism.name: must be \"pmoue\", but is \"oue\"");
  // The default joint order falls to what the aggregate's cap allows, and an explicit one beyond it is refused.
  auto wide = ParseSurvey(Definition(BlockQuestion({16, 16, 16, 16, 16, 16}, 1.0)));
  REQUIRE(wide.ok());
  CHECK(BlockKindOf(wide->questions[0]).block().joint_order == 3);
  CHECK(AggregateCells({16, 16, 16, 16, 16, 16}, 3) <= kMaxAggregateCells);
  json order = BlockQuestion({16, 16, 16, 16, 16, 16}, 1.0);
  order["joint_order"] = 5;
  CHECK(ParseError(order).find("questions[0].joint_order: 5 needs an aggregate of") == 0);
  // The canonical form parses to the same definition.
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 4}, 1.0)));
  REQUIRE(survey.ok());
  auto again = ParseSurvey(SurveyToJson(*survey));
  REQUIRE(again.ok());
  CHECK(SurveyToJson(*again) == SurveyToJson(*survey));
  CHECK(survey->questions[0].epsilon() == doctest::Approx(2.0));
}

TEST_CASE("block split: from choices only, proportional to weights within bounds, summing to m e") {
  const BlockDefinition block = Block({3, 4, 2}, 1.0);
  BlockChoices choices{{true, true, true}, {0.5, 1.0, 2.0}};
  std::vector<double> shares = SplitBudget(block, choices);
  CHECK(shares[0] + shares[1] + shares[2] == doctest::Approx(3.0).epsilon(1e-12));
  CHECK(shares[0] == doctest::Approx(3.0 * 0.5 / 3.5));
  CHECK(shares[2] == doctest::Approx(3.0 * 2.0 / 3.5));
  // Unanswered attributes get nothing; the equal split is the default.
  choices = {{true, false, true}, {1.0, 1.0, 1.0}};
  shares = SplitBudget(block, choices);
  CHECK(shares == std::vector<double>{1.0, 0.0, 1.0});
  // Bounds [0.25, 4] hold: weights 0.01 and 100 over two attributes give 0.25 and 1.75.
  choices = {{true, true, false}, {0.01, 100.0, 1.0}};
  shares = SplitBudget(block, choices);
  CHECK(shares[0] == doctest::Approx(0.25));
  CHECK(shares[1] == doctest::Approx(1.75));
  // Narrow bounds clamp both ends and still sum to m e.
  const BlockDefinition narrow = Block({3, 4, 2}, 1.0, {0.8, 1.1});
  shares = SplitBudget(narrow, {{true, true, true}, {0.5, 2.0, 2.0}});
  CHECK(shares[0] == doctest::Approx(0.8));
  CHECK(shares[1] + shares[2] == doctest::Approx(2.2));
  // The kind's privacy for choices, before any answer.
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 4, 2}, 1.0)));
  REQUIRE(survey.ok());
  auto privacy = survey->questions[0].kind->PrivacyOfChoices(
      {{"answered", {"age", "education"}}, {"sensitivity", {{"age", "more_private"}}}});
  REQUIRE(privacy.ok());
  CHECK((*privacy)["epsilon_total"] == 2.0);
  CHECK((*privacy)["attributes"][0]["epsilon"].get<double>() == doctest::Approx(2.0 * 0.5 / 1.5));
  CHECK((*privacy)["attributes"][1]["epsilon"].is_null());
  CHECK(survey->questions[0].kind->PrivacyOfChoices({{"answered", {"nope"}}}).error() ==
        "answered: no attribute \"nope\" in this block");
}

TEST_CASE("block digest vectors (section 7.F)") {
  CHECK(OueQ(1.0) == doctest::Approx(0.268941).epsilon(1e-6));
  CHECK(OueQ(2.0) == doctest::Approx(0.119203).epsilon(1e-6));
  CHECK(OueQ(3.0) == doctest::Approx(0.047426).epsilon(1e-6));
  // Paper-mode calibration: s = 1000, c^ = 300, e = 2 gives 474.786.
  BlockAggregate aggregate({2, 2}, 2);
  const BlockDefinition block = Block({2, 2}, 2.0);
  // 300 reports with bit 0 set and bit 1 clear, 700 with neither: column counts 300 and 0.
  for (int r = 0; r < 1000; ++r) {
    BlockReport report;
    report.bits = {{static_cast<std::uint8_t>(r < 300), 0}, {}};
    aggregate.AddReport(report);
  }
  const MarginalEstimate paper = EstimateMarginal(aggregate, 0, BlockMode::kPaper, 2.0);
  CHECK(paper.options[0].count == doctest::Approx(474.786).epsilon(1e-6));
  // OUE's variance factor at e = 2: 4 e^2 / (e^2 - 1)^2 = 0.724062 (the paper-mode variance at c = 0, per s).
  const double q = OueQ(2.0);
  CHECK(q * (1 - q) / ((0.5 - q) * (0.5 - q)) == doctest::Approx(0.724062).epsilon(1e-6));
  // Exhaustive privacy: l = (2, 3), split (1, 3): the worst ratio is e^4.
  CHECK(WorstLogLikelihoodRatio({2, 3}, [](const std::vector<int>&) { return std::vector<double>{1.0, 3.0}; }) ==
        doctest::Approx(4.0).epsilon(1e-12));
}

TEST_CASE("block privacy audit: a fixed split gives exactly sum e_j; a split that depends on the answer is caught") {
  for (const auto& shares : {std::vector<double>{1.0, 1.0}, std::vector<double>{0.5, 2.5}, std::vector<double>{2.0, 0.3}}) {
    CHECK(WorstLogLikelihoodRatio({3, 2}, [&](const std::vector<int>&) { return shares; }) ==
          doctest::Approx(shares[0] + shares[1]).epsilon(1e-12));
  }
  // The canary: the attribute answered 0 gets the small share (digest section 4's counterexample, smaller).
  const double worst = WorstLogLikelihoodRatio({4, 2}, [](const std::vector<int>& x) {
    return x[0] == 0 ? std::vector<double>{0.5, 1.5} : std::vector<double>{1.5, 0.5};
  });
  MESSAGE("value-dependent split: worst log ratio " << worst << " against a claimed 2");
  CHECK(worst > 2.0 + 0.5);
}

TEST_CASE("block audit (sampled, through the kind): each attribute within its share; a broken PMOUE is caught") {
  auto survey = ParseSurvey(Definition(BlockQuestion({4, 3}, 1.0)));
  REQUIRE(survey.ok());
  const QuestionKind& kind = *survey->questions[0].kind;
  // Sensitivities fixed (more private, less private): shares 2 * 0.5/2.5 = 0.4 and 1.6.
  auto through_kind = [&](int answer, RandomSource& random) {
    const json wire = *kind.Perturb({{"answers", {{"age", answer}, {"income", 1}}},
                                     {"sensitivity", {{"age", "more_private"}, {"income", "less_private"}}}},
                                    random);
    Support bits;
    for (const auto& bit : wire["bits"][0]) bits.push_back(static_cast<std::uint8_t>(bit.get<int>()));
    return bits;
  };
  const auto audit = deniable::testing::AuditEpsilon(through_kind, 0, 2, 200000, 1e-6, 23);
  MESSAGE("age at share 0.4: audit lower bound " << audit.lower_bound);
  CHECK(audit.lower_bound <= 0.4);
  CHECK(audit.lower_bound >= 0.3);
  // Broken: the true bit kept with probability 0.9 instead of 1/2 (epsilon ln(0.9/0.1 * (1-q)/q)).
  auto broken = [&](int answer, RandomSource& random) {
    Support bits(4);
    for (int b = 0; b < 4; ++b) bits[static_cast<std::size_t>(b)] = Bernoulli(random, b == answer ? 0.9 : OueQ(0.4));
    return bits;
  };
  CHECK(deniable::testing::AuditEpsilon(broken, 0, 2, 200000, 1e-6, 29).lower_bound > 0.4);
}

TEST_CASE("block PMOUE: the true option's bit is 1 half the time, every other at q(share)") {
  const BlockDefinition block = Block({4, 3}, 1.0);
  SeededRandom random(5);
  const std::int64_t trials = 200000;
  std::vector<std::int64_t> ones(7, 0);
  for (std::int64_t t = 0; t < trials; ++t) {
    const BlockReport report = PerturbBlock(block, {2, 0}, {0.4, 1.6}, random);
    for (int b = 0; b < 4; ++b) ones[static_cast<std::size_t>(b)] += report.bits[0][static_cast<std::size_t>(b)];
    for (int b = 0; b < 3; ++b) ones[static_cast<std::size_t>(4 + b)] += report.bits[1][static_cast<std::size_t>(b)];
  }
  const std::vector<double> expected = {OueQ(0.4), OueQ(0.4), 0.5, OueQ(0.4), 0.5, OueQ(1.6), OueQ(1.6)};
  for (std::size_t b = 0; b < expected.size(); ++b) {
    // Each rate within 4.5 binomial SEs (7 checks: a false alarm has probability below 1e-4).
    const double se = std::sqrt(expected[b] * (1 - expected[b]) / trials);
    CHECK(std::abs(static_cast<double>(ones[b]) / trials - expected[b]) < 4.5 * se);
  }
}

TEST_CASE("block reports: the wire form round-trips; malformed reports are refused, naming what is wrong") {
  const BlockDefinition block = Block({3, 2}, 1.0);
  SeededRandom random(3);
  const BlockReport report = PerturbBlock(block, {1, -1}, {2.0, 0.0}, random);
  const json wire = BlockReportToJson(block, report);
  CHECK(wire["attributes"] == json{"age"});
  auto decoded = BlockReportFromJson(block, wire);
  REQUIRE(decoded.ok());
  CHECK(decoded->bits == report.bits);
  auto error = [&](const json& w) { return BlockReportFromJson(block, w).error(); };
  CHECK(error(json{{"attributes", {"income", "age"}}, {"bits", {{0, 1}, {0, 0, 1}}}}) ==
        "attributes[1]: attributes must be listed once each, in the block's order");
  CHECK(error(json{{"attributes", {"age"}}, {"bits", {{0, 1}}}}) ==
        "bits[0]: must be an array of 3 bits (attribute \"age\")");
  CHECK(error(json{{"attributes", {"age"}}, {"bits", {{0, 2, 1}}}}) == "bits[0][1]: must be 0 or 1, but is 2");
  CHECK(error(json{{"attributes", json::array()}, {"bits", json::array()}}) ==
        "attributes: must list 1 to 2 answered attributes");
  CHECK(error(json{{"attributes", {"job"}}, {"bits", {{0, 1}}}}) == "attributes[0]: no attribute \"job\" in this block");
  CHECK(error(json{{"attributes", {"age"}}, {"bits", {{0, 0, 1}}}, {"shares", {1}}}).find("a block report must be") == 0);
  // The kind's answer errors.
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 2}, 1.0)));
  REQUIRE(survey.ok());
  const QuestionKind& kind = *survey->questions[0].kind;
  CHECK(kind.Perturb({{"answers", {{"age", 3}}}}, random).error() ==
        "answers.age: must be an option index from 0 to 2, but is 3");
  CHECK(kind.Perturb({{"answers", json::object()}}, random).error() == "at least one attribute must be answered");
  CHECK(kind.Perturb({{"answers", {{"age", 1}}}, {"sensitivity", {{"age", "secret"}}}}, random).error().find(
            "sensitivity.age: must be") == 0);
  // No share and no answer in the wire form: only the answered ids and bits.
  const json sent = *kind.Perturb({{"answers", {{"age", 1}}}, {"sensitivity", {{"age", 7.5}}}}, random);
  CHECK(sent.size() == 2);
  CHECK(sent.contains("attributes"));
  CHECK(sent.contains("bits"));
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

TEST_CASE("block marginals: calibrated unbiased under unequal splits, variance as the formula, intervals cover; "
          "paper mode biased as the digest predicts") {
  const BlockDefinition block = Block({3, 4, 2}, 1.0, {0.05, 3.0});
  const std::vector<double> joint = DependentJoint();
  Replications calibrated, paper_equal;
  std::vector<double> paper_bias(4, 0.0), predicted_bias(4, 0.0);
  const int replications = 200;
  for (int r = 0; r < replications; ++r) {
    // Unequal (Dirichlet(1)) splits for the calibrated and paper estimates; equal splits for paper mode's own check.
    const Population unequal = Simulate(block, joint, 3000, 0.2, 1.0, 1000 + r);
    const Population equal = Simulate(block, joint, 3000, 0.2, 0.0, 5000 + r);
    // Against the respondents' own shares: the respondents' intervals.
    const IntervalTarget own = IntervalTarget::kRespondents;
    const MarginalEstimate mine = EstimateMarginal(unequal.aggregate, 1, BlockMode::kCalibrated, 1.0, own);
    const MarginalEstimate paper = EstimateMarginal(unequal.aggregate, 1, BlockMode::kPaper, 1.0, own);
    const MarginalEstimate paper_on_equal = EstimateMarginal(equal.aggregate, 1, BlockMode::kPaper, 1.0, own);
    const double n = static_cast<double>(mine.n);
    for (std::size_t b = 0; b < 4; ++b) {
      const double f = static_cast<double>(unequal.answered_counts[1][b]) / n;
      calibrated.Add(b, mine.options[b].frequency - f, std::pow(mine.options[b].std_error, 2));
      paper_bias[b] += (paper.options[b].frequency - f) / replications;
      // The digest's bias: (1 - f) (qbar - q) / (p - q), qbar the respondents' average q (the calibrated estimate's).
      predicted_bias[b] += (1.0 - f) * (mine.average_q - OueQ(1.0)) / (0.5 - OueQ(1.0)) / replications;
      const double f_equal = static_cast<double>(equal.answered_counts[1][b]) / static_cast<double>(paper_on_equal.n);
      paper_equal.Add(b, paper_on_equal.options[b].frequency - f_equal, std::pow(paper_on_equal.options[b].std_error, 2));
    }
  }
  calibrated.Check("calibrated, Dirichlet splits", 0.75);
  paper_equal.Check("paper, equal splits", 0.8);
  for (std::size_t b = 0; b < 4; ++b) {
    MESSAGE("paper mode under Dirichlet splits, option " << b << ": bias " << paper_bias[b] << ", predicted "
                                                         << predicted_bias[b]);
    CHECK(paper_bias[b] > 0.03);
    CHECK(paper_bias[b] == doctest::Approx(predicted_bias[b]).epsilon(0.15));
  }
}

TEST_CASE("block joint: unbiased for pairs and triples under equal and unequal splits; variance; intervals cover") {
  const BlockDefinition block = Block({3, 4, 2}, 2.0, {0.05, 3.0});
  const std::vector<double> joint = DependentJoint();
  for (double alpha : {0.0, 1.0}) {
    Replications pair, triple;
    for (int r = 0; r < 200; ++r) {
      const Population population = Simulate(block, joint, 3000, 0.1, alpha, 9000 + r + (alpha > 0 ? 500 : 0));
      const JointCounts pair_estimate = EstimateJoint(population.aggregate, 0b011u, IntervalTarget::kRespondents);
      for (std::size_t c = 0; c < pair_estimate.count.size(); ++c) {
        const double n = static_cast<double>(pair_estimate.n);
        pair.Add(c, (pair_estimate.count[c] - static_cast<double>(population.first_pair[c])) / n,
                 pair_estimate.variance[c] / (n * n));
      }
      const JointCounts triple_estimate = EstimateJoint(population.aggregate, 0b111u, IntervalTarget::kRespondents);
      for (std::size_t c = 0; c < triple_estimate.count.size(); ++c) {
        const double n = static_cast<double>(triple_estimate.n);
        triple.Add(c, (triple_estimate.count[c] - static_cast<double>(population.joint_all[c])) / n,
                   triple_estimate.variance[c] / (n * n));
      }
    }
    // The variance takes each unit's average q as known, though it is estimated from the same reports (which
    // lowers the true variance: empirical / reported 0.74-1.0 per cell with equal splits), and under unequal
    // splits it also leaves out the covariance between the product sum and the correction for the q's moments
    // (0.65-0.75 for triples, coverage 99%): it errs wide, never narrow.
    const double lowest = alpha > 0 ? 0.55 : 0.65;
    pair.Check(alpha > 0 ? "pair, Dirichlet splits" : "pair, equal splits", lowest);
    triple.Check(alpha > 0 ? "triple, Dirichlet splits" : "triple, equal splits", lowest);
  }
}

TEST_CASE("block consistent joint: non-negative, sums to 1, margins equal to the shown marginals, dependence kept") {
  const std::vector<double> start = {0.3, 0.001, 0.1, 0.05, 0.25, 0.32};
  const std::vector<double> consistent = FitMargins(start, {2, 3}, {{0.4, 0.6}, {0.3, 0.25, 0.45}});
  const std::vector<std::vector<double>> margins = {{0.4, 0.6}, {0.3, 0.25, 0.45}};
  double total = 0.0;
  for (double p : consistent) {
    CHECK(p >= 0.0);
    total += p;
  }
  CHECK(total == doctest::Approx(1.0).epsilon(1e-9));
  for (int a = 0; a < 2; ++a) CHECK(consistent[static_cast<std::size_t>(a * 3)] + consistent[static_cast<std::size_t>(a * 3 + 1)] +
                                        consistent[static_cast<std::size_t>(a * 3 + 2)] ==
                                    doctest::Approx(margins[0][static_cast<std::size_t>(a)]).epsilon(1e-9));
  for (int b = 0; b < 3; ++b) CHECK(consistent[static_cast<std::size_t>(b)] + consistent[static_cast<std::size_t>(3 + b)] ==
                                    doctest::Approx(margins[1][static_cast<std::size_t>(b)]).epsilon(1e-9));
  // The first row leans to option 0, the second to option 2, as in the start.
  CHECK(consistent[0] / consistent[2] > consistent[3] / consistent[5]);
}

TEST_CASE("block EM joint: closer to the truth than the Norm-Sub of the unbiased joint, at small and large n") {
  const BlockDefinition block = Block({3, 4, 2}, 2.0, {0.05, 3.0});
  const std::vector<double> joint = DependentJoint();
  auto distance = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / 2.0;
  };
  for (std::int64_t n : {1000, 100000}) {
    const Population population = Simulate(block, joint, n, 0.0, 0.0, 55);
    std::vector<std::vector<double>> margins;
    for (int a = 0; a < 3; ++a) {
      std::vector<double> margin;
      for (const auto& option : EstimateMarginal(population.aggregate, a, BlockMode::kCalibrated, 2.0).options) {
        margin.push_back(option.consistent_frequency);
      }
      margins.push_back(margin);
    }
    std::vector<double> truth;
    for (auto c : population.joint_all) truth.push_back(static_cast<double>(c) / static_cast<double>(n));
    auto table = EstimateCrossTab(population.aggregate, block, 0b111u, CrossTabOptions{}, margins);
    REQUIRE(table.ok());
    // The Norm-Sub of the unbiased estimate, for comparison.
    std::vector<double> unbiased = table->frequency;
    const std::vector<double> norm_sub = NormSub(unbiased, 1.0);
    MESSAGE("n = " << n << ": EM joint off by " << distance(table->consistent, truth) << ", Norm-Sub of the unbiased "
                   << distance(norm_sub, truth));
    CHECK(distance(table->consistent, truth) < distance(norm_sub, truth));
    // The unbiased estimate's expected AVD is about sum_cells sqrt(2/pi) SE / 2; the EM joint stays within twice it.
    double expected = 0.0;
    for (double se : table->std_error) expected += std::sqrt(2.0 / M_PI) * se / 2.0;
    CHECK(distance(table->consistent, truth) < 2.0 * expected);
  }
}

TEST_CASE("block LASSO (paper mode) sees only the marginals; the default joint estimator sees the dependence") {
  // Two populations with the same marginals: the dependent joint of age x income, and the product of its margins.
  const BlockDefinition block = Block({3, 4}, 4.0);
  std::vector<double> dependent(12, 0.0);
  const std::vector<double> three = DependentJoint();
  for (std::size_t c = 0; c < 12; ++c) dependent[c] = three[2 * c] + three[2 * c + 1];
  std::vector<double> rows(3, 0.0), columns(4, 0.0), independent(12);
  for (std::size_t c = 0; c < 12; ++c) {
    rows[c / 4] += dependent[c];
    columns[c % 4] += dependent[c];
  }
  for (std::size_t c = 0; c < 12; ++c) independent[c] = rows[c / 4] * columns[c % 4];
  auto distance = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
    return sum / 2.0;
  };
  std::vector<std::vector<double>> lasso, product;
  for (const auto* truth : {&dependent, &independent}) {
    const Population population = Simulate(block, *truth, 100000, 0.0, 0.0, 77);
    const JointCounts by_lasso = EstimateJointByLasso(population.aggregate, 0b11u, 4.0);
    const JointCounts by_default = EstimateJoint(population.aggregate, 0b11u);
    CHECK(by_lasso.variance.empty());  // no interval
    std::vector<double> a, b;
    for (std::size_t c = 0; c < 12; ++c) {
      a.push_back(by_lasso.count[c] / static_cast<double>(by_lasso.n));
      b.push_back(by_default.count[c] / static_cast<double>(by_default.n));
    }
    // The LASSO's marginals are the reports' (within sampling error).
    std::vector<double> lasso_rows(3, 0.0);
    for (std::size_t c = 0; c < 12; ++c) lasso_rows[c / 4] += a[c];
    for (std::size_t r = 0; r < 3; ++r) CHECK(lasso_rows[r] == doctest::Approx(rows[r]).epsilon(0.05));
    MESSAGE("truth " << std::string(truth == &dependent ? "dependent" : "independent") << ": LASSO off by " << distance(a, *truth)
                     << ", default off by " << distance(b, *truth));
    CHECK(distance(b, *truth) < 0.03);
    lasso.push_back(a);
    product.push_back(b);
  }
  MESSAGE("between the two populations: LASSO outputs differ by " << distance(lasso[0], lasso[1])
                                                                   << ", default outputs by " << distance(product[0], product[1]));
  // The truths differ by this much; the default estimator sees it, the LASSO does not.
  const double apart = distance(dependent, independent);
  CHECK(apart > 0.2);
  CHECK(distance(product[0], product[1]) > apart - 0.06);
  CHECK(distance(lasso[0], lasso[1]) < 0.05);
}

TEST_CASE("block Situation 2: split by the entropy score (formula: least shared information), product, errors") {
  // age and income dependent, the third attribute independent of both; joint_order 2, so a triple is a product.
  json question = BlockQuestion({3, 4, 2}, 2.0);
  question["joint_order"] = 2;
  auto survey = ParseSurvey(Definition(question));
  REQUIRE(survey.ok());
  const BlockDefinition block = BlockKindOf(survey->questions[0]).block();
  std::vector<double> joint(24);
  const std::vector<double> three = DependentJoint();
  for (std::size_t c = 0; c < 12; ++c) {
    const double pair = three[2 * c] + three[2 * c + 1];
    joint[2 * c] = pair * 0.3;
    joint[2 * c + 1] = pair * 0.7;
  }
  const Population population = Simulate(block, joint, 60000, 0.0, 0.0, 31);
  std::vector<std::vector<double>> margins;
  for (int a = 0; a < 3; ++a) {
    std::vector<double> margin;
    for (const auto& option : EstimateMarginal(population.aggregate, a, BlockMode::kCalibrated, 2.0).options) {
      margin.push_back(option.consistent_frequency);
    }
    margins.push_back(margin);
  }
  CrossTabOptions options;
  auto formula = EstimateCrossTab(population.aggregate, block, 0b111u, options, margins);
  REQUIRE(formula.ok());
  CHECK(formula->situation == 2);
  CHECK(formula->parts == std::vector<std::vector<int>>{{0, 1}, {2}});
  CHECK(formula->frequency.empty());  // no interval for a product
  CHECK(formula->note.find("assumes the parts independent") != std::string::npos);
  options.split_score = SplitScore::kProse;
  auto prose = EstimateCrossTab(population.aggregate, block, 0b111u, options, margins);
  REQUIRE(prose.ok());
  CHECK(prose->parts != formula->parts);
  // The product's margin over the single part is that part's table (the shown marginal).
  for (int h = 0; h < 2; ++h) {
    double sum = 0.0;
    for (std::size_t c = 0; c < 12; ++c) sum += formula->consistent[2 * c + static_cast<std::size_t>(h)];
    CHECK(sum == doctest::Approx(margins[2][static_cast<std::size_t>(h)]).epsilon(1e-6));
  }
  // A pair within the joint order is Situation 1, with intervals.
  auto pair = EstimateCrossTab(population.aggregate, block, 0b011u, CrossTabOptions{}, margins);
  REQUIRE(pair.ok());
  CHECK(pair->situation == 1);
  CHECK(pair->frequency.size() == 12);
  // Too few respondents for any split: a clear error.
  options.min_group = 1000000;
  CHECK(EstimateCrossTab(population.aggregate, block, 0b111u, options, margins).error() ==
        "no cross-tabulation of age, income, education: fewer than 1000000 respondents answered them all, and no "
        "split into two parts of at most 2 attributes has that many answering each part");
}

TEST_CASE("block results through the survey path: options per question, CSV rows, paper mode, errors") {
  auto survey = ParseSurvey(Definition(BlockQuestion({3, 4, 2}, 1.0)));
  REQUIRE(survey.ok());
  SurveyAggregate aggregate(*survey);
  SeededRandom random(41);
  for (int r = 0; r < 3000; ++r) {
    json answers = {{"age", r % 3}, {"income", (r / 3) % 4}};
    if (r % 5 != 0) answers["education"] = r % 2;
    auto wire = PerturbAnswers(*survey, {{"block", {{"answers", answers}, {"sensitivity", {{"age", "less_private"}}}}}},
                               random);
    REQUIRE(wire.ok());
    auto report = ParseReport(*survey, *wire);
    REQUIRE(report.ok());
    aggregate.Add(*report);
  }
  const json options = {{"block.crosstab", "age,education"}, {"block.mode", "paper"}};
  REQUIRE(ValidateEstimateOptions(*survey, options).ok());
  const json results = SurveyResultsToJson(*survey, aggregate, options);
  const json& block = results["questions"][0];
  CHECK(block["mode"] == "paper");
  CHECK(block["attributes"][2]["n"] == 2400);
  CHECK(block["crosstab"]["attributes"] == json{"age", "education"});
  CHECK(block["crosstab"]["cells"].size() == 6);
  CHECK(block["crosstab"]["cells"][0]["frequency"].is_null());  // paper mode: the LASSO has no interval
  const auto rows = survey->questions[0].kind->CsvRows(block);
  CHECK(rows.size() == 3 + 4 + 2 + 6);
  CHECK(rows[0].label == "age0");
  CHECK(rows[0].variables == std::vector<std::pair<std::string, std::string>>{{"age", "age0"}});
  CHECK(rows[0].measure == "frequency");
  CHECK(rows.back().label.empty());
  CHECK(rows.back().variables == std::vector<std::pair<std::string, std::string>>{{"age", "age2"}, {"education", "education1"}});
  CHECK(rows.back().measure == "joint_frequency");
  CHECK(ValidateEstimateOptions(*survey, {{"block.crosstab", "age,job"}}).error() ==
        "question \"block\": crosstab: the block has no attribute \"job\"");
  CHECK(ValidateEstimateOptions(*survey, {{"block.mode", "lasso"}}).error() ==
        "question \"block\": mode must be \"calibrated\" or \"paper\", but is \"lasso\"");
  CHECK(ValidateEstimateOptions(*survey, {{"block.crosstab", "age"}}).error() ==
        "question \"block\": crosstab must name 2 to 3 attributes (the block has 3; at most 2 x joint_order 3 = 6), but "
        "names 1");
  // A table past 65,536 cells is refused before any estimation.
  auto wide = ParseSurvey(Definition(BlockQuestion({64, 64, 64, 64}, 1.0)));
  REQUIRE(wide.ok());
  CHECK(ValidateEstimateOptions(*wide, {{"block.crosstab", "age,income,education"}}).error() ==
        "question \"block\": crosstab: 262144 cells, more than the limit of 65536: name fewer attributes or attributes "
        "with fewer options");
}
