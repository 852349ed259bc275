// What a numeric question's results cost on the server, by part, for
// n = 10^4, 10^5, 10^6 reports: building the transition matrix, the point
// estimate (the default estimator, PML), and the whole results document
// (point estimate + parametric bootstrap with warm-started replicates + curves
// and statistics). Estimation reads only the 1024-cell histogram, so no column
// should grow with n; the document's cost is about replicates x one re-estimate.
// Answers: chi-square(2) truncated to [0, 10]. Times are wall-clock
// milliseconds of one run each (the machine may be shared: see the load).
// Run: build/numeric_results_bench   (prints a Markdown table, progress on stderr)
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/numeric_bench_data.h"
#include "core/distribution/coarse_to_fine.h"
#include "core/distribution/ems_estimator.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/common/seeded_random.h"
#include "core/survey/survey.h"
#include "core/distribution/transition_matrix.h"

using namespace deniable;

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

int main() {
  const std::vector<std::pair<std::string, nlohmann::json>> mechanisms = {
      {"RVNS d=2 k=2 fresh", {{"name", "rvns"}, {"window", 2}, {"values", 2}, {"window_mode", "fresh"}}},
      {"Square Wave ε=1", {{"name", "square_wave"}, {"epsilon", 1}}}};
  std::puts("| mechanism | n | m (estimation cells) | matrix ms | PML point estimate ms | fine map steps | "
            "replicates | results document ms |");
  std::puts("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const auto& [label, mechanism] : mechanisms) {
    const Question question = bench::NumericQuestion(mechanism);
    for (int n : {10000, 100000, 1000000}) {
      const NumericAggregate aggregate = bench::ChiSquareAggregate(question, n, 7 + static_cast<std::uint64_t>(n));
      for (int cells : {100, 1000}) {
        auto start = Clock::now();
        const auto transition =
            *TransitionMatrix::ForMechanism(NumericKindOf(question).mechanism(), cells, aggregate.histogram().cells());
        const double matrix_ms = MillisecondsSince(start);
        // The point estimate as the results use it: direct at m <= 100,
        // coarse-to-fine from m = 100 above (the coarse matrix's build included).
        start = Clock::now();
        const auto counts = aggregate.histogram().counts_as_doubles();
        EmsResult fit;
        if (cells <= kDefaultCoarseCells) {
          fit = *EstimateEms(counts, transition);
        } else {
          const auto coarse = *TransitionMatrix::ForMechanism(NumericKindOf(question).mechanism(), kDefaultCoarseCells,
                                                              aggregate.histogram().cells());
          fit = *EstimateCoarseToFine(counts, coarse, transition, {});
        }
        const double point_ms = MillisecondsSince(start);
        NumericEstimateOptions options;
        options.estimation_cells = cells;
        options.replicates = std::min(kDefaultResultReplicates, kMaxBootstrapCost / cells);
        start = Clock::now();
        const auto document = NumericResultToJson(NumericKindOf(question), aggregate, options);
        const double document_ms = MillisecondsSince(start);
        if (!document) {
          std::fprintf(stderr, "results: %s\n", document.error().c_str());
          return 1;
        }
        std::printf("| %s | %d | %d | %.0f | %.0f | %d | %d | %.0f |\n", label.c_str(), n, cells, matrix_ms, point_ms,
                    fit.iterations, options.replicates, document_ms);
        std::fflush(stdout);
        std::fprintf(stderr, "%s n=%d m=%d done\n", label.c_str(), n, cells);
      }
    }
  }
}
