// A capability of question kinds (QuestionKind::report_columns): a report's
// wire form as columns of the reports' export (server/surveys/report_export.h), one
// row per stored report, so that researchers can redo an analysis in their
// own tools (R's rr::rrreg on a randomised answer, for instance).
//
// The export holds what the report holds and nothing more: the reported
// option, the reported bits, the reported values. It is not the true answer;
// `Channel` says how a report depends on it (the mechanism and its
// parameters), which is what a likelihood needs. Kinds answered in
// confidence have no such capability: their answers are never exported.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace deniable {

struct ReportColumn {
  // Appended to the question's id to name the column: "" for a question's
  // only column, ".bit_3", ".value_1", ".height.bit_0" (a block's attribute).
  std::string suffix;
  // What a value in it says, for people: "bit 3: 1 when the report supports
  // option 'Cannabis'".
  std::string meaning;
  // {"<value>": "<label>", ...} for coded values, or null.
  nlohmann::json value_labels = nullptr;
};

class ReportColumns {
 public:
  virtual ~ReportColumns() = default;
  // The question's columns, from its definition alone.
  virtual std::vector<ReportColumn> Columns() const = 0;
  // One value per column (a number, a string, or null for an empty field)
  // from a wire form that the kind's Decode accepted.
  virtual std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const = 0;
  // How a report depends on the true answer: the mechanism's name and
  // parameters (epsilon, p and q, the channel matrix, the output range),
  // enough to rebuild the likelihood outside Deniable.
  virtual nlohmann::json Channel() const = 0;
};

}  // namespace deniable
