// Histogram questions (seed 000's CHP, and the tree), measured against the
// analytic variance and against one report per consumer. Reports' counts are
// drawn exactly as the respondents' bits would give them (per node
// Binomial(answers there, p) + Binomial(others, q); a tree's levels by a
// multinomial split of each cell's answers by the level weights), then
// estimated by the kind's own code (LevelEstimates).
//   1. the paper's setting: N = 13,683 / 138,715 / 291,825, right-skewed
//      salaries in Table 1's ranges, {3,5,7}-fold consumers at eps = 3..18;
//   2. groups {10}, {3,5,7}, {3,5,7,10,15} at eps = 15;
//   3. the regime the paper misses: {2, 100}-fold at eps = 0.5, 1, 2, and the advisor's pick;
//   4. range queries as Cormode et al. measure them: 256 cells, e^eps = 3, every range, MSE by length, flat OUE
//      against the tree;
//   5. client time per report natively and report size, for 13, 256 and 4096 fine cells;
//   6. the consistent histogram against the unbiased one on real weekly earnings (CPS 1988, 28,155 rows, from
//      Debian's r-cran-aer: bench/fetch-earnings-data.sh) and on the coverage shape library: bin MSE of the
//      unbiased (least-squares) bins, of Norm-Sub over all cells (the former consistent version) and of Norm-Sub
//      top down on the tree (the published one).
// Run: build/histogram_bench [--runs R] [--quick] [--earnings build/data/cps1988_wage.txt] [--only-consistency]
//   (prints Markdown tables; progress on stderr)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/coverage_shapes.h"
#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "core/distribution/bootstrap.h"
#include "core/frequency/norm_sub.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/kinds/histogram/histogram_advisor.h"
#include "core/survey/survey.h"
#include "tests/cpp/support/histogram_draw.h"  // the same exact draw of level counts as the statistical tests

using nlohmann::json;
using namespace deniable;

