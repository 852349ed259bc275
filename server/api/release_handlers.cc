#include "server/api/release_handlers.h"

#include <algorithm>
#include <iostream>
#include <sstream>

#include "core/central/release_document.h"
#include "core/common/json_fields.h"
#include "core/common/os_random.h"
#include "core/survey/interval_target.h"
#include "server/base/utc_time.h"
#include "server/http/json_limits.h"
#include "server/http/wire_errors.h"

namespace deniable::server {
namespace {

struct ConfidentialQuestion {
  std::shared_ptr<SurveyEntry> entry;
  std::size_t index = 0;
  const ConfidentialAnswers* confidential = nullptr;
};

// The survey and question the path names, which must be answered in confidence.
std::variant<ConfidentialQuestion, ApiError> FindConfidentialQuestion(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  const std::string& question_id = request.path_params.at(1);
  const auto index = entry->survey().QuestionIndex(question_id);
  if (!index) {
    return ApiErrorFor(WireCode::kQuestionNotFound,
                       "survey \"" + entry->id() + "\" has no question \"" + question_id + "\"");
  }
  const ConfidentialAnswers* confidential = entry->survey().questions[*index].kind->confidential();
  if (!confidential) {
    return ApiErrorFor(WireCode::kNotConfidential,
                       "question \"" + question_id +
                           "\" is not answered in confidence: its answers are randomised on "
                           "the device and its results are estimated from the reports, not released");
  }
  return ConfidentialQuestion{entry, *index, confidential};
}

// A ledger's read-modify-write that stored nothing, as the error table maps
// its kind: kConflict (another node changed the ledger meanwhile: retryable,
// the entry reloaded it) ledger_changed; kNotFound (the survey was deleted)
// survey_deleted; the store's own failures storage_failed or
// storage_unavailable. Nothing was published or spent.
ApiError LedgerStoreError(const Error& error, const std::string& survey_id) {
  switch (error.code) {
    case ErrorCode::kConflict:
      return ApiErrorFor(WireCode::kLedgerChanged, error.message);
    case ErrorCode::kNotFound:
      return ApiErrorFor(WireCode::kSurveyDeleted, "survey \"" + survey_id + "\" was deleted: nothing was stored");
    default:
      std::cerr << "error: a ledger was not stored: " << error.message << std::endl;
      return FromError(MakeError("the ledger could not be stored, so nothing was published or spent", error.code),
                       WireCode::kStorageFailed);
  }
}

ApiError RefusalError(const ReleaseRefused& refused, const std::string& survey_id) {
  switch (refused.reason) {
    case ReleaseRefused::kOverBudget:
      return ApiErrorFor(WireCode::kBudgetExceeded, refused.error.message);
    case ReleaseRefused::kNoAnswers:
      return ApiErrorFor(WireCode::kNoAnswers, refused.error.message);
    case ReleaseRefused::kNotConfidential:
      return ApiErrorFor(WireCode::kNotConfidential, refused.error.message);
    case ReleaseRefused::kStorage:
      break;
  }
  return LedgerStoreError(refused.error, survey_id);
}

PersistLedger SaveTo(Storage& storage, const std::string& survey_id) {
  return [&storage, survey_id](const std::string& question_id, const LedgerUpdate& update) {
    return storage.UpdateLedger(survey_id, question_id, update);
  };
}

// The body's "at_respondents" (taken out of it), if any.
std::variant<std::optional<std::int64_t>, ApiError> TakeAtRespondents(nlohmann::json& body) {
  if (!body.is_object() || !body.contains("at_respondents")) return std::optional<std::int64_t>();
  auto count = ReadInteger(body, "at_respondents", 1, 1000000000, "");
  if (!count) return FromError(count.failure(), WireCode::kInvalidRequest);
  body.erase("at_respondents");
  return std::optional<std::int64_t>(*count);
}

nlohmann::json BudgetFields(const ReleaseLedger& ledger) {
  return {{"budget", ledger.budget()}, {"spent", ledger.spent()}, {"reserved", ledger.reserved()}, {"left", ledger.left()}};
}

// ?postprocess=clamp,round,consistent (any of them, comma-separated).
std::variant<PostProcessing, ApiError> ReadPostProcessing(const ApiRequest& request) {
  PostProcessing steps;
  for (const auto& [name, value] : request.query) {
    if (name != "postprocess" && name != kIntervalOption) {
      return ApiErrorFor(WireCode::kInvalidQuery,
                         "unknown query parameter \"" + name + "\" (expected postprocess or " + kIntervalOption + ")");
    }
  }
  const auto found = request.query.find("postprocess");
  if (found == request.query.end()) return steps;
  std::stringstream list(found->second);
  std::string step;
  while (std::getline(list, step, ',')) {
    if (step == "clamp") {
      steps.clamp = true;
    } else if (step == "round") {
      steps.round = true;
    } else if (step == "consistent") {
      steps.consistent = true;
    } else {
      return ApiErrorFor(
          WireCode::kInvalidQuery,
          "postprocess: \"" + step + "\" is not a step (expected clamp, round or consistent, comma-separated)");
    }
  }
  return steps;
}

}  // namespace

ApiResult HandleCreateRelease(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto found = FindConfidentialQuestion(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  const auto& question = std::get<ConfidentialQuestion>(found);
  auto body = ParseJsonBody(request.Header("content-type"), request.body);
  if (!body) return InvalidJson(body.error());
  nlohmann::json document = std::move(body).value();
  auto at_respondents = TakeAtRespondents(document);
  if (auto* error = std::get_if<ApiError>(&at_respondents)) return *error;
  auto release_request = ParseReleaseRequest(document);
  if (!release_request) return FromError(release_request.failure(), WireCode::kInvalidRequest);
  OsRandom random;  // the noise: drawn here, once, from the kernel's CSPRNG
  const std::string& question_id = request.path_params.at(1);
  auto made = question.entry->Release(question_id, *release_request, std::get<0>(at_respondents), random, NowUtc(),
                                      SaveTo(context.storage, question.entry->id()));
  if (auto* refused = std::get_if<ReleaseRefused>(&made)) return RefusalError(*refused, question.entry->id());
  nlohmann::json reply = BudgetFields(*question.entry->Ledger(question_id));
  if (auto* scheduled = std::get_if<ScheduledRelease>(&made)) {
    reply["scheduled"] = nlohmann::json{{"id", scheduled->id},
                                        {"request", scheduled->request.ToJson()},
                                        {"at_respondents", scheduled->at_respondents},
                                        {"scheduled_at", scheduled->scheduled_at}};
    return JsonResponse(202, reply);
  }
  reply["release"] = ReleaseDocument(std::get<LedgerRelease>(made), question.confidential->layout());
  return JsonResponse(201, reply);
}

ApiResult HandleCancelScheduledRelease(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto found = FindConfidentialQuestion(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  const auto& question = std::get<ConfidentialQuestion>(found);
  const std::string& question_id = request.path_params.at(1);
  const std::string& scheduled_id = request.path_params.at(2);
  const auto ledger = question.entry->Ledger(question_id);
  const auto& scheduled = ledger->scheduled();
  if (std::none_of(scheduled.begin(), scheduled.end(), [&](const auto& item) { return item.id == scheduled_id; })) {
    return ApiErrorFor(WireCode::kScheduledReleaseNotFound, "question \"" + question_id +
                                                                "\" has no scheduled release \"" + scheduled_id +
                                                                "\" (it may have been made already)");
  }
  if (auto cancelled = question.entry->CancelScheduled(question_id, scheduled_id, SaveTo(context.storage, question.entry->id()));
      !cancelled) {
    // The ledger's read-modify-write refused it (another node changed the ledger, the survey was deleted, the
    // store failed), or the ledger refused the cancel.
    const ErrorCode kind = cancelled.error_code();
    if (kind == ErrorCode::kConflict || kind == ErrorCode::kNotFound || kind == ErrorCode::kUnavailable ||
        kind == ErrorCode::kInternal) {
      return LedgerStoreError(cancelled.failure(), question.entry->id());
    }
    std::cerr << "error: cancelling a scheduled release failed: " << cancelled.error() << std::endl;
    return ApiErrorFor(WireCode::kNotCancelled, cancelled.error());
  }
  return JsonResponse(200, BudgetFields(*question.entry->Ledger(question_id)));
}

void RunDueReleases(Storage& storage, SurveyEntry& entry) {
  OsRandom random;
  if (auto made = entry.RunDueReleases(random, NowUtc(), SaveTo(storage, entry.id())); !made) {
    std::cerr << "error: survey \"" << entry.id() << "\": a scheduled release was not made (retried at the next "
              << "report): " << made.error() << std::endl;
  }
}

ApiResult HandleGetLedger(ApiContext& context, const ApiRequest& request) {
  const auto entry = context.registry.Find(request.path_params.at(0));
  if (!entry) return SurveyNotFound(request.path_params.at(0));
  if (auto denied = CheckResultsAccess(context, *entry, request)) return *denied;
  auto found = FindConfidentialQuestion(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  const auto& question = std::get<ConfidentialQuestion>(found);
  auto steps = ReadPostProcessing(request);
  if (auto* error = std::get_if<ApiError>(&steps)) return *error;
  // ?interval=respondents: intervals for these respondents' counts (the default: the population).
  nlohmann::json interval_option = nlohmann::json::object();
  if (const auto given = request.query.find(kIntervalOption); given != request.query.end()) {
    interval_option[kIntervalOption] = given->second;
  }
  const auto target = ReadIntervalTarget(interval_option);
  if (!target) return ApiErrorFor(WireCode::kInvalidQuery, "query parameter " + target.error());
  const auto ledger = question.entry->Ledger(request.path_params.at(1));
  nlohmann::json document = LedgerDocument(*ledger, question.confidential->layout(), *target);
  if (request.query.count("postprocess")) {
    for (std::size_t r = 0; r < ledger->releases().size(); ++r) {
      document["releases"][r]["postprocessed"] =
          PostProcessedValues(ledger->releases()[r], std::get<PostProcessing>(steps));
    }
  }
  document["survey"] = entry->id();
  document["question"] = request.path_params.at(1);
  return JsonResponse(200, document);
}

ApiResult HandleExactCounts(ApiContext& context, const ApiRequest& request) {
  if (auto denied = RequireAdmin(context, request)) return *denied;
  auto found = FindConfidentialQuestion(context, request);
  if (auto* error = std::get_if<ApiError>(&found)) return *error;
  const auto& question = std::get<ConfidentialQuestion>(found);
  if (!question.confidential->admin_sees_counts()) {
    return ApiErrorFor(
        WireCode::kExactCountsNotAllowed,
        "the definition of question \"" + request.path_params.at(1) +
            "\" does not let admins see its exact counts (\"admin_sees_counts\" is false): only releases "
            "are published");
  }
  const auto counts = question.entry->ExactCounts(question.index);
  const auto labels = question.confidential->layout().labels;
  nlohmann::json bins = nlohmann::json::array();
  std::int64_t n = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    bins.push_back({{"label", labels[b]}, {"count", counts[b]}});
    n += counts[b];
  }
  return JsonResponse(200, {{"survey", question.entry->id()},
                            {"question", request.path_params.at(1)},
                            {"n", n},
                            {"bins", bins},
                            {"note", "exact counts, not private: shown to the admin because the question's definition "
                                     "allows it; never publish them"}});
}

}  // namespace deniable::server
