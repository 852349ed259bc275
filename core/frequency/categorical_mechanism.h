// The client-side interface of every categorical mechanism.
//
// A categorical question has options 0..k-1. Every mechanism here turns the
// respondent's answer into a perturbed report that "supports" a set of options
// (GRR: one option; unary encoding: the 1-bits; negative survey: the options
// the respondent says are NOT theirs). All of them satisfy, independently for
// each respondent and each option i:
//     P(i supported | answer = i) = p,   P(i supported | answer != i) = q,
// which is everything the server needs: one estimator (frequency_estimator.h)
// serves every mechanism, and nothing about a mechanism is written twice.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"

namespace deniable {

enum class CategoricalKind { kGrr, kOue, kSue, kNegativeSurvey };

// The wire name of each mechanism ("grr", "oue", "sue", "negative").
std::string CategoricalKindName(CategoricalKind kind);
Result<CategoricalKind> ParseCategoricalKind(const std::string& name);

struct CategoricalParams {
  CategoricalKind kind = CategoricalKind::kGrr;
  int options = 2;                 // k
  std::optional<double> epsilon;   // absent only for the pure negative survey
  int reported_options = 1;        // s: negative survey only
};

// One 0/1 entry per option: the options a perturbed report supports.
using Support = std::vector<std::uint8_t>;

struct SupportProbabilities {
  double p;  // P(option supported | it is the answer)
  double q;  // P(option supported | it is not the answer)
};

class CategoricalMechanism {
 public:
  explicit CategoricalMechanism(CategoricalParams params) : params_(params) {}
  virtual ~CategoricalMechanism() = default;
  CategoricalMechanism(const CategoricalMechanism&) = delete;
  CategoricalMechanism& operator=(const CategoricalMechanism&) = delete;

  const CategoricalParams& params() const { return params_; }
  int options() const { return params_.options; }
  // The LDP epsilon the mechanism guarantees; nullopt means no finite epsilon.
  std::optional<double> epsilon() const { return params_.epsilon; }

  virtual SupportProbabilities probabilities() const = 0;

  // Perturbs one answer (0..k-1) with the injected randomness.
  Result<Support> Perturb(int answer, RandomSource& random) const;

  // The report's wire form, and its strict inverse used to validate reports.
  virtual nlohmann::json Encode(const Support& support) const = 0;
  virtual Result<Support> Decode(const nlohmann::json& wire) const = 0;

 protected:
  virtual Support PerturbValid(int answer, RandomSource& random) const = 0;

 private:
  CategoricalParams params_;
};

// Validates every parameter, then builds the mechanism; an invalid mechanism
// cannot exist.
Result<std::unique_ptr<const CategoricalMechanism>> CreateCategoricalMechanism(const CategoricalParams& params);

// Helpers shared by the mechanisms' Encode/Decode.
nlohmann::json SupportToIndices(const Support& support);
Support IndicesToSupport(const std::vector<int>& indices, int options);

}  // namespace deniable
