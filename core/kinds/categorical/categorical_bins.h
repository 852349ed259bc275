// A categorical question answered in confidence (core/central/): one bin
// per option, the answer an option index sent as it is.
#pragma once

#include <string>
#include <vector>

#include "core/central/answer_bins.h"

namespace deniable {

// An option index in [0, options), range-checked on the JSON integer itself:
// narrowing it to int first would turn 4294967297 into answer 1.
Result<int> ReadAnswerIndex(const nlohmann::json& answer, int options);

class CategoricalBins final : public AnswerBins {
 public:
  explicit CategoricalBins(std::vector<std::string> options) : options_(std::move(options)) {}
  std::string_view type() const override { return "categorical"; }
  nlohmann::json DefinitionToJson() const override { return {{"type", "categorical"}, {"options", options_}}; }
  nlohmann::json PageSummary() const override { return nlohmann::json::object(); }
  ReleaseLayout layout() const override { return {options_, {}}; }
  std::size_t bins() const override { return options_.size(); }
  Result<std::size_t> BinOf(const nlohmann::json& answer) const override;
  nlohmann::json AnswerInBin(std::size_t bin) const override { return bin; }

 private:
  std::vector<std::string> options_;
};

}  // namespace deniable
