#include "core/common/json_fields.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace deniable {

std::string JoinPath(const std::string& where, const std::string& field) {
  return where.empty() ? field : where + "." + field;
}

Status RequireObject(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object()) {
    return MakeError((where.empty() ? std::string("the document") : where) + " must be a JSON object, but is " +
                     value.type_name());
  }
  return OkStatus();
}

Status RejectUnknownFields(const nlohmann::json& object, std::initializer_list<const char*> known,
                           const std::string& where) {
  return RejectUnknownFields(object, std::vector<std::string>(known.begin(), known.end()), where);
}

Status RejectUnknownFields(const nlohmann::json& object, const std::vector<std::string>& known,
                           const std::string& where) {
  for (const auto& item : object.items()) {
    const bool is_known = std::any_of(known.begin(), known.end(),
                                      [&](const std::string& name) { return item.key() == name; });
    if (!is_known) {
      std::string expected;
      for (const auto& name : known) expected += (expected.empty() ? "" : ", ") + name;
      return MakeError(JoinPath(where, item.key()) + ": unknown field (expected one of " + expected + ")");
    }
  }
  return OkStatus();
}

Result<std::string> ReadString(const nlohmann::json& object, const char* field, std::size_t max_length,
                               bool required, const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) {
    if (required) return MakeError(path + ": required field is missing");
    return std::string();
  }
  const auto& value = object.at(field);
  if (!value.is_string()) return MakeError(path + ": must be a string, but is " + value.type_name());
  auto text = value.get<std::string>();
  if (required && text.empty()) return MakeError(path + ": must not be empty");
  if (text.size() > max_length) {
    return MakeError(path + ": must be at most " + std::to_string(max_length) + " bytes long, but is " +
                     std::to_string(text.size()));
  }
  return text;
}

Result<long long> ReadInteger(const nlohmann::json& object, const char* field, long long low, long long high,
                              const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) return MakeError(path + ": required field is missing");
  const auto& value = object.at(field);
  if (!value.is_number_integer()) return MakeError(path + ": must be an integer, but is " + value.dump());
  const auto number = value.get<long long>();
  if (number < low || number > high) {
    return MakeError(path + ": must be between " + std::to_string(low) + " and " + std::to_string(high) +
                     ", but is " + value.dump());
  }
  return number;
}

Result<double> ReadFiniteNumber(const nlohmann::json& object, const char* field, const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) return MakeError(path + ": required field is missing");
  const auto& value = object.at(field);
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    return MakeError(path + ": must be a finite number, but is " + value.dump());
  }
  return value.get<double>();
}

Status ValidateId(const std::string& id, const std::string& where) {
  const bool valid_chars = std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  if (id.empty() || id.size() > 64 || !valid_chars) {
    return MakeError(where + ": must be 1 to 64 characters from A-Z, a-z, 0-9, _ and -, but is \"" + id + "\"");
  }
  return OkStatus();
}

}  // namespace deniable
