// Central-DP histogram publication (seed 001): SReB_GCA at several rho,
// DP_BASE and AHP on DPBench-style histograms with many empty and small bins,
// generated here (the public DPBench files may not be redistributed):
//   zipf:       N records over n bins with Zipf(1.1) popularity, bins in random
//               order (search-log like);
//   sparse:     95% of bins empty, the rest mostly 1-20 records, a few large
//               (network-trace like);
//   timeseries: Poisson counts of a daily-and-weekly seasonal rate with quiet
//               stretches near zero and bursts (in time order).
// n = 4096 and 65,536 bins, N about 10^6 records, epsilon 0.01, 0.1, 1, R runs.
// Metrics on the raw release (no post-processing):
//   MRE        mean over bins of |H - H~| / max(H, 1) (delta = 1);
//   small MRE  the same over bins with 1 <= H <= 10 (the paper gives no threshold; this is ours);
//   KLD        KL(p || q), natural log, p = H / sum H (bins with H = 0 add 0), q = max(H~, 0.01) / sum of the same
//              (negative and zero releases floored at a hundredth of a record);
//   scaled     DPBench's scaled average per-query L1 error on the prefix workload: sum_j |P_j - P~_j| / (N n);
//   ms         time of one release.
// Run: build/publication_bench [--quick] [--runs R]; --advisor checks the release advisor's picks (RunAdvisorCheck)
#include <algorithm>
#include <array>
#include <map>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/central/ahp_release.h"
#include "core/central/histogram_release.h"
#include "core/central/release_postprocessing.h"
#include "core/central/release_request.h"
#include "core/central/release_advisor.h"
#include "core/common/seeded_random.h"
#include "core/distribution/bootstrap.h"

using namespace deniable;
using Clock = std::chrono::steady_clock;

namespace {

std::vector<std::int64_t> Zipf(std::size_t n, std::int64_t records, RandomSource& random) {
  std::vector<double> weights(n);
  for (std::size_t i = 0; i < n; ++i) weights[i] = 1.0 / std::pow(static_cast<double>(i + 1), 1.1);
  auto counts = SampleMultinomial(records, weights, random);
  for (std::size_t i = n; i > 1; --i) std::swap(counts[i - 1], counts[UniformBelow(random, i)]);
  return counts;
}

std::vector<std::int64_t> Sparse(std::size_t n, RandomSource& random) {
  std::vector<std::int64_t> counts(n, 0);
  for (auto& count : counts) {
    if (UniformUnit(random) >= 0.05) continue;
    count = UniformUnit(random) < 0.9 ? 1 + static_cast<std::int64_t>(UniformBelow(random, 20))
                                      : 100 + static_cast<std::int64_t>(UniformBelow(random, 20000));
  }
  return counts;
}

std::vector<std::int64_t> TimeSeries(std::size_t n, RandomSource& random) {
  std::vector<std::int64_t> counts(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double day = std::sin(2.0 * M_PI * static_cast<double>(i) / 288.0);
    const double week = std::sin(2.0 * M_PI * static_cast<double>(i) / 2016.0);
    double rate = std::max(0.0, 12.0 * (day + 0.3) * (1.2 + week));
    if (UniformUnit(random) < 0.002) rate += 2000.0 * UniformUnit(random);  // bursts
    counts[i] = SampleBinomial(static_cast<std::int64_t>(std::ceil(rate * 4.0)) + 1, rate / (rate * 4.0 + 1.0), random);
  }
  return counts;
}

struct Scores {
  double mre = 0, small_mre = 0, kld = 0, scaled = 0, ms = 0;
};

Scores Score(const std::vector<std::int64_t>& truth, const std::vector<double>& released, double ms) {
  Scores s;
  const double n = static_cast<double>(truth.size());
  double records = 0.0, floor_total = 0.0, small = 0.0;
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const double h = static_cast<double>(truth[j]);
    records += h;
    floor_total += std::max(released[j], 0.01);
    const double relative = std::fabs(h - released[j]) / std::max(h, 1.0);
    s.mre += relative / n;
    if (h >= 1 && h <= 10) s.small_mre += relative, ++small;
  }
  s.small_mre = small > 0 ? s.small_mre / small : NAN;
  double prefix = 0.0, released_prefix = 0.0;
  for (std::size_t j = 0; j < truth.size(); ++j) {
    const double h = static_cast<double>(truth[j]);
    if (h > 0) s.kld += h / records * std::log((h / records) / (std::max(released[j], 0.01) / floor_total));
    prefix += h;
    released_prefix += released[j];
    s.scaled += std::fabs(prefix - released_prefix) / (records * n);
  }
  s.ms = ms;
  return s;
}

