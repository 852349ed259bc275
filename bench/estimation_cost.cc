// What one numeric question's results document costs in CPU time at the
// largest options a public request may ask for (estimation_cells x replicates
// at the cap), per estimator, at n = 10^5 and 10^6 reports: the figure behind
// the README's cost cap. Each row is one NumericQuestionResultToJson call, as
// the server runs it for a cache miss, timed with the process CPU clock
// (std::clock; one thread), with how the fit ended and the bootstrap's
// failures. Answers: chi-square(2) truncated to [0, 10].
// Run: build/estimation_cost            (every row; several minutes)
//      build/estimation_cost --quick    (n = 10^5 only)
//      build/estimation_cost ESTIMATOR  (rows of that estimator only: em, ems, pml, kde_sqp)
//      build/estimation_cost --no-budget  (the work budget lifted: the cost before it existed)
// Prints a Markdown table; progress on stderr.
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "bench/numeric_bench_data.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/common/seeded_random.h"
#include "core/survey/survey.h"

using namespace deniable;

namespace {

struct Setting {
  std::string estimator;
  int cells;
  int replicates;
};

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  bool unbudgeted = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--no-budget") == 0) {
      unbudgeted = true;
    } else {
      only = argv[i];
    }
  }
  struct Mechanism {
    std::string label;
    nlohmann::json definition;
    bool rvns;
  };
  const std::vector<Mechanism> mechanisms = {
      {"Piecewise ε=1", {{"name", "piecewise"}, {"epsilon", 1}}, false},
      {"Square Wave ε=1", {{"name", "square_wave"}, {"epsilon", 1}}, false},
      {"RVNS d=2 k=2 fresh", {{"name", "rvns"}, {"window", 2}, {"values", 2}, {"window_mode", "fresh"}}, true}};
  // The largest cells x replicates (20,000) at the most cells, and the
  // defaults for comparison; kde_sqp at its own largest grid.
  std::vector<Setting> settings;
  for (const char* estimator : {"em", "ems", "pml"}) {
    settings.push_back({estimator, 1000, 20});
    settings.push_back({estimator, 200, 100});
    settings.push_back({estimator, 20, 1000});
  }
  settings.push_back({"pml", kDefaultEstimationCells, kDefaultResultReplicates});
  settings.push_back({"kde_sqp", 200, 100});
  settings.push_back({"kde_sqp", 1000, 20});
  std::puts("| mechanism | n | estimator | cells x replicates | CPU s | converged | steps | replicates cut short | "
            "stopped because |");
  std::puts("|---|---:|---|---|---:|---|---:|---:|---|");
  for (const auto& mechanism : mechanisms) {
    const Question question = bench::NumericQuestion(mechanism.definition);
    for (int n : {100000, 1000000}) {
      if (quick && n > 100000) continue;
      const NumericAggregate aggregate = bench::ChiSquareAggregate(question, n, 7 + static_cast<std::uint64_t>(n));
      for (const Setting& setting : settings) {
        if (!only.empty() && setting.estimator != only) continue;
        if (setting.estimator == "kde_sqp" && !mechanism.rvns) continue;
        NumericEstimateOptions options;
        options.estimator = setting.estimator;
        options.estimation_cells = setting.cells;
        options.replicates = setting.replicates;
        if (unbudgeted) options.work_budget = std::int64_t{1} << 62;
        const std::clock_t start = std::clock();
        const auto document = NumericResultToJson(NumericKindOf(question), aggregate, options);
        const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
        if (!document) {
          std::printf("| %s | %d | %s | %d x %d | %.1f | error: %s | | | |\n", mechanism.label.c_str(), n,
                      setting.estimator.c_str(), setting.cells, setting.replicates, seconds,
                      document.error().c_str());
          std::fflush(stdout);
          continue;
        }
        const auto& fit = (*document)["fit"];
        std::printf("| %s | %d | %s | %d x %d | %.1f | %s | %d | %d | %s |\n", mechanism.label.c_str(), n,
                    setting.estimator.c_str(), setting.cells, setting.replicates, seconds,
                    fit["converged"].get<bool>() ? "yes" : "no", fit["steps"].get<int>(),
                    (*document)["bootstrap"].value("replicates_cut_short", 0),
                    fit["stopped_because"].get<std::string>().c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "%s n=%d %s %dx%d: %.1f s\n", mechanism.label.c_str(), n, setting.estimator.c_str(),
                     setting.cells, setting.replicates, seconds);
      }
    }
  }
}
