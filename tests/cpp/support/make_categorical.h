// Building a categorical mechanism in a test: the mechanism, or the error its
// creation must give (the tests of frequency/'s mechanisms share these).
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <optional>
#include <string>

#include "core/frequency/categorical_mechanism.h"

namespace deniable::testing {

inline std::unique_ptr<const CategoricalMechanism> Make(CategoricalKind kind, int k, std::optional<double> eps,
                                                        int s = 1) {
  auto mechanism = CreateCategoricalMechanism({kind, k, eps, s});
  REQUIRE_MESSAGE(mechanism.ok(), (mechanism.ok() ? "" : mechanism.error()));
  return std::move(mechanism).value();
}

inline std::string CreateError(CategoricalKind kind, int k, std::optional<double> eps, int s = 1) {
  auto mechanism = CreateCategoricalMechanism({kind, k, eps, s});
  REQUIRE_FALSE(mechanism.ok());
  return mechanism.error();
}

}  // namespace deniable::testing
