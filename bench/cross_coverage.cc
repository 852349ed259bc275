// Cross-tabulations of two randomised categorical questions (issue 28,
// core/analysis/cross_analysis.h): per pair of mechanisms, truth shape and n,
// `reps` simulated surveys with respondents drawn afresh from the joint truth
// (the population), each question randomised by its kind's own mechanism and
// the reports added to the real CrossAnalysis (the wire form's JSON round trip
// is skipped for speed; tests/cpp/core/analysis/cross_analysis_test.cpp runs the whole
// pipeline). Printed per row:
//   cover   the unbiased cells' 95% population intervals: share covering the truth (all cells);
//   rare    the same for the rarest cell alone;
//   MAE     mean absolute error per cell of: the unbiased cells, the consistent table (EM + margins),
//           the product of the two consistent marginals (independence), and the naive table that takes
//           each report as the answer (GRR: the reported option; unary encodings: uniform over the
//           supported options, over all if none; negative survey: uniform over the options not reported).
//
//   build/cross_coverage [--quick]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/analysis/analysis.h"
#include "core/common/seeded_random.h"
#include "core/kinds/categorical/categorical_question_kind.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/survey/report.h"
#include "core/survey/survey.h"

namespace {

using namespace deniable;
using nlohmann::json;

struct Shape {
  std::string name;
  std::vector<double> truth;  // 3 x 3, first question slowest
};

const std::vector<Shape> kShapes = {
    {"dependent", {0.30, 0.05, 0.05, 0.04, 0.20, 0.06, 0.01, 0.09, 0.20}},
    {"independent", {0.30, 0.15, 0.05, 0.18, 0.09, 0.03, 0.12, 0.06, 0.02}},
    {"rare", {0.60, 0.05, 0.002, 0.05, 0.20, 0.018, 0.02, 0.03, 0.03}},
};

json Mechanism(const std::string& name) {
  if (name == "negative") return {{"name", "negative"}, {"epsilon", 1.0}, {"reported_options", 1}};
  return {{"name", name}, {"epsilon", 2.0}};
}

// "hist": a histogram question over [0, 3] with 3 bins (its fine cells), OUE at epsilon 2.
json QuestionDefinition(const std::string& id, const std::string& name) {
  if (name == "hist") {
    return {{"id", id}, {"text", "?"}, {"type", "histogram"}, {"range", {0, 3}},
            {"histograms", {{{"name", "h"}, {"bins", 3}}}}, {"mechanism", {{"name", "oue"}, {"epsilon", 2.0}}}};
  }
  return {{"id", id}, {"text", "?"}, {"options", {id + "0", id + "1", id + "2"}}, {"mechanism", Mechanism(name)}};
}

Survey PairSurvey(const std::string& first, const std::string& second) {
  json questions = json::array();
  questions.push_back(QuestionDefinition("a", first));
  questions.push_back(QuestionDefinition("b", second));
  return *ParseSurvey({{"format", "deniable.survey/v1"}, {"id", "s"}, {"version", 1}, {"title", "T"}, {"questions", questions}});
}

std::size_t DrawCell(const std::vector<double>& truth, RandomSource& random) {
  double u = UniformUnit(random);
  for (std::size_t c = 0; c < truth.size(); ++c) {
    if ((u -= truth[c]) < 0.0) return c;
  }
  return truth.size() - 1;
}

// What a naive analyst takes the answer to be, as a distribution over the options.
std::vector<double> NaiveAnswer(const CategoricalMechanism& mechanism, const Support& support) {
  const bool negative = mechanism.params().kind == CategoricalKind::kNegativeSurvey;
  std::vector<double> answer(support.size(), 0.0);
  double count = 0.0;
  for (std::size_t i = 0; i < support.size(); ++i) count += (answer[i] = negative ? !support[i] : support[i]);
  for (double& a : answer) a = count > 0.0 ? a / count : 1.0 / static_cast<double>(support.size());
  return answer;
}

struct Row {
  int intervals = 0, covered = 0, rare_intervals = 0, rare_covered = 0;
  double unbiased = 0.0, consistent = 0.0, product = 0.0, naive = 0.0;
};

const CategoricalMechanism& MechanismOf(const deniable::Question& question) {
  if (question.kind->type() == HistogramQuestionKind::kType) return HistogramKindOf(question).mechanism();
  return CategoricalKindOf(question).mechanism();
}

// The decoded response of one randomised answer (a histogram's: a unary report over its cells, level 1).
std::shared_ptr<const KindResponse> Respond(const deniable::Question& question, const Support& support) {
  if (question.kind->type() == HistogramQuestionKind::kType) return std::make_shared<HistogramResponse>(1, support);
  return std::make_shared<CategoricalResponse>(support);
}

void RunReplication(const Survey& survey, const std::vector<double>& truth, int n, std::uint64_t seed, Row& row) {
  SeededRandom random(seed);
  auto analysis = std::move(ParseAnalysis(survey, {{"cross", {"a", "b"}}})).value();
  const auto& first = MechanismOf(survey.questions[0]);
  const auto& second = MechanismOf(survey.questions[1]);
  std::vector<double> naive(9, 0.0);
  for (int i = 0; i < n; ++i) {
    const std::size_t cell = DrawCell(truth, random);
    const Support a = *first.Perturb(static_cast<int>(cell / 3), random);
    const Support b = *second.Perturb(static_cast<int>(cell % 3), random);
    const auto na = NaiveAnswer(first, a), nb = NaiveAnswer(second, b);
    for (std::size_t c = 0; c < 9; ++c) naive[c] += na[c / 3] * nb[c % 3] / n;
    Report report;
    report.responses = {Respond(survey.questions[0], a), Respond(survey.questions[1], b)};
    analysis->Add(report);
  }
  const json result = *analysis->Estimate(json::object(), nullptr);
  std::size_t rarest = 0;
  for (std::size_t c = 0; c < 9; ++c) rarest = truth[c] < truth[rarest] ? c : rarest;
  for (std::size_t c = 0; c < 9; ++c) {
    const json& cell = result["cells"][c];
    const bool inside = cell["ci_low"].get<double>() <= truth[c] && truth[c] <= cell["ci_high"].get<double>();
    ++row.intervals;
    row.covered += inside;
    if (c == rarest) {
      ++row.rare_intervals;
      row.rare_covered += inside;
    }
    row.unbiased += std::abs(cell["estimate"].get<double>() - truth[c]);
    row.consistent += std::abs(cell["consistent"].get<double>() - truth[c]);
    row.product += std::abs(result["marginals"][0]["consistent"][c / 3].get<double>() *
                                result["marginals"][1]["consistent"][c % 3].get<double>() -
                            truth[c]);
    row.naive += std::abs(naive[c] - truth[c]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  const std::vector<std::string> mechanisms = {"grr", "oue", "sue", "negative", "hist"};
  const std::vector<int> sizes = quick ? std::vector<int>{300, 3000} : std::vector<int>{300, 1000, 10000, 100000};
  std::printf("Cross-tab of two 3-category questions (grr/oue/sue at epsilon 2, negative at epsilon 1 with s = 1, "
              "hist: a histogram's 3 fine cells, oue at epsilon 2)\n");
  std::printf("%-18s %-12s %7s %5s %7s %7s %9s %9s %9s %9s\n", "pair", "shape", "n", "reps", "cover", "rare",
              "MAE unb", "MAE cons", "MAE prod", "MAE naive");
  std::uint64_t seed = 1;
  for (std::size_t i = 0; i < mechanisms.size(); ++i) {
    for (std::size_t j = i; j < mechanisms.size(); ++j) {
      const Survey survey = PairSurvey(mechanisms[i], mechanisms[j]);
      if (mechanisms[i] == "hist" && mechanisms[j] == "hist") continue;
      for (const Shape& shape : kShapes) {
        for (int n : sizes) {
          const int reps = std::max(quick ? 4 : 10, std::min(quick ? 20 : 100, (quick ? 100000 : 400000) / n));
          Row row;
          for (int r = 0; r < reps; ++r) RunReplication(survey, shape.truth, n, seed++, row);
          const double cells = row.intervals;
          std::printf("%-18s %-12s %7d %5d %7.3f %7.3f %9.4f %9.4f %9.4f %9.4f\n",
                      (mechanisms[i] + " x " + mechanisms[j]).c_str(), shape.name.c_str(), n, reps,
                      row.covered / cells, static_cast<double>(row.rare_covered) / row.rare_intervals,
                      row.unbiased / cells, row.consistent / cells, row.product / cells, row.naive / cells);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
