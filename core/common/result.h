// Result<T>: a value or an error. Core never throws on user input and never
// asserts on it; every fallible operation returns a Result whose error names
// the field and the problem, so each boundary (HTTP, CLI, WebAssembly) can
// pass it on. An error also carries its kind (ErrorCode), so a boundary maps
// it (the server: to an HTTP status, in one table) without reading its text.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace deniable {

// What kind of failure: the caller's input (the default: core's errors are
// almost all about what it was given), something missing, a clash with the
// current state, the caller gave up, no capacity now, a dependency is down,
// or a bug.
enum class ErrorCode { kInvalidArgument, kNotFound, kConflict, kCancelled, kBusy, kUnavailable, kInternal };

struct Error {
  std::string message;
  ErrorCode code = ErrorCode::kInvalidArgument;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  // The error's message (for people) and its kind (for boundaries).
  const std::string& error() const { return std::get<Error>(state_).message; }
  ErrorCode error_code() const { return std::get<Error>(state_).code; }
  // The whole error, to pass on unchanged (code included).
  const Error& failure() const& { return std::get<Error>(state_); }
  Error&& failure() && { return std::get<Error>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

// Status: a Result with no value.
struct Ok {};
using Status = Result<Ok>;
inline Status OkStatus() { return Ok{}; }

inline Error MakeError(std::string message, ErrorCode code = ErrorCode::kInvalidArgument) {
  return Error{std::move(message), code};
}

// Prefixes a nested error with where it happened: "questions[2].mechanism: ...".
inline Error InContext(const std::string& where, const std::string& message) {
  return Error{where + ": " + message};
}
// The same, keeping the nested error's kind.
inline Error InContext(const std::string& where, const Error& error) {
  return Error{where + ": " + error.message, error.code};
}

}  // namespace deniable

#define DENIABLE_CONCAT_INNER_(a, b) a##b
#define DENIABLE_CONCAT_(a, b) DENIABLE_CONCAT_INNER_(a, b)

// Returns the error of a failed Status (or Result) from the enclosing
// function, unchanged (message and kind). One statement, so
// `if (c) DENIABLE_TRY(...); else ...` reads as written. Variadic so an
// expression with a bare comma (a template's arguments, a braced list) needs
// no extra parentheses.
#define DENIABLE_TRY(...)                                                     \
  do {                                                                        \
    if (auto deniable_status_ = (__VA_ARGS__); !deniable_status_) {           \
      return std::move(deniable_status_).failure();                          \
    }                                                                         \
  } while (false)

// DENIABLE_ASSIGN_OR_RETURN(auto x, Fallible()): declares `x` as the value of
// the Result, or returns its error (unchanged) from the enclosing function.
// `x` is the value itself (moved out of the Result): `x.field`, not `x->field`.
#define DENIABLE_ASSIGN_OR_RETURN(lhs, ...) \
  DENIABLE_ASSIGN_OR_RETURN_IMPL_(DENIABLE_CONCAT_(deniable_result_, __LINE__), lhs, __VA_ARGS__)
#define DENIABLE_ASSIGN_OR_RETURN_IMPL_(result, lhs, ...) \
  auto result = (__VA_ARGS__);                            \
  if (!result) return std::move(result).failure();        \
  lhs = std::move(result).value()