namespace {

struct City {
  const char* name;
  std::int64_t n;
  double low, high;
};
constexpr City kCities[] = {{"Baltimore", 13683, 1800, 250000}, {"New York", 138715, 1, 297625},
                            {"San Francisco", 291825, 0, 515102}};

json Histograms(const std::vector<int>& folds) {
  json list = json::array();
  for (int k : folds) list.push_back({{"name", std::to_string(k) + "-fold"}, {"bins", k}});
  return list;
}

std::shared_ptr<const QuestionKind> Kind(const std::string& mechanism, double epsilon, double low, double high,
                                         const json& histograms) {
  const json definition = {{"format", kSurveyFormat}, {"id", "b"}, {"version", 1}, {"title", "b"},
                           {"questions", {{{"id", "x"}, {"text", "x"}, {"type", "histogram"}, {"range", {low, high}},
                                           {"histograms", histograms},
                                           {"mechanism", {{"name", mechanism}, {"epsilon", epsilon}}}}}}};
  auto survey = ParseSurvey(definition);
  if (!survey) {
    std::fprintf(stderr, "histogram_bench: %s\n", survey.error().c_str());
    std::exit(1);
  }
  return survey->questions[0].kind;
}

// Right-skewed salaries: log-normal (median a fifth of the range above its low end), clipped to the range;
// the answers per fine cell.
std::vector<std::int64_t> SalaryCells(const HistogramQuestionKind& kind, std::int64_t n, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<std::int64_t> cells(static_cast<std::size_t>(kind.partition().cells()), 0);
  const double low = kind.range().low, width = kind.range().width();
  for (std::int64_t i = 0; i < n; ++i) {
    const double u1 = std::max(UniformUnit(random), 1e-300), u2 = UniformUnit(random);
    const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
    const double salary = low + width * 0.2 * std::exp(0.6 * z) * 0.5;
    ++cells[static_cast<std::size_t>(kind.partition().CellOf(salary))];
  }
  return cells;
}

struct ConsumerError {
  std::vector<double> measured;  // per consumer: mean over bins of the count MSE
  std::vector<double> analytic;
  double measured_all = 0, analytic_all = 0, se_all = 0;  // over every bin of every consumer
};

// Count MSE per bin of each consumer's bins, `runs` surveys.
ConsumerError MeasureBins(const HistogramQuestionKind& kind, const std::vector<std::int64_t>& cells, int runs,
                          std::uint64_t seed) {
  SeededRandom random(seed);
  std::int64_t n = 0;
  for (std::int64_t c : cells) n += c;
  const auto nd = static_cast<double>(n);
  const LevelEstimates expected = kind.Estimates(ExpectedAggregate(kind, std::vector<double>(cells.begin(), cells.end())),
                                                     IntervalTarget::kRespondents);
  ConsumerError error;
  std::vector<std::vector<std::pair<int, int>>> bins;
  for (const ConsumerRequest& consumer : kind.consumers()) {
    const auto starts = kind.partition().BinStarts(consumer.boundaries);
    bins.emplace_back();
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) bins.back().emplace_back(starts[b], starts[b + 1]);
  }
  std::vector<double> run_totals;
  error.measured.assign(bins.size(), 0.0);
  error.analytic.assign(bins.size(), 0.0);
  std::size_t bin_count = 0;
  for (std::size_t j = 0; j < bins.size(); ++j) {
    for (const auto& [first, end] : bins[j]) error.analytic[j] += expected.DecompositionRange(first, end).variance * nd * nd / bins[j].size();
    error.analytic_all += error.analytic[j] * bins[j].size();
    bin_count += bins[j].size();
  }
  error.analytic_all /= static_cast<double>(bin_count);
  for (int r = 0; r < runs; ++r) {
    const LevelEstimates estimates = kind.Estimates(testing::DrawHistogramAggregate(kind, cells, random), IntervalTarget::kRespondents);
    double run_total = 0;
    for (std::size_t j = 0; j < bins.size(); ++j) {
      for (const auto& [first, end] : bins[j]) {
        double truth = 0;
        for (int k = first; k < end; ++k) truth += static_cast<double>(cells[static_cast<std::size_t>(k)]);
        const double squared = std::pow(estimates.Range(first, end).frequency * nd - truth, 2);
        error.measured[j] += squared / bins[j].size() / runs;
        run_total += squared;
      }
    }
    run_totals.push_back(run_total / static_cast<double>(bin_count));
  }
  double mean = 0, squares = 0;
  for (double t : run_totals) mean += t / runs, squares += t * t;
  error.measured_all = mean;
  error.se_all = std::sqrt(std::max(0.0, squares / runs - mean * mean) / runs);
  return error;
}

// One report per consumer at eps / M (the paper's SHP, SUE): each consumer's own flat question.
ConsumerError MeasureBaseline(const std::vector<int>& folds, double epsilon, const City& city, int runs,
                              std::uint64_t seed) {
  ConsumerError total;
  double se_squares = 0;
  std::size_t bins = 0;
  for (std::size_t j = 0; j < folds.size(); ++j) {
    auto own = Kind("sue", epsilon / static_cast<double>(folds.size()), city.low, city.high, Histograms({folds[j]}));
    const auto& kind = static_cast<const HistogramQuestionKind&>(*own);
    const ConsumerError e = MeasureBins(kind, SalaryCells(kind, city.n, seed), runs, seed + 1 + j);
    total.measured.push_back(e.measured[0]);
    total.analytic.push_back(e.analytic[0]);
    total.measured_all += e.measured_all * folds[j];
    total.analytic_all += e.analytic_all * folds[j];
    se_squares += std::pow(e.se_all * folds[j], 2);
    bins += static_cast<std::size_t>(folds[j]);
  }
  total.measured_all /= static_cast<double>(bins);
  total.analytic_all /= static_cast<double>(bins);
  total.se_all = std::sqrt(se_squares) / static_cast<double>(bins);
  return total;
}

