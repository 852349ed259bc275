// The open kinds' reports as export columns (report_columns.h): the answer
// as given (an option's index, labelled; a number), the identity channel.
#include <string>
#include <vector>

#include "core/kinds/open/open_categorical_kind.h"
#include "core/kinds/open/open_numeric_kind.h"

namespace deniable {
namespace {

constexpr const char* kAsGiven = "asked openly: the answer as the respondent gave it, not randomised (no epsilon protects it)";

}  // namespace

std::vector<ReportColumn> OpenCategoricalKind::Columns() const {
  nlohmann::json labels = nlohmann::json::object();
  for (std::size_t i = 0; i < options_.size(); ++i) labels[std::to_string(i)] = options_[i];
  return {{"", "the option answered (its index; the value labels name it), as given", labels}};
}

std::vector<nlohmann::json> OpenCategoricalKind::ColumnValues(const nlohmann::json& wire) const {
  return {wire.is_number_integer() ? wire : nlohmann::json()};
}

nlohmann::json OpenCategoricalKind::Channel() const {
  return {{"name", "open"}, {"epsilon", nullptr}, {"options", options_}, {"report", kAsGiven}};
}

std::vector<ReportColumn> OpenNumericKind::Columns() const {
  return {{"", "the value answered, as given", nullptr}};
}

std::vector<nlohmann::json> OpenNumericKind::ColumnValues(const nlohmann::json& wire) const {
  return {wire.is_number() ? wire : nlohmann::json()};
}

nlohmann::json OpenNumericKind::Channel() const {
  return {{"name", "open"}, {"epsilon", nullptr}, {"input_range", {range_.low, range_.high}}, {"report", kAsGiven}};
}

}  // namespace deniable
