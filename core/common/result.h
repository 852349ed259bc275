// Result<T>: a value or an error message. Core never throws on user input and never
// asserts on it; every fallible operation returns a Result whose message names the
// field and the problem, so each boundary (HTTP, CLI, WebAssembly) can pass it on.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace deniable {

struct Error {
  std::string message;
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

  const std::string& error() const { return std::get<Error>(state_).message; }

 private:
  std::variant<T, Error> state_;
};

// Status: a Result with no value.
struct Ok {};
using Status = Result<Ok>;
inline Status OkStatus() { return Ok{}; }

inline Error MakeError(std::string message) { return Error{std::move(message)}; }

// Prefixes a nested error with where it happened: "questions[2].mechanism: ...".
inline Error InContext(const std::string& where, const std::string& message) {
  return Error{where + ": " + message};
}

}  // namespace deniable

// Returns the error of a failed Status from the enclosing function.
#define DENIABLE_TRY(status) \
  if (auto deniable_status_ = (status); !deniable_status_) return ::deniable::MakeError(deniable_status_.error())
