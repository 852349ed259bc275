// Is the parametric bootstrap's spread the estimator's real spread? For RVNS
// with k = 4 values per report, shared and fresh windows, d = 1 and 3, on
// chi-square(5) answers over [0, 10] with n = 10,000: the standard deviation
// of PML's mean and SD estimates over 60 independent surveys (the truth),
// against the bootstrap's (100 replicates, averaged over 10 of the surveys).
// The bootstrap simulates the k values of a report as independent given the
// answer, which is exact for fresh windows and ignores the shared window's
// dependence: this measures what that costs. About 30 s.
// Run: build/bootstrap_calibration
#include <cstdio>
#include <cmath>
#include "bench/rvns_study_data.h"
#include "core/distribution/bootstrap.h"
#include "core/distribution/distribution_summary.h"
#include "core/distribution/ems_estimator.h"
#include "core/numeric/rvns.h"
#include "core/common/seeded_random.h"
#include "core/distribution/transition_matrix.h"
using namespace deniable;
int main() {
  NumericRange R{0, 10};
  for (auto mode : {RvnsParams::WindowMode::kShared, RvnsParams::WindowMode::kFreshPerValue})
  for (double d : {1.0, 3.0}) {
    auto created = CreateRvns({R, d, 4, mode, 0.0}); const auto& mech = *created;
    auto T = *TransitionMatrix::ForMechanism(*mech, 100, 1024);
    const int n = 10000, S = 60;
    // true sampling distribution of the PML mean and sd estimates
    double s1 = 0, s2 = 0, t1 = 0, t2 = 0; double boot_sd_mean = 0, boot_sd_sd = 0;
    for (int s = 0; s < S; ++s) {
      SeededRandom rd(100 + s);
      auto xs = rvns_study::TruncatedChiSquareSample(5, 10, n, rd);
      auto h = *NumericHistogram::ForMechanism(*mech);
      for (double x : xs) (void)h.Add(*mech->Perturb(x, rd));
      auto fit = *EstimateEms(h, T);
      auto st = Summarize(*MakeGridDistribution(R, fit.probabilities));
      s1 += st.mean; s2 += st.mean * st.mean; t1 += st.standard_deviation; t2 += st.standard_deviation * st.standard_deviation;
      if (s < 10) {
        EmsOptions o; o.per_value_tolerance = 1e-8;
        Reestimator re = [&](const std::vector<double>& c, int) -> Result<std::vector<double>> { return EstimateEms(c, T, o)->probabilities; };
        BootstrapOptions bo; bo.replicates = 100;
        auto sample = *ParametricBootstrap(*MakeGridDistribution(R, fit.probabilities), T, n, 4, re, bo);
        double a1 = 0, a2 = 0, b1 = 0, b2 = 0; int B = sample.replicates.size();
        for (auto& g : sample.replicates) { auto q = Summarize(g); a1 += q.mean; a2 += q.mean * q.mean; b1 += q.standard_deviation; b2 += q.standard_deviation * q.standard_deviation; }
        boot_sd_mean += std::sqrt(a2 / B - (a1 / B) * (a1 / B)) / 10; boot_sd_sd += std::sqrt(b2 / B - (b1 / B) * (b1 / B)) / 10;
      }
    }
    printf("%s d=%g k=4 n=%d: true SD of mean estimate %.4f, bootstrap SD %.4f | true SD of sd estimate %.4f, bootstrap %.4f\n",
      mode == RvnsParams::WindowMode::kShared ? "shared" : "fresh", d, n, std::sqrt(s2 / S - (s1 / S) * (s1 / S)), boot_sd_mean,
      std::sqrt(t2 / S - (t1 / S) * (t1 / S)), boot_sd_sd);
    fflush(stdout);
  }
}