std::string Folds(const std::vector<int>& folds) {
  std::string text = "{";
  for (std::size_t i = 0; i < folds.size(); ++i) text += (i ? "," : "") + std::to_string(folds[i]);
  return text + "}";
}

void PaperSetting(int runs, bool quick) {
  std::printf("## 1. The paper's setting: {3,5,7}-fold consumers, count MSE per bin over all 15 bins (%d runs)\n\n", runs);
  std::printf("Measured ± Monte-Carlo SE (analytic: the variance of level_estimates.h at the truth; for the tree, "
              "the decomposition's variance, which bounds its least-squares estimate). The digest's section 5.6 table "
              "has the same analytic CHP-sue and baseline values.\n\n");
  std::printf("| city | N | ε | baseline (SUE at ε/3 each) | CHP-sue | CHP-oue | tree | baseline / best |\n|---|---:|---:|---|---|---|---|---:|\n");
  const std::vector<int> folds = {3, 5, 7};
  for (const City& city : kCities) {
    for (double epsilon : {3.0, 6.0, 9.0, 12.0, 15.0, 18.0}) {
      if (quick && epsilon != 3.0 && epsilon != 15.0) continue;
      std::fprintf(stderr, "histogram_bench: %s eps %g\n", city.name, epsilon);
      std::string cells_text[3];
      double best = INFINITY;
      const char* names[] = {"sue", "oue", "tree"};
      for (int m = 0; m < 3; ++m) {
        auto kind = Kind(names[m], epsilon, city.low, city.high, Histograms(folds));
        const auto& h = static_cast<const HistogramQuestionKind&>(*kind);
        const ConsumerError e = MeasureBins(h, SalaryCells(h, city.n, 7), runs, 100 + m);
        char text[128];
        std::snprintf(text, sizeof text, "%.4g ± %.2g (%.4g)", e.measured_all, e.se_all, e.analytic_all);
        cells_text[m] = text;
        best = std::min(best, e.analytic_all);
      }
      const ConsumerError baseline = MeasureBaseline(folds, epsilon, city, runs, 200);
      std::printf("| %s | %lld | %g | %.4g ± %.2g (%.4g) | %s | %s | %s | %.1f |\n", city.name,
                  static_cast<long long>(city.n), epsilon, baseline.measured_all, baseline.se_all, baseline.analytic_all,
                  cells_text[0].c_str(), cells_text[1].c_str(), cells_text[2].c_str(), baseline.analytic_all / best);
    }
  }
  std::printf("\n");
}

void Groups(int runs) {
  std::printf("## 2. Groups at ε = 15: count MSE per bin over all bins (%d runs; measured (analytic))\n\n", runs);
  std::printf("| city | group | baseline | CHP-sue | CHP-oue | tree |\n|---|---|---|---|---|---|\n");
  for (const City& city : kCities) {
    for (const std::vector<int>& folds : {std::vector<int>{10}, std::vector<int>{3, 5, 7}, std::vector<int>{3, 5, 7, 10, 15}}) {
      std::string row = std::string("| ") + city.name + " | " + Folds(folds) + " | ";
      const ConsumerError baseline = MeasureBaseline(folds, 15.0, city, runs, 300);
      char text[96];
      std::snprintf(text, sizeof text, "%.4g (%.4g) | ", baseline.measured_all, baseline.analytic_all);
      row += text;
      for (const char* name : {"sue", "oue", "tree"}) {
        auto kind = Kind(name, 15.0, city.low, city.high, Histograms(folds));
        const auto& h = static_cast<const HistogramQuestionKind&>(*kind);
        const ConsumerError e = MeasureBins(h, SalaryCells(h, city.n, 7), runs, 400);
        std::snprintf(text, sizeof text, "%.4g (%.4g) | ", e.measured_all, e.analytic_all);
        row += text;
      }
      std::printf("%s\n", row.c_str());
    }
  }
  std::printf("\n");
}

