// A kind of question: everything about one kind of collection in one place,
// as libprio-rs's Vdaf trait holds a kind's client, aggregation and
// collection. A kind is parsed from its definition (kind_registry.h) and is
// valid by construction; the survey, report, aggregate, results and
// simulation code (this folder), the server, the WebAssembly bindings and the
// CSV export reach it only through this interface. A new kind is one folder
// under core/kinds/ and two lines in kind_registry.cc (the full kind and its
// client half, kind_client.h).
//
// Each kind has three halves:
//   client:     Perturb turns a true answer into its report's wire form
//               (kind_client.h: the kind's client class, which the full kind
//               derives from, and all the respondent's module links);
//   aggregator: Decode validates a wire form, NewAggregate gives mergeable
//               sufficient statistics of its own type;
//   collector:  Estimate turns an aggregate into the results document, and
//               CsvRows into the CSV export's rows.
// plus the privacy statement, the simulation truth, and an optional public
// state that clients fetch (for kinds trained across rounds).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/release_document.h"
#include "core/common/parallel_work.h"
#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/answer_channel.h"
#include "core/survey/kind_client.h"
#include "core/survey/report_columns.h"

namespace deniable {

// One question's decoded, validated response, of its kind's own type.
class KindResponse {
 public:
  virtual ~KindResponse() = default;
};

// One question's mergeable sufficient statistics: estimation reads only
// these, so its cost does not grow with the number of reports.
class KindAggregate {
 public:
  virtual ~KindAggregate() = default;
  // The kind's type name: Merge refuses an aggregate of another kind.
  virtual std::string_view type() const = 0;
  // `response` was decoded by the kind that made this aggregate.
  virtual void Add(const KindResponse& response) = 0;
  // Adds another aggregate of the same question; changes nothing on error.
  virtual Status Merge(const KindAggregate& other) = 0;
  virtual std::unique_ptr<KindAggregate> Clone() const = 0;
  // Respondents who answered this question.
  virtual std::int64_t n() const = 0;
  // Whether a decoded response may be counted now, for kinds whose
  // responses belong to a moment of collection (a model's round: a report
  // for a closed or future round is refused). The server asks before it
  // stores a report; replayed reports are added without asking.
  virtual Status Admits(const KindResponse& /*response*/) const { return OkStatus(); }
  // Whether the question has collected all it will (a model whose rounds are
  // all done): a response it then refuses is answered 409 "model_complete",
  // not "report_not_admitted".
  virtual bool Complete() const { return false; }

