#include "server/surveys/report_export.h"

#include "core/survey/report.h"
#include "server/base/safe_json.h"
#include "server/surveys/csv_export.h"

namespace deniable::server {
namespace {

constexpr const char* kLeftOutReason =
    "answered in confidence: the server holds the true answer, which only differentially private releases may "
    "publish, so it is never exported (not even as a column)";

std::string CsvValue(const nlohmann::json& value) {
  if (value.is_null()) return std::string();
  if (value.is_string()) return CsvField(value.get<std::string>());
  // Numbers as they are, in full (round-trip) precision: a negative number
  // is a number to a spreadsheet, not a formula, so it is not quoted.
  return SafeDump(value);
}

bool Exported(const Question& question) {
  return question.kind->trust() != Trust::kCentral && question.kind->report_columns() != nullptr;
}

}  // namespace

ReportExport::ReportExport(const Survey& survey) : survey_(survey) {
  for (std::size_t q = 0; q < survey.questions.size(); ++q) {
    const Question& question = survey.questions[q];
    if (!Exported(question)) {
      left_out_.push_back(q);
      continue;
    }
    const ReportColumns* kind = question.kind->report_columns();
    exported_.push_back({q, kind, kind->Columns()});
    for (const auto& column : exported_.back().columns) names_.push_back(question.id + column.suffix);
  }
}

std::vector<std::string> ReportExport::ColumnNames() const { return names_; }

nlohmann::json ReportExport::Codebook() const {
  nlohmann::json columns = nlohmann::json::array();
  nlohmann::json questions = nlohmann::json::array();
  for (const auto& entry : exported_) {
    const Question& question = survey_.questions[entry.index];
    for (const auto& column : entry.columns) {
      columns.push_back({{"name", question.id + column.suffix},
                         {"question", question.id},
                         {"meaning", column.meaning},
                         {"value_labels", column.value_labels}});
    }
    questions.push_back({{"id", question.id},
                         {"text", question.text},
                         {"type", question.kind->type()},
                         {"required", question.required},
                         {"trust", question.kind->trust() == Trust::kOpen ? "open" : "local"},
                         {"privacy", question.kind->PrivacyToJson()},
                         {"mechanism", entry.kind->Channel()}});
  }
  nlohmann::json left_out = nlohmann::json::array();
  for (std::size_t q : left_out_) {
    const Question& question = survey_.questions[q];
    left_out.push_back({{"question", question.id}, {"type", question.kind->type()}, {"reason", kLeftOutReason}});
  }
  return {{"format", "deniable.codebook/v1"},
          {"survey", survey_.id},
          {"version", survey_.version},
          {"title", survey_.title},
          {"rows", "one per stored report, in storage order (invitation surveys: a random order); no report id or "
                   "time: nothing links a row to a respondent beyond what the report holds"},
          {"empty", "an empty field (CSV) or null (JSON): the respondent skipped the question, or the column does "
                    "not apply to this report"},
          {"columns", columns},
          {"questions", questions},
          {"left_out", left_out}};
}

std::string ReportExport::Opening(ExportFormat format) const {
  const auto names = ColumnNames();
  if (format == ExportFormat::kJson) {
    return "{\"survey\":" + SafeDump(survey_.id) + ",\"version\":" + std::to_string(survey_.version) +
           ",\"columns\":" + SafeDump(names) + ",\"reports\":[";
  }
  std::string header;
  for (std::size_t i = 0; i < names.size(); ++i) header += (i ? "," : "") + CsvField(names[i]);
  return header + "\r\n";
}

std::vector<nlohmann::json> ReportExport::RowValues(const nlohmann::json& report) const {
  std::vector<nlohmann::json> values;
  const nlohmann::json& responses = report.at("responses");
  for (const auto& entry : exported_) {
    const auto found = responses.find(survey_.questions[entry.index].id);
    if (found == responses.end() || found->is_null()) {
      values.insert(values.end(), entry.columns.size(), nullptr);  // skipped
      continue;
    }
    auto row = entry.kind->ColumnValues(*found);
    row.resize(entry.columns.size());
    values.insert(values.end(), row.begin(), row.end());
  }
  return values;
}

bool ReportExport::AppendRow(ExportFormat format, const nlohmann::json& report, bool first, std::string& out) const {
  if (!ParseReport(survey_, report)) return false;
  const auto values = RowValues(report);
  if (format == ExportFormat::kJson) {
    nlohmann::json row = nlohmann::json::object();
    for (std::size_t i = 0; i < values.size(); ++i) row[names_[i]] = values[i];
    out += (first ? "\n" : ",\n") + SafeDump(row);
    return true;
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += CsvValue(values[i]);
  }
  out += "\r\n";
  return true;
}

std::string ReportExport::Closing(ExportFormat format) const { return format == ExportFormat::kJson ? "\n]}\n" : ""; }

Result<ExportSummary> WriteReportExport(Storage& storage, const Survey& survey, ExportFormat format,
                                        const std::function<bool(std::string_view)>& write,
                                        const std::function<void(std::int64_t)>& progress) {
  constexpr std::size_t kChunkBytes = 1 << 16;
  const ReportExport layout(survey);
  ExportSummary summary;
  std::string chunk = layout.Opening(format);
  bool stopped = false;
  auto flush = [&]() {
    if (!write(chunk)) stopped = true;
    chunk.clear();
    if (progress) progress(summary.rows);
    return !stopped;
  };
  const Status visited = storage.ForEachReportOf(
      survey.id,
      [&](const std::string& body) {
        if (stopped) return;
        const auto report = nlohmann::json::parse(body, nullptr, false);
        if (report.is_discarded() || !layout.AppendRow(format, report, summary.rows == 0, chunk)) {
          ++summary.skipped;
          return;
        }
        ++summary.rows;
        if (chunk.size() >= kChunkBytes) flush();
      },
      [&] { return stopped; });
  if (stopped) return MakeError("the export was stopped before its end");
  DENIABLE_TRY(visited);
  chunk += layout.Closing(format);
  if (!flush()) return MakeError("the export was stopped before its end");
  return summary;
}

}  // namespace deniable::server
