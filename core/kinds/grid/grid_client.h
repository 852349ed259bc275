// The client half of a rating grid (grid_question_kind.h): several items (the
// rows, 2 to 30) rated on one ordered scale (2 to 11 levels, lowest first),
// e.g. five statements on a 5-point agreement scale. The answer is one level
// index per item, [2, 4, 0, ...]; the report one reported level per item.
//
// Privacy: the grid's epsilon is split equally over its R items, each
// reported through its row mechanism (grid_mechanism.h) at epsilon / R with
// its own randomness. By sequential composition the whole grid, every item's
// answer together, is epsilon-LDP: changing all R answers multiplies a
// report's probability by at most (e^(epsilon/R))^R = e^epsilon (and the
// conformance test's empirical audit measures it on the whole grid's
// report); each item's answer alone is protected at epsilon / R.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/kinds/grid/grid_mechanism.h"
#include "core/survey/kind_client.h"
#include "core/survey/kind_registry.h"

namespace deniable {

class GridClient : public virtual KindClient {
 public:
  static constexpr const char* kType = "grid";
  static KindClientEntry Entry();
  static Result<std::shared_ptr<const KindClient>> Parse(const nlohmann::json& question, const std::string& where);
  // The same, typed (the full kind is built from it without a cast).
  static Result<std::shared_ptr<const GridClient>> ParseGrid(const nlohmann::json& question, const std::string& where);

  const std::vector<std::string>& items() const { return items_; }
  const std::vector<std::string>& scale() const { return scale_; }
  const GridRowMechanism& row_mechanism() const { return *row_; }
  double grid_epsilon() const { return epsilon_; }

  std::string_view type() const override { return kType; }
  nlohmann::json DefinitionToJson() const override;
  nlohmann::json MechanismToJson() const override;
  std::optional<double> epsilon() const override { return epsilon_; }
  nlohmann::json PrivacyToJson() const override;
  Result<nlohmann::json> Perturb(const nlohmann::json& answer, RandomSource& random) const override;
  nlohmann::json PageSummary() const override;
  // The items' and the scale's words may be corrected while the survey runs
  // (text_correction.h): reports count items and levels by position.
  WordingFields wording_fields() const override { return {{"text", "description", "help"}, {"items", "scale"}}; }

 protected:
  GridClient(std::vector<std::string> items, std::vector<std::string> scale, double epsilon,
             std::shared_ptr<const GridRowMechanism> row)
      : items_(std::move(items)), scale_(std::move(scale)), epsilon_(epsilon), row_(std::move(row)) {}

  std::vector<std::string> items_;
  std::vector<std::string> scale_;
  double epsilon_;                             // the whole grid's
  std::shared_ptr<const GridRowMechanism> row_;  // every row's, at epsilon / items
};

// A grid answer (one level index per item) or a report's wire form (one
// reported level per item), checked: `what` names it in errors.
Result<std::vector<int>> ReadLevels(const nlohmann::json& value, std::size_t items, int levels, const char* what);

}  // namespace deniable
