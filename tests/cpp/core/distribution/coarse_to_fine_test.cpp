// Coarse-to-fine PML (coarse_to_fine.h): grid refinement, and closeness to PML
// run to convergence on the fine grid.
#include <doctest/doctest.h>

#include <vector>

#include "core/distribution/coarse_to_fine.h"
#include "core/distribution/ems_estimator.h"
#include "core/distribution/transition_matrix.h"
#include "tests/cpp/support/toy_mechanisms.h"

using namespace deniable;
using namespace deniable::testing;

TEST_CASE("RefineGrid: a constant stays constant, a line stays a line") {
  const auto flat = RefineGrid({0.25, 0.25, 0.25, 0.25}, 12);
  for (double p : flat) CHECK(p == doctest::Approx(1.0 / 12.0).epsilon(1e-14));
  // Coarse masses 1, 2, 3, 4 (/10): a linear density; fine cells whose centres
  // lie between the outer coarse centres are on the line, the two outermost
  // (centres beyond them) take the end cells' density.
  const auto fine = RefineGrid({0.1, 0.2, 0.3, 0.4}, 8);
  double sum = 0.0;
  for (double p : fine) sum += p;
  CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
  for (int i = 2; i < 6; ++i) CHECK(fine[i + 1] - fine[i] == doctest::Approx(fine[2] - fine[1]).epsilon(1e-12));
  CHECK(fine[7] == doctest::Approx(4.0 * fine[0]).epsilon(1e-12));
  CHECK(fine[1] == doctest::Approx(1.25 * fine[0]).epsilon(1e-12));
}

TEST_CASE("coarse-to-fine PML is close to PML run to convergence on the fine grid") {
  const ToyWave wave(0.6, 0.1);
  const auto histogram = SimulateHistogram(wave, 128, 20000, 13);
  const auto counts = histogram.counts_as_doubles();
  const auto coarse = TransitionMatrix::ForMechanism(wave, 20, 128).value();
  const auto fine = TransitionMatrix::ForMechanism(wave, 200, 128).value();
  const auto direct = EstimateEms(counts, fine).value();
  const auto refined = EstimateCoarseToFine(counts, coarse, fine, {}, {}, 100).value();
  CAPTURE(direct.iterations);
  CAPTURE(refined.iterations);
  CHECK(refined.converged);
  CHECK(refined.iterations <= 100);
  // Measured W1 8e-6 between them on [0, 1] (the direct estimate is 0.003 from the truth).
  CHECK(W1(refined.probabilities, direct.probabilities) < 1e-4);
  // Matrices over different output cells are refused.
  const auto other = TransitionMatrix::ForMechanism(wave, 20, 64).value();
  CHECK(EstimateCoarseToFine(counts, other, fine, {}).error() ==
        "coarse-to-fine estimation needs two matrices over the same input range and output cells");
}
