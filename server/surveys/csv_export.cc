#include "server/surveys/csv_export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace deniable::server {
namespace {

constexpr const char* kHeader =
    "survey_id,question_id,question,type,label,measure,estimate,std_error,ci_low,ci_high,consistent,count,n,epsilon,"
    "mechanism,interval_for,release,release_method,release_epsilon,options";

// Integers as they are; other numbers to 6 significant digits, without an
// exponent between 1e-4 and 1e15 and without trailing zeros (0.5, 1234568,
// 0.000123457); null as an empty field.
std::string NumberField(const nlohmann::json& value) {
  if (value.is_number_integer()) return value.dump();
  if (!value.is_number()) return std::string();
  const double x = value.get<double>();
  if (!std::isfinite(x)) return std::string();
  if (x == std::floor(x) && std::fabs(x) < 1e15) return std::to_string(static_cast<long long>(x));
  char text[64];
  const double magnitude = std::fabs(x);
  if (magnitude < 1e-4 || magnitude >= 1e15) {
    std::snprintf(text, sizeof text, "%.6g", x);
    return text;
  }
  const int decimals = std::max(0, 5 - static_cast<int>(std::floor(std::log10(magnitude))));
  std::snprintf(text, sizeof text, "%.*f", decimals, x);
  std::string field = text;
  if (field.find('.') != std::string::npos) {
    while (field.back() == '0') field.pop_back();
    if (field.back() == '.') field.pop_back();
  }
  return field == "-0" ? "0" : field;
}

std::string TextField(const nlohmann::json& value) {
  return CsvField(value.is_string() ? value.get<std::string>() : std::string());
}

// What the question's intervals are for ("population" or "respondents"), or
// empty where its results do not say.
std::string IntervalFor(const nlohmann::json& result) {
  const auto found = result.find("interval_for");
  if (found == result.end() || !found->is_object()) return std::string();
  return TextField(found->value("target", nlohmann::json()));
}

void AppendRow(std::string& csv, const std::vector<std::string>& fields) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) csv += ',';
    csv += fields[i];
  }
  csv += "\r\n";
}

// One question's rows as its kind gives them (core's CsvRow).
struct QuestionRows {
  const Question* question;
  const nlohmann::json* result;
  std::vector<CsvRow> rows;
};

// A variable's column: "<question id>.<variable>" ("profile.age"), so that
// two questions' variables never share a column.
std::string VariableColumn(const Question& question, const std::string& variable) {
  return question.id + "." + variable;
}

// The columns every kind shares, then one per variable (empty where a row has none).
void AppendQuestionRows(std::string& csv, const std::string& survey_id, const QuestionRows& entry,
                        const std::string& options, const std::vector<std::string>& variable_columns) {
  const Question& question = *entry.question;
  const nlohmann::json& result = *entry.result;
  for (const CsvRow& row : entry.rows) {
    std::vector<std::string> fields = {
        CsvField(survey_id), CsvField(question.id), CsvField(question.text), CsvField(question.kind->type()),
        CsvField(row.label), CsvField(row.measure), NumberField(row.estimate), NumberField(row.std_error),
        NumberField(row.ci_low), NumberField(row.ci_high), NumberField(row.consistent), NumberField(row.count),
        NumberField(row.n.is_null() ? result.at("n") : row.n), NumberField(result.at("privacy").at("epsilon")),
        TextField(result.at("mechanism").at("name")), IntervalFor(result), CsvField(row.release), CsvField(row.release_method),
        NumberField(row.release_epsilon), CsvField(options)};
    for (const std::string& column : variable_columns) {
      std::string value;
      for (const auto& [name, option] : row.variables) {
        if (VariableColumn(question, name) == column) value = option;
      }
      fields.push_back(CsvField(value));
    }
    AppendRow(csv, fields);
  }
}

}  // namespace

std::string CsvField(std::string_view text) {
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  if (!formula && text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = formula ? "\"'" : "\"";
  for (char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string ResultsToCsv(const Survey& survey, const nlohmann::json& results, const std::string& options) {
  const std::string survey_id = results.at("survey").get<std::string>();
  const auto& documents = results.at("questions");
  std::vector<QuestionRows> entries;
  std::vector<std::string> variable_columns;  // in order of first appearance
  for (std::size_t q = 0; q < survey.questions.size() && q < documents.size(); ++q) {
    const nlohmann::json& result = documents[q];
    if (result.contains("error")) continue;  // its estimation failed: no rows
    QuestionRows entry{&survey.questions[q], &result, survey.questions[q].kind->CsvRows(result)};
    for (const CsvRow& row : entry.rows) {
      for (const auto& variable : row.variables) {
        const std::string column = VariableColumn(survey.questions[q], variable.first);
        if (std::find(variable_columns.begin(), variable_columns.end(), column) == variable_columns.end()) {
          variable_columns.push_back(column);
        }
      }
    }
    entries.push_back(std::move(entry));
  }
  std::string csv = kHeader;
  for (const std::string& column : variable_columns) csv += "," + CsvField(column);
  csv += "\r\n";
  for (const QuestionRows& entry : entries) AppendQuestionRows(csv, survey_id, entry, options, variable_columns);
  return csv;
}

std::string AnalysisToCsv(const std::string& survey_id, const std::string& analysis, const nlohmann::json& document,
                          const std::vector<CsvRow>& rows) {
  std::vector<std::string> variable_columns;  // in order of first appearance
  for (const CsvRow& row : rows) {
    for (const auto& variable : row.variables) {
      if (std::find(variable_columns.begin(), variable_columns.end(), variable.first) == variable_columns.end()) {
        variable_columns.push_back(variable.first);
      }
    }
  }
  std::string csv = "survey_id,analysis,label,measure,estimate,std_error,ci_low,ci_high,consistent,count,n,interval_for";
  for (const std::string& column : variable_columns) csv += "," + CsvField(column);
  csv += "\r\n";
  for (const CsvRow& row : rows) {
    std::vector<std::string> fields = {
        CsvField(survey_id), CsvField(analysis), CsvField(row.label), CsvField(row.measure), NumberField(row.estimate),
        NumberField(row.std_error), NumberField(row.ci_low), NumberField(row.ci_high), NumberField(row.consistent),
        NumberField(row.count), row.n.is_string() ? TextField(row.n) : NumberField(row.n.is_null() ? document.value("n", nlohmann::json()) : row.n),
        IntervalFor(document)};
    for (const std::string& column : variable_columns) {
      std::string value;
      for (const auto& [name, text] : row.variables) {
        if (name == column) value = text;
      }
      fields.push_back(CsvField(value));
    }
    AppendRow(csv, fields);
  }
  return csv;
}

std::string OptionsQueryText(const std::map<std::string, std::string>& query) {
  std::string text;
  for (const auto& [name, value] : query) {
    if (!text.empty()) text += '&';
    text += name + "=" + value;
  }
  return text;
}

}  // namespace deniable::server
