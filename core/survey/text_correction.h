// Live corrections of a running survey's wording (issue 33): a typo in a
// question or an option may be fixed while reports arrive, without a new
// version, because reports name questions by id and options by position, so
// the words never reach what was counted. Anything else (the options' number
// or order, a mechanism, an epsilon, a question added) changes what earlier
// reports mean or what earlier respondents were promised, and needs a new
// version under a new id.
//
// Wording is the survey's `title` and `description`, and each question's
// wording fields (KindClient::wording_fields: its texts, and the entries of
// its lists of words, such as `options`, with their count and order kept).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/survey/survey.h"

namespace deniable {

struct WordingChange {
  std::string path;    // "title", "questions[0].text", "questions[1].options[2]"
  std::string where;   // for people: "title", "question \"drugs\": text", "question \"drugs\": option 3"
  std::string before;  // "" when the text was absent
  std::string after;
};

// The wording changes that turn `running` into `proposed` (a definition, as
// posted), in document order; empty when nothing differs. An error of kind
// kInvalidArgument when `proposed` is not a valid survey (ParseSurvey's
// message), and of kind kConflict naming the first difference that is not
// wording and why it needs a new version, e.g. "questions[0].options: the
// options' number changed (2 to 3): reports already collected would be
// counted against different options; publish a new version instead".
Result<std::vector<WordingChange>> CompareWording(const Survey& running, const nlohmann::json& proposed);

// {"path", "where", "before", "after"}, and back (for the stored record).
nlohmann::json WordingChangesToJson(const std::vector<WordingChange>& changes);

}  // namespace deniable
