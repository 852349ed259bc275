// The reports' export (README "Export for R"): one row per stored report of
// a survey, in storage order, and one or more columns per question, each
// question's wire form decoded by its kind (core ReportColumns: the option
// reported, the bits, the values; an open question's answer as given), with a
// codebook that says what each column holds and the mechanism's parameters,
// so that a researcher can rebuild the likelihood in R (rr::rrreg) or
// elsewhere.
//
// What it never holds: a report id, a time, anything that links a row to a
// respondent beyond what the report holds (invitation surveys' reports keep
// the random order they are stored in), and the answers to questions answered
// in confidence (trust "central"): those have no column at all, and the
// codebook lists them under "left_out" with the reason.
//
// Formats: CSV (RFC 4180 as csv_export.h writes it, formula-like text
// neutralised by its CsvField; an empty field for a skipped question) and
// JSON ({"survey", "version", "columns": [...], "reports": [{column: value
// or null}, ...]}), both written page by page from storage.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/survey.h"
#include "server/storage/storage.h"

namespace deniable::server {

enum class ExportFormat { kCsv, kJson };

// The columns of one survey's export, from its definition.
class ReportExport {
 public:
  explicit ReportExport(const Survey& survey);

  // Every column's name, in order: "<question id><suffix>".
  std::vector<std::string> ColumnNames() const;
  // Survey id, version and title; per column its question, meaning, value
  // labels and the question's mechanism; the questions left out and why.
  nlohmann::json Codebook() const;

  // The header (CSV: a line; JSON: the document's opening).
  std::string Opening(ExportFormat format) const;
  // One report's row, appended to `out` (JSON: preceded by a comma unless
  // `first`); false, nothing appended, when the report does not validate
  // against the survey (results do not count it either).
  bool AppendRow(ExportFormat format, const nlohmann::json& report, bool first, std::string& out) const;
  std::string Closing(ExportFormat format) const;

 private:
  struct QuestionColumns {
    std::size_t index;  // in the survey
    const ReportColumns* kind;
    std::vector<ReportColumn> columns;
  };
  std::vector<nlohmann::json> RowValues(const nlohmann::json& report) const;

  const Survey& survey_;
  std::vector<QuestionColumns> exported_;
  std::vector<std::size_t> left_out_;  // question indices
  std::vector<std::string> names_;     // ColumnNames()
};

struct ExportSummary {
  std::int64_t rows = 0;
  std::int64_t skipped = 0;  // stored reports that no longer validate
};

// Writes the whole export: Opening, each stored report's row (reading storage
// a page at a time), Closing. `write` takes each chunk (about a page of rows)
// and returns false to stop (the client left, the disk is full); `progress`
// (optional) is told the rows written so far after each chunk.
Result<ExportSummary> WriteReportExport(Storage& storage, const Survey& survey, ExportFormat format,
                                        const std::function<bool(std::string_view)>& write,
                                        const std::function<void(std::int64_t)>& progress = {});

}  // namespace deniable::server
