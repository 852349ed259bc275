// Exact behaviour every categorical mechanism shares (categorical_mechanism.h):
// validation messages, perturbation invariants and the wire format.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/frequency/categorical_mechanism.h"
#include "tests/cpp/support/make_categorical.h"

using namespace deniable;
using deniable::testing::CreateError;
using deniable::testing::Make;

TEST_CASE("creation validates every parameter with a clear message") {
  CHECK(CreateError(CategoricalKind::kGrr, 1, 1.0) == "number of options must be between 2 and 4096, but is 1");
  CHECK(CreateError(CategoricalKind::kGrr, 3, std::nullopt) == "epsilon is required for grr");
  CHECK(CreateError(CategoricalKind::kOue, 3, 0.0) == "epsilon must be finite and in [0.01, 30], but is 0");
  CHECK(CreateError(CategoricalKind::kSue, 3, -1.0) == "epsilon must be finite and in [0.01, 30], but is -1");
  CHECK(CreateError(CategoricalKind::kGrr, 3, NAN).find("epsilon must be finite") == 0);
  CHECK(CreateError(CategoricalKind::kGrr, 3, 31.0) == "epsilon must be finite and in [0.01, 30], but is 31");
  CHECK(CreateError(CategoricalKind::kGrr, 3, 1.0, 2) == "reported_options applies only to the negative survey");
  CHECK(CreateError(CategoricalKind::kNegativeSurvey, 2, std::nullopt).find("at least 3 options") !=
        std::string::npos);
  CHECK(CreateError(CategoricalKind::kNegativeSurvey, 5, std::nullopt, 4).find(
            "reported_options must be between 1 and 3, but is 4") == 0);
  CHECK(CreateError(CategoricalKind::kNegativeSurvey, 5, 1.0, 5) ==
        "reported_options must be between 1 and 4, but is 5");
  CHECK(ParseCategoricalKind("rappor").error() ==
        "unknown mechanism \"rappor\" (expected one of grr, oue, sue, negative)");
}

TEST_CASE("perturb rejects answers out of range") {
  auto grr = Make(CategoricalKind::kGrr, 3, 1.0);
  SeededRandom random(1);
  CHECK(grr->Perturb(3, random).error() == "answer must be between 0 and 2, but is 3");
  CHECK(grr->Perturb(-1, random).error() == "answer must be between 0 and 2, but is -1");
}

TEST_CASE("reports have the mechanism's shape, and the pure negative survey never reports the answer") {
  SeededRandom random(7);
  auto grr = Make(CategoricalKind::kGrr, 6, 0.5);
  auto oue = Make(CategoricalKind::kOue, 6, 0.5);
  auto ns = Make(CategoricalKind::kNegativeSurvey, 6, std::nullopt, 3);
  auto bounded = Make(CategoricalKind::kNegativeSurvey, 6, 0.5, 3);
  for (int t = 0; t < 2000; ++t) {
    const int answer = t % 6;
    auto sum = [](const Support& s) { int total = 0; for (auto b : s) total += b; return total; };
    CHECK(sum(*grr->Perturb(answer, random)) == 1);
    CHECK(oue->Perturb(answer, random)->size() == 6u);
    const auto negative = *ns->Perturb(answer, random);
    CHECK(sum(negative) == 3);
    CHECK(negative[answer] == 0);
    CHECK(sum(*bounded->Perturb(answer, random)) == 3);
  }
}

TEST_CASE("wire formats round trip and malformed reports are rejected with a clear message") {
  auto grr = Make(CategoricalKind::kGrr, 3, 1.0);
  auto sue = Make(CategoricalKind::kSue, 3, 1.0);
  auto ns = Make(CategoricalKind::kNegativeSurvey, 5, std::nullopt, 2);
  CHECK(grr->Encode({0, 0, 1}) == nlohmann::json(2));
  CHECK(*grr->Decode(2) == Support{0, 0, 1});
  CHECK(sue->Encode({1, 0, 1}) == nlohmann::json::parse("[1,0,1]"));
  CHECK(*sue->Decode(nlohmann::json::parse("[1,0,1]")) == Support{1, 0, 1});
  CHECK(ns->Encode({0, 1, 0, 0, 1}) == nlohmann::json::parse("[1,4]"));
  CHECK(*ns->Decode(nlohmann::json::parse("[4,1]")) == Support{0, 1, 0, 0, 1});

  CHECK(grr->Decode(3).error() == "option index must be between 0 and 2, but is 3");
  CHECK(grr->Decode("1").error() == "a grr report must be one option index (an integer), but is \"1\"");
  CHECK(grr->Decode(1.5).error() == "a grr report must be one option index (an integer), but is 1.5");
  CHECK(sue->Decode(nlohmann::json::parse("[1,0]")).error() == "a sue report must be an array of 3 bits");
  CHECK(sue->Decode(nlohmann::json::parse("[1,0,2]")).error() == "bit 2 must be 0 or 1, but is 2");
  CHECK(sue->Decode(nlohmann::json::parse("[1,0,true]")).error() == "bit 2 must be 0 or 1, but is true");
  CHECK(ns->Decode(nlohmann::json::parse("[1]")).error() ==
        "a negative-survey report must be an array of 2 distinct option indices");
  CHECK(ns->Decode(nlohmann::json::parse("[1,1]")).error() == "option 1 appears twice in a negative-survey report");
  CHECK(ns->Decode(nlohmann::json::parse("[1,9]")).error() == "option index must be between 0 and 4, but is 9");
}
