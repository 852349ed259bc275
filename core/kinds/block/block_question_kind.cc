#include "core/kinds/block/block_question_kind.h"

#include <cassert>
#include <cmath>

#include "core/common/validation.h"
#include "core/kinds/block/block_estimate_options.h"
#include "core/kinds/block/block_results.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/pmoue.h"
#include "core/survey/question_fields.h"
#include "core/survey/survey.h"

namespace deniable {
KindEntry BlockQuestionKind::Entry() {
  return {kType, &Parse, PublicBlockEstimateOptionNames(), &CanonicalBlockEstimateOptions};
}

Result<std::shared_ptr<const QuestionKind>> BlockQuestionKind::Parse(const nlohmann::json& question,
                                                                     const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, BlockClient::Parse(question, where));
  return std::shared_ptr<const QuestionKind>(new BlockQuestionKind(dynamic_cast<const BlockClient&>(*client)));
}

Result<std::unique_ptr<const KindResponse>> BlockQuestionKind::Decode(const nlohmann::json& wire) const {
  DENIABLE_ASSIGN_OR_RETURN(auto report, BlockReportFromJson(block_, wire));
  return std::unique_ptr<const KindResponse>(std::make_unique<BlockResponse>(std::move(report)));
}

Status BlockQuestionKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseBlockEstimateOptions(options));
  DENIABLE_TRY(CrossTabSet(block_, parsed));
  return OkStatus();
}

Result<nlohmann::json> BlockQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                   const std::function<bool()>& /*cancelled*/) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseBlockEstimateOptions(options));
  return BlockResultToJson(block_, static_cast<const BlockAggregate&>(aggregate), parsed, MechanismToJson(),
                           PrivacyToJson());
}

std::vector<CsvRow> BlockQuestionKind::CsvRows(const nlohmann::json& result) const { return BlockCsvRows(result); }

Result<std::unique_ptr<TruthSampler>> BlockQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                    const std::string& where) const {
  return ParseBlockTruth(block_, entry, where);
}

Result<nlohmann::json> BlockQuestionKind::TruthFromTable(const std::vector<std::vector<std::string>>& table,
                                                        const nlohmann::json& entry, const std::string& where) const {
  return BlockTruthFromTable(block_, table, entry, where);
}

std::string BlockQuestionKind::SimulationText(const nlohmann::json& result) const {
  return BlockSimulationText(result);
}

const BlockQuestionKind& BlockKindOf(const Question& question) {
  assert(question.kind->type() == BlockQuestionKind::kType);
  return static_cast<const BlockQuestionKind&>(*question.kind);
}

}  // namespace deniable