void SmallEpsilon(int runs) {
  std::printf("## 3. Consumers of very different granularity at small ε: {2, 100}-fold, N = 13,683 (%d runs)\n\n", runs);
  std::printf("Count MSE per bin for each consumer (measured (analytic)); the advisor's pick and who the baseline serves better.\n\n");
  std::printf("| ε | consumer | baseline (SUE at ε/2 each) | CHP-oue | tree | advisor |\n|---:|---|---|---|---|---|\n");
  const City city = kCities[0];
  const std::vector<int> folds = {2, 100};
  for (double epsilon : {0.5, 1.0, 2.0}) {
    const ConsumerError baseline = MeasureBaseline(folds, epsilon, city, runs, 500);
    auto oue = Kind("oue", epsilon, city.low, city.high, Histograms(folds));
    const auto& h = static_cast<const HistogramQuestionKind&>(*oue);
    const ConsumerError chp = MeasureBins(h, SalaryCells(h, city.n, 7), runs, 600);
    auto tree = Kind("tree", epsilon, city.low, city.high, Histograms(folds));
    const auto& t = static_cast<const HistogramQuestionKind&>(*tree);
    const ConsumerError hierarchical = MeasureBins(t, SalaryCells(t, city.n, 7), runs, 700);
    const json advice = HistogramKindAdvice(h, city.n);
    std::string advised = advice.at("recommended").get<std::string>();
    if (!advice.at("baseline_better_for").empty()) advised += "; one report per consumer better for " + advice.at("baseline_better_for").dump();
    for (std::size_t j = 0; j < folds.size(); ++j) {
      std::printf("| %g | %d-fold | %.4g (%.4g) | %.4g (%.4g) | %.4g (%.4g) | %s |\n", epsilon, folds[j], baseline.measured[j],
                  baseline.analytic[j], chp.measured[j], chp.analytic[j], hierarchical.measured[j], hierarchical.analytic[j],
                  j == 0 ? advised.c_str() : "");
    }
  }
  std::printf("\n");
}

