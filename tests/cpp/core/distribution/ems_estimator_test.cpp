// EM, EMS and PML (ems_estimator.h) on toy mechanisms: smoothing, exact recovery
// from noise-free counts, PML's vanishing bias and warm start, EMS from
// simulated reports, and validation.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/distribution/ems_estimator.h"
#include "core/distribution/transition_matrix.h"
#include "tests/cpp/support/toy_mechanisms.h"

using namespace deniable;
using namespace deniable::testing;

namespace {

EmsOptions WithSmoothing(EmSmoothing smoothing) {
  EmsOptions options;
  options.smoothing = smoothing;
  return options;
}

}  // namespace

TEST_CASE("binomial smoothing: [1, 2, 1]/4 inside, renormalised kernels at the ends") {
  const auto smoothed = BinomialSmooth({0.0, 0.0, 1.0, 0.0, 0.0});
  CHECK(smoothed[1] == doctest::Approx(0.25));
  CHECK(smoothed[2] == doctest::Approx(0.5));
  CHECK(smoothed[0] == 0.0);
  // Edge: (2 f0 + f1)/3, then renormalised to the input's total.
  const auto edge = BinomialSmooth({1.0, 0.0, 0.0});
  const double total = 2.0 / 3.0 + 0.25;
  CHECK(edge[0] == doctest::Approx((2.0 / 3.0) / total));
  CHECK(edge[1] == doctest::Approx(0.25 / total));
  const auto flat = BinomialSmooth({0.25, 0.25, 0.25, 0.25});
  for (double p : flat) CHECK(p == doctest::Approx(0.25).epsilon(1e-15));
}

TEST_CASE("EM recovers f exactly from noise-free counts; EMS and PML stay close") {
  // Counts = n T f exactly: the likelihood's maximiser over the simplex is f
  // (T has full column rank), so plain EM must converge to it.
  const ToyTent tent(0.7, 0.05);
  const auto matrix = TransitionMatrix::ForMechanism(tent, 20, 64).value();
  const auto truth = BetaThreeThreeCells(20);
  const auto counts = Scaled(matrix.Apply(truth), 1e6);

  // The log-likelihood is only precise to about 1e-16 per value, so a
  // likelihood-change rule cannot certify convergence to 1e-12; run EM to a
  // fixed iteration count instead (the tolerance only stops it at an exact
  // floating-point fixed point).
  EmsOptions plain = WithSmoothing(EmSmoothing::kNone);
  plain.per_value_tolerance = 1e-300;
  plain.max_iterations = 5000;
  plain.accelerate = false;
  const auto em = EstimateEms(counts, matrix, plain).value();
  CAPTURE(em.iterations);
  // EM converges linearly: measured 2e-16 from f at an exact fixed point after
  // 1,920 iterations; 5,000 leave room for other compilers' round-off.
  CHECK(MaxAbsDifference(em.probabilities, truth) < 1e-12);
  CHECK(std::accumulate(em.probabilities.begin(), em.probabilities.end(), 0.0) == doctest::Approx(1.0).epsilon(1e-14));
  // SQUAREM reaches the same point in far fewer map steps (measured 375).
  plain.accelerate = true;
  plain.max_iterations = 600;
  const auto squarem = EstimateEms(counts, matrix, plain).value();
  CAPTURE(squarem.iterations);
  CHECK(MaxAbsDifference(squarem.probabilities, truth) < 1e-12);
  // The default stopping rule (1e-10 nats per value) stops earlier, already
  // close: measured 1.5e-7 after 57 map steps.
  const auto stopped = EstimateEms(counts, matrix, WithSmoothing(EmSmoothing::kNone)).value();
  CAPTURE(stopped.iterations);
  CHECK(stopped.converged);
  CHECK(MaxAbsDifference(stopped.probabilities, truth) < 1e-5);

  // EMS's smoothing biases the bump: each step blurs by a quarter cell^2 of
  // variance, so the bias shrinks with the cell width. Measured L1 5.3% on 20
  // cells, 0.52% on 100 cells (bounds 8% and 1%).
  const auto ems = EstimateEms(counts, matrix, WithSmoothing(EmSmoothing::kBinomial)).value();
  CHECK(ems.converged);
  CHECK(L1Distance(ems.probabilities, truth) < 0.08);
  CHECK(L1Distance(ems.probabilities, truth) > 1e-3);  // and it is not plain EM
  const auto fine = TransitionMatrix::ForMechanism(tent, 100, 256).value();
  const auto fine_truth = BetaThreeThreeCells(100);
  const auto fine_counts = Scaled(fine.Apply(fine_truth), 1e6);
  const auto fine_ems = EstimateEms(fine_counts, fine, WithSmoothing(EmSmoothing::kBinomial)).value();
  CHECK(fine_ems.converged);
  CHECK(L1Distance(fine_ems.probabilities, fine_truth) < 0.01);

  // PML's smoothing relative to the likelihood falls with n, so its bias is
  // small at n = 1e6 on both grids (the curvature penalty does not depend on
  // the grid): measured L1 2.5e-4 on 20 cells and 3.4e-4 on 100 cells
  // (EMS: 5.3% and 0.52%).
  const auto pml = EstimateEms(counts, matrix).value();
  CAPTURE(pml.iterations);
  CHECK(pml.converged);
  CHECK(L1Distance(pml.probabilities, truth) < 1e-3);
  const auto fine_pml = EstimateEms(fine_counts, fine).value();
  CHECK(fine_pml.converged);
  CHECK(L1Distance(fine_pml.probabilities, fine_truth) < 1e-3);
}