  // --- serialisation (aggregate_format.h wraps these in a versioned blob
  // naming the kind and the question; each kind writes them in its folder's
  // <kind>_aggregate_format.cc)
  // The sufficient statistics, every count an exact integer and every double
  // as it is (read back bit for bit); only what Add and Merge accumulate,
  // never what the question's definition fixes (sizes, ranges, atoms).
  virtual nlohmann::json StatisticsToJson() const = 0;
  // Sets the statistics to ones StatisticsToJson wrote. Called on an empty
  // aggregate from the question's NewAggregate, which knows the question's
  // shape, so lengths are checked against it; also refused: negative counts,
  // counts beyond what n allows, sums that disagree, numbers that are not
  // finite, unknown or missing fields. Errors name the field; on error the
  // aggregate is unchanged.
  virtual Status StatisticsFromJson(const nlohmann::json& statistics) = 0;
};

// One row of the CSV export, in long ("tidy") form: what the row is about
// (`label`: an option, a bin, a variable; "" for the whole question), what
// its number is (`measure`: "frequency", "mean", "median", "share",
// "coefficient", ...) and the estimate with its standard error, 95% interval,
// the consistent (post-processed) estimate of the same measure and the reports
// behind it. The survey, question, type, n, epsilon and mechanism columns are
// the same for every kind. Null is an empty field. Rows come in the kind's
// own order (options as defined, statistics from the mean on).
struct CsvRow {
  std::string label;
  std::string measure;
  nlohmann::json estimate, std_error, ci_low, ci_high, consistent, count;
  // The respondents behind this row when not the question's n (a block's
  // attribute answered by fewer, a cross-tab's group); null: the question's.
  nlohmann::json n = nullptr;
  // The row's variables as (name, value), one CSV column each, so that no
  // label packs several: a block's attribute and its option, a cross-tab
  // cell's attributes and their options.
  std::vector<std::pair<std::string, std::string>> variables = {};
  // A release's row (a question answered in confidence): its id, method and ε.
  std::string release = {};
  std::string release_method = {};
  nlohmann::json release_epsilon = nullptr;
};

// A simulated population's answers to one question: draws each respondent's
// true answer and, once the results are estimated, compares them with it.
class TruthSampler {
 public:
  virtual ~TruthSampler() = default;
  // One respondent's true answer, as PerturbAnswers takes it; remembered.
  virtual Result<nlohmann::json> Draw(RandomSource& random) = 0;
  // The fields added to the question's result: "truth", "errors" and
  // "advice" (a kind's design advice, or null).
  virtual nlohmann::json Compare(const nlohmann::json& result) const = 0;
  // A truth made of a table's rows (a CSV file's): how many rows (0: a
  // distribution, not rows). Questions whose truths share a table are drawn
  // from one row per respondent (simulation.h), so they see the same person.
  virtual std::size_t rows() const { return 0; }
  // The answer in row `row` (< rows()), remembered as Draw's are; `random`
  // for what a row does not hold (a block's privacy choices).
  virtual Result<nlohmann::json> DrawRow(std::size_t /*row*/, RandomSource& /*random*/) {
    return MakeError("this truth has no rows");
  }
};

// A question answered in confidence (trust model "central"): the answer
// reaches the server unperturbed and is counted exactly, per bin; only
// differentially private releases of those counts are ever published
// (core/central/). The exact counts are never in a results document.
class ConfidentialAnswers {
 public:
  virtual ~ConfidentialAnswers() = default;
  // The publication budget: the most all the question's releases may spend together.
  virtual double budget() const = 0;
  // Whether the definition lets the admin read the exact counts (default no).
  virtual bool admin_sees_counts() const = 0;
  // The bins' labels and the derived views (each data consumer's histogram).
  virtual ReleaseLayout layout() const = 0;
  // How far one respondent moves the counts in L1: what releases are calibrated to.
  virtual std::int64_t sensitivity() const = 0;
  // The exact count per bin, for releases (and the admin when allowed).
  virtual std::vector<std::int64_t> ExactCounts(const KindAggregate& aggregate) const = 0;
};

class QuestionKind;
// The kinds of the questions before this one in the survey, by id (null: none).
using EarlierQuestions = std::function<const QuestionKind*(const std::string& id)>;

// The full kind: the client half (kind_client.h: definition, privacy,
// Perturb, page summary), which it inherits from the kind's client class,
// plus aggregation, estimation and simulation.
class QuestionKind : public virtual KindClient {
 public:
  ~QuestionKind() override = default;

  // --- aggregator
  virtual Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const = 0;
  virtual std::unique_ptr<KindAggregate> NewAggregate() const = 0;

