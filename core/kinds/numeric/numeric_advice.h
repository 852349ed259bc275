// A numeric question's design advice (NumericQuestionKind::DesignAdvice):
// the expected 95% half-width of the mean, for n respondents, under every
// mechanism the kind offers with a linear mean estimate (Laplace, Duchi,
// Piecewise, Hybrid, Square Wave), each built by the factory at the
// question's epsilon and range, and the question's own mechanism (RVNS: no
// closed-form variance of its mean, a row without numbers). The numbers are
// core/numeric/mean_advice.h's (population intervals, answers spread evenly;
// the worst case for the range beside them). "best": the most precise mean.
//
// The mean is one of the kind's estimates: Square Wave (the builder's
// default) estimates the whole distribution (quantiles, histogram) best at
// equal epsilon, which this advice does not measure; the document says so.
//
// A mechanism with its own advice (privacy levels: levels_advice.h) gives it
// instead. Questions without a formal epsilon (the published RVNS) have none:
// there is no epsilon to compare at.
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// {"kind": "numeric_mean", "respondents", "epsilon", "range", "assumption",
//  "interval_for", "rows": [MeanAdviceRow...], "current", "best", "note"}.
std::optional<nlohmann::json> NumericMeanAdvice(const NumericMechanism& mechanism, std::int64_t respondents);

}  // namespace deniable
