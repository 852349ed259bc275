// A block of categorical attributes with personalised budgets (seed 002:
// PLDP / PMOUE). Each respondent answers any of the attributes (at least
// one), sets how private each should be, and sends one PMOUE report
// (pmoue.h); the split of their budget m * e over the m answered attributes
// is made on the device from their choices alone (budget_split.h) and is not
// sent. The server estimates each attribute's distribution
// (block_marginals.h) and cross-tabulations of any 2 to 2 * joint_order of
// them (cross_tab.h).
//
// Definition: block_definition.h. Answer (Perturb's input):
// {"answers": {"<id>": option index, ...} (unanswered: absent or null),
//  "sensitivity": {"<id>": "more_private" | "usual" | "less_private" | weight}}.
// Wire form: pmoue.h.
//
// Privacy (personalised LDP, digest section 4): a respondent who answers m
// attributes is (m e)-LDP for the block, and each answered attribute's
// report is epsilon_j-LDP about that answer, epsilon_j the respondent's
// share, because the split does not depend on the answers. Not
// (m min epsilon_j)-LDP, as the paper's Theorem 3 claims. The server sees
// which attributes were answered, and an attribute's number of 1 bits
// hints at its share (more 1s: a smaller share).
#pragma once

#include <memory>
#include <string>

#include "core/kinds/block/block_advice.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_client.h"
#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/budget_split.h"
#include "core/survey/kind_registry.h"
#include "core/survey/question_kind.h"

namespace deniable {

struct Question;

// The client half (the block's definition, privacy, Perturb, page summary,
// the privacy of a respondent's choices) is BlockClient's.
class BlockQuestionKind final : public QuestionKind, public BlockClient, public ReportColumns {
 public:
  static KindEntry Entry();
  static Result<std::shared_ptr<const QuestionKind>> Parse(const nlohmann::json& question, const std::string& where);

  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json& wire) const override;
  std::unique_ptr<KindAggregate> NewAggregate() const override {
    return std::make_unique<BlockAggregate>(block_.sizes(), block_.joint_order);
  }
  Status ValidateEstimateOptions(const nlohmann::json& options) const override;
  Result<nlohmann::json> Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                  const std::function<bool()>& cancelled) const override;
  std::vector<CsvRow> CsvRows(const nlohmann::json& result) const override;
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json& entry, const std::string& where) const override;
  Result<nlohmann::json> TruthFromTable(const std::vector<std::vector<std::string>>& table, const nlohmann::json& entry,
                                        const std::string& where) const override;
  std::string SimulationText(const nlohmann::json& result) const override;
  // Each attribute's expected share precision at its epsilon share (block_advice.h).
  std::optional<nlohmann::json> DesignAdvice(std::int64_t respondents) const override {
    return BlockShareAdvice(block_, respondents);
  }

  // The reports' export (block_report_columns.cc): per attribute, one 0/1
  // column per option, empty where the attribute was not answered.
  const ReportColumns* report_columns() const override { return this; }
  std::vector<ReportColumn> Columns() const override;
  std::vector<nlohmann::json> ColumnValues(const nlohmann::json& wire) const override;
  nlohmann::json Channel() const override;

 private:
  // Only Parse builds one, from a parsed client: an invalid kind cannot exist.
  explicit BlockQuestionKind(const BlockClient& client) : BlockClient(client) {}
};

const BlockQuestionKind& BlockKindOf(const Question& question);

}  // namespace deniable
