// A block's marginals (block_marginals.h, seed 002): calibrated estimates
// unbiased under unequal splits with the formula's variance and intervals that
// cover; paper mode biased as the digest predicts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/kinds/block/block_marginals.h"
#include "core/survey/interval_target.h"
#include "tests/cpp/support/block_population.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("block marginals: calibrated unbiased under unequal splits, variance as the formula, intervals cover; "
          "paper mode biased as the digest predicts") {
  const BlockDefinition block = Block({3, 4, 2}, 1.0, {0.05, 3.0});
  const std::vector<double> joint = DependentJoint();
  Replications calibrated, paper_equal;
  std::vector<double> paper_bias(4, 0.0), predicted_bias(4, 0.0);
  const int replications = 200;
  for (int r = 0; r < replications; ++r) {
    // Unequal (Dirichlet(1)) splits for the calibrated and paper estimates; equal splits for paper mode's own check.
    const Population unequal = Simulate(block, joint, 3000, 0.2, 1.0, 1000 + r);
    const Population equal = Simulate(block, joint, 3000, 0.2, 0.0, 5000 + r);
    // Against the respondents' own shares: the respondents' intervals.
    const IntervalTarget own = IntervalTarget::kRespondents;
    const MarginalEstimate mine = EstimateMarginal(unequal.aggregate, 1, BlockMode::kCalibrated, 1.0, own);
    const MarginalEstimate paper = EstimateMarginal(unequal.aggregate, 1, BlockMode::kPaper, 1.0, own);
    const MarginalEstimate paper_on_equal = EstimateMarginal(equal.aggregate, 1, BlockMode::kPaper, 1.0, own);
    const double n = static_cast<double>(mine.n);
    for (std::size_t b = 0; b < 4; ++b) {
      const double f = static_cast<double>(unequal.answered_counts[1][b]) / n;
      calibrated.Add(b, mine.options[b].frequency - f, std::pow(mine.options[b].std_error, 2));
      paper_bias[b] += (paper.options[b].frequency - f) / replications;
      // The digest's bias: (1 - f) (qbar - q) / (p - q), qbar the respondents' average q (the calibrated estimate's).
      predicted_bias[b] += (1.0 - f) * (mine.average_q - OueQ(1.0)) / (0.5 - OueQ(1.0)) / replications;
      const double f_equal = static_cast<double>(equal.answered_counts[1][b]) / static_cast<double>(paper_on_equal.n);
      paper_equal.Add(b, paper_on_equal.options[b].frequency - f_equal, std::pow(paper_on_equal.options[b].std_error, 2));
    }
  }
  calibrated.Check("calibrated, Dirichlet splits", 0.75);
  paper_equal.Check("paper, equal splits", 0.8);
  for (std::size_t b = 0; b < 4; ++b) {
    MESSAGE("paper mode under Dirichlet splits, option " << b << ": bias " << paper_bias[b] << ", predicted "
                                                         << predicted_bias[b]);
    CHECK(paper_bias[b] > 0.03);
    CHECK(paper_bias[b] == doctest::Approx(predicted_bias[b]).epsilon(0.15));
  }
}
