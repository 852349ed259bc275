#include "server/cli/truth_csv.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <vector>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "server/base/file_util.h"
#include "core/common/number_text.h"

namespace deniable::server {
namespace {

using Row = std::vector<std::string>;

// RFC 4180: fields separated by commas, optionally in double quotes ("" is a
// quote inside quotes); rows end with LF or CRLF. Blank lines are skipped.
Result<std::vector<Row>> ParseCsv(const std::string& text, const std::string& path) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  bool quoted = false, field_started = false;
  auto end_row = [&] {
    if (field_started || !row.empty() || !field.empty()) {
      row.push_back(field);
      rows.push_back(std::move(row));
    } else {
      rows.emplace_back();  // a blank line: kept so row numbers stay line numbers
    }
    row.clear();
    field.clear();
    field_started = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      field_started = true;
    } else if (c == ',') {
      row.push_back(field);
      field.clear();
      field_started = true;
    } else if (c == '\n') {
      end_row();
    } else if (c != '\r') {
      field += c;
    }
  }
  if (quoted) return MakeError(path + ": unterminated quoted field");
  if (field_started || !row.empty() || !field.empty()) end_row();
  return rows;
}

std::string Trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

// The column's index from a header name or a 0-based index.
Result<std::size_t> ColumnIndex(const nlohmann::json& column, const Row& header, const std::string& where) {
  const std::string field = JoinPath(where, "column");
  if (column.is_number_integer()) {
    const auto index = column.get<long long>();
    if (index < 0 || static_cast<std::size_t>(index) >= header.size()) {
      return MakeError(field + ": index " + std::to_string(index) + " is outside the header's " +
                       std::to_string(header.size()) + " columns (0-based)");
    }
    return static_cast<std::size_t>(index);
  }
  if (!column.is_string()) return MakeError(field + ": must be a header name or a 0-based column index");
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (Trim(header[i]) == column.get<std::string>()) return i;
  }
  return MakeError(field + ": no column named \"" + column.get<std::string>() + "\" in the header");
}

Result<std::vector<double>> ReadColumn(const std::vector<Row>& rows, std::size_t column, NumericRange range,
                                       const std::string& path, const std::string& name) {
  std::vector<double> values;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    if (rows[r].empty()) continue;  // blank line
    const std::string where = path + " row " + std::to_string(r + 1) + ", column " + name;
    if (column >= rows[r].size()) return MakeError(where + ": missing (the row has fewer columns)");
    const auto value = ParseFiniteNumber(Trim(rows[r][column]));
    if (!value) return MakeError(where + ": not a number: \"" + rows[r][column] + "\"");
    if (*value < range.low || *value > range.high) {
      return MakeError(where + ": " + FormatNumber(*value) + " is outside the question's range [" +
                       FormatNumber(range.low) + ", " + FormatNumber(range.high) + "]");
    }
    values.push_back(*value);
  }
  if (values.empty()) return MakeError(path + ": no data rows below the header");
  return values;
}

Result<nlohmann::json> ResolveEntry(NumericRange range, const nlohmann::json& entry, const std::string& where,
                                    const std::filesystem::path& base) {
  if (!entry.at("csv").is_string() || entry.at("csv").get<std::string>().empty()) {
    return MakeError(JoinPath(where, "csv") + ": must be the path of a CSV file");
  }
  if (!entry.contains("column")) return MakeError(JoinPath(where, "column") + ": required field is missing");
  const std::string path = (base / entry.at("csv").get<std::string>()).string();
  auto text = ReadFileText(path);
  if (!text) return MakeError(JoinPath(where, "csv") + ": " + text.error());
  DENIABLE_ASSIGN_OR_RETURN(auto rows, ParseCsv(*text, path));
  if (rows.empty() || rows.front().empty()) return MakeError(path + ": no header row");
  DENIABLE_ASSIGN_OR_RETURN(auto column, ColumnIndex(entry.at("column"), rows.front(), where));
  DENIABLE_ASSIGN_OR_RETURN(auto values, ReadColumn(rows, column, range, path, entry.at("column").dump()));
  // The other fields (skip_rate, a confidential question's releases) are the kind's: core checks them.
  nlohmann::json resolved = entry;
  resolved.erase("csv");
  resolved.erase("column");
  resolved["values"] = values;
  return resolved;
}

// A kind's truth from the whole table (cells trimmed), for kinds whose truths are records.
Result<nlohmann::json> ResolveTable(const QuestionKind& kind, const nlohmann::json& entry, const std::string& where,
                                    const std::filesystem::path& base) {
  if (!entry.at("csv").is_string() || entry.at("csv").get<std::string>().empty()) {
    return MakeError(JoinPath(where, "csv") + ": must be the path of a CSV file");
  }
  const std::string path = (base / entry.at("csv").get<std::string>()).string();
  auto text = ReadFileText(path);
  if (!text) return MakeError(JoinPath(where, "csv") + ": " + text.error());
  DENIABLE_ASSIGN_OR_RETURN(auto rows, ParseCsv(*text, path));
  std::vector<Row> table = rows;
  for (auto& row : table) {
    for (auto& cell : row) cell = Trim(cell);
  }
  auto resolved = kind.TruthFromTable(table, entry, where);
  if (!resolved) return MakeError(path + ": " + resolved.error());
  return resolved;
}

}  // namespace

Result<nlohmann::json> ResolveCsvTruths(const Survey& survey, nlohmann::json truth, const std::string& truth_file) {
  if (!truth.is_object()) return truth;  // core reports it
  const auto base = std::filesystem::path(truth_file).parent_path();
  // Entries reading the same file share its rows (one per respondent): the file is their table.
  const auto table_of = [&](const nlohmann::json& entry) {
    return (base / entry.at("csv").get<std::string>()).lexically_normal().string();
  };
  const auto reads_file = [](const nlohmann::json& entry) {
    return entry.is_object() && entry.contains("csv") && entry.at("csv").is_string() && !entry.at("csv").get<std::string>().empty();
  };
  std::map<std::string, nlohmann::json> question_columns;  // per table: the column each question's truth names
  for (const auto& question : survey.questions) {
    if (!truth.contains(question.id) || !reads_file(truth.at(question.id))) continue;
    const auto& entry = truth.at(question.id);
    if (entry.contains("column")) question_columns[table_of(entry)][question.id] = entry.at("column");
  }
  for (const auto& question : survey.questions) {
    if (!truth.contains(question.id)) continue;
    auto& entry = truth.at(question.id);
    if (!entry.is_object() || !entry.contains("csv")) continue;
    const std::string where = "truth." + question.id;
    // Numbers: a column of the file; other kinds read the table themselves (TruthFromTable).
    const auto answers = question.kind->numeric_answers();
    Result<nlohmann::json> resolved = MakeError("");
    if (answers) {
      resolved = ResolveEntry(answers->range, entry, where, base);
    } else {
      nlohmann::json with_columns = entry;
      if (reads_file(entry)) with_columns["question_columns"] = question_columns[table_of(entry)];
      resolved = ResolveTable(*question.kind, with_columns, where, base);
      if (resolved && resolved.value().is_object()) resolved.value().erase("question_columns");
    }
    if (!resolved) return MakeError(resolved.error());
    const std::string table = table_of(entry);
    entry = std::move(resolved).value();
    entry["table"] = table;
  }
  return truth;
}

}  // namespace deniable::server
