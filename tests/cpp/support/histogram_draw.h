// Helpers for the histogram kind's statistical tests: a question's kind from
// its definition, and one survey's level counts drawn exactly as the
// respondents' bits would give them (per node Binomial(answers there, p) +
// Binomial(others, q); a tree's levels by a multinomial split of each cell's
// answers by the level weights), so that many surveys of large n are cheap.
#pragma once

#include <cmath>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/distribution/bootstrap.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/survey/survey.h"

namespace deniable::testing {

inline std::shared_ptr<const QuestionKind> HistogramKind(const std::string& mechanism, double epsilon,
                                                         const nlohmann::json& range, const nlohmann::json& histograms) {
  const nlohmann::json definition = {
      {"format", kSurveyFormat}, {"id", "t"}, {"version", 1}, {"title", "t"},
      {"questions", {{{"id", "x"}, {"text", "x"}, {"type", "histogram"}, {"range", range}, {"histograms", histograms},
                      {"mechanism", {{"name", mechanism}, {"epsilon", epsilon}}}}}}};
  return ParseSurvey(definition).value().questions[0].kind;
}

inline HistogramAggregate DrawHistogramAggregate(const HistogramQuestionKind& kind, const std::vector<std::int64_t>& cells,
                                                 RandomSource& random) {
  const TreeShape& shape = kind.shape();
  const auto pq = kind.mechanism().probabilities();
  std::vector<LevelCounts> levels(static_cast<std::size_t>(shape.height));
  std::vector<std::vector<std::int64_t>> answers(static_cast<std::size_t>(shape.height));
  for (int l = 1; l <= shape.height; ++l) answers[static_cast<std::size_t>(l) - 1].assign(static_cast<std::size_t>(shape.NodesAt(l)), 0);
  const std::vector<double> weights = kind.tree() ? kind.tree()->level_weights : std::vector<double>{1.0};
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto split = weights.size() == 1 ? std::vector<std::int64_t>{cells[c]} : SampleMultinomial(cells[c], weights, random);
    for (int l = 1; l <= shape.height; ++l) {
      const auto level = static_cast<std::size_t>(l) - 1;
      answers[level][c / static_cast<std::size_t>(shape.SpanOf(l))] += split[level];
      levels[level].n += split[level];
    }
  }
  for (std::size_t l = 0; l < levels.size(); ++l) {
    for (std::int64_t there : answers[l]) {
      levels[l].counts.push_back(SampleBinomial(there, pq.p, random) + SampleBinomial(levels[l].n - there, pq.q, random));
    }
  }
  return HistogramAggregate(std::move(levels));
}

// Continuous answer shapes with exact distribution functions (the population's share below x).
struct CdfShape {
  const char* name;
  double low, high;  // the question's range; the shape is truncated to it
  double (*cdf)(double);
  double Share(double from, double to) const { return (cdf(to) - cdf(from)) / (cdf(high) - cdf(low)); }
};

inline double NormalCdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

inline std::vector<CdfShape> CdfShapes() {
  return {
      {"normal", 0, 100, [](double x) { return NormalCdf((x - 50) / 12); }},
      // Weekly earnings-like: median 500, a long right tail, almost nothing above 2500 in [0, 5000].
      {"lognormal", 0, 5000, [](double x) { return x <= 0 ? 0.0 : NormalCdf((std::log(x) - std::log(500.0)) / 0.7); }},
      {"exponential", 0, 20, [](double x) { return 1 - std::exp(-x / 2); }},
      {"pareto_tail", 0, 1000, [](double x) { return 1 - std::pow(1 + x / 10, -1.5); }},
      {"bimodal", 0, 100, [](double x) { return 0.5 * NormalCdf((x - 30) / 6) + 0.5 * NormalCdf((x - 70) / 6); }},
      {"uniform", 0, 10, [](double x) { return x / 10; }},
  };
}

// The shape's share in each fine cell of `kind`.
inline std::vector<double> CellShares(const HistogramQuestionKind& kind, const CdfShape& shape) {
  std::vector<double> shares;
  for (int c = 0; c < kind.partition().cells(); ++c) {
    shares.push_back(shape.Share(kind.partition().BoundaryValue(c), kind.partition().BoundaryValue(c + 1)));
  }
  return shares;
}

}  // namespace deniable::testing
