// The results document (core SurveyResultsToJson) as CSV, one row per option:
// survey_id,question_id,question,option,n,epsilon,mechanism,count,frequency,
// std_error,ci_low,ci_high,consistent_frequency
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