  // --- collector
  // `options`: the estimation options (an object; from an HTTP query its
  // values are strings). The kind reads the fields it knows; a kind with no
  // options of its own accepts any (the default).
  virtual Status ValidateEstimateOptions(const nlohmann::json& /*options*/) const { return OkStatus(); }
  // Whether Estimate costs more than microseconds for this aggregate (by
  // default not: results read from counts).
  virtual bool NeedsEstimation(const KindAggregate& /*aggregate*/) const { return false; }
  // The question's results (without id, text and type, which the survey adds).
  // They state what their intervals cover under "interval_for"
  // (interval_target.h: the population by default, or these respondents when
  // options["interval"] is "respondents").
  // `cancelled` (optional) is polled by long estimations, which then fail
  // with kEstimationCancelled.
  virtual Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                          const std::function<bool()>& cancelled) const = 0;
  // Estimate, with `parallel` (parallel_work.h) to run the pieces of work that
  // are independent (a numeric question's bootstrap replicates): the same
  // result whatever `parallel` does. Kinds without such work keep this one.
  virtual Result<nlohmann::json> EstimateInParallel(const KindAggregate& aggregate, const nlohmann::json& options,
                                                    const std::function<bool()>& cancelled,
                                                    const ParallelFor& /*parallel*/) const {
    return Estimate(aggregate, options, cancelled);
  }
  // The CSV export's rows for one of its results (a result without an error).
  virtual std::vector<CsvRow> CsvRows(const nlohmann::json& result) const = 0;

  // --- simulation
  virtual Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry,
                                                           const std::string& where) const = 0;
  // `deniable simulate`'s text for a result with its comparison (no error).
  virtual std::string SimulationText(const nlohmann::json& result) const = 0;

  // A simulation truth from a table of records (the CLI reads a CSV file:
  // `table` is its rows, the header first; core does no I/O): the entry in
  // the kind's own truth form, one answer per data row in the file's order
  // (rows() of its sampler), so that it can share the table's rows with the
  // other questions reading the same file. `entry` is the truth file's entry
  // with its "csv" field, and "question_columns": {"<question id>": column}
  // naming the columns other questions' truths read from the same file (a
  // model's variables default to them); the CLI drops that field from the result.
  // An error for kinds whose truths are not records.
  virtual Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& /*table*/,
                                                const nlohmann::json& /*entry*/, const std::string& where) const {
    return MakeError(where + ".csv: questions of this kind take no CSV truth");
  }

  // For kinds built on other questions' answers (a model over numeric
  // questions): this kind linked to the questions it names, which must come
  // before it; errors start with `where`. Null: nothing to link (most kinds).
  virtual Result<std::shared_ptr<const QuestionKind>> Link(const EarlierQuestions& /*earlier*/,
                                                            const std::string& /*where*/) const {
    return std::shared_ptr<const QuestionKind>();
  }

  // --- capabilities (null or nullopt when the kind lacks them)
  // Questions answered in confidence: their exact counts and publication
  // budget (their client's trust() is Trust::kCentral).
  virtual const ConfidentialAnswers* confidential() const { return nullptr; }
  // A state every client fetches before answering (a model trained across
  // rounds); none for kinds without rounds. Such a kind's answer carries the
  // state it was computed against under "state" (the page puts the fetched
  // state there; simulations use WithPublicStates, core/survey/results.h).
  virtual std::optional<nlohmann::json> PublicState(const KindAggregate& /*aggregate*/) const { return std::nullopt; }
  // Advice on the question's design before collection, for `respondents`
  // expected answers (e.g. which mechanism serves its data consumers best);
  // shown while a survey is written. None for kinds without design choices
  // to compare this way.
  virtual std::optional<nlohmann::json> DesignAdvice(std::int64_t /*respondents*/) const { return std::nullopt; }
  // How a response depends on a true answer that is a category (an option, a
  // bin) or a number, for analysis across questions (answer_channel.h:
  // breakdowns by group, cross-tabulations, regressions, the reports' export).
  virtual const CategoryChannel* category_channel() const { return nullptr; }
  virtual const ValueChannel* value_channel() const { return nullptr; }
  // A report as columns of the reports' export (report_columns.h); null for
  // kinds whose reports are never exported (answered in confidence).
  virtual const ReportColumns* report_columns() const { return nullptr; }
};

// The message of a question's estimation that was cancelled (its error's kind
// is ErrorCode::kCancelled; the document is then incomplete and must be
// discarded).
inline constexpr const char* kEstimationCancelled = "estimation cancelled";

}  // namespace deniable
