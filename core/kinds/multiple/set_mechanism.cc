#include "core/kinds/multiple/set_mechanism.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/common/portable_math.h"
#include "core/common/validation.h"
#include "core/frequency/grr.h"
#include "core/frequency/unary_encoding.h"

namespace deniable {
namespace {

constexpr int kMaxSetOptions = 64;

// eps_set of optimized_bits (p = 1/2) at q: m ln(1/(2q)) + b ln(2(1-q)), b = min(m, k - m);
// 1/(2q) >= 2(1-q) for every q, so the first log is the larger.
double OptimizedEpsilon(double q, int options, int max_choices) {
  const int b = std::min(max_choices, options - max_choices);
  return max_choices * PortableLog(0.5 / q) + b * PortableLog(2.0 * (1.0 - q));
}

// q in (0, 1/2) with OptimizedEpsilon(q) = epsilon: the function falls from infinity to 0 on (0, 1/2),
// so bisection; 200 halvings reach the double next to the root (IEEE arithmetic only: the same q everywhere).
double OptimizedQ(int options, int max_choices, double epsilon) {
  double low = 0.0, high = 0.5;
  for (int i = 0; i < 200 && high - low > 0.0; ++i) {
    const double mid = 0.5 * (low + high);
    if (mid == low || mid == high) break;
    (mid > 0.0 && OptimizedEpsilon(mid, options, max_choices) > epsilon ? low : high) = mid;
  }
  return 0.5 * (low + high);
}

}  // namespace

std::string SetMechanismName(SetMechanismKind kind) {
  switch (kind) {
    case SetMechanismKind::kSymmetricBits: return "symmetric_bits";
    case SetMechanismKind::kOptimizedBits: return "optimized_bits";
    case SetMechanismKind::kPaddingSampling: return "padding_sampling";
  }
  return "unknown";
}

Result<SetMechanismKind> ParseSetMechanismName(const std::string& name) {
  for (auto kind : kSetMechanismKinds) {
    if (SetMechanismName(kind) == name) return kind;
  }
  return MakeError("unknown mechanism \"" + name + "\" (expected one of symmetric_bits, optimized_bits, padding_sampling)");
}

SupportProbabilities SetBitsProbabilities(SetMechanismKind kind, int options, int max_choices, double epsilon) {
  if (kind == SetMechanismKind::kOptimizedBits) return {0.5, OptimizedQ(options, max_choices, epsilon)};
  const int d = std::min(options, 2 * max_choices);
  const double e = PortableExp(epsilon / d);
  return {e / (e + 1.0), 1.0 / (e + 1.0)};
}

double SetBitsEpsilon(SupportProbabilities pq, int options, int max_choices) {
  const double ones = std::log(pq.p / pq.q), zeros = std::log((1.0 - pq.q) / (1.0 - pq.p));
  const int b = std::min(max_choices, options - max_choices);
  return max_choices * std::max(ones, zeros) + b * std::min(ones, zeros);
}

SetMechanism::SetMechanism(SetMechanismParams params) : params_(params) {
  if (is_bits()) {
    bits_ = SetBitsProbabilities(params_.kind, params_.options, params_.max_choices, params_.epsilon);
    // Unary encoding with the same bits gives the wire form: OUE's q = 1/(e^x + 1) at x = ln((1-q)/q), SUE's
    // p = e^(x/2)/(e^(x/2) + 1) at x = 2 ln(p/q).
    const bool optimized = params_.kind == SetMechanismKind::kOptimizedBits;
    const double x = optimized ? std::log((1.0 - bits_.q) / bits_.q) : 2.0 * std::log(bits_.p / bits_.q);
    wire_ = std::make_shared<UnaryEncodingMechanism>(
        CategoricalParams{optimized ? CategoricalKind::kOue : CategoricalKind::kSue, params_.options, x, 1});
    effective_ = bits_;
    return;
  }
  wire_ = std::make_shared<GrrMechanism>(
      CategoricalParams{CategoricalKind::kGrr, params_.options + params_.padding, params_.epsilon, 1});
  const auto pq = wire_->probabilities();
  effective_ = {pq.q + (pq.p - pq.q) / params_.padding, pq.q};
}

Support SetMechanism::Perturb(const std::vector<int>& set, RandomSource& random) const {
  if (is_bits()) {
    Support bits(static_cast<std::size_t>(params_.options), 0);
    for (int i : set) bits[static_cast<std::size_t>(i)] = 1;
    for (auto& bit : bits) bit = Bernoulli(random, bit ? bits_.p : bits_.q) ? 1 : 0;
    return bits;
  }
  // Padding: item u of the padded set (the options, then the dummies d_1 .. d_(l-s) at k .. k+l-s-1).
  const auto s = static_cast<std::uint64_t>(set.size());
  const auto l = static_cast<std::uint64_t>(params_.padding);
  const std::uint64_t u = UniformBelow(random, std::max(s, l));
  const int item = u < s ? set[u] : params_.options + static_cast<int>(u - s);
  return *wire_->Perturb(item, random);
}

Result<std::shared_ptr<const SetMechanism>> CreateSetMechanism(const SetMechanismParams& params) {
  DENIABLE_TRY(ValidateIntInRange(params.options, 2, kMaxSetOptions, "number of options"));
  DENIABLE_TRY(ValidateIntInRange(params.max_choices, 1, params.options, "max_choices"));
  DENIABLE_TRY(ValidateEpsilon(params.epsilon));
  SetMechanismParams checked = params;
  if (checked.kind == SetMechanismKind::kPaddingSampling) {
    if (checked.padding == 0) checked.padding = checked.max_choices;
    // More dummies than m only add noise: every set fits in m.
    DENIABLE_TRY(ValidateIntInRange(checked.padding, 1, checked.max_choices, "padding"));
  } else {
    if (checked.padding != 0) return MakeError("padding applies only to padding_sampling");
  }
  return std::shared_ptr<const SetMechanism>(new SetMechanism(checked));
}

Result<std::vector<int>> ReadSetAnswer(const nlohmann::json& answer, int options, int max_choices) {
  if (!answer.is_array()) return MakeError("must be an array of option indices, but is " + answer.dump());
  if (answer.size() > static_cast<std::size_t>(max_choices)) {
    return MakeError("at most " + std::to_string(max_choices) + " options may be chosen, but " +
                     std::to_string(answer.size()) + " are");
  }
  std::set<int> seen;
  std::vector<int> set;
  for (std::size_t i = 0; i < answer.size(); ++i) {
    const auto& item = answer[i];
    const bool valid = item.is_number_integer() && item.get<std::int64_t>() >= 0 && item.get<std::int64_t>() < options;
    if (!valid) {
      return MakeError("[" + std::to_string(i) + "]: must be an option index between 0 and " +
                       std::to_string(options - 1) + ", but is " + item.dump());
    }
    if (!seen.insert(item.get<int>()).second) {
      return MakeError("[" + std::to_string(i) + "]: option " + item.dump() + " is chosen twice");
    }
    set.push_back(item.get<int>());
  }
  std::sort(set.begin(), set.end());  // one report law per set, whatever order the page lists it in
  return set;
}

}  // namespace deniable
