#include "server/csv_export.h"

#include <vector>

#include "server/api_types.h"

namespace deniable::server {
namespace {

constexpr const char* kHeader =
    "survey_id,question_id,question,option,n,epsilon,mechanism,count,frequency,std_error,ci_low,ci_high,"
    "consistent_frequency";

// Numbers as JSON writes them (shortest exact form); null as an empty field.
std::string NumberField(const nlohmann::json& value) {
  return value.is_number() ? SafeDump(value) : std::string();
}

std::string TextField(const nlohmann::json& value) {
  return CsvField(value.is_string() ? value.get<std::string>() : std::string());
}

void AppendRow(std::string& csv, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) csv += ',';
    csv += fields[i];
  }
  csv += "\r\n";
}

// The columns every kind shares, then the kind's own (core's CsvRow).
void AppendQuestionRows(std::string& csv, const std::string& survey_id, const Question& question,
                        const nlohmann::json& result, const std::vector<CsvRow>& rows) {
  for (const CsvRow& row : rows) {
    AppendRow(csv, {CsvField(survey_id), CsvField(question.id), CsvField(question.text), CsvField(row.option),
                    NumberField(row.n.is_null() ? result.at("n") : row.n), NumberField(result.at("privacy").at("epsilon")),
                    TextField(result.at("mechanism").at("name")), NumberField(row.count), NumberField(row.frequency),
                    NumberField(row.std_error), NumberField(row.ci_low), NumberField(row.ci_high),
                    NumberField(row.consistent_frequency)});
  }
}

}  // namespace

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string ResultsToCsv(const Survey& survey, const nlohmann::json& results) {
  std::string csv = std::string(kHeader) + "\r\n";
  const std::string survey_id = results.at("survey").get<std::string>();
  const auto& documents = results.at("questions");
  for (std::size_t q = 0; q < survey.questions.size() && q < documents.size(); ++q) {
    const nlohmann::json& result = documents[q];
    if (result.contains("error")) continue;  // its estimation failed: no rows
    AppendQuestionRows(csv, survey_id, survey.questions[q], result, survey.questions[q].kind->CsvRows(result));
  }
  return csv;
}

}  // namespace deniable::server
