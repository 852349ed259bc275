// Result, Error and the propagation macros (core/common/result.h): an error
// passes through DENIABLE_TRY and DENIABLE_ASSIGN_OR_RETURN with its message
// and its kind unchanged, and the macros read as the statements they replace.
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include "core/common/result.h"

using namespace deniable;

namespace {

Result<int> Half(int value) {
  if (value % 2 != 0) return MakeError("odd: " + std::to_string(value), ErrorCode::kConflict);
  return value / 2;
}

Status Even(int value) {
  if (value % 2 != 0) return MakeError("odd", ErrorCode::kBusy);
  return OkStatus();
}

Result<int> Quarter(int value) {
  DENIABLE_ASSIGN_OR_RETURN(int half, Half(value));
  DENIABLE_ASSIGN_OR_RETURN(auto quarter, Half(half));
  return quarter;
}

Result<std::string> Checked(bool check, int value) {
  // One statement: the else belongs to the `if (check)`, not to the macro.
  if (check) DENIABLE_TRY(Even(value));
  else return std::string("unchecked");
  return std::string("even");
}

template <typename Key, typename Value>
Result<std::map<Key, Value>> OneEntry(Key key, Value value) {
  return std::map<Key, Value>{{key, value}};
}

Result<std::size_t> EntriesOf(int value) {
  // A bare comma in the expression (template arguments) needs no parentheses.
  DENIABLE_ASSIGN_OR_RETURN(auto map, OneEntry<int, std::string>(value, "v"));
  DENIABLE_TRY(OneEntry<int, int>(value, value));
  return map.size();
}

Result<std::unique_ptr<int>> Boxed(int value) {
  if (value < 0) return MakeError("negative", ErrorCode::kNotFound);
  return std::make_unique<int>(value);
}

Result<int> Unboxed(int value) {
  // A move-only value moves out of the Result.
  DENIABLE_ASSIGN_OR_RETURN(std::unique_ptr<int> box, Boxed(value));
  return *box + 1;
}

}  // namespace

TEST_CASE("an error's kind defaults to invalid argument and is kept by InContext") {
  const Error plain = MakeError("bad");
  CHECK(plain.code == ErrorCode::kInvalidArgument);
  const Error missing = MakeError("gone", ErrorCode::kNotFound);
  const Error nested = InContext("questions[2]", missing);
  CHECK(nested.message == "questions[2]: gone");
  CHECK(nested.code == ErrorCode::kNotFound);
}

TEST_CASE("DENIABLE_ASSIGN_OR_RETURN gives the value or returns the error with its kind") {
  const auto quarter = Quarter(12);
  REQUIRE(quarter);
  CHECK(*quarter == 3);
  const auto odd = Quarter(6);  // 6 -> 3 -> odd
  REQUIRE_FALSE(odd);
  CHECK(odd.error() == "odd: 3");
  CHECK(odd.error_code() == ErrorCode::kConflict);
  CHECK(odd.failure().message == "odd: 3");
}

TEST_CASE("DENIABLE_TRY returns a failed Status's error with its kind, and is one statement") {
  CHECK(*Checked(true, 4) == "even");
  CHECK(*Checked(false, 3) == "unchecked");
  const auto odd = Checked(true, 3);
  REQUIRE_FALSE(odd);
  CHECK(odd.error() == "odd");
  CHECK(odd.error_code() == ErrorCode::kBusy);
}

TEST_CASE("the macros take an expression with a bare comma and a move-only value") {
  CHECK(*EntriesOf(1) == 1);
  CHECK(*Unboxed(41) == 42);
  CHECK(Unboxed(-1).error_code() == ErrorCode::kNotFound);
}
