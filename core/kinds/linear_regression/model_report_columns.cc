// RegressionQuestionKind's reports as export columns (report_columns.h): the
// wire forms' fields, one column each: a training round's report fills round,
// component and value; a held-out round's report round and squared_error; a
// complete model's report (null: nothing sent) none.
#include <string>
#include <vector>

#include "core/kinds/linear_regression/regression_question_kind.h"

namespace deniable {
namespace {

constexpr const char* kFields[] = {"round", "component", "value", "squared_error"};

}  // namespace

std::vector<ReportColumn> RegressionQuestionKind::Columns() const {
  nlohmann::json components = nlohmann::json::object();
  components["0"] = "intercept";
  for (std::size_t i = 0; i < model_.features.size(); ++i) components[std::to_string(i + 1)] = model_.features[i];
  return {{".round", "the training round the report's gradient was computed in", nullptr},
          {".component", "which gradient component the report holds (drawn independently of the answers)", components},
          {".value", "the perturbed, clipped gradient component, in [-1, 1] before perturbation; empty in a held-out "
                     "round's report", nullptr},
          {".squared_error", "a held-out round's report: the perturbed squared error of the clamped prediction with "
                             "the final coefficients; empty in a training round's report", nullptr}};
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
  channel["report"] = "a training round: one component of the squared error's gradient at the round's public "
                      "coefficients (on the normalised scale), clipped to [-clip, clip], divided by clip and perturbed "
                      "by the numeric mechanism on [-1, 1]; a held-out round: the squared error of the clamped "
                      "prediction, perturbed at the model's epsilon; a complete model: nothing (all fields empty)";
  return channel;
}

}  // namespace deniable
