#include "core/kinds/categorical/categorical_report_columns.h"

#include <cmath>

namespace deniable {
namespace {

bool OneColumn(const CategoricalMechanism& mechanism) { return mechanism.params().kind == CategoricalKind::kGrr; }

nlohmann::json OptionLabels(const std::vector<std::string>& labels) {
  nlohmann::json value_labels = nlohmann::json::object();
  for (std::size_t i = 0; i < labels.size(); ++i) value_labels[std::to_string(i)] = labels[i];
  return value_labels;
}

// What a 1 in option i's column says.
std::string BitMeaning(CategoricalKind kind, std::size_t i, const std::string& label) {
  const std::string option = "option " + std::to_string(i) + " '" + label + "'";
  if (kind == CategoricalKind::kNegativeSurvey) return "1: the report names " + option + " as NOT the answer";
  return "bit " + std::to_string(i) + ": 1 when the report supports " + option;
}

// P(report = j | answer = i): GRR reports the answer with probability p,
// each other option with probability q.
nlohmann::json GrrMatrix(int k, const SupportProbabilities& pq) {
  nlohmann::json matrix = nlohmann::json::array();
  for (int i = 0; i < k; ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (int j = 0; j < k; ++j) row.push_back(i == j ? pq.p : pq.q);
    matrix.push_back(row);
  }
  return matrix;
}

}  // namespace

std::vector<ReportColumn> SupportColumns(const CategoricalMechanism& mechanism, const std::vector<std::string>& labels,
                                         const std::string& prefix) {
  if (OneColumn(mechanism)) {
    return {{prefix, "the option reported (its index; the value labels name it)", OptionLabels(labels)}};
  }
  std::vector<ReportColumn> columns;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    columns.push_back({prefix + ".bit_" + std::to_string(i), BitMeaning(mechanism.params().kind, i, labels[i]), nullptr});
  }
  return columns;
}

std::vector<nlohmann::json> SupportColumnValues(const CategoricalMechanism& mechanism, const nlohmann::json& wire) {
  const std::size_t width = OneColumn(mechanism) ? 1 : static_cast<std::size_t>(mechanism.options());
  auto support = mechanism.Decode(wire);
  if (!support) return std::vector<nlohmann::json>(width, nullptr);
  if (OneColumn(mechanism)) {
    for (std::size_t i = 0; i < support->size(); ++i) {
      if ((*support)[i]) return {static_cast<int>(i)};
    }
  }
  std::vector<nlohmann::json> values;
  for (auto bit : *support) values.push_back(static_cast<int>(bit));
  return values;
}

nlohmann::json SupportChannel(const CategoricalMechanism& mechanism, const std::vector<std::string>& labels) {
  const auto pq = mechanism.probabilities();
  const CategoricalKind kind = mechanism.params().kind;
  nlohmann::json channel = {{"name", CategoricalKindName(kind)},
                            {"epsilon", mechanism.epsilon() ? nlohmann::json(*mechanism.epsilon()) : nlohmann::json()},
                            {"options", labels},
                            {"p", pq.p},
                            {"q", pq.q}};
  switch (kind) {
    case CategoricalKind::kGrr:
      channel["report"] = "one option: the answer with probability p, each other option with probability q";
      channel["channel_matrix"] = GrrMatrix(mechanism.options(), pq);
      channel["channel_matrix_note"] = "row i, column j: P(option j reported | the answer is option i)";
      break;
    case CategoricalKind::kOue:
    case CategoricalKind::kSue:
      channel["report"] = "one bit per option, drawn independently: 1 with probability p for the answer's bit, q for each other";
      break;
    case CategoricalKind::kNegativeSurvey:
      channel["reported_options"] = mechanism.params().reported_options;
      channel["report"] = "reported_options distinct options drawn uniformly from the options that are not the answer";
      return channel;  // the answer is never supported (p = 0): no forced-response design fits
  }
  // Per option i, the binary item "the report supports i" given "the answer is i".
  nlohmann::json forced = nlohmann::json::array();
  for (std::size_t i = 0; i < labels.size(); ++i) {
    forced.push_back({{"option", i}, {"p", pq.p - pq.q}, {"p1", pq.q}, {"p0", 1.0 - pq.p}});
  }
  channel["rr_forced_known"] = forced;
  if (kind == CategoricalKind::kGrr && mechanism.options() == 2) channel["rr_mirrored"] = {{"p", pq.p}};
  return channel;
}

}  // namespace deniable
