// The results document (core SurveyResultsToJson) as CSV, one row per option:
// survey_id,question_id,question,option,n,epsilon,mechanism,count,frequency,
// std_error,ci_low,ci_high,consistent_frequency
// A numeric question has one row per summary statistic (mean, std_dev,
// median, lower_quartile, upper_quartile, skewness, kurtosis) in the option
// column, the estimate under frequency and its 95% bootstrap band under
// ci_low / ci_high; mechanisms with unbiased reports (piecewise, ...) first add
// an "unbiased_mean" row with std_error. None without reports or when the
// estimation failed.
// RFC 4180: CRLF line ends, fields with a comma, quote or line break are
// quoted with quotes doubled. Empty epsilon: no formal epsilon; empty
// estimates: no reports yet.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace deniable::server {

std::string ResultsToCsv(const nlohmann::json& results);

std::string CsvField(std::string_view text);

}  // namespace deniable::server
