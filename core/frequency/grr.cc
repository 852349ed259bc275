#include "core/frequency/grr.h"

#include <cmath>

namespace deniable {

SupportProbabilities GrrMechanism::probabilities() const {
  const double e = std::exp(*epsilon());
  const double denominator = e + options() - 1;
  return {e / denominator, 1.0 / denominator};
}

Support GrrMechanism::PerturbValid(int answer, RandomSource& random) const {
  int reported = answer;
  if (!Bernoulli(random, probabilities().p)) {
    // Uniform over the k-1 other options: draw from 0..k-2 and skip the answer.
    reported = static_cast<int>(UniformBelow(random, static_cast<std::uint64_t>(options() - 1)));
    if (reported >= answer) ++reported;
  }
  return IndicesToSupport({reported}, options());
}

nlohmann::json GrrMechanism::Encode(const Support& support) const {
  return SupportToIndices(support).at(0);
}

Result<Support> GrrMechanism::Decode(const nlohmann::json& wire) const {
  if (!wire.is_number_integer()) {
    return MakeError("a grr report must be one option index (an integer), but is " + wire.dump());
  }
  const auto index = wire.get<long long>();
  if (index < 0 || index >= options()) {
    return MakeError("option index must be between 0 and " + std::to_string(options() - 1) + ", but is " +
                     wire.dump());
  }
  return IndicesToSupport({static_cast<int>(index)}, options());
}

}  // namespace deniable
