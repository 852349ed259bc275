// The one place that lists the kinds of question: a type name, its parser,
// and what it accepts as estimation options from outside (HTTP queries, the
// command line). An explicit function, not self-registering statics: the
// list is read in one place, in order (the first kind is the default type).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/kind_client.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct KindEntry {
  std::string_view type;
  // Parses a question's kind fields (the object is the whole question; the
  // kind rejects fields that are neither its own nor kCommonQuestionFields).
  Result<std::shared_ptr<const QuestionKind>> (*parse)(const nlohmann::json& question, const std::string& where);
  // The estimation options offered to analysts (query parameters, flags).
  std::vector<std::string> public_estimate_options;
  // The kind's options with their defaults filled in: two option sets that
  // give the same results have the same canonical form (the server's cache
  // key). Checks each value's form ("points must be an integer, but is
  // \"12abc\""); values may be JSON numbers or their text.
  Result<nlohmann::json> (*canonical_estimate_options)(const nlohmann::json& options);
};

// A kind's client half (kind_client.h): its type name and the parser that
// builds only the client (the respondent's module, ParseClientSurvey). Its
// checks and messages are those of KindEntry::parse, which builds the full
// kind from it.
struct KindClientEntry {
  std::string_view type;
  Result<std::shared_ptr<const KindClient>> (*parse)(const nlohmann::json& question, const std::string& where);
};

std::vector<KindEntry> RegisteredKinds();
// The same kinds in the same order, client halves only (a test checks).
std::vector<KindClientEntry> RegisteredClientKinds();

// The entry of a type name, or an error listing the known ones.
Result<KindEntry> FindKind(std::string_view type);
Result<KindClientEntry> FindClientKind(std::string_view type);

}  // namespace deniable
