// A versioned serialisation of aggregates, so that partial aggregates can be
// stored (one per server node: each node adds its reports to its own part)
// and merged when results are read (KindAggregate::Merge, SurveyAggregate::Merge).
//
// The blob is one line of JSON:
//   {"format": "deniable.aggregate", "version": 1,
//    "survey": "<survey id>", "question": "<question id>",
//    "kind": "<the aggregate's type: categorical, numeric, histogram, block,
//             linear_regression, confidential, open_categorical, open_numeric>",
//    "definition": "fnv1a64:<16 hex digits>",
//    "statistics": {...the kind's sufficient statistics, its
//                   <kind>_aggregate_format.cc...}}
// and a survey's, {"format": "deniable.survey_aggregate", "version": 1,
// "survey": ..., "respondents": r, "questions": [one question's object as
// above, per question in order]}.
//
// Why JSON and not a binary layout: nlohmann::json is already in core (and in
// the WebAssembly build), a stored blob can be read with psql or jq when
// something goes wrong, and an aggregate is O(options, cells, groups, rounds),
// never O(reports), so the text's size does not matter. Exactness: integers
// (every count) are written as int64 digits; doubles (sums, moments, a
// histogram's range) are written by nlohmann as the shortest decimal that
// reads back to the same double (its Grisu2 to_chars guarantees the round
// trip) and read with strtod, which rounds correctly, so every double comes
// back bit for bit (-0.0 included). NaN and infinities cannot be written (they
// would become null) and are refused on reading. Keys are sorted, so equal
// aggregates give equal blobs. Store the text as it is (text or bytea, not
// PostgreSQL's jsonb, which rewrites numbers and key order).
//
// Deserialising refuses, with an error that names what is wrong: malformed or
// truncated text, another format or version, another kind, another survey or
// question, another definition of the question (the fingerprint: FNV-1a 64 of
// the kind's canonical definition, QuestionKind::DefinitionToJson, which
// holds everything that gives the statistics their meaning: options, range,
// bins, mechanism and epsilon, trust model; not the question's text, and,
// written "fnv1a64w:" since live corrections (issue 33), not its words either:
// each list of words, KindClient::wording_fields, counts by its length, so a
// corrected option keeps its blobs; "fnv1a64:" blobs, written before, hash
// the words too), and
// statistics that break their invariants (wrong lengths, negative counts,
// counts beyond n, sums that disagree, numbers that are not finite). The
// fingerprint guards against mistakes (a blob stored for an earlier version
// of a survey), not forgery: whoever can write the store can write counts.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/common/result.h"
#include "core/survey/aggregate.h"
#include "core/survey/question_kind.h"
#include "core/survey/survey.h"

namespace deniable {

inline constexpr const char* kAggregateFormat = "deniable.aggregate";
inline constexpr const char* kSurveyAggregateFormat = "deniable.survey_aggregate";
// Raised when the statistics of any kind change form; a blob of another
// version is refused, never guessed at.
inline constexpr int kAggregateFormatVersion = 1;

// "fnv1a64w:" and 16 hex digits of the question's canonical kind definition
// without its words (each list of words as its length).
std::string DefinitionFingerprint(const Question& question);

// How a blob written before wording-free fingerprints ("fnv1a64:") is read.
// Such a blob was written before any correction of wording could be made: it
// is checked against the words served (kChecked) until the survey's wording
// is corrected; after, its words cannot be checked, and only its statistics'
// shape is (kShapeOnly, as for every blob).
enum class LegacyFingerprint { kChecked, kShapeOnly };

// The blob of question `question`'s aggregate (one made by its kind's NewAggregate).
std::string SerializeAggregate(const Survey& survey, std::size_t question, const KindAggregate& aggregate);
// The aggregate of that question from its blob, or why the blob is refused.
Result<std::unique_ptr<KindAggregate>> DeserializeAggregate(const Survey& survey, std::size_t question,
                                                            std::string_view blob,
                                                            LegacyFingerprint legacy = LegacyFingerprint::kChecked);

// The same for a whole survey's aggregate (its respondents and every question's).
std::string SerializeSurveyAggregate(const Survey& survey, const SurveyAggregate& aggregate);
Result<SurveyAggregate> DeserializeSurveyAggregate(const Survey& survey, std::string_view blob,
                                                   LegacyFingerprint legacy = LegacyFingerprint::kChecked);

}  // namespace deniable
