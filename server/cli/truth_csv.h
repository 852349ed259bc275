// `deniable simulate`: a numeric question's truth may be a column of a CSV file,
//   {"csv": "heights.csv", "column": "height_cm"}   (or "column": 2, 0-based)
// The file's first row is the header. The path is relative to the truth file's
// directory (absolute paths are used as given). Core does no I/O, so the CLI
// reads the column here and hands core {"values": [...]}
// (core/kinds/numeric/numeric_truth.h); every row's cell must be a finite number inside the
// question's range, or the error names the file, the row (1-based line of the
// file, the header being row 1) and the column. Other kinds whose truths are
// records (blocks: {"csv": FILE, "columns": {...}}; a model: its variables'
// columns; a question answered in confidence: {"csv", "column"}) get the
// whole table through QuestionKind::TruthFromTable. Every entry read from a
// file gets "table": the file's path, so that questions reading the same
// file answer from the same row (core/survey/simulation.h): one respondent
// of the data is one simulated respondent, whose answers stay together.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/survey.h"

namespace deniable::server {

// Returns `truth` with each {"csv", "column"} entry of a numeric question
// replaced by {"values": [...]}; other entries are left for core to validate.
Result<nlohmann::json> ResolveCsvTruths(const Survey& survey, nlohmann::json truth, const std::string& truth_file);

}  // namespace deniable::server
