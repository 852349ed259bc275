// A numeric question on [0, 10] with the given mechanism, and the aggregate of
// n respondents whose answers are chi-square(2) truncated to [0, 10], perturbed
// by that mechanism: the data of the numeric results and estimation-cost
// benchmarks.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "bench/rvns_study_data.h"
#include "core/survey/aggregate.h"
#include "core/common/seeded_random.h"
#include "core/survey/survey.h"
#include "core/kinds/numeric/numeric_results.h"

namespace deniable::bench {

inline Question NumericQuestion(const nlohmann::json& mechanism) {
  const nlohmann::json definition = {
      {"format", kSurveyFormat}, {"id", "bench"}, {"version", 1}, {"title", "bench"},
      {"questions",
       {{{"id", "x"}, {"text", "x"}, {"type", "numeric"}, {"range", {0, 10}}, {"mechanism", mechanism}}}}};
  auto survey = ParseSurvey(definition);
  if (!survey) {
    std::fprintf(stderr, "survey: %s\n", survey.error().c_str());
    std::exit(1);
  }
  return std::move(survey->questions.front());
}

inline NumericAggregate ChiSquareAggregate(const Question& question, int n, std::uint64_t seed) {
  SeededRandom random(seed);
  const auto answers = rvns_study::TruncatedChiSquareSample(2, 10.0, n, random);
  const NumericMechanism& mechanism = NumericKindOf(question).mechanism();
  NumericAggregate aggregate{0, *NumericHistogram::ForMechanism(mechanism)};
  for (double answer : answers) (void)aggregate.AddValues(*mechanism.Perturb(answer, random));
  return aggregate;
}

}  // namespace deniable::bench
