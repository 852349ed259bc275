// The client half of a block question (block_question_kind.h): its
// attributes, the per-attribute budget and its split by the respondent's own
// choices (answered set, sensitivities), and the perturbation of each
// answered attribute (pmoue.h).
#pragma once

#include <memory>
#include <string>

#include "core/kinds/block/block_definition.h"
#include "core/kinds/block/budget_split.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class BlockClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "block";
  static KindClientEntry Entry();
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  const BlockDefinition& block() const { return block_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  // A respondent who answers every attribute: d * e.
  std::optional<double> epsilon() const override;
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  Result<nlohmann::json> PrivacyOfChoices(const nlohmann::json& choices) const override;

  // The respondent's choices (answered set and weights) from an answer; never the values.
  Result<BlockChoices> ChoicesOf(const nlohmann::json& answered, const nlohmann::json& sensitivity) const;

 protected:
  // Only Parse builds one: an invalid kind cannot exist.
  explicit BlockClient(BlockDefinition block) : block_(std::move(block)) {}

  BlockDefinition block_;
};

}  // namespace deniable
