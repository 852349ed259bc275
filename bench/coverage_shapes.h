// The answer shapes of the interval coverage benchmark (bench/coverage.cc)
// and of its fixed-seed subset in the tests (tests/cpp/core/kinds/numeric/numeric_results_coverage_test.cpp):
// skewed, heavy-tailed, concentrated, discrete and smooth answers, each with
// its range; and the respondents' own statistics, the estimand a survey reports on
// (mean, sd and quartiles as `simulate` computes them; moments with divisor n).
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/common/random_source.h"
#include "core/distribution/empirical_comparison.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/survey.h"

namespace deniable::coverage {

inline double Normal(RandomSource& random) { return deniable::StandardNormal(random); }
inline double Unit(RandomSource& random) { return deniable::UniformUnit(random); }

// An answer shape: its range, a sampler of one answer inside it, and the
// answers' step for discrete shapes (declared in the question, as a survey
// of whole numbers or tenths would).
struct Shape {
  std::string name;
  NumericRange range;
  std::function<double(RandomSource&)> draw;  // may return values outside: redrawn
  double step = 0.0;                          // 0: continuous answers
  // A finite population (a table's column) the answers are drawn from, when the shape has one.
  std::shared_ptr<const std::vector<double>> population = nullptr;
};

inline std::vector<Shape> Shapes() {
  return {
      {"normal", {0, 100}, [](RandomSource& r) { return 50 + 12 * Normal(r); }},
      {"lognormal", {0, 5000}, [](RandomSource& r) { return std::exp(std::log(570.0) + 0.8 * Normal(r)); }},
      {"chi_square_2", {0, 20}, [](RandomSource& r) { return -2.0 * std::log(1.0 - Unit(r)); }},
      {"pareto_tail", {0, 1000}, [](RandomSource& r) { return 10.0 * (std::pow(1.0 - Unit(r), -1.0 / 1.5) - 1.0); }},
      // A delay: 90% within a few minutes of 0 in a range of 1540 minutes, a long tail.
      {"concentrated", {-90, 1450},
       [](RandomSource& r) { return Unit(r) < 0.9 ? 2.0 + 10.0 * Normal(r) : -60.0 * std::log(1.0 - Unit(r)); }},
      {"point_mass_tail", {0, 100}, [](RandomSource& r) { return Unit(r) < 0.6 ? 0.0 : -15.0 * std::log(1.0 - Unit(r)); }},
      {"bimodal", {0, 100}, [](RandomSource& r) { return (Unit(r) < 0.5 ? 30.0 : 70.0) + 6.0 * Normal(r); }},
      {"uniform", {0, 10}, [](RandomSource& r) { return 10.0 * Unit(r); }},
      {"integers", {0, 10}, [](RandomSource& r) { return std::round(4.0 + 2.0 * Normal(r)); }, 1.0},
      {"ratings", {1, 10}, [](RandomSource& r) { return std::round((7.0 + 1.5 * Normal(r)) * 10.0) / 10.0; }, 0.1},
  };
}

// A one-question survey asking for the shape's answer (with its step, if any).
inline nlohmann::json SurveyDefinition(const Shape& shape, const nlohmann::json& mechanism) {
  nlohmann::json question = {{"id", "x"},
                             {"text", "x"},
                             {"type", "numeric"},
                             {"range", {shape.range.low, shape.range.high}},
                             {"mechanism", mechanism}};
  if (shape.step > 0.0) question["step"] = shape.step;
  return {{"format", kSurveyFormat}, {"id", "coverage"}, {"version", 1}, {"title", "c"}, {"questions", {question}}};
}

inline std::vector<double> DrawAnswers(const Shape& shape, int n, RandomSource& random) {
  std::vector<double> answers;
  answers.reserve(static_cast<std::size_t>(n));
  while (static_cast<int>(answers.size()) < n) {
    const double x = shape.draw(random);
    if (x >= shape.range.low && x <= shape.range.high) answers.push_back(x);
  }
  return answers;
}

// The respondents' own statistics: mean, sd (divisor n) and quartiles as
// `simulate` computes them (SummarizeSample), skewness and kurtosis (not in
// excess) from the moments with divisor n.
inline std::map<std::string, double> Truth(std::vector<double> answers) {
  std::sort(answers.begin(), answers.end());
  const SampleSummary summary = SummarizeSample(answers);  // what `simulate` compares with
  const double n = static_cast<double>(answers.size());
  double m2 = 0.0, m3 = 0.0, m4 = 0.0;
  for (double x : answers) {
    const double d = x - summary.mean;
    m2 += d * d / n, m3 += d * d * d / n, m4 += d * d * d * d / n;
  }
  return {{"mean", summary.mean},
          {"std_dev", summary.standard_deviation},
          {"median", summary.median},
          {"lower_quartile", summary.lower_quartile},
          {"upper_quartile", summary.upper_quartile},
          {"skewness", m2 > 0 ? m3 / std::pow(m2, 1.5) : 0.0},
          {"kurtosis", m2 > 0 ? m4 / (m2 * m2) : 0.0}};
}

}  // namespace deniable::coverage
