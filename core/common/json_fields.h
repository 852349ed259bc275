// Strict reading of JSON objects at the format boundary: required and optional
// fields with their types, and a check that rejects unknown fields (a typo
// such as "epsilom" must not silently fall back to a default).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

Status RequireObject(const nlohmann::json& value, const std::string& where);
Status RejectUnknownFields(const nlohmann::json& object, std::initializer_list<const char*> known,
                           const std::string& where);
Status RejectUnknownFields(const nlohmann::json& object, const std::vector<std::string>& known,
                           const std::string& where);
Result<std::string> ReadString(const nlohmann::json& object, const char* field, std::size_t max_length,
                               bool required, const std::string& where);
Result<long long> ReadInteger(const nlohmann::json& object, const char* field, long long low, long long high,
                              const std::string& where);
// A required field holding a finite number (integer or not); the caller checks its range.
Result<double> ReadFiniteNumber(const nlohmann::json& object, const char* field, const std::string& where);
// Valid ids: 1 to 64 characters from [A-Za-z0-9_-].
Status ValidateId(const std::string& id, const std::string& where);
std::string JoinPath(const std::string& where, const std::string& field);

}  // namespace deniable
