#include "core/kinds/categorical/categorical_bins.h"

namespace deniable {

Result<int> ReadAnswerIndex(const nlohmann::json& answer, int options) {
  if (!answer.is_number_integer()) return MakeError("must be an option index, but is " + answer.dump());
  const bool in_range = answer.is_number_unsigned()
                            ? answer.get<std::uint64_t>() < static_cast<std::uint64_t>(options)
                            : answer.get<std::int64_t>() >= 0 && answer.get<std::int64_t>() < options;
  if (!in_range) {
    return MakeError("answer must be between 0 and " + std::to_string(options - 1) + ", but is " + answer.dump());
  }
  return static_cast<int>(answer.get<std::int64_t>());
}

Result<std::size_t> CategoricalBins::BinOf(const nlohmann::json& answer) const {
  DENIABLE_ASSIGN_OR_RETURN(auto index, ReadAnswerIndex(answer, static_cast<int>(options_.size())));
  return static_cast<std::size_t>(index);
}

}  // namespace deniable
