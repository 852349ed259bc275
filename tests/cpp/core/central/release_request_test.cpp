// What an administrator asks for (release_request.h): read strictly, and the
// named method run.
#include <doctest/doctest.h>

#include <string>

#include "core/central/release_request.h"
#include "core/common/seeded_random.h"

using namespace deniable;

TEST_CASE("central: release requests are read strictly and run the named method") {
  CHECK(ParseReleaseRequest({{"method", "sreb_gca"}, {"epsilon", 0.5}})->rho == 0.5);
  CHECK(ParseReleaseRequest({{"method", "sreb_gca"}, {"epsilon", 0.5}, {"rho", 1.0}}).error() ==
        "rho: must be in [0.001, 0.999] (it splits epsilon between two noise draws, each needing at least 0.1% of "
        "it), but is 1");
  // Valid numbers, but parts of the budget too small to draw exact noise for (answered 500 before).
  CHECK(ParseReleaseRequest({{"method", "sreb_gca"}, {"epsilon", 0.5}, {"rho", 1e-300}}).error().rfind("rho: must be", 0) == 0);
  CHECK(ParseReleaseRequest({{"method", "ahp"}, {"epsilon", 0.5}, {"ratio", 1e-12}}).error().rfind("ratio: must be", 0) == 0);
  CHECK(ParseReleaseRequest({{"method", "ahp"}, {"epsilon", 0.5}, {"eta", 1}}).error() == "eta: must be in [0, 1), but is 1");
  // The smallest allowed split still draws its noise.
  SeededRandom small_split_random(5);
  CHECK(RunRelease(*ParseReleaseRequest({{"method", "sreb_gca"}, {"epsilon", 0.01}, {"rho", 0.001}}), {5, 0, 3}, 2,
                   small_split_random).ok());
  CHECK(ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", 0}}).error() ==
        "epsilon: epsilon must be finite and in [0.01, 30], but is 0");
  CHECK(ParseReleaseRequest({{"method", "noisefirst"}, {"epsilon", 1}}).error() ==
        "method: must be \"sreb_gca\", \"dp_base\" or \"ahp\", but is \"noisefirst\"");
  CHECK(!ParseReleaseRequest({{"method", "dp_base"}, {"epsilon", 1}, {"rho", 0.2}}).ok());  // rho is not dp_base's
  const auto ahp = ParseReleaseRequest({{"method", "ahp"}, {"epsilon", 1}});
  CHECK(ahp->ToJson() == nlohmann::json{{"method", "ahp"}, {"epsilon", 1.0}, {"ratio", 0.85}, {"eta", 0.35}});
  SeededRandom random(2);
  for (const char* method : {"sreb_gca", "dp_base", "ahp"}) {
    const auto request = ParseReleaseRequest({{"method", method}, {"epsilon", 1}});
    const auto release = RunRelease(*request, {5, 0, 3, 40}, 1, random);
    REQUIRE(release.ok());
    CHECK(release->values.size() == 4);
  }
}
