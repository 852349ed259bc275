#include "core/survey/kind_registry.h"

#include "core/kinds/block/block_client.h"
#include "core/kinds/block/block_question_kind.h"
#include "core/kinds/categorical/categorical_client.h"
#include "core/kinds/categorical/categorical_question_kind.h"
#include "core/kinds/grid/grid_client.h"
#include "core/kinds/grid/grid_question_kind.h"
#include "core/kinds/histogram/histogram_client.h"
#include "core/kinds/histogram/histogram_question_kind.h"
#include "core/kinds/linear_regression/regression_client.h"
#include "core/kinds/linear_regression/regression_question_kind.h"
#include "core/kinds/multiple/multiple_client.h"
#include "core/kinds/multiple/multiple_question_kind.h"
#include "core/kinds/numeric/numeric_client.h"
#include "core/kinds/numeric/numeric_question_kind.h"

namespace deniable {

std::vector<KindEntry> RegisteredKinds() {
  return {
      CategoricalQuestionKind::Entry(),
      NumericQuestionKind::Entry(),
      HistogramQuestionKind::Entry(),
      BlockQuestionKind::Entry(),
      RegressionQuestionKind::Entry(),
      GridQuestionKind::Entry(),
      MultipleQuestionKind::Entry(),
  };
}

std::vector<KindClientEntry> RegisteredClientKinds() {
  return {
      CategoricalClient::Entry(),
      NumericClient::Entry(),
      HistogramClient::Entry(),
      BlockClient::Entry(),
      RegressionClient::Entry(),
      GridClient::Entry(),
      MultipleClient::Entry(),
  };
}

namespace {

template <typename Entry>
Result<Entry> FindIn(const std::vector<Entry>& kinds, std::string_view type) {
  std::string known;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i].type == type) return kinds[i];
    known += (i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + std::string(kinds[i].type);
  }
  return MakeError("unknown question type \"" + std::string(type) + "\" (expected " + known + ")");
}

}  // namespace

Result<KindEntry> FindKind(std::string_view type) { return FindIn(RegisteredKinds(), type); }

Result<KindClientEntry> FindClientKind(std::string_view type) { return FindIn(RegisteredClientKinds(), type); }

}  // namespace deniable
