// Issue 27 item 11: the model advisor's rough standard error (core/kinds/linear_regression/
// model_advice.h) against the run-to-run spread of the published
// coefficients. A model y ~ x (x on [0, 10], y on [0, 100]; y = 20 + 6 x +
// U(-10, 10), clamped; x uniform: the advisor's assumption), Piecewise at
// epsilon 1, the default batch and 8 chains, trained R times on fresh
// respondents (seeds 1..R). Per n: the advisor's rough standard error of
// each normalised coefficient, the measured sd of the published ones over
// the R runs (relative standard error about 1/sqrt(2 (R - 1))), and the
// median standard error the results report (the chains' disagreement).
// Run: build/model_advice_bench [--runs R]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

using namespace deniable;
using nlohmann::json;

namespace {

json Definition() {
  auto numeric = [](const std::string& id, double high) {
    return json{{"id", id}, {"text", id}, {"type", "numeric"}, {"range", {0, high}}, {"required", false},
                {"mechanism", {{"name", "piecewise"}, {"epsilon", 1}}}};
  };
  return {{"format", "deniable.survey/v1"}, {"id", "m"}, {"version", 1}, {"title", "M"},
          {"questions", {numeric("x", 10), numeric("y", 100),
                         {{"id", "fit"}, {"text", "fit"}, {"type", "linear_regression"}, {"target", "y"},
                          {"features", {"x"}}, {"epsilon", 1}}}}};
}

// One run: the published normalised coefficients and their reported standard errors.
std::pair<std::vector<double>, std::vector<double>> Run(const Survey& survey, long long n, std::uint64_t seed) {
  SurveyAggregate aggregate(survey);
  SeededRandom random(seed);
  for (long long i = 0; i < n; ++i) {
    const double x = 10.0 * UniformUnit(random);
    const double y = std::clamp(20.0 + 6.0 * x + 20.0 * (UniformUnit(random) - 0.5), 0.0, 100.0);
    const json answers = WithPublicStates(survey, aggregate, json{{"fit", {{"features", {x}}, {"target", y}}}});
    auto report = ParseReport(survey, *PerturbAnswers(survey, answers, random));
    aggregate.Add(*report);
  }
  const json result = SurveyResultsToJson(survey, aggregate)["questions"][2]["coefficients"];
  std::vector<double> se;
  if (result.contains("standard_error") && result["standard_error"].is_array()) se = result["standard_error"].get<std::vector<double>>();
  return {result["normalised"].get<std::vector<double>>(), se};
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? NAN : values[values.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 12;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::atoi(argv[i + 1]);
  }
  auto survey = ParseSurvey(Definition());
  if (!survey.ok()) {
    std::fprintf(stderr, "%s\n", survey.error().c_str());
    return 1;
  }
  std::printf("model advisor rough se vs measured (Piecewise, eps 1, 1 feature, %d runs each)\n", runs);
  std::printf("%8s %6s %6s | %-9s %10s %10s %10s | %10s\n", "n", "batch", "rounds", "coef", "advice_se", "run_sd",
              "median_se", "sd/advice");
  for (long long n : {4000LL, 16000LL, 64000LL}) {
    const json advice = *survey->questions[2].kind->DesignAdvice(n);
    std::vector<std::vector<double>> estimates, errors;
    for (int r = 1; r <= runs; ++r) {
      auto [coefficients, se] = Run(*survey, n, static_cast<std::uint64_t>(r));
      estimates.push_back(coefficients);
      errors.push_back(se);
    }
    for (std::size_t j = 0; j < 2; ++j) {
      double mean = 0.0;
      for (const auto& e : estimates) mean += e[j] / runs;
      double squares = 0.0;
      for (const auto& e : estimates) squares += (e[j] - mean) * (e[j] - mean);
      const double sd = std::sqrt(squares / (runs - 1));
      std::vector<double> reported;
      for (const auto& e : errors) {
        if (e.size() > j) reported.push_back(e[j]);
      }
      const double rough = advice["coefficients"][j]["std_error"].get<double>();
      std::printf("%8lld %6lld %6lld | %-9s %10.4f %10.4f %10.4f | %10.2f\n", n, advice["batch"].get<long long>(),
                  advice["rounds"].get<long long>(), j == 0 ? "intercept" : "slope", rough, sd, Median(reported),
                  sd / rough);
    }
  }
  return 0;
}
