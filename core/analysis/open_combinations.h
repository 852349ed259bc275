// {"combinations": "open"}: how identifying the survey's open answers are
// together. Several questions asked openly (age group, region, occupation)
// can single a person out even when each alone cannot: this counts the
// combinations of the open categorical questions' answers that respondents
// gave, and how many of them are shared by fewer than five people (the
// breakdowns and cross-tabs hide those; the builder warns before collection
// with the number of possible combinations). Numeric open questions are left
// out: nearly every number is its own combination. Nothing about any one
// combination is published.
//
// Results: {"analysis", "n" (respondents who answered every open categorical
// question), "questions": [ids], "combinations_possible", "combinations_seen",
// "small_combinations" (seen, with 1 to 4 respondents), "respondents_in_small",
// "interval_for", "warning": a sentence when any combination is small, else null}.
#pragma once

#include <memory>

#include "core/analysis/analysis.h"

namespace deniable {

Result<std::unique_ptr<Analysis>> ParseOpenCombinations(const Survey& survey, const nlohmann::json& spec);

}  // namespace deniable
