// The client half of a histogram question (histogram_question_kind.h): the
// range, the data consumers' histograms merged into one fine partition, and
// the unary encodings (sue, oue, or oue per level of a tree) that perturb the
// answer's cell. Its parser also builds the confidential variant
// (confidential_client.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/frequency/categorical_mechanism.h"
#include "core/kinds/histogram/consumer_requests.h"
#include "core/kinds/histogram/fine_partition.h"
#include "core/kinds/histogram/tree_design.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class HistogramClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "histogram";
  static KindClientEntry Entry();
  // A histogram question's client: this class or ConfidentialClient.
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);

  NumericRange range() const { return partition_.range(); }
  const std::string& unit() const { return unit_; }
  const std::vector<ConsumerRequest>& consumers() const { return consumers_; }
  const FinePartition& partition() const { return partition_; }
  // The unary encoding every report uses (each level's own size, one p and q).
  const CategoricalMechanism& mechanism() const { return *level_mechanisms_.back(); }
  bool hierarchical() const { return tree_.has_value(); }
  // sue and oue: one level, the fine cells ({cells, 1}); tree: its design's.
  const TreeShape& shape() const { return shape_; }
  const std::optional<TreeDesign>& tree() const { return tree_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return mechanism().epsilon(); }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  std::optional<NumericAnswers> numeric_answers() const override { return NumericAnswers{range()}; }

 protected:
  // Only Parse builds one: an invalid kind cannot exist.
  HistogramClient(std::string unit, std::vector<ConsumerRequest> consumers, FinePartition partition,
                  std::optional<TreeDesign> tree, TreeShape shape,
                  std::vector<std::shared_ptr<const CategoricalMechanism>> level_mechanisms)
      : unit_(std::move(unit)),
        consumers_(std::move(consumers)),
        partition_(std::move(partition)),
        tree_(std::move(tree)),
        shape_(shape),
        level_mechanisms_(std::move(level_mechanisms)) {}
  // The level a respondent reports: 1 for sue and oue; by the design's weights for tree.
  int DrawLevel(RandomSource& random) const;

  std::string unit_;
  std::vector<ConsumerRequest> consumers_;
  FinePartition partition_;
  std::optional<TreeDesign> tree_;
  TreeShape shape_;
  std::vector<std::shared_ptr<const CategoricalMechanism>> level_mechanisms_;  // per level 1..h
};

}  // namespace deniable
