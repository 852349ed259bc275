#include "core/survey/aggregate_format.h"

#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/common/json_fields.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {
namespace {

using nlohmann::json;

// FNV-1a, 64 bits: short, the same on every platform (native and WebAssembly),
// and enough to tell definitions apart by mistake (see the header: not forgery).
std::uint64_t Fnv1a64(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string Where(const Question& question) { return "aggregate of questions." + question.id; }

std::string HexFingerprint(const char* prefix, const json& definition) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(Fnv1a64(definition.dump())));
  return std::string(prefix) + hex;
}

// The fingerprint blobs had before corrections of wording: over the words too.
std::string LegacyDefinitionFingerprint(const Question& question) {
  return HexFingerprint("fnv1a64:", question.kind->DefinitionToJson());
}

// Whether the blob's fingerprint is the question's definition's.
bool SameDefinition(const std::string& fingerprint, const Question& question, LegacyFingerprint legacy) {
  if (fingerprint.rfind("fnv1a64:", 0) == 0) {
    return legacy == LegacyFingerprint::kShapeOnly || fingerprint == LegacyDefinitionFingerprint(question);
  }
  return fingerprint == DefinitionFingerprint(question);
}

// A string field equal to `expected`; otherwise the error says what the blob is of instead.
Status ExpectString(const json& object, const char* field, const std::string& expected, const std::string& what,
                    const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(const std::string actual, ReadString(object, field, 256, true, where));
  if (actual != expected) {
    return MakeError(where + ": the blob is of " + what + " \"" + actual + "\", not \"" + expected + "\"");
  }
  return OkStatus();
}

// Format and version first: a blob of another version is read no further,
// since anything else in it may have changed meaning.
Status CheckFormat(const json& object, const char* format, const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::string actual, ReadString(object, "format", 64, true, where));
  if (actual != format) {
    return MakeError(where + ": format must be \"" + std::string(format) + "\", but is \"" + actual + "\"");
  }
  if (!object.contains("version") || !object.at("version").is_number_integer()) {
    return MakeError(JoinPath(where, "version") + ": must be an integer, but is " +
                     (object.contains("version") ? object.at("version").dump() : "missing"));
  }
  if (object.at("version").get<long long>() != kAggregateFormatVersion) {
    return MakeError(where + ": format version " + object.at("version").dump() + " is not one this build reads (" +
                     std::to_string(kAggregateFormatVersion) + ")");
  }
  return OkStatus();
}

json QuestionObject(const Survey& survey, std::size_t q, const KindAggregate& aggregate) {
  return {{"format", kAggregateFormat},
          {"version", kAggregateFormatVersion},
          {"survey", survey.id},
          {"question", survey.questions[q].id},
          {"kind", aggregate.type()},
          {"definition", DefinitionFingerprint(survey.questions[q])},
          {"statistics", aggregate.StatisticsToJson()}};
}

Result<std::unique_ptr<KindAggregate>> ReadQuestionObject(const Survey& survey, std::size_t q, const json& object,
                                                          LegacyFingerprint legacy) {
  const Question& question = survey.questions[q];
  const std::string where = Where(question);
  DENIABLE_TRY(CheckFormat(object, kAggregateFormat, where));
  DENIABLE_TRY(
      RequireFields(object, {"format", "version", "survey", "question", "kind", "definition", "statistics"}, where));
  std::unique_ptr<KindAggregate> aggregate = question.kind->NewAggregate();
  DENIABLE_TRY(ExpectString(object, "kind", std::string(aggregate->type()), "a question of kind", where));
  DENIABLE_TRY(ExpectString(object, "survey", survey.id, "survey", where));
  DENIABLE_TRY(ExpectString(object, "question", question.id, "question", where));
  DENIABLE_ASSIGN_OR_RETURN(const std::string definition, ReadString(object, "definition", 64, true, where));
  if (!SameDefinition(definition, question, legacy)) {
    return MakeError(where + ": the blob is of another definition of the question (" + definition +
                     ", this definition is " + DefinitionFingerprint(question) + ")");
  }
  if (auto read = aggregate->StatisticsFromJson(object.at("statistics")); !read) {
    return InContext(where, std::move(read).failure());
  }
  return aggregate;
}

Result<json> ParseBlob(std::string_view blob, const std::string& where) {
  json parsed = json::parse(blob.begin(), blob.end(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return MakeError(where + ": not a JSON document (truncated or corrupted)");
  return parsed;
}

}  // namespace

std::string DefinitionFingerprint(const Question& question) {
  json definition = question.kind->DefinitionToJson();
  const WordingFields wording = question.client->wording_fields();
  for (const std::string& key : wording.texts) definition.erase(key);
  for (const std::string& key : wording.lists) {
    if (definition.contains(key) && definition.at(key).is_array()) definition[key] = definition.at(key).size();
  }
  return HexFingerprint("fnv1a64w:", definition);
}

std::string SerializeAggregate(const Survey& survey, std::size_t question, const KindAggregate& aggregate) {
  return QuestionObject(survey, question, aggregate).dump();
}

Result<std::unique_ptr<KindAggregate>> DeserializeAggregate(const Survey& survey, std::size_t question,
                                                            std::string_view blob, LegacyFingerprint legacy) {
  DENIABLE_ASSIGN_OR_RETURN(const json object, ParseBlob(blob, Where(survey.questions[question])));
  return ReadQuestionObject(survey, question, object, legacy);
}

std::string SerializeSurveyAggregate(const Survey& survey, const SurveyAggregate& aggregate) {
  json questions = json::array();
  for (std::size_t q = 0; q < aggregate.size(); ++q) {
    questions.push_back(QuestionObject(survey, q, aggregate.question(q)));
  }
  return json{{"format", kSurveyAggregateFormat},
              {"version", kAggregateFormatVersion},
              {"survey", survey.id},
              {"respondents", aggregate.respondents()},
              {"questions", std::move(questions)}}
      .dump();
}

Result<SurveyAggregate> DeserializeSurveyAggregate(const Survey& survey, std::string_view blob,
                                                   LegacyFingerprint legacy) {
  const std::string where = "aggregate of survey " + survey.id;
  DENIABLE_ASSIGN_OR_RETURN(const json object, ParseBlob(blob, where));
  DENIABLE_TRY(CheckFormat(object, kSurveyAggregateFormat, where));
  DENIABLE_TRY(RequireFields(object, {"format", "version", "survey", "respondents", "questions"}, where));
  DENIABLE_TRY(ExpectString(object, "survey", survey.id, "survey", where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t respondents,
                            ReadCount(object, "respondents", kMaxAggregateCount, "", where));
  const json& questions = object.at("questions");
  if (!questions.is_array() || questions.size() != survey.questions.size()) {
    return MakeError(JoinPath(where, "questions") + ": must be an array of " + std::to_string(survey.questions.size()) +
                     " aggregates (one per question), but is " +
                     (questions.is_array() ? std::to_string(questions.size()) + " long" : questions.type_name()));
  }
  std::vector<std::unique_ptr<KindAggregate>> aggregates;
  for (std::size_t q = 0; q < questions.size(); ++q) {
    DENIABLE_ASSIGN_OR_RETURN(auto aggregate, ReadQuestionObject(survey, q, questions[q], legacy));
    if (aggregate->n() > respondents) {  // a question's respondents are some of the survey's
      return MakeError(where + ": question " + survey.questions[q].id + " has " + std::to_string(aggregate->n()) +
                       " respondents, more than the survey's " + std::to_string(respondents));
    }
    aggregates.push_back(std::move(aggregate));
  }
  return SurveyAggregate(respondents, std::move(aggregates));
}

}  // namespace deniable
