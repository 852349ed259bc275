#include "core/kinds/block/budget_split.h"

#include <algorithm>

namespace deniable {

double SensitivityWeight(Sensitivity sensitivity) {
  switch (sensitivity) {
    case Sensitivity::kMorePrivate: return 0.5;
    case Sensitivity::kUsual: return 1.0;
    case Sensitivity::kLessPrivate: return 2.0;
  }
  return 1.0;
}

const char* SensitivityName(Sensitivity sensitivity) {
  switch (sensitivity) {
    case Sensitivity::kMorePrivate: return "more_private";
    case Sensitivity::kUsual: return "usual";
    case Sensitivity::kLessPrivate: return "less_private";
  }
  return "usual";
}

int BlockChoices::answered_count() const {
  return static_cast<int>(std::count(answered.begin(), answered.end(), true));
}

std::vector<double> SplitBudget(const BlockDefinition& block, const BlockChoices& choices) {
  const std::size_t d = block.attributes.size();
  const double e = block.epsilon_per_attribute;
  const double total = e * choices.answered_count();
  // share_a = clamp(lambda * weight_a, low * e, high * e), with lambda such
  // that the shares sum to the total: the sum rises with lambda, and since
  // low <= 1 <= high it reaches the total, so bisection finds it.
  auto shares_for = [&](double lambda) {
    std::vector<double> shares(d, 0.0);
    for (std::size_t a = 0; a < d; ++a) {
      if (!choices.answered[a]) continue;
      shares[a] = std::clamp(lambda * choices.weight[a], block.bounds.low * e,
                             block.bounds.high * e);
    }
    return shares;
  };
  auto sum = [](const std::vector<double>& shares) {
    double s = 0.0;
    for (double share : shares) s += share;
    return s;
  };
  double low = 0.0, high = 2.0 * block.bounds.high * e / kLeastWeight;
  for (int step = 0; step < 200 && high - low > 0.0; ++step) {
    const double middle = 0.5 * (low + high);
    if (middle <= low || middle >= high) break;
    (sum(shares_for(middle)) < total ? low : high) = middle;
  }
  std::vector<double> shares = shares_for(high);
  // The last rounding error goes to the shares strictly inside their bounds, so the sum is the total.
  const double excess = sum(shares) - total;
  for (std::size_t a = 0; a < d; ++a) {
    if (choices.answered[a] && shares[a] - excess > block.bounds.low * e && shares[a] - excess < block.bounds.high * e) {
      shares[a] -= excess;
      break;
    }
  }
  return shares;
}

Result<std::vector<double>> ParseSensitivities(const BlockDefinition& block, const nlohmann::json& object) {
  std::vector<double> weights(block.attributes.size(), SensitivityWeight(Sensitivity::kUsual));
  if (object.is_null()) return weights;
  if (!object.is_object()) return MakeError("sensitivity: must be an object of attribute id: setting");
  for (const auto& item : object.items()) {
    const int a = block.IndexOf(item.key());
    if (a < 0) return MakeError("sensitivity." + item.key() + ": no such attribute");
    double& weight = weights[static_cast<std::size_t>(a)];
    if (item.value().is_number()) {
      weight = item.value().get<double>();
      if (!(weight >= kLeastWeight && weight <= kLargestWeight)) {
        return MakeError("sensitivity." + item.key() + ": a weight must be in [0.01, 100], but is " + item.value().dump());
      }
      continue;
    }
    const std::string value = item.value().is_string() ? item.value().get<std::string>() : "";
    bool known = false;
    for (Sensitivity s : {Sensitivity::kMorePrivate, Sensitivity::kUsual, Sensitivity::kLessPrivate}) {
      if (value == SensitivityName(s)) {
        weight = SensitivityWeight(s);
        known = true;
      }
    }
    if (!known) {
      return MakeError("sensitivity." + item.key() +
                       ": must be \"more_private\", \"usual\", \"less_private\" or a weight, but is " +
                       item.value().dump());
    }
  }
  return weights;
}

nlohmann::json ChoicesPrivacyToJson(const BlockDefinition& block, const BlockChoices& choices) {
  const std::vector<double> shares = SplitBudget(block, choices);
  auto attributes = nlohmann::json::array();
  for (std::size_t a = 0; a < block.attributes.size(); ++a) {
    attributes.push_back({{"id", block.attributes[a].id},
                          {"answered", static_cast<bool>(choices.answered[a])},
                          {"epsilon", choices.answered[a] ? nlohmann::json(shares[a]) : nlohmann::json(nullptr)}});
  }
  return {{"answered", choices.answered_count()},
          {"epsilon_total", block.epsilon_per_attribute * choices.answered_count()},
          {"attributes", attributes}};
}

}  // namespace deniable
