// The levels mechanism (levels_mechanism.h, seed 003: the LHP client): its
// definitions validated, and the reported level and bit (sampled).
#include <doctest/doctest.h>

#include <cmath>

#include "core/common/seeded_random.h"
#include "core/numeric/levels/levels_mechanism.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "tests/cpp/support/paper_levels.h"

using namespace deniable;
using nlohmann::json;
using namespace deniable::testing;

TEST_CASE("levels: definitions are validated with messages that name the field") {
  const NumericRange range{0.0, 10.0};
  auto parse = [&](const json& object) { return ParseNumericMechanism(object, range, "q.mechanism"); };
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}}).ok());
  CHECK(parse({{"name", "levels"}, {"epsilons", {1.0}}}).ok());  // one interval: Harmony at epsilon
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0}}}).error() ==
        "q.mechanism.epsilons: needs one epsilon per interval: 1 boundaries make 2 intervals, but there are 1 epsilons");
  CHECK(parse({{"name", "levels"}, {"boundaries", {6.0, 5.0}}, {"epsilons", {1.0, 2.0, 3.0}}}).error() ==
        "q.mechanism.boundaries[1]: must be increasing and inside (0, 10), but is 5");
  CHECK(parse({{"name", "levels"}, {"boundaries", {10.0}}, {"epsilons", {1.0, 2.0}}}).error() ==
        "q.mechanism.boundaries[0]: must be increasing and inside (0, 10), but is 10");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, -2.0}}}).error() ==
        "q.mechanism.epsilons[1]: epsilon must be finite and in [0.01, 30], but is -2");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}, {"variant", "x"}}).error() ==
        "q.mechanism.variant: must be \"paper\" or \"bounded\", but is \"x\"");
  CHECK(parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, "2"}}}).error() ==
        "q.mechanism.epsilons[1]: must be a finite number, but is \"2\"");
  CHECK(parse({{"name", "levels"}, {"epsilons", {1.0}}, {"mu", 2}}).error().find("mu") != std::string::npos);
  // The joint report's true epsilon must itself be an acceptable epsilon.
  const auto strong = parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {25.0, 20.0}}});
  REQUIRE(!strong.ok());
  CHECK(strong.error().find("-LDP, above the largest epsilon accepted (30)") != std::string::npos);
  // Canonical form round-trips.
  auto mechanism = parse({{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}});
  CHECK(mechanism.value()->ParamsToJson() ==
        json{{"name", "levels"}, {"boundaries", {5.0}}, {"epsilons", {1.0, 2.0}}, {"variant", "paper"}});
}

TEST_CASE("levels: the client's reported level and bit follow GRR at eps_t and RR at eps_t* (sampled)") {
  const auto levels = PaperLevels(1.0);
  SeededRandom random(2026);
  const int trials = 200000;
  // An answer in level 5 (the strictest): v = 0.8.
  const auto atoms = levels->report_atoms();
  std::vector<int> by_level(5, 0), plus_by_level(5, 0);
  for (int i = 0; i < trials; ++i) {
    const double y = levels->Perturb(0.8, random).value()[0];
    for (int d = 0; d < 5; ++d) {
      if (y == atoms[levels->AtomIndex(d, +1)]) ++by_level[d], ++plus_by_level[d];
      if (y == atoms[levels->AtomIndex(d, -1)]) ++by_level[d];
    }
  }
  for (int d = 0; d < 5; ++d) {
    const double expected = levels->channel().LevelProbability(4, d);
    CHECK(std::abs(by_level[d] / double(trials) - expected) < 4.0 * std::sqrt(expected * (1 - expected) / trials));
    // P(+1 | v, d) = (1 + v c_d)/2 with c_d the REPORTED level's contrast.
    const double plus = levels->channel().PlusProbability(0.8, d);
    CHECK(std::abs(plus_by_level[d] / double(by_level[d]) - plus) < 4.0 * std::sqrt(plus * (1 - plus) / by_level[d]));
  }
}
