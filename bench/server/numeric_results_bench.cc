// What a numeric question's results document costs on the server, for n =
// 10^4, 10^5, 10^6 reports and 50, 100 (the default) and 200 estimation cells,
// computed twice in the same run: with one worker (the baseline: every
// bootstrap replicate on the calling thread) and with N workers (a bounded
// pool like the server's, parallel_work.h). The two documents must be
// identical (the replicates' seeds and budgets do not depend on the split);
// the bench fails if they are not. Estimation reads only the 1024-cell
// histogram, so no column should grow with n. Answers: chi-square(2)
// truncated to [0, 10]; PML (the default estimator) with the default
// replicates. Times are wall-clock milliseconds, the median of `--runs`
// (default 1) runs each, and the process's CPU milliseconds of that run (the
// machine may be shared: the load is printed; on a loaded machine the CPU
// column of one worker is the cost, and the N-worker wall time is only as
// good as the cores left idle).
// Run: build/numeric_results_bench [--workers N] [--runs R] [--n N] [--cells C]
//   (prints a Markdown table, progress on stderr; --n/--cells run one row)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <time.h>

#include "bench/numeric_bench_data.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/survey/survey.h"
#include "server/surveys/worker_pool.h"

using namespace deniable;

namespace {

using Clock = std::chrono::steady_clock;

double MillisecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Timed {
  double ms;
  double cpu_ms;
  std::string document;
};

double ProcessCpuMilliseconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return 1e3 * static_cast<double>(now.tv_sec) + 1e-6 * static_cast<double>(now.tv_nsec);
}

Timed TimeDocument(const Question& question, const NumericAggregate& aggregate, const NumericEstimateOptions& options,
                   const ParallelFor& parallel, int runs) {
  std::vector<std::pair<double, double>> times;  // wall, CPU
  std::string document;
  for (int run = 0; run < runs; ++run) {
    const auto start = Clock::now();
    const double cpu_start = ProcessCpuMilliseconds();
    auto result = NumericResultToJson(NumericKindOf(question), aggregate, options, {}, parallel);
    times.emplace_back(MillisecondsSince(start), ProcessCpuMilliseconds() - cpu_start);
    if (!result) {
      std::fprintf(stderr, "results: %s\n", result.error().c_str());
      std::exit(1);
    }
    document = result->dump();
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2].first, times[times.size() / 2].second, document};
}

std::string LoadAverage() {
  std::ifstream file("/proc/loadavg");
  std::string one;
  file >> one;
  return one.empty() ? "?" : one;
}

int IntFlag(int argc, char** argv, const char* name, int fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return std::atoi(argv[i + 1]);
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  const int workers = IntFlag(argc, argv, "--workers", std::max(2, static_cast<int>(std::thread::hardware_concurrency())));
  const int runs = std::max(1, IntFlag(argc, argv, "--runs", 1));
  const int only_n = IntFlag(argc, argv, "--n", 0);
  const int only_cells = IntFlag(argc, argv, "--cells", 0);
  server::WorkerPool pool(workers - 1);  // the calling thread is the N-th worker
  const std::vector<std::pair<std::string, nlohmann::json>> mechanisms = {
      {"RVNS d=2 k=2 fresh", {{"name", "rvns"}, {"window", 2}, {"values", 2}, {"window_mode", "fresh"}}},
      {"Square Wave ε=1", {{"name", "square_wave"}, {"epsilon", 1}}}};
  std::printf("load average at start: %s; %d workers; %u hardware threads\n\n", LoadAverage().c_str(), workers,
              std::thread::hardware_concurrency());
  std::printf("| mechanism | n | estimation cells | replicates | 1 worker ms | 1 worker CPU ms | %d workers ms | "
              "%d workers CPU ms | speed-up | same document |\n", workers, workers);
  std::puts("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  bool all_same = true;
  for (const auto& [label, mechanism] : mechanisms) {
    const Question question = bench::NumericQuestion(mechanism);
    for (int n : {10000, 100000, 1000000}) {
      if (only_n != 0 && n != only_n) continue;
      const NumericAggregate aggregate = bench::ChiSquareAggregate(question, n, 7 + static_cast<std::uint64_t>(n));
      for (int cells : {50, 100, 200}) {
        if (only_cells != 0 && cells != only_cells) continue;
        NumericEstimateOptions options;
        options.estimation_cells = cells;
        options.replicates = std::min(kDefaultResultReplicates, kMaxBootstrapCost / cells);
        const Timed one = TimeDocument(question, aggregate, options, {}, runs);
        const Timed many = TimeDocument(question, aggregate, options, pool.Executor(), runs);
        const bool same = one.document == many.document;
        all_same = all_same && same;
        std::printf("| %s | %d | %d | %d | %.0f | %.0f | %.0f | %.0f | %.2f | %s |\n", label.c_str(), n, cells,
                    options.replicates, one.ms, one.cpu_ms, many.ms, many.cpu_ms, one.ms / many.ms, same ? "yes" : "NO");
        std::fflush(stdout);
        std::fprintf(stderr, "%s n=%d m=%d done\n", label.c_str(), n, cells);
      }
    }
  }
  std::printf("\nload average at end: %s\n", LoadAverage().c_str());
  return all_same ? 0 : 1;
}
