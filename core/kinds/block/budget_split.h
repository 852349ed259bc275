// How a respondent's budget m * epsilon_per_attribute is split over the m
// attributes they answer (seed 002's personalisation), from their choices
// alone.
//
// The split is a function of which attributes are answered and of the
// respondent's sensitivity setting for each; it never receives the answers.
// That is what the guarantee needs (digest section 4): with a split fixed
// independently of the values, the report on attribute j is epsilon_j-LDP
// and the block is (sum epsilon_j)-LDP; a split that depends on a value
// breaks both (an attribute answered "yes" given a small share shows it in
// the report's number of 1 bits). BlockChoices holds no answer, and
// SplitBudget takes nothing else, so the guarantee holds by construction.
//
// Sensitivity weights: more private 1/2, usual 1, less private 2, or any
// weight in [0.01, 100] (a slider; simulations draw Dirichlet splits as
// Gamma weights); shares are proportional to the weights, then held within
// the block's bounds (share bounds in units of epsilon_per_attribute):
// share_a = clamp(lambda * weight_a, low * e, high * e) with lambda such that
// the shares sum to m * e.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/block/block_definition.h"

namespace deniable {

enum class Sensitivity { kMorePrivate, kUsual, kLessPrivate };

double SensitivityWeight(Sensitivity sensitivity);
const char* SensitivityName(Sensitivity sensitivity);

// A respondent's choices: which attributes they answer, and how private each should be.
struct BlockChoices {
  std::vector<bool> answered;   // per attribute
  std::vector<double> weight;   // per attribute (ignored where not answered)
  int answered_count() const;
};

// Per attribute: its epsilon (0 where not answered). Sums to
// answered_count * epsilon_per_attribute.
std::vector<double> SplitBudget(const BlockDefinition& block, const BlockChoices& choices);

inline constexpr double kLeastWeight = 0.01;
inline constexpr double kLargestWeight = 100.0;

// {"<attribute id>": "more_private" | "usual" | "less_private" | weight, ...} (missing: usual).
Result<std::vector<double>> ParseSensitivities(const BlockDefinition& block, const nlohmann::json& object);

// The privacy of these choices, for the page before anything is sent:
// {"answered": m, "epsilon_total": m * e, "attributes": [{"id", "answered", "epsilon"}]}.
nlohmann::json ChoicesPrivacyToJson(const BlockDefinition& block, const BlockChoices& choices);

}  // namespace deniable
