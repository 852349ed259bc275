// A histogram question in `deniable simulate`: simulated respondents' answers
// drawn from the same truths as numeric questions (core/kinds/numeric/numeric_truth.h),
// and each consumer's histogram compared with theirs (L1, L-infinity, count
// MSE per bin, the consistent version's L1, CI coverage), with the advisor's
// comparison of the ways to collect them (histogram_advisor.h).
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseHistogramTruthSampler(const HistogramQuestionKind& kind,
                                                                 const nlohmann::json& entry, const std::string& where);

std::string HistogramSimulationText(const nlohmann::json& result);

}  // namespace deniable