using Method = std::function<std::vector<double>(const std::vector<std::int64_t>&, double, RandomSource&)>;

// --advisor: does the release advisor (core/central/release_advisor.h),
// which measures on public shapes only, pick for each consumer the method that
// is best on these DPBench-style histograms? Consumers: every bin (MRE) and a
// histogram of 64-bin ranges (mean absolute error of a range's share);
// sensitivity 2, as the product releases. Prints, per histogram and epsilon,
// each alternative's measured error, the measured best and the advisor's pick
// with its error relative to the best (1 = the best), beside the default
// method's (SReB_GCA), the baseline a researcher without the advisor gets.
int RunAdvisorCheck(std::size_t bins, int runs) {
  const std::vector<std::string> alternatives = {"sreb_gca", "dp_base", "dp_base+consistent", "ahp", "ahp+consistent"};
  ReleaseLayout layout;
  for (std::size_t b = 0; b < bins; ++b) layout.labels.push_back(std::to_string(b));
  ReleaseView ranges{"ranges", {}};
  for (std::size_t b = 0; b < bins; b += 64) ranges.bins.push_back({std::to_string(b), b, std::min(bins, b + 64)});
  layout.views.push_back(ranges);
  std::printf("| data | bins | records | eps | consumer |");
  for (const auto& name : alternatives) std::printf(" %s |", name.c_str());
  std::printf(" measured best | advisor | advisor / best | sreb_gca (the default) / best |\n|---|---|---|---|---|");
  for (std::size_t i = 0; i < alternatives.size(); ++i) std::printf("---|");
  std::printf("---|---|---|---|\n");
  for (const std::string shape : {"zipf", "sparse", "timeseries"}) {
    SeededRandom data_random(42 + bins);
    const auto truth = shape == "zipf" ? Zipf(bins, 1000000, data_random)
                       : shape == "sparse" ? Sparse(bins, data_random)
                                           : TimeSeries(bins, data_random);
    const std::int64_t records = std::accumulate(truth.begin(), truth.end(), std::int64_t{0});
    for (double epsilon : {0.1, 1.0}) {
      std::map<std::string, std::array<double, 2>> errors;  // per alternative: bins MRE, ranges share MAE
      SeededRandom random(7 + bins + static_cast<std::uint64_t>(epsilon * 1000));
      for (int run = 0; run < runs; ++run) {
        for (const char* method : {"sreb_gca", "dp_base", "ahp"}) {
          ReleaseRequest request;
          request.method = method;
          request.epsilon = epsilon;
          const auto drawn = RunRelease(request, truth, 2, random).value();
          for (bool consistent : {false, true}) {
            if (consistent && std::string(method) == "sreb_gca") continue;
            const auto values = consistent ? PostProcess(drawn.values, {false, false, true}) : drawn.values;
            const std::string name = std::string(method) + (consistent ? "+consistent" : "");
            double mre = 0.0, mae = 0.0;
            for (std::size_t b = 0; b < bins; ++b) {
              mre += std::fabs(values[b] - static_cast<double>(truth[b])) / std::max(1.0, static_cast<double>(truth[b]));
            }
            for (const ViewBin& range : ranges.bins) {
              double sum = 0.0;
              for (std::size_t b = range.first; b < range.end; ++b) sum += values[b] - static_cast<double>(truth[b]);
              mae += std::fabs(sum);
            }
            errors[name][0] += mre / static_cast<double>(bins) / runs;
            errors[name][1] += mae / static_cast<double>(ranges.bins.size()) / static_cast<double>(records) / runs;
          }
        }
      }
      const auto advice = ReleaseAdvice(layout, epsilon, 2, records);
      for (int consumer = 0; consumer < 2; ++consumer) {
        std::printf("| %s | %zu | %lld | %g | %s |", shape.c_str(), bins, static_cast<long long>(records), epsilon,
                    consumer == 0 ? "bins (MRE)" : "64-bin ranges (share MAE)");
        std::string best;
        for (const auto& name : alternatives) {
          std::printf(" %.4g |", errors[name][consumer]);
          if (best.empty() || errors[name][consumer] < errors[best][consumer]) best = name;
        }
        const std::string pick = advice["consumers"][consumer]["recommended"];
        std::printf(" %s | %s | %.2f | %.2f |\n", best.c_str(), pick.c_str(), errors[pick][consumer] / errors[best][consumer],
                    errors["sreb_gca"][consumer] / errors[best][consumer]);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, advisor = false;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--advisor") == 0) advisor = true;
    else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: publication_bench [--quick] [--advisor] [--runs R]\n");
      return 2;
    }
  }
  if (quick) runs = 1;
  if (advisor) return RunAdvisorCheck(4096, runs);
  const std::vector<std::pair<std::string, Method>> methods = {
      {"SReB_GCA rho 0.1", [](const auto& h, double e, RandomSource& r) { return ReleaseSrebGca(h, {e, 0.1, 1.0, 1}, r).value().values; }},
      {"SReB_GCA rho 0.3", [](const auto& h, double e, RandomSource& r) { return ReleaseSrebGca(h, {e, 0.3, 1.0, 1}, r).value().values; }},
      {"SReB_GCA rho 0.5", [](const auto& h, double e, RandomSource& r) { return ReleaseSrebGca(h, {e, 0.5, 1.0, 1}, r).value().values; }},
      {"DP_BASE", [](const auto& h, double e, RandomSource& r) { return ReleaseDpBase(h, e, 1, r).value().values; }},
      {"AHP", [](const auto& h, double e, RandomSource& r) { return ReleaseAhp(h, {e, 0.85, 0.35, 1}, r).value().values; }},
  };
  const std::vector<std::size_t> sizes = quick ? std::vector<std::size_t>{4096} : std::vector<std::size_t>{4096, 65536};
  std::printf("%d run(s) per cell; MRE and small MRE (1 <= H <= 10) with delta = 1; KLD natural log, q floored at 0.01; "
              "scaled: DPBench prefix workload\n\n", runs);
  std::printf("| data | bins | records | zero bins | eps | method | MRE | small MRE | KLD | scaled | ms |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const std::string shape : {"zipf", "sparse", "timeseries"}) {
    for (std::size_t n : sizes) {
      SeededRandom data_random(42 + n);
      const auto truth = shape == "zipf" ? Zipf(n, 1000000, data_random)
                         : shape == "sparse" ? Sparse(n, data_random)
                                             : TimeSeries(n, data_random);
      const std::int64_t records = std::accumulate(truth.begin(), truth.end(), std::int64_t{0});
      const auto zeros = std::count(truth.begin(), truth.end(), 0);
      for (double epsilon : {0.01, 0.1, 1.0}) {
        for (const auto& [name, method] : methods) {
          Scores total;
          SeededRandom random(7 + n + static_cast<std::uint64_t>(epsilon * 1000));
          for (int run = 0; run < runs; ++run) {
            const auto start = Clock::now();
            const auto released = method(truth, epsilon, random);
            const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
            const Scores s = Score(truth, released, ms);
            total.mre += s.mre / runs, total.small_mre += s.small_mre / runs, total.kld += s.kld / runs;
            total.scaled += s.scaled / runs, total.ms += s.ms / runs;
          }
          std::printf("| %s | %zu | %lld | %.0f%% | %g | %s | %.4g | %.4g | %.4g | %.3g | %.1f |\n", shape.c_str(), n,
                      static_cast<long long>(records), 100.0 * zeros / n, epsilon, name.c_str(), total.mre,
                      total.small_mre, total.kld, total.scaled, total.ms);
          std::fflush(stdout);
        }
      }
    }
  }
  return 0;
}
