// Plain request and response structs between the HTTP adapter and the
// handlers, so handlers know nothing of the HTTP library; and the one place
// that turns an ApiError into its JSON body {"error":{"message","code"}}.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/base/safe_json.h"

namespace deniable::server {

struct ApiRequest {
  std::string method;
  std::string path;
  std::vector<std::string> path_params;       // the route pattern's captures, in order
  std::map<std::string, std::string> query;   // first value of each parameter
  std::vector<std::string> repeated_query;    // names given more than once (strict parsers reject them)
  std::map<std::string, std::string> headers; // names in lowercase
  std::string body;
  std::string remote_address;                 // the client's IP address as text ("" when unknown)
  // Set (by the HTTP layer) when the client closed its connection while the
  // request was being handled: long computations poll it and give up. Never null.
  std::shared_ptr<const std::atomic<bool>> client_gone = std::make_shared<std::atomic<bool>>(false);

  // The header's value, or "" (name in lowercase).
  std::string Header(const std::string& lowercase_name) const;
};

struct ApiResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct ApiError {
  int status;
  std::string code;     // stable, machine-readable, e.g. "invalid_report"
  std::string message;  // for people: names the field and the problem
};

// What a handler returns: a response, or an error the wrapper maps to JSON.
using ApiResult = std::variant<ApiResponse, ApiError>;
// How an asynchronous handler delivers its result: once, from any thread.
using Respond = std::function<void(ApiResult)>;

ApiResponse JsonResponse(int status, const nlohmann::json& body);
ApiResponse ErrorResponse(const ApiError& error);
// The single error-to-JSON mapping used for every handler result.
ApiResponse ToResponse(ApiResult result);

}  // namespace deniable::server
