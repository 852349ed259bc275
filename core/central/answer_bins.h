// What a kind offering the central trust model gives the confidential kind
// (confidential_question_kind.h): its definition without a mechanism, the
// bins its answers are counted in, and how an answer maps to one. Each kind
// that can be answered in confidence implements it in its own folder
// (categorical_bins.h, histogram_bins.h).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/central/release_document.h"
#include "core/common/result.h"
#include "core/survey/question_kind.h"

namespace deniable {

class AnswerBins {
 public:
  virtual ~AnswerBins() = default;
  virtual std::string_view type() const = 0;
  // The kind's definition fields ("type", "options" or "range", ...), without the trust fields.
  virtual nlohmann::json DefinitionToJson() const = 0;
  // The page's summary of the question (what it shows to answer it).
  virtual nlohmann::json PageSummary() const = 0;
  virtual ReleaseLayout layout() const = 0;
  virtual std::size_t bins() const = 0;
  // The bin of a valid answer; the error names no path ("must be between 0 and 3, but is 7").
  virtual Result<std::size_t> BinOf(const nlohmann::json& answer) const = 0;
  // A true answer in the bin, for simulations (an option; a cell's middle).
  virtual nlohmann::json AnswerInBin(std::size_t bin) const = 0;
  virtual std::optional<NumericAnswers> numeric_answers() const { return std::nullopt; }
};

}  // namespace deniable