TEST_CASE("PML: the bias vanishes as n grows; accelerated and plain iteration agree") {
  const ToyTent tent(0.7, 0.05);
  const auto matrix = TransitionMatrix::ForMechanism(tent, 50, 128).value();
  const auto truth = BetaThreeThreeCells(50);
  // Noise-free counts at n = 1e3, 1e5, 1e7: the L1 distance to f falls with n
  // (measured 0.0029, 0.00067, 0.00042: the default lambda grows like sqrt(N), so
  // the smoothing relative to the likelihood falls like 1/sqrt(N)).
  // Run to a tight tolerance: this is about the optimum, not the stopping rule.
  EmsOptions converged;
  converged.per_value_tolerance = 1e-15;
  converged.max_iterations = 100000;
  std::vector<double> distances;
  for (double n : {1e3, 1e5, 1e7}) {
    const auto fit = EstimateEms(Scaled(matrix.Apply(truth), n), matrix, converged).value();
    CHECK(fit.converged);
    distances.push_back(L1Distance(fit.probabilities, truth));
  }
  CAPTURE(distances[0]);
  CAPTURE(distances[1]);
  CAPTURE(distances[2]);
  CHECK(distances[1] < 0.5 * distances[0]);
  CHECK(distances[2] < 0.8 * distances[1]);
  // On simulated reports SQUAREM and plain iteration converge to the same
  // estimate (measured max difference 7e-8,
  // 129 against 1,129 map steps), SQUAREM in fewer map steps.
  const ToyWave wave(0.6, 0.1);
  const auto histogram = SimulateHistogram(wave, 128, 20000, 11);
  const auto wave_matrix = TransitionMatrix::ForMechanism(wave, 50, 128).value();
  EmsOptions tight;
  tight.per_value_tolerance = 1e-13;
  tight.max_iterations = 100000;
  const auto accelerated = EstimateEms(histogram, wave_matrix, tight).value();
  tight.accelerate = false;
  const auto plain = EstimateEms(histogram, wave_matrix, tight).value();
  CAPTURE(accelerated.iterations);
  CAPTURE(plain.iterations);
  CHECK(accelerated.converged);
  CHECK(plain.converged);
  CHECK(MaxAbsDifference(accelerated.probabilities, plain.probabilities) < 1e-5);
  CHECK(accelerated.iterations < plain.iterations);
  // The objective reported is Q = L - lambda m^5 sum (D^2 f)^2.
  CHECK(accelerated.objective < accelerated.log_likelihood);
}

