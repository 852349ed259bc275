// The block kind through the survey path (block_question_kind.h, seed 002): the
// digest's test vectors, a sampled audit through the kind with a broken PMOUE it
// catches, report validation, Situation 2's split by the entropy score, and the
// results (options per question, CSV rows, paper mode, errors). Its units have
// their own tests beside this one.
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
#include "tests/cpp/support/block_population.h"
#include "tests/cpp/support/stat_utils.h"

using nlohmann::json;
using namespace deniable;
using namespace deniable::testing;

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
  const std::vector<std::vector<double>> margins = ConsistentMargins(population.aggregate, 3, 2.0);
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
