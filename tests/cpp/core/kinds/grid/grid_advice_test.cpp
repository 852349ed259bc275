// The grid advisor (core/kinds/grid/grid_advice.h): its planning standard
// error of one level's share is the simulated spread of that share's estimate
// (fixed seeds, answers uniform over the scale, tolerances derived from the
// number of replicates), and it recommends a mechanism for the mean and one
// for the distribution, saying so when they differ.
#include <doctest/doctest.h>

#include "tests/cpp/support/stat_utils.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/frequency/frequency_estimator.h"
#include "core/kinds/grid/grid_advice.h"
#include "core/kinds/grid/grid_estimator.h"

using namespace deniable;
using deniable::testing::SampleVariance;
using json = nlohmann::json;

namespace {

constexpr int kN = 500;
constexpr int kReplicates = 2000;

// Per level, the estimates of its share in `kReplicates` surveys of kN respondents whose answers are drawn uniformly
// over the levels (the population target), read by EstimateRow.
std::vector<std::vector<double>> SimulatedShares(const GridRowMechanism& mechanism, std::uint64_t seed) {
  SeededRandom random(seed);
  const int levels = mechanism.levels();
  std::vector<std::vector<double>> shares(static_cast<std::size_t>(levels));
  for (int r = 0; r < kReplicates; ++r) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(levels), 0);
    for (int respondent = 0; respondent < kN; ++respondent) {
      const int answer = std::min(levels - 1, static_cast<int>(UniformUnit(random) * levels));
      ++counts[static_cast<std::size_t>(mechanism.Perturb(answer, random))];
    }
    const RowEstimate row = EstimateRow(mechanism.channel(), counts);
    for (int k = 0; k < levels; ++k) shares[static_cast<std::size_t>(k)].push_back(row.levels[static_cast<std::size_t>(k)].estimate);
  }
  return shares;
}

bool Says(const json& note, const std::string& part) { return note.get<std::string>().find(part) != std::string::npos; }

}  // namespace

TEST_CASE("grid advisor: a level share's planning standard error is the simulated spread of its estimate") {
  // The sample variance of R near-normal estimates has relative sd sqrt(2 / (R - 1)): 4 of them.
  const double tolerance = 4.0 * std::sqrt(2.0 / (kReplicates - 1));
  struct Setting { int levels, items; double epsilon; };
  for (const Setting setting : {Setting{6, 5, 1.0}, Setting{5, 1, 4.0}}) {
    const double row_epsilon = setting.epsilon / setting.items;
    for (GridMechanismKind kind : {GridMechanismKind::kOrdinal, GridMechanismKind::kGrr}) {
      INFO(GridMechanismName(kind) << ", L = " << setting.levels << ", epsilon per item " << row_epsilon);
      const auto mechanism = GridRowMechanism::Create(kind, setting.levels, row_epsilon);
      REQUIRE(mechanism.ok());
      const std::vector<double> uniform(static_cast<std::size_t>(setting.levels), 1.0 / setting.levels);
      const auto shares = SimulatedShares(**mechanism, 211);
      double worst = 0.0;
      for (int k = 0; k < setting.levels; ++k) {
        const double variance = LevelShareVariance((*mechanism)->channel(), uniform, k, kN);
        worst = std::max(worst, variance);
        const double simulated = SampleVariance(shares[static_cast<std::size_t>(k)]);
        MESSAGE(GridMechanismName(kind) << " level " << k << ": sd " << std::sqrt(variance) << ", simulated "
                                        << std::sqrt(simulated));
        CHECK(simulated / variance == doctest::Approx(1.0).epsilon(tolerance));
        // Canary: a formula twice too large is rejected by the same check.
        CHECK(std::fabs(simulated / (2.0 * variance) - 1.0) > tolerance);
      }
      // The planning figure is the least precise level's.
      CHECK(PlanningShareStdError(kind, setting.levels, row_epsilon, kN) == doctest::Approx(std::sqrt(worst)));
      if (kind == GridMechanismKind::kGrr) {
        // GRR's is the categorical questions' formula at f = 1/L.
        auto categorical = CreateCategoricalMechanism({CategoricalKind::kGrr, setting.levels, row_epsilon, 1});
        REQUIRE(categorical.ok());
        CHECK(worst == doctest::Approx(PopulationFrequencyVariance((*categorical)->probabilities(),
                                                                   1.0 / setting.levels, kN)).epsilon(1e-12));
      }
    }
  }
  CHECK(std::isnan(PlanningShareStdError(GridMechanismKind::kDuchi, 5, 1.0, kN)));
}

TEST_CASE("grid advisor: recommends for the mean and for the distribution, and says when they differ") {
  // L = 6, 5 items at epsilon 1 (0.2 per item): ordinal's mean is the more precise, GRR's shares are.
  const json differ = GridAdviceToJson(5, 6, 1.0, 1000, GridMechanismKind::kOrdinal);
  CHECK(differ["recommended"] == "ordinal");
  CHECK(differ["recommended_for_distribution"] == "grr");
  const json& ordinal = differ["mechanisms"][0];
  const json& grr = differ["mechanisms"][1];
  CHECK(ordinal["name"] == "ordinal");
  CHECK(ordinal["mean_std_error"].get<double>() < grr["mean_std_error"].get<double>());
  CHECK(ordinal["share_std_error"].get<double>() > grr["share_std_error"].get<double>());
  CHECK(ordinal["share_ci_half_width"].get<double>() ==
        doctest::Approx(kZ95 * ordinal["share_std_error"].get<double>()));
  CHECK(ordinal["share_std_error"].get<double>() ==
        doctest::Approx(PlanningShareStdError(GridMechanismKind::kOrdinal, 6, 0.2, 1000)));
  CHECK(Says(differ["note"], "\"ordinal\" gives the more precise mean"));
  CHECK(Says(differ["note"], "times less precise"));
  CHECK(Says(differ["note"], "choose \"grr\" if the spread over the scale matters"));
  CHECK(!Says(differ["note"], "the question uses"));
  // Duchi gives no distribution: its share fields are null.
  CHECK(differ["mechanisms"][2]["share_std_error"].is_null());
  CHECK(differ["mechanisms"][2]["share_ci_half_width"].is_null());
  // L = 5, 1 item at epsilon 4: GRR is better for both.
  const json agree = GridAdviceToJson(1, 5, 4.0, 1000, GridMechanismKind::kOrdinal);
  CHECK(agree["recommended"] == "grr");
  CHECK(agree["recommended_for_distribution"] == "grr");
  CHECK(Says(agree["note"], "\"grr\" gives both the more precise mean"));
  CHECK(!Says(agree["note"], "if the spread over the scale matters"));
  CHECK(Says(agree["note"], "the question uses \"ordinal\""));
  MESSAGE(differ["note"].get<std::string>());
  MESSAGE(agree["note"].get<std::string>());
}
