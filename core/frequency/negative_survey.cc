#include "core/frequency/negative_survey.h"

#include <cmath>
#include <set>

#include "core/common/validation.h"

namespace deniable {

SupportProbabilities NegativeSurveyMechanism::probabilities() const {
  const double k = options();
  const double s = params().reported_options;
  const double w = epsilon() ? std::exp(-*epsilon()) : 0.0;
  const double p = w * s / (w * s + k - s);
  return {p, (p * (s - 1.0) + (1.0 - p) * s) / (k - 1.0)};
}

Support NegativeSurveyMechanism::PerturbValid(int answer, RandomSource& random) const {
  const int k = options();
  const bool include_answer = Bernoulli(random, probabilities().p);
  int to_draw = params().reported_options - (include_answer ? 1 : 0);
  // Partial Fisher-Yates over the k-1 options that are not the answer.
  std::vector<int> others;
  others.reserve(static_cast<std::size_t>(k - 1));
  for (int i = 0; i < k; ++i) {
    if (i != answer) others.push_back(i);
  }
  std::vector<int> chosen;
  if (include_answer) chosen.push_back(answer);
  for (int i = 0; i < to_draw; ++i) {
    const auto remaining = static_cast<std::uint64_t>(others.size()) - static_cast<std::uint64_t>(i);
    const auto pick = static_cast<std::size_t>(i) + static_cast<std::size_t>(UniformBelow(random, remaining));
    std::swap(others[static_cast<std::size_t>(i)], others[pick]);
    chosen.push_back(others[static_cast<std::size_t>(i)]);
  }
  return IndicesToSupport(chosen, k);
}

nlohmann::json NegativeSurveyMechanism::Encode(const Support& support) const {
  return SupportToIndices(support);
}

Result<Support> NegativeSurveyMechanism::Decode(const nlohmann::json& wire) const {
  const int s = params().reported_options;
  if (!wire.is_array() || wire.size() != static_cast<std::size_t>(s)) {
    return MakeError("a negative-survey report must be an array of " + std::to_string(s) +
                     " distinct option indices");
  }
  std::set<int> seen;
  for (const auto& entry : wire) {
    if (!entry.is_number_integer() || entry.get<long long>() < 0 || entry.get<long long>() >= options()) {
      return MakeError("option index must be between 0 and " + std::to_string(options() - 1) + ", but is " +
                       entry.dump());
    }
    if (!seen.insert(entry.get<int>()).second) {
      return MakeError("option " + entry.dump() + " appears twice in a negative-survey report");
    }
  }
  return IndicesToSupport(std::vector<int>(seen.begin(), seen.end()), options());
}

Result<std::unique_ptr<const CategoricalMechanism>> CreateNegativeSurvey(const CategoricalParams& params) {
  const int k = params.options;
  const int max_s = params.epsilon ? k - 1 : k - 2;
  if (!params.epsilon && k < 3) {
    return MakeError("the pure negative survey needs at least 3 options (with 2, the report reveals the answer)");
  }
  if (auto status = ValidateIntInRange(params.reported_options, 1, max_s, "reported_options"); !status) {
    return MakeError(status.error() + (params.epsilon ? "" : " (the pure negative survey must leave at least 2 "
                                                             "options unreported, or the answer is revealed)"));
  }
  return std::unique_ptr<const CategoricalMechanism>(new NegativeSurveyMechanism(params));
}

}  // namespace deniable
