// RegressionQuestionKind's reports as export columns (report_columns.h): the
// wire form's three fields, one column each.
#include <string>
#include <vector>

#include "core/kinds/regression/regression_question_kind.h"

namespace deniable {
namespace {

constexpr const char* kFields[] = {"round", "component", "value"};

}  // namespace

std::vector<ReportColumn> RegressionQuestionKind::Columns() const {
  nlohmann::json components = nlohmann::json::object();
  components["0"] = "intercept";
  for (std::size_t i = 0; i < model_.features.size(); ++i) components[std::to_string(i + 1)] = model_.features[i];
  return {{".round", "the training round the report's gradient was computed in", nullptr},
          {".component", "which gradient component the report holds (drawn independently of the answers)", components},
          {".value", "the perturbed, clipped gradient component, in [-1, 1] before perturbation", nullptr}};
}

std::vector<nlohmann::json> RegressionQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  std::vector<nlohmann::json> values;
  for (const char* field : kFields) {
    const auto found = wire.is_object() ? wire.find(field) : wire.end();
    values.push_back(wire.is_object() && found != wire.end() && found->is_number() ? *found : nlohmann::json());
  }
  return values;
}

nlohmann::json RegressionQuestionKind::Channel() const {
  const NumericRange output = mechanism_->output_range();
  nlohmann::json channel = MechanismToJson();
  channel["model"] = model_.ToJson();
  channel["component_mechanism"] = mechanism_->ParamsToJson();
  channel["output_range"] = {output.low, output.high};
  channel["report"] = "one component of the squared error's gradient at the round's public coefficients (on the "
                      "normalised scale), clipped to [-clip, clip], divided by clip and perturbed by the numeric "
                      "mechanism on [-1, 1]";
  return channel;
}

}  // namespace deniable
