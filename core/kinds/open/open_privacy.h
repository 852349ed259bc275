// `"privacy": "open"`: a question asked openly (a demographic, a stratum,
// consent) whose answer is sent as given, counted exactly and published
// without noise. It is what lets a randomised answer be broken down by group
// and regressed on covariates (core/analysis/). No epsilon protects it; the
// randomised questions keep theirs whatever the open answers are, since each
// is randomised on the device independently of everything else the report
// holds (the likelihood ratio of a randomised response given the open answers
// is still at most e^epsilon).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

inline constexpr const char* kOpenPrivacy = "open";

// Whether the question says "privacy": "open"; an error when an open question
// carries a field that only randomised or confidential questions have.
Result<bool> IsOpenQuestion(const nlohmann::json& question, const std::string& where);

// The privacy document of an open question (results, page, codebook).
nlohmann::json OpenPrivacyToJson();

// Counts of open answers from 1 to kSmallCellLimit - 1 are not published
// (a breakdown's group, a combination, an option): fewer than five people
// sharing an answer to questions asked openly are easy to pick out.
inline constexpr std::int64_t kSmallCellLimit = 5;

// Which of a table's counts are not published: every count from 1 to
// kSmallCellLimit - 1, and, when that hides exactly one, the smallest other
// count too (zero included), since the total minus the shown counts would
// give the hidden one away. Two hidden counts show only their sum.
std::vector<bool> HiddenCounts(const std::vector<std::int64_t>& counts);

}  // namespace deniable
