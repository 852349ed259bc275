// The client half of a kind of question: what the respondent's device needs
// to show a question and turn a true answer into its report, and nothing that
// aggregates or estimates. The respondent's WebAssembly module
// (wasm/client_exports.cc) parses surveys into these only
// (ParseClientSurvey, survey.h), so its link never reaches an estimator.
//
// Each kind folder has its client class (<kind>_client.h), built by parsing
// the question's definition. The full kind (question_kind.h) derives from
// both QuestionKind and its client class; KindClient is a virtual base of
// both, so the client's overrides are the full kind's: the client half is
// written once, and the full kind adds only aggregation, estimation and
// simulation.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"

namespace deniable {

// Who sees the true answer: only the respondent's device (local: the answer is
// perturbed before it is sent), the server, which publishes only noisy
// releases (central), or everyone (open: a demographic or stratum asked
// openly, sent as given and published exactly; no epsilon protects it).
enum class Trust { kLocal, kCentral, kOpen };

// The answer range of kinds whose answers are numbers in [a, b]: data files
// of true answers (the CLI's CSV truths) are checked against it, and a model
// reads its variables' ranges from it.
struct NumericAnswers {
  NumericRange range;
};

// The fields of a question whose words may be corrected while its survey runs
// (core/survey/text_correction.h): free texts, and lists of words whose count
// and order stay fixed (each entry names what reports count, by position).
struct WordingFields {
  std::vector<std::string> texts;
  std::vector<std::string> lists;
};

class KindClient;
// The clients of the questions before this one in the survey, by id (null: none).
using EarlierClients = std::function<const KindClient*(const std::string& id)>;

class KindClient {
 public:
  virtual ~KindClient() = default;

  // --- definition
  virtual std::string_view type() const = 0;
  // The kind's fields of the question's canonical JSON ("type", "options" or
  // "range", "mechanism", ...): parsing them again gives an equal kind.
  virtual nlohmann::json DefinitionToJson() const = 0;
  virtual nlohmann::json MechanismToJson() const = 0;

  // --- privacy
  // The epsilon a respondent who answers spends; nullopt: no formal epsilon.
  virtual std::optional<double> epsilon() const = 0;
  // {"epsilon": e} or {"epsilon": null, "note": why}.
  virtual nlohmann::json PrivacyToJson() const = 0;
  virtual Trust trust() const { return Trust::kLocal; }

  // --- the respondent's side
  // The report's wire form for one true answer. Errors name no path: the
  // caller puts the question's in front.
  virtual Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const = 0;
  // What the survey page needs beyond the definition (e.g. p and q).
  virtual nlohmann::json PageSummary() const = 0;
  // For kinds whose respondents choose their own privacy (a block's
  // sensitivity per attribute): what those choices give, computed from the
  // choices alone, never from answers, so the page can show it before
  // anything is sent. An error for kinds without such choices.
  virtual Result<nlohmann::json> PrivacyOfChoices(const nlohmann::json& /*choices*/) const {
    return MakeError("questions of this kind have no privacy choices");
  }
  // Kinds whose answers are numbers in a range (numeric; a histogram's or a
  // confidential question's bins over a range).
  virtual std::optional<NumericAnswers> numeric_answers() const { return std::nullopt; }
  // Which of the question's fields are wording (text_correction.h). Every
  // kind's question texts, and `options` where a kind has them; a kind with
  // other lists of words (a grid's `items` and `scale`) adds them.
  virtual WordingFields wording_fields() const { return {{"text", "description", "help"}, {"options"}}; }

  // For kinds built on other questions' answers (a model over numeric
  // questions): this client linked to the questions it names, which must
  // come before it; errors start with `where`. Null: nothing to link (most
  // kinds). QuestionKind::Link is the full kind's counterpart.
  virtual Result<std::shared_ptr<const KindClient>> LinkClient(const EarlierClients& /*earlier*/,
                                                               const std::string& /*where*/) const {
    return std::shared_ptr<const KindClient>();
  }
};

}  // namespace deniable
