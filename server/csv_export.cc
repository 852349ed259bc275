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

// A numeric question: one row per summary statistic (mean, std_dev, median,
// quartiles, skewness, kurtosis) in the option column, its estimate in the
// frequency column and its 95% bootstrap interval in ci_low / ci_high.
// Mechanisms with unbiased reports add an "unbiased_mean" row with its
// standard error and CI.
void AppendNumericQuestion(std::string& csv, const std::string& survey_id, const nlohmann::json& question) {
  const auto mean = question.find("unbiased_mean");
  if (mean != question.end() && mean->is_object()) {
    AppendRow(csv, {CsvField(survey_id), TextField(question.at("id")), TextField(question.at("text")),
                    "unbiased_mean", NumberField(question.at("n")), NumberField(question.at("privacy").at("epsilon")),
                    TextField(question.at("mechanism").at("name")), "", NumberField(mean->at("value")),
                    NumberField(mean->at("std_error")), NumberField(mean->at("ci_low")), NumberField(mean->at("ci_high")),
                    ""});
  }
  if (!question.contains("statistics")) return;  // no reports yet, or the estimation failed
  for (const auto& [name, statistic] : question.at("statistics").items()) {
    AppendRow(csv, {CsvField(survey_id), TextField(question.at("id")), TextField(question.at("text")),
                    CsvField(name), NumberField(question.at("n")), NumberField(question.at("privacy").at("epsilon")),
                    TextField(question.at("mechanism").at("name")), "", NumberField(statistic.at("value")), "",
                    NumberField(statistic.at("low")), NumberField(statistic.at("high")), ""});
  }
}

void AppendQuestion(std::string& csv, const std::string& survey_id, const nlohmann::json& question) {
  if (question.value("type", "categorical") == "numeric") return AppendNumericQuestion(csv, survey_id, question);
  for (const auto& option : question.at("options")) {
    AppendRow(csv, {CsvField(survey_id), TextField(question.at("id")), TextField(question.at("text")),
                    TextField(option.at("label")), NumberField(question.at("n")),
                    NumberField(question.at("privacy").at("epsilon")), TextField(question.at("mechanism").at("name")),
                    NumberField(option.at("count")), NumberField(option.at("frequency")),
                    NumberField(option.at("std_error")), NumberField(option.at("ci_low")),
                    NumberField(option.at("ci_high")), NumberField(option.at("consistent_frequency"))});
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

std::string ResultsToCsv(const nlohmann::json& results) {
  std::string csv = std::string(kHeader) + "\r\n";
  const std::string survey_id = results.at("survey").get<std::string>();
  for (const auto& question : results.at("questions")) AppendQuestion(csv, survey_id, question);
  return csv;
}

}  // namespace deniable::server
