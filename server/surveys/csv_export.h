// A survey's results document (core SurveyResultsToJson) as CSV in long
// ("tidy") form, one estimate per row:
// survey_id,question_id,question,type,label,measure,estimate,std_error,ci_low,
// ci_high,consistent,count,n,epsilon,mechanism,interval_for,release,
// release_method,release_epsilon,options, then one column per variable
// ("profile.age": a block's attribute, in marginal and cross-tab rows), empty where a row has none
// Each question's kind gives its rows (QuestionKind::CsvRows) in its own
// order: a categorical question one "frequency" per option (count: the
// reports supporting it); a numeric question its "unbiased_mean" (with
// std_error) where the mechanism has one, then "mean", "std_dev", "median",
// "lower_quartile", "upper_quartile", "skewness", "kurtosis" with their 95%
// bootstrap intervals; a histogram question a "frequency" per consumer bin
// and its quartiles; a block each attribute's options and cross-tab cells
// ("joint_frequency"); a model its "coefficient"s; a question answered in
// confidence each release's "released_count" per bin (the release's id, method
// and ε in their own columns). Integers as they are,
// other numbers to 6 significant digits. A question whose estimation failed
// has no rows. interval_for: what the question's 95% intervals are for,
// "population" (the default: sampling and randomisation) or "respondents"
// (?interval=respondents), empty where its results do not say. RFC 4180: CRLF line ends, fields with a comma, quote or line
// break are quoted with quotes doubled. Empty epsilon: no formal epsilon;
// empty estimates: no reports yet.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/survey/question_kind.h"
#include "core/survey/survey.h"

namespace deniable::server {

// `options`: the estimation options that produced the document, as a query
// string ("estimator=em&bin_width=5"; empty: the server's defaults), written
// in every row's `options` column so that the file records how it was made.
std::string ResultsToCsv(const Survey& survey, const nlohmann::json& results, const std::string& options = "");

// An analysis across questions (core/analysis/analysis.h) as tidy CSV:
// survey_id,analysis,label,measure,estimate,std_error,ci_low,ci_high,
// consistent,count,n,interval_for, then one column per variable (a group's
// open question, a cell's questions, a coefficient's outcome level, a
// profile's covariates) named as the analysis names it. `analysis` is the
// request's query text (what was asked); `rows` are the analysis's CsvRows.
std::string AnalysisToCsv(const std::string& survey_id, const std::string& analysis, const nlohmann::json& document,
                          const std::vector<CsvRow>& rows);

// The request's query parameters as "name=value&..." in name order (the
// parameters were validated by the results query's parser before this).
std::string OptionsQueryText(const std::map<std::string, std::string>& query);

// A text field, quoted when it holds a comma, quote or line break. A text that
// a spreadsheet would read as a formula (it begins with =, +, -, @, a tab or a
// carriage return: survey texts and option labels are written by whoever
// creates a survey) is neutralised as OWASP advises for CSV exports: a single
// quote before it, and the field quoted.
std::string CsvField(std::string_view text);

}  // namespace deniable::server
