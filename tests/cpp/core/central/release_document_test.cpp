// A data consumer's bin that cuts a release's group (issue 26, item 6): its
// value shares the group's mean, and no noise interval exists for it; the
// release publishes bounds instead (from none to all of the cut groups'
// counts, with the noise), which must cover the bin's true sum at least at
// the confidence however the group's counts spread over its members, and
// hold the published value.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/discrete_laplace.h"
#include "core/central/release_document.h"
#include "core/common/seeded_random.h"

using namespace deniable;
using nlohmann::json;

namespace {

// Groups {0, 1} and {2, 3}, one draw each, as SReB_GCA or AHP publish them (sensitivity 2, epsilon 1).
LedgerRelease GroupedRelease(const std::vector<std::int64_t>& counts, const DiscreteLaplace& noise, RandomSource& random) {
  LedgerRelease release;
  release.request.method = "dp_base";  // its draws' law: the whole epsilon, as these groups' draws here
  release.request.epsilon = 1.0;
  release.sensitivity = 2;
  release.groups = {{0, 1}, {2, 3}};
  release.values.assign(4, 0.0);
  for (const auto& group : release.groups) {
    const double mean = (static_cast<double>(counts[group[0]] + counts[group[1]]) + static_cast<double>(noise.Draw(random))) / 2.0;
    for (std::size_t b : group) release.values[b] = mean;
  }
  return release;
}

}  // namespace

TEST_CASE("central: a consumer's bin that cuts a group gets honest bounds that cover at least at the confidence") {
  const ReleaseLayout layout{{"a", "b", "c", "d"},
                             {{"consumer", {{"first", 0, 1}, {"middle", 1, 3}, {"all", 0, 4}}}}};
  const auto noise = DiscreteLaplace::Create(1.0, 2).value();
  // The two extremes of a group's spread: all of it in the cut bin, or none of it.
  for (const std::vector<std::int64_t>& counts : {std::vector<std::int64_t>{40, 0, 0, 25}, std::vector<std::int64_t>{0, 40, 25, 0}}) {
    SeededRandom random(11);
    constexpr int kTrials = 1000;
    std::vector<int> covered(3, 0);
    for (int t = 0; t < kTrials; ++t) {
      const json document = ReleaseDocument(GroupedRelease(counts, noise, random), layout);
      const json& bins = document["views"][0]["bins"];
      const double truths[] = {static_cast<double>(counts[0]), static_cast<double>(counts[1] + counts[2]),
                               static_cast<double>(counts[0] + counts[1] + counts[2] + counts[3])};
      for (std::size_t v = 0; v < 3; ++v) {
        REQUIRE(bins[v]["ci_low"].is_number());
        const double value = bins[v]["value"].get<double>();
        CHECK(bins[v]["ci_low"].get<double>() <= value);  // an estimate is never outside its own interval
        CHECK(value <= bins[v]["ci_high"].get<double>());
        covered[v] += bins[v]["ci_low"].get<double>() <= truths[v] && truths[v] <= bins[v]["ci_high"].get<double>();
      }
      CHECK(bins[0]["cuts_groups"] == 1);
      CHECK(bins[1]["cuts_groups"] == 2);
      CHECK(!bins[2].contains("cuts_groups"));
    }
    MESSAGE("coverage (first, middle, all) with counts " << counts[0] << "," << counts[1] << "," << counts[2] << ","
                                                         << counts[3] << ": " << covered[0] << ", " << covered[1] << ", "
                                                         << covered[2] << " of " << kTrials);
    // At least 95%, less 3 binomial standard errors of 1000 trials (0.021).
    for (int v = 0; v < 3; ++v) CHECK(covered[static_cast<std::size_t>(v)] >= kTrials * (0.95 - 3 * std::sqrt(0.95 * 0.05 / kTrials)));
  }
}
