#include "core/common/json_text.h"

#include <algorithm>

namespace deniable {
namespace {

using nlohmann::json;

// nlohmann's DOM builder, recording where the first error happened instead of
// throwing (its own parse_error is not virtual, so this forwards).
class PositionRecordingBuilder {
 public:
  explicit PositionRecordingBuilder(json& result) : dom_(result, /*allow_exceptions=*/false) {}

  bool null() { return dom_.null(); }
  bool boolean(bool value) { return dom_.boolean(value); }
  bool number_integer(json::number_integer_t value) { return dom_.number_integer(value); }
  bool number_unsigned(json::number_unsigned_t value) { return dom_.number_unsigned(value); }
  bool number_float(json::number_float_t value, const json::string_t& text) { return dom_.number_float(value, text); }
  bool string(json::string_t& value) { return dom_.string(value); }
  bool binary(json::binary_t& value) { return dom_.binary(value); }
  bool start_object(std::size_t size) { return dom_.start_object(size); }
  bool key(json::string_t& value) { return dom_.key(value); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t size) { return dom_.start_array(size); }
  bool end_array() { return dom_.end_array(); }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string& /*token*/, const Exception& error) {
    failed_ = true;
    position_ = position;
    out_of_range_ = error.id == 406;  // a number no double can hold, such as 1e999
    return false;
  }

  bool failed() const { return failed_; }
  std::size_t position() const { return position_; }
  bool out_of_range() const { return out_of_range_; }

 private:
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  bool failed_ = false;
  bool out_of_range_ = false;
  std::size_t position_ = 0;
};

}  // namespace

int JsonNestingDepth(std::string_view text, int stop_after) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > stop_after) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

Result<json> ParseJsonText(std::string_view text, int max_depth, const std::string& what) {
  if (JsonNestingDepth(text, max_depth) > max_depth) {
    return MakeError(what + ": JSON nesting depth exceeds the limit of " + std::to_string(max_depth));
  }
  json result;
  PositionRecordingBuilder builder(result);
  const bool ok = json::sax_parse(text, &builder, json::input_format_t::json, /*strict=*/true);
  if (!ok || builder.failed()) {
    if (builder.out_of_range()) return MakeError(what + ": not valid JSON (a number is out of range)");
    return MakeError(what + ": not valid JSON (syntax error at byte " + std::to_string(builder.position()) + ")");
  }
  return result;
}

}  // namespace deniable