void RangeQueries(int runs) {
  constexpr int kCells = 256;
  constexpr std::int64_t kN = 100000;
  const double epsilon = std::log(3.0);
  std::printf("## 4. Range queries (Cormode et al.): %d cells, e^ε = 3, N = %lld, every one of the %d ranges (%d runs)\n\n",
              kCells, static_cast<long long>(kN), kCells * (kCells + 1) / 2, runs);
  const json consumers = {{{"name", "cells"}, {"bins", kCells}}};
  auto flat = Kind("oue", epsilon, 0, kCells, consumers);
  auto tree = Kind("tree", epsilon, 0, kCells, consumers);
  const auto& flat_kind = static_cast<const HistogramQuestionKind&>(*flat);
  const auto& tree_kind = static_cast<const HistogramQuestionKind&>(*tree);
  std::printf("Tree: %s.\n\n", tree_kind.tree()->reason.c_str());
  const std::vector<std::int64_t> cells = SalaryCells(flat_kind, kN, 9);
  const std::vector<std::pair<int, int>> buckets = {{1, 1}, {2, 7}, {8, 31}, {32, 63}, {64, 127}, {128, 256}};
  // Per bucket: summed squared count error, and the number of ranges.
  std::map<std::string, std::vector<double>> squared;
  std::vector<double> ranges(buckets.size(), 0.0);
  SeededRandom random(11);
  std::vector<std::int64_t> prefix(kCells + 1, 0);
  for (int i = 0; i < kCells; ++i) prefix[static_cast<std::size_t>(i) + 1] = prefix[static_cast<std::size_t>(i)] + cells[static_cast<std::size_t>(i)];
  for (const char* name : {"flat OUE", "tree", "tree, least squares"}) squared[name].assign(buckets.size(), 0.0);
  for (int r = 0; r < runs; ++r) {
    std::fprintf(stderr, "histogram_bench: ranges run %d\n", r + 1);
    const LevelEstimates flat_estimates = flat_kind.Estimates(testing::DrawHistogramAggregate(flat_kind, cells, random), IntervalTarget::kRespondents);
    const LevelEstimates tree_estimates = tree_kind.Estimates(testing::DrawHistogramAggregate(tree_kind, cells, random), IntervalTarget::kRespondents);
    std::vector<double> consistent_prefix(kCells + 1, 0.0), flat_prefix(kCells + 1, 0.0);
    for (int i = 0; i < kCells; ++i) {
      consistent_prefix[static_cast<std::size_t>(i) + 1] = consistent_prefix[static_cast<std::size_t>(i)] + tree_estimates.least_squares_cells()[static_cast<std::size_t>(i)];
      flat_prefix[static_cast<std::size_t>(i) + 1] = flat_prefix[static_cast<std::size_t>(i)] + flat_estimates.Range(i, i + 1).frequency;
    }
    for (int first = 0; first < kCells; ++first) {
      for (int end = first + 1; end <= kCells; ++end) {
        const int length = end - first;
        std::size_t b = 0;
        while (length > buckets[b].second) ++b;
        const double truth = static_cast<double>(prefix[static_cast<std::size_t>(end)] - prefix[static_cast<std::size_t>(first)]);
        const double n = static_cast<double>(kN);
        squared["flat OUE"][b] += std::pow((flat_prefix[static_cast<std::size_t>(end)] - flat_prefix[static_cast<std::size_t>(first)]) * n - truth, 2);
        squared["tree"][b] += std::pow(tree_estimates.DecompositionRange(first, end).frequency * n - truth, 2);
        squared["tree, least squares"][b] += std::pow((consistent_prefix[static_cast<std::size_t>(end)] - consistent_prefix[static_cast<std::size_t>(first)]) * n - truth, 2);
        if (r == 0) ranges[b] += 1.0;
      }
    }
  }
  std::printf("| range length | ranges | flat OUE count MSE | tree (decomposition) | tree (least squares) | flat / tree least squares |\n|---|---:|---:|---:|---:|---:|\n");
  for (std::size_t b = 0; b < buckets.size(); ++b) {
    const double denominator = ranges[b] * runs;
    const double f = squared["flat OUE"][b] / denominator, t = squared["tree"][b] / denominator,
                 c = squared["tree, least squares"][b] / denominator;
    std::printf("| %d–%d | %.0f | %.4g | %.4g | %.4g | %.2f |\n", buckets[b].first, buckets[b].second, ranges[b], f, t, c, f / c);
  }
  std::printf("\n");
}