TEST_CASE("PML: a warm start does not change the estimate") {
  const ToyWave wave(0.6, 0.1);
  const auto histogram = SimulateHistogram(wave, 128, 20000, 12);
  const auto matrix = TransitionMatrix::ForMechanism(wave, 40, 128).value();
  EmsOptions options;
  options.per_value_tolerance = 1e-13;
  const auto cold = EstimateEms(histogram, matrix, options).value();
  options.start = NudgedTowardsUniform(cold.probabilities);
  const auto warmed = EstimateEms(histogram, matrix, options).value();
  CAPTURE(cold.iterations);
  CAPTURE(warmed.iterations);
  CHECK(MaxAbsDifference(cold.probabilities, warmed.probabilities) < 1e-5);
  CHECK(warmed.iterations < cold.iterations);
}

TEST_CASE("EMS estimates the distribution from simulated reports") {
  // 20,000 Beta(3, 3) answers through the wave, 25 cells; W1 on [0, 1]. The
  // empirical answer distribution alone is about 0.002 from the truth at this
  // n; deconvolution and smoothing lose more: measured 0.011; bound 0.025.
  const ToyWave wave(0.6, 0.1);
  const auto histogram = SimulateHistogram(wave, 128, 20000, 7);
  const auto matrix = TransitionMatrix::ForMechanism(wave, 25, 128).value();
  const auto ems = EstimateEms(histogram, matrix, WithSmoothing(EmSmoothing::kBinomial)).value();
  CHECK(ems.converged);
  CHECK(W1(ems.probabilities, BetaThreeThreeCells(25)) < 0.025);
  // PML (the default) on the same histogram: measured 0.0047 (EMS 0.011).
  const auto pml = EstimateEms(histogram, matrix).value();
  CHECK(pml.converged);
  CHECK(W1(pml.probabilities, BetaThreeThreeCells(25)) < 0.025);
  // A histogram of another shape is refused.
  const auto other = NumericHistogram::Create(wave.output_range(), 64).value();
  CHECK(EstimateEms(other, matrix).error().find("does not match the transition matrix") != std::string::npos);
}

TEST_CASE("EMS validates its input") {
  const ToyWave wave(0.6, 0.1);
  const auto matrix = TransitionMatrix::ForMechanism(wave, 5, 8).value();
  CHECK(EstimateEms(std::vector<double>(7, 1.0), matrix).error() ==
        "EMS needs one count per output cell (8), but got 7");
  CHECK_FALSE(EstimateEms(std::vector<double>(8, 0.0), matrix));
  std::vector<double> negative(8, 1.0);
  negative[2] = -1.0;
  CHECK_FALSE(EstimateEms(negative, matrix));
  EmsOptions options;
  options.max_iterations = 0;
  CHECK_FALSE(EstimateEms(std::vector<double>(8, 1.0), matrix, options));
  EmsOptions bad;
  bad.per_value_tolerance = 0.0;
  CHECK(EstimateEms(std::vector<double>(8, 1.0), matrix, bad).error() ==
        "EMS per_value_tolerance must be a positive number, but is 0");
  bad = {};
  bad.curvature_penalty = -1.0;
  CHECK(EstimateEms(std::vector<double>(8, 1.0), matrix, bad).error() ==
        "EMS curvature_penalty must be a non-negative number, but is -1");
  bad = {};
  bad.start = {1.0, 2.0};
  CHECK(EstimateEms(std::vector<double>(8, 1.0), matrix, bad).error() ==
        "EMS start needs one probability per input cell (5), but has 2");
  bad.start = std::vector<double>(5, 0.0);
  CHECK(EstimateEms(std::vector<double>(8, 1.0), matrix, bad).error() == "EMS start must not be all 0");
  // A cap reached is reported as not converged.
  options.max_iterations = 2;
  const auto capped = EstimateEms(std::vector<double>(8, 1.0), matrix, options).value();
  CHECK(capped.iterations == 2);
  CHECK_FALSE(capped.converged);
}
