// Estimation time per question, k = 2..1024, for every categorical mechanism.
// Estimation reads only the aggregate (n and k support counts), so its cost is
// O(k log k) (Norm-Sub sorts) whatever the number of reports: the table shows
// the same times for aggregates of 10^3 and 10^7 reports.
// Run: build/estimate_bench   (prints a Markdown table)
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "core/survey/results.h"
#include "core/common/seeded_random.h"
#include "core/kinds/categorical/categorical_results.h"

using namespace deniable;

namespace {

Survey OneQuestion(const std::string& mechanism, int k) {
  auto options = nlohmann::json::array();
  for (int i = 0; i < k; ++i) options.push_back("option " + std::to_string(i));
  nlohmann::json definition = {{"format", kSurveyFormat}, {"id", "bench"}, {"version", 1}, {"title", "bench"},
                               {"questions", {{{"id", "q"}, {"text", "q"}, {"options", options},
                                               {"mechanism", {{"name", mechanism}, {"epsilon", 1.0}}}}}}};
  return *ParseSurvey(definition);
}

// An aggregate with plausible counts for n reports: E[C_i] under a uniform truth.
CategoricalAggregate SyntheticAggregate(const Question& question, std::int64_t n) {
  const auto& kind = CategoricalKindOf(question);
  const auto [p, q] = kind.mechanism().probabilities();
  const double k = static_cast<double>(kind.options().size());
  const double expected = static_cast<double>(n) * (p / k + q * (k - 1) / k);
  return {n, std::vector<std::int64_t>(kind.options().size(), static_cast<std::int64_t>(expected))};
}

// Microseconds per call of `work` (which returns something to keep it alive).
template <typename Work>
double MicrosecondsPer(int k, Work work) {
  const int repetitions = std::max(20, 200000 / k);
  std::size_t sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repetitions; ++r) sink += work();
  const auto elapsed = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start);
  if (sink == 0) std::puts("");
  return elapsed.count() / repetitions;
}

}  // namespace

int main() {
  std::puts("Estimation time per question (microseconds): the estimator alone (unbiased counts, variances,");
  std::puts("CIs, Norm-Sub) and the full results document (estimator + JSON), for aggregates of 10^3 and 10^7 reports.");
  std::puts("");
  std::puts("| mechanism | k | estimator, n=10^3 | estimator, n=10^7 | document, n=10^3 | document, n=10^7 |");
  std::puts("|---|---:|---:|---:|---:|---:|");
  for (const std::string mechanism : {"grr", "oue", "sue", "negative"}) {
    for (int k = 2; k <= 1024; k *= 2) {
      const Survey survey = OneQuestion(mechanism, k);
      const Question& question = survey.questions[0];
      double times[4];
      int column = 0;
      for (std::int64_t n : {1000LL, 10000000LL}) {
        const auto aggregate = SyntheticAggregate(question, n);
        times[column++] = MicrosecondsPer(k, [&] { return EstimateCategorical(CategoricalKindOf(question), aggregate).options.size(); });
      }
      for (std::int64_t n : {1000LL, 10000000LL}) {
        const auto aggregate = SyntheticAggregate(question, n);
        times[column++] = MicrosecondsPer(k, [&] { return CategoricalResultToJson(CategoricalKindOf(question), aggregate).size(); });
      }
      std::printf("| %s | %d | %.2f | %.2f | %.1f | %.1f |\n", mechanism.c_str(), k, times[0], times[1], times[2],
                  times[3]);
    }
  }
  return 0;
}