void ClientTime() {
  std::printf("## 5. Client time per report (native, this machine) and report size\n\n");
  std::printf("| fine cells | mechanism | µs per report | report bytes (JSON) |\n|---:|---|---:|---:|\n");
  for (int cells : {13, 256, 4096}) {
    const json histograms = cells == 13 ? Histograms({3, 5, 7}) : Histograms({cells});
    for (const char* name : {"sue", "oue", "tree"}) {
      auto kind = Kind(name, 2.0, 0, 1000, histograms);
      SeededRandom random(1);
      int calls = 0;
      std::size_t bytes = 0;
      const auto start = std::chrono::steady_clock::now();
      double elapsed = 0;
      while (elapsed < 0.3) {
        for (int i = 0; i < 64; ++i) bytes = kind->Perturb(json(123.4 + i), random)->dump().size();
        calls += 64;
        elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
      std::printf("| %d | %s | %.1f | %zu |\n", cells, name, elapsed * 1e6 / calls, bytes);
    }
  }
  std::printf("\nThe same in WebAssembly, through web/src/core.js: node bench/wasm_histogram.mjs\n");
}


// ---- 6. consistent against unbiased on skewed data

struct Population {
  std::string name;
  NumericRange range;
  std::vector<double> values;  // the population's answers (drawn with replacement)
};

std::vector<Population> SkewedPopulations(const std::string& earnings_path) {
  std::vector<Population> populations;
  if (!earnings_path.empty()) {
    std::ifstream file(earnings_path);
    Population earnings{"CPS 1988 weekly wage (real)", {0, 5000}, {}};
    for (double value; file >> value;) earnings.values.push_back(value);
    if (earnings.values.empty()) {
      std::fprintf(stderr, "histogram_bench: no values in %s\n", earnings_path.c_str());
      std::exit(1);
    }
    populations.push_back(std::move(earnings));
  }
  SeededRandom random(2024);
  for (const coverage::Shape& shape : coverage::Shapes()) {
    Population population{shape.name, shape.range, {}};
    while (population.values.size() < 200000) {
      const double value = shape.draw(random);
      if (value >= shape.range.low && value <= shape.range.high) population.values.push_back(value);
    }
    populations.push_back(std::move(population));
  }
  return populations;
}

// Three consumers over any range: 50 equal bins, fifths, and uneven bands (finer at the low end, where skewed
// answers are).
json SkewedConsumers(const NumericRange& range) {
  json bands = json::array();
  for (double f : {0.0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 1.0}) bands.push_back(range.low + f * range.width());
  return {{{"name", "fifty"}, {"bins", 50}}, {{"name", "fifths"}, {"bins", 5}}, {{"name", "bands"}, {"edges", bands}}};
}

struct ConsistencyError {
  double unbiased = 0, global = 0, subtree = 0;  // bin frequency MSE, mean over bins and runs
  double global_bias = 0, subtree_bias = 0;       // the largest |mean error| of a bin
  std::string global_worst;                       // that bin, its truth and mean estimate
};

ConsistencyError MeasureConsistency(const HistogramQuestionKind& kind, const Population& population, std::int64_t n,
                                    int runs, std::uint64_t seed) {
  const FinePartition& partition = kind.partition();
  std::vector<double> shares(static_cast<std::size_t>(partition.cells()), 0.0);
  for (double value : population.values) shares[static_cast<std::size_t>(partition.CellOf(value))] += 1.0 / population.values.size();
  std::vector<std::pair<int, int>> bins;
  std::vector<double> truth;
  for (const ConsumerRequest& consumer : kind.consumers()) {
    const auto starts = partition.BinStarts(consumer.boundaries);
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) {
      bins.emplace_back(starts[b], starts[b + 1]);
      double t = 0;
      for (int k = starts[b]; k < starts[b + 1]; ++k) t += shares[static_cast<std::size_t>(k)];
      truth.push_back(t);
    }
  }
  SeededRandom random(seed);
  ConsistencyError error;
  std::vector<double> global_sum(bins.size(), 0.0), subtree_sum(bins.size(), 0.0);
  const auto sum = [](const std::vector<double>& cells, int first, int end) {
    double s = 0;
    for (int k = first; k < end; ++k) s += cells[static_cast<std::size_t>(k)];
    return s;
  };
  for (int r = 0; r < runs; ++r) {
    const std::vector<std::int64_t> cells = SampleMultinomial(n, shares, random);
    const LevelEstimates estimates = kind.Estimates(testing::DrawHistogramAggregate(kind, cells, random), IntervalTarget::kRespondents);
    const std::vector<double> global = NormSub(estimates.least_squares_cells(), 1.0);
    for (std::size_t b = 0; b < bins.size(); ++b) {
      const auto [first, end] = bins[b];
      const double u = estimates.Range(first, end).frequency, g = sum(global, first, end),
                   s = sum(estimates.consistent_cells(), first, end);
      error.unbiased += std::pow(u - truth[b], 2);
      error.global += std::pow(g - truth[b], 2);
      error.subtree += std::pow(s - truth[b], 2);
      global_sum[b] += g / runs;
      subtree_sum[b] += s / runs;
    }
  }
  const double count = static_cast<double>(bins.size()) * runs;
  error.unbiased /= count, error.global /= count, error.subtree /= count;
  for (std::size_t b = 0; b < bins.size(); ++b) {
    if (std::fabs(global_sum[b] - truth[b]) > error.global_bias) {
      error.global_bias = std::fabs(global_sum[b] - truth[b]);
      char text[160];
      std::snprintf(text, sizeof text, "[%s, %s): %.4f → %.4f", FormatNumber(partition.BoundaryValue(bins[b].first)).c_str(),
                    FormatNumber(partition.BoundaryValue(bins[b].second)).c_str(), truth[b], global_sum[b]);
      error.global_worst = text;
    }
    error.subtree_bias = std::max(error.subtree_bias, std::fabs(subtree_sum[b] - truth[b]));
  }
  return error;
}

