// How the curvature penalty lambda of PML (core/distribution/ems_estimator.h) was chosen:
//   1. W1 on the RVNS study's settings (chi-square df 2, 5, 8, 10 truncated to
//      [0, 10], n = 50,000, m = 100, one repetition with seeds other than
//      rvns_study's) for fixed lambda in {1e-3, 3e-3, 1e-2, 3e-2, 1e-1} and the
//      default rule lambda = 1e-5 sqrt(N): mean and max ratio to the best fixed
//      lambda per setting, and mean W1;
//   2. a weak channel at small n, where smoothing bias dominates: RVNS window 4
//      on [10, 60], k = 2, fresh windows, gamma = 0.25 (epsilon 2.99), n = 3,000
//      answers from normal(26, 4) truncated to [15, 45], 20 samples: bias and
//      RMSE of the estimated mean for lambda in {1e-4, 1e-3, 3e-3, 1e-2} and the
//      default rule.
// Run: build/pml_penalty   (Markdown tables to stdout, about a minute)
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bench/rvns_study_data.h"
#include "core/distribution/ems_estimator.h"
#include "core/numeric/rvns.h"
#include "core/common/seeded_random.h"
#include "core/distribution/transition_matrix.h"

using namespace deniable;

namespace {

const std::vector<std::optional<double>> kPenalties = {1e-3, 3e-3, 1e-2, 3e-2, 1e-1, std::nullopt};

std::string Name(std::optional<double> penalty) {
  if (!penalty) return "1e-5 sqrt(N) (default)";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", *penalty);
  return buffer;
}

std::unique_ptr<const RvnsMechanism> Rvns(NumericRange range, double d, int k, double gamma) {
  return CreateRvns({range, d, k, RvnsParams::WindowMode::kFreshPerValue, gamma}).value();
}

std::vector<double> Estimate(const NumericHistogram& histogram, const TransitionMatrix& transition,
                             std::optional<double> penalty) {
  EmsOptions options;
  options.curvature_penalty = penalty;
  return EstimateEms(histogram, transition, options)->probabilities;
}

void StudySettings() {
  struct Setting {
    double d;
    int k;
    double epsilon;
  };
  const std::vector<Setting> settings = {{1, 1, 0}, {1, 2, 0}, {1, 4, 0}, {2, 1, 0}, {2, 2, 0},
                                         {3, 2, 0}, {2, 2, 1}, {2, 2, 2}, {2, 2, 4}};
  const NumericRange range{0.0, 10.0};
  std::vector<std::vector<double>> w1(kPenalties.size());
  for (int df : {2, 5, 8, 10}) {
    SeededRandom data_random(1000 + df);
    const auto sample = rvns_study::TruncatedChiSquareSample(df, 10.0, 50000, data_random);
    const auto masses = rvns_study::EmpiricalCellMasses(sample, range, 100);
    for (const Setting& setting : settings) {
      const double gamma =
          setting.epsilon > 0 ? RvnsUniformProbabilityForEpsilon(setting.epsilon, range, setting.d, setting.k) : 0.0;
      const auto mechanism = Rvns(range, setting.d, setting.k, gamma);
      SeededRandom report_random(77 + df);
      auto histogram = *NumericHistogram::ForMechanism(*mechanism);
      for (double x : sample) (void)histogram.Add(*mechanism->Perturb(x, report_random));
      const auto transition = *TransitionMatrix::ForMechanism(*mechanism, 100, histogram.cells());
      for (std::size_t i = 0; i < kPenalties.size(); ++i) {
        w1[i].push_back(rvns_study::GridWasserstein1(Estimate(histogram, transition, kPenalties[i]), masses, 0.1));
      }
      std::fprintf(stderr, "chi2(%d) d=%g k=%d eps=%g done\n", df, setting.d, setting.k, setting.epsilon);
    }
  }
  std::puts("### 1. W1 on the study's RVNS settings (36 settings, n = 50,000, m = 100)\n");
  std::puts("| lambda | mean W1 | mean ratio to the best fixed lambda | max ratio |");
  std::puts("|---|---:|---:|---:|");
  const std::size_t fixed = kPenalties.size() - 1;
  for (std::size_t i = 0; i < kPenalties.size(); ++i) {
    double sum = 0.0, ratio_sum = 0.0, ratio_max = 0.0;
    for (std::size_t s = 0; s < w1[i].size(); ++s) {
      double best = w1[0][s];
      for (std::size_t j = 0; j < fixed; ++j) best = std::min(best, w1[j][s]);
      sum += w1[i][s];
      ratio_sum += w1[i][s] / best;
      ratio_max = std::max(ratio_max, w1[i][s] / best);
    }
    const double count = static_cast<double>(w1[i].size());
    std::printf("| %s | %.4f | %.3f | %.2f |\n", Name(kPenalties[i]).c_str(), sum / count, ratio_sum / count,
                ratio_max);
  }
}

void WeakChannel() {
  const NumericRange range{10.0, 60.0};
  const auto mechanism = Rvns(range, 4.0, 2, 0.25);
  const auto transition = *TransitionMatrix::ForMechanism(*mechanism, 100, kDefaultHistogramCells);
  const std::vector<std::optional<double>> penalties = {1e-4, 1e-3, 3e-3, 1e-2, std::nullopt};
  std::vector<double> bias(penalties.size()), squared(penalties.size());
  const int samples = 20, n = 3000;
  for (int s = 0; s < samples; ++s) {
    SeededRandom random(1000 + s);
    std::vector<double> answers;
    while (static_cast<int>(answers.size()) < n) {
      const double z = 26.0 + 4.0 * StandardNormal(random);
      if (z >= 15.0 && z <= 45.0) answers.push_back(z);
    }
    double truth = 0.0;
    for (double x : answers) truth += x / n;
    auto histogram = *NumericHistogram::ForMechanism(*mechanism);
    for (double x : answers) (void)histogram.Add(*mechanism->Perturb(x, random));
    for (std::size_t i = 0; i < penalties.size(); ++i) {
      const auto f = Estimate(histogram, transition, penalties[i]);
      double mean = 0.0;
      for (std::size_t c = 0; c < f.size(); ++c) mean += f[c] * (10.0 + (c + 0.5) * 0.5);
      bias[i] += (mean - truth) / samples;
      squared[i] += (mean - truth) * (mean - truth) / samples;
    }
  }
  std::puts("\n### 2. Mean at a weak channel, n = 3,000 (RVNS d = 4 on [10, 60], k = 2, γ = 0.25; 20 samples)\n");
  std::puts("| lambda | bias of the mean | RMSE of the mean |");
  std::puts("|---|---:|---:|");
  for (std::size_t i = 0; i < penalties.size(); ++i) {
    std::printf("| %s | %.3f | %.3f |\n", Name(penalties[i]).c_str(), bias[i], std::sqrt(squared[i]));
  }
}

}  // namespace

int main() {
  StudySettings();
  WeakChannel();
}
