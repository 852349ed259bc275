#include "core/frequency/unary_encoding.h"

#include <cmath>

namespace deniable {

SupportProbabilities UnaryEncodingMechanism::probabilities() const {
  const double eps = *epsilon();
  if (params().kind == CategoricalKind::kOue) return {0.5, 1.0 / (std::exp(eps) + 1.0)};
  const double half = std::exp(eps / 2.0);
  return {half / (half + 1.0), 1.0 / (half + 1.0)};
}

Support UnaryEncodingMechanism::PerturbValid(int answer, RandomSource& random) const {
  const auto [p, q] = probabilities();
  Support bits(static_cast<std::size_t>(options()));
  for (int i = 0; i < options(); ++i) bits[static_cast<std::size_t>(i)] = Bernoulli(random, i == answer ? p : q);
  return bits;
}

nlohmann::json UnaryEncodingMechanism::Encode(const Support& support) const {
  auto bits = nlohmann::json::array();
  for (auto bit : support) bits.push_back(static_cast<int>(bit));
  return bits;
}

Result<Support> UnaryEncodingMechanism::Decode(const nlohmann::json& wire) const {
  const std::string name = CategoricalKindName(params().kind);
  if (!wire.is_array() || wire.size() != static_cast<std::size_t>(options())) {
    return MakeError("a " + name + " report must be an array of " + std::to_string(options()) + " bits");
  }
  Support bits;
  bits.reserve(wire.size());
  for (std::size_t i = 0; i < wire.size(); ++i) {
    const auto& bit = wire[i];
    if (!bit.is_number_integer() || (bit.get<long long>() != 0 && bit.get<long long>() != 1)) {
      return MakeError("bit " + std::to_string(i) + " must be 0 or 1, but is " + bit.dump());
    }
    bits.push_back(static_cast<std::uint8_t>(bit.get<int>()));
  }
  return bits;
}

}  // namespace deniable
