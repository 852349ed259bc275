// The mechanisms of a "choose all that apply" question (multiple_client.h):
// the respondent's answer is a set of at most m of the k options, randomised
// on the device as a set, with one epsilon for the whole set.
//
// Per-option bits (symmetric_bits, optimized_bits): each option's membership
// bit is reported through its own binary randomized response,
//     P(bit i = 1 | i in the set) = p,   P(bit i = 1 | i not in it) = q.
// Two answers of at most m options differ in a <= m bits that only the first
// has and b <= m that only the second has (a + b <= k), so the worst
// likelihood ratio of a report is
//     eps_set = m ln(max(p/q, (1-q)/(1-p))) + min(m, k - m) ln(min(p/q, (1-q)/(1-p)))
// (sequential composition over the bits, attained by the report that has the
// first answer's bits 1 and the second's 0). The parameters are set so that
// eps_set is exactly the question's epsilon:
//   symmetric_bits: q = 1 - p, each bit at eps / d with d = min(k, 2m)
//                   (Warner's randomized response per option);
//   optimized_bits: p = 1/2 and q solved from eps_set = eps, the OUE choice
//                   (Wang et al. 2017, §4.3) that suits sparse sets: for
//                   m = 1 it is exactly OUE, and symmetric_bits is SUE.
// Wire form: the k reported bits, as unary encoding's (unary_encoding.h).
//
// Padding and sampling (padding_sampling; Qin et al. 2016, LDPMiner; Wang,
// Li and Jha 2018, "Locally Differentially Private Frequent Itemset
// Mining", §5): a set of s <= l options is padded with the dummies
// d_1 .. d_(l-s) to length l, one of the l items is drawn uniformly, and it
// is reported by generalised randomized response (grr.h) over the k + l
// values (the options, then the dummies) at the full epsilon. A set larger
// than l gives one of its own options uniformly (no dummies): its options are
// then under-counted, the truncation bias the paper states. l defaults to m.
// Wire form: the reported value's index (0..k+l-1), as grr's.
//
// Every mechanism reports, per output value i (an option, or a dummy for
// padding), whether the report supports it, with
//     P(supported | i in the (padded) set) = p_eff,  P(supported | not) = q,
// so frequency_estimator.h's estimator serves them all (multiple_results.h):
// bits: p_eff = p; padding: p_eff = q + (p - q) / l, and an option's share
// is what that estimator calls its frequency.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/frequency/categorical_mechanism.h"

namespace deniable {

enum class SetMechanismKind { kSymmetricBits, kOptimizedBits, kPaddingSampling };

// "symmetric_bits", "optimized_bits", "padding_sampling".
std::string SetMechanismName(SetMechanismKind kind);
Result<SetMechanismKind> ParseSetMechanismName(const std::string& name);
inline constexpr SetMechanismKind kSetMechanismKinds[] = {
    SetMechanismKind::kSymmetricBits, SetMechanismKind::kOptimizedBits, SetMechanismKind::kPaddingSampling};

struct SetMechanismParams {
  SetMechanismKind kind = SetMechanismKind::kOptimizedBits;
  int options = 2;      // k
  int max_choices = 2;  // m, 1..k
  double epsilon = 1.0;
  int padding = 0;      // l for padding_sampling (0: m); ignored by the bits
};

// The per-bit probabilities of the bits mechanisms, and the exact epsilon of
// the whole set for given (p, q).
SupportProbabilities SetBitsProbabilities(SetMechanismKind kind, int options, int max_choices, double epsilon);
double SetBitsEpsilon(SupportProbabilities pq, int options, int max_choices);

class SetMechanism {
 public:
  explicit SetMechanism(SetMechanismParams params);
  SetMechanism(const SetMechanism&) = delete;
  SetMechanism& operator=(const SetMechanism&) = delete;

  const SetMechanismParams& params() const { return params_; }
  bool is_bits() const { return params_.kind != SetMechanismKind::kPaddingSampling; }
  // l (padding_sampling), 0 for the bits.
  int padding() const { return is_bits() ? 0 : params_.padding; }
  // The values a report supports: the k options' bits, or the k options then the l dummies.
  int outputs() const { return params_.options + padding(); }
  // Per output value: P(supported | in the (padded) set) and P(supported | not).
  SupportProbabilities probabilities() const { return effective_; }
  // The report's own randomization (bits: p, q per bit; padding: grr's over k + l).
  SupportProbabilities raw_probabilities() const { return is_bits() ? bits_ : wire_->probabilities(); }
  // The mechanism whose wire form and report columns a report has (unary encoding or grr).
  const CategoricalMechanism& wire() const { return *wire_; }

  // `set`: distinct option indices, at most m (checked by the caller, ReadSetAnswer).
  Support Perturb(const std::vector<int>& set, RandomSource& random) const;
  nlohmann::json Encode(const Support& support) const { return wire_->Encode(support); }
  Result<Support> Decode(const nlohmann::json& wire) const { return wire_->Decode(wire); }

 private:
  SetMechanismParams params_;
  SupportProbabilities bits_{};  // the bits' p and q, computed portably (the same report natively and in WebAssembly)
  std::shared_ptr<const CategoricalMechanism> wire_;
  SupportProbabilities effective_{};
};

// Validates every parameter (k 2..64, m 1..k, epsilon, l 1..m), then builds the mechanism.
Result<std::shared_ptr<const SetMechanism>> CreateSetMechanism(const SetMechanismParams& params);

// A true answer: an array of distinct option indices (0..k-1), at most m of them ([] chooses none).
Result<std::vector<int>> ReadSetAnswer(const nlohmann::json& answer, int options, int max_choices);

}  // namespace deniable
