// A survey's results document (core SurveyResultsToJson) as CSV:
// survey_id,question_id,question,option,n,epsilon,mechanism,count,frequency,
// std_error,ci_low,ci_high,consistent_frequency
// Each question's kind gives its rows (QuestionKind::CsvRows): a categorical
// question one per option; a numeric question one per summary statistic
// (mean, std_dev, median, lower_quartile, upper_quartile, skewness, kurtosis)
// in the option column, the estimate under frequency and its 95% bootstrap
// band under ci_low / ci_high, after an "unbiased_mean" row with std_error for
// mechanisms with unbiased reports (piecewise, ...); none without reports.
// A question whose estimation failed has no rows.
// RFC 4180: CRLF line ends, fields with a comma, quote or line break are
// quoted with quotes doubled. Empty epsilon: no formal epsilon; empty
// estimates: no reports yet.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/survey/survey.h"

namespace deniable::server {

std::string ResultsToCsv(const Survey& survey, const nlohmann::json& results);

std::string CsvField(std::string_view text);

}  // namespace deniable::server