void ConsistencyOnSkewedData(int runs, const std::string& earnings_path) {
  std::printf("## 6. The consistent histogram against the unbiased one on skewed data (%d runs)\n\n", runs);
  std::printf("Consumers: 50 equal bins, fifths, and bands at 0, 5, 10, 20, 35, 50, 75, 100%% of the range (62 bins). "
              "Each run draws n answers from the population (the default interval target), so the truth is the "
              "population's share. MSE: of a bin's frequency, ×10⁻⁶, mean over the 62 bins. Unbiased: the "
              "least-squares bins; Norm-Sub over all cells: the consistent version before; top down: the consistent "
              "version published now (subtree_norm_sub.h). Bias: the largest |mean error| of one bin.%s\n\n",
              earnings_path.empty() ? " (No real earnings: pass --earnings, see bench/fetch-earnings-data.sh.)" : "");
  std::printf("| data | mechanism | ε | n | unbiased | Norm-Sub over all cells | top down | all cells / unbiased | top down / "
              "unbiased | bias, all cells (worst bin: truth → mean) | bias, top down |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
  for (const Population& population : SkewedPopulations(earnings_path)) {
    for (const char* mechanism : {"tree", "oue"}) {
      for (double epsilon : {1.0, 2.0}) {
        const std::int64_t n = population.values.size() < 100000 ? static_cast<std::int64_t>(population.values.size()) : 20000;
        std::fprintf(stderr, "histogram_bench: consistency %s %s eps %g\n", population.name.c_str(), mechanism, epsilon);
        auto kind = Kind(mechanism, epsilon, population.range.low, population.range.high, SkewedConsumers(population.range));
        const auto& h = static_cast<const HistogramQuestionKind&>(*kind);
        const ConsistencyError e = MeasureConsistency(h, population, n, runs, 800);
        std::printf("| %s | %s | %g | %lld | %.1f | %.1f | %.1f | %.2f | %.2f | %.4f (%s) | %.4f |\n", population.name.c_str(),
                    mechanism, epsilon, static_cast<long long>(n), e.unbiased * 1e6, e.global * 1e6, e.subtree * 1e6,
                    e.global / e.unbiased, e.subtree / e.unbiased, e.global_bias, e.global_worst.c_str(), e.subtree_bias);
      }
    }
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 100;
  bool quick = false, only_consistency = false;
  std::string earnings;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
      runs = 30;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
      if (runs < 2 || runs > 100000) {
        std::fprintf(stderr, "histogram_bench: --runs must be 2..100000\n");
        return 2;
      }
    } else if (std::strcmp(argv[i], "--earnings") == 0 && i + 1 < argc) {
      earnings = argv[++i];
    } else if (std::strcmp(argv[i], "--only-consistency") == 0) {
      only_consistency = true;
    } else {
      std::fprintf(stderr, "usage: histogram_bench [--runs R] [--quick] [--earnings FILE] [--only-consistency]\n");
      return 2;
    }
  }
  if (only_consistency) {
    ConsistencyOnSkewedData(runs, earnings);
    return 0;
  }
  PaperSetting(runs, quick);
  Groups(runs);
  SmallEpsilon(runs);
  RangeQueries(quick ? 3 : 10);
  ClientTime();
  ConsistencyOnSkewedData(runs, earnings);
  return 0;
}
