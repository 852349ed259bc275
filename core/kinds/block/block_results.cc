#include "core/kinds/block/block_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/frequency/frequency_estimator.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/cross_tab.h"

namespace deniable {
namespace {

// An attribute's estimates are flagged when a frequency's 95% half-width exceeds this (as categorical questions').
constexpr double kUsefulHalfWidth = 0.10;

nlohmann::json NumberOrNull(double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); }

std::string FormatTwoDigits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", value);
  return text;
}

// Names what makes a wide interval wide: the noise the randomisation puts in
// each report at this effective epsilon, over this many reports (the
// half-width falls as 1 / sqrt(n)). It used to blame n alone, also when a
// handful of respondents in a badly calibrated group made it (issue 26, 1).
std::string WideIntervalWarning(const MarginalEstimate& estimate, double widest, double epsilon_per_attribute) {
  const double q = estimate.average_q;
  const double needed = std::ceil(static_cast<double>(estimate.n) * (widest / kUsefulHalfWidth) * (widest / kUsefulHalfWidth));
  std::string text = "95% intervals are up to ±" + std::to_string(static_cast<int>(std::round(widest * 100))) +
                     " points wide: the randomisation's noise";
  if (q > 0.0 && q < 0.5) {
    // The respondents' average q, estimated: unequal splits raise it (q is convex in a share), lowering this.
    text += " at an effective epsilon of " + FormatTwoDigits(std::log((1.0 - q) / q)) + " per attribute (the block sets " +
            FormatTwoDigits(epsilon_per_attribute) + ")";
  }
  return text + ", over " + std::to_string(estimate.n) + " reports; about " +
         std::to_string(static_cast<long long>(needed)) + " reports would bring them to ±10 points";
}

nlohmann::json AttributeToJson(const BlockAttribute& attribute, const MarginalEstimate& estimate,
                               double epsilon_per_attribute) {
  auto options = nlohmann::json::array();
  double widest = 0.0;
  for (std::size_t b = 0; b < estimate.options.size(); ++b) {
    const OptionEstimate& option = estimate.options[b];
    options.push_back({{"label", attribute.options[b]},
                       {"count", NumberOrNull(option.count)},
                       {"frequency", NumberOrNull(option.frequency)},
                       {"std_error", NumberOrNull(option.std_error)},
                       {"ci_low", NumberOrNull(option.ci_low)},
                       {"ci_high", NumberOrNull(option.ci_high)},
                       {"consistent_frequency", NumberOrNull(option.consistent_frequency)}});
    if (std::isfinite(option.std_error)) widest = std::max(widest, kZ95 * option.std_error);
  }
  nlohmann::json warning = nullptr;
  if (estimate.n == 0) {
    warning = "no respondent answered this attribute yet";
  } else if (widest > kUsefulHalfWidth) {
    warning = WideIntervalWarning(estimate, widest, epsilon_per_attribute);
  }
  const double q = estimate.average_q;
  return {{"id", attribute.id},
          {"text", attribute.text},
          {"n", estimate.n},
          {"average_q", NumberOrNull(q)},
          {"effective_epsilon", q > 0.0 && q < 0.5 ? nlohmann::json(std::log((1.0 - q) / q)) : nlohmann::json(nullptr)},
          {"options", options},
          {"warning", warning}};
}

nlohmann::json CrossTabToJson(const BlockDefinition& block, const CrossTab& table) {
  auto ids = [&](const std::vector<int>& attributes) {
    auto list = nlohmann::json::array();
    for (int a : attributes) list.push_back(block.attributes[static_cast<std::size_t>(a)].id);
    return list;
  };
  auto cells = nlohmann::json::array();
  std::vector<int> digits(table.attributes.size());
  for (std::size_t cell = 0; cell < table.consistent.size(); ++cell) {
    std::size_t rest = cell;
    for (std::size_t i = table.attributes.size(); i-- > 0;) {
      digits[i] = static_cast<int>(rest % static_cast<std::size_t>(table.sizes[i]));
      rest /= static_cast<std::size_t>(table.sizes[i]);
    }
    auto labels = nlohmann::json::array();
    for (std::size_t i = 0; i < digits.size(); ++i) {
      labels.push_back(block.attributes[static_cast<std::size_t>(table.attributes[i])].options[static_cast<std::size_t>(digits[i])]);
    }
    const double consistent = table.consistent[cell];
    nlohmann::json entry = {{"options", labels}, {"frequency", nullptr}, {"std_error", nullptr}, {"ci_low", nullptr},
                            {"ci_high", nullptr}, {"consistent_frequency", consistent},
                            {"consistent_ci_low", nullptr}, {"consistent_ci_high", nullptr}};
    if (!table.frequency.empty()) {
      const double f = table.frequency[cell], se = table.std_error[cell];
      entry["frequency"] = f;
      entry["std_error"] = se;
      entry["ci_low"] = f - kZ95 * se;
      entry["ci_high"] = f + kZ95 * se;
      // The consistent cell's own interval (as a histogram bin's): the unbiased one clipped to [0, 1] and widened
      // to hold the consistent value, which the fit to the margins and non-negativity can move out of it.
      entry["consistent_ci_low"] = std::min(std::clamp(f - kZ95 * se, 0.0, 1.0), consistent);
      entry["consistent_ci_high"] = std::max(std::clamp(f + kZ95 * se, 0.0, 1.0), consistent);
    }
    cells.push_back(std::move(entry));
  }
  nlohmann::json parts = nullptr;
  if (table.situation == 2) parts = nlohmann::json::array({ids(table.parts[0]), ids(table.parts[1])});
  return {{"attributes", ids(table.attributes)},
          {"situation", table.situation},
          {"parts", parts},
          {"n", table.n},
          {"cells", cells},
          {"interval", table.frequency.empty() ? nlohmann::json(nullptr) : nlohmann::json("normal")},
          {"note", table.note.empty() ? nlohmann::json(nullptr) : nlohmann::json(table.note)}};
}

}  // namespace

Result<nlohmann::json> BlockResultToJson(const BlockDefinition& block, const BlockAggregate& aggregate,
                                         const BlockEstimateOptions& options, const nlohmann::json& mechanism,
                                         const nlohmann::json& privacy) {
  const BlockMode mode = options.cross_tab.mode;
  auto attributes = nlohmann::json::array();
  std::vector<std::vector<double>> margins;
  for (std::size_t a = 0; a < block.attributes.size(); ++a) {
    const MarginalEstimate estimate =
        EstimateMarginal(aggregate, static_cast<int>(a), mode, block.epsilon_per_attribute, options.cross_tab.interval);
    attributes.push_back(AttributeToJson(block.attributes[a], estimate, block.epsilon_per_attribute));
    std::vector<double> margin;
    for (const OptionEstimate& option : estimate.options) {
      margin.push_back(estimate.n > 0 ? option.consistent_frequency : 1.0 / static_cast<double>(estimate.options.size()));
    }
    margins.push_back(std::move(margin));
  }
  DENIABLE_ASSIGN_OR_RETURN(auto set, CrossTabSet(block, options));
  nlohmann::json crosstab;
  auto table = EstimateCrossTab(aggregate, block, set, options.cross_tab, margins);
  crosstab = table ? CrossTabToJson(block, *table) : nlohmann::json{{"error", table.error()}};
  nlohmann::json warning = nullptr;
  if (aggregate.n() == 0) warning = "no reports yet";
  return nlohmann::json{{"n", aggregate.n()},
                        {"mode", mode == BlockMode::kPaper ? "paper" : "calibrated"},
                        {"mechanism", mechanism},
                        {"privacy", privacy},
                        {"joint_order", block.joint_order},
                        {"interval_for", IntervalForJson(options.cross_tab.interval)},
                        {"attributes", attributes},
                        {"crosstab", crosstab},
                        {"warning", warning}};
}

std::vector<CsvRow> BlockCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  // Tidy: the label is the option (empty for a cross-tab cell), and each
  // attribute is a variable of its own (a column), never packed into the label.
  for (const auto& attribute : result["attributes"]) {
    for (const auto& option : attribute["options"]) {
      const std::string label = option["label"].get<std::string>();
      rows.push_back({label, "frequency", option["frequency"], option["std_error"], option["ci_low"], option["ci_high"],
                      option["consistent_frequency"], option["count"], attribute["n"],
                      {{attribute["id"].get<std::string>(), label}}});
    }
  }
  const auto& crosstab = result["crosstab"];
  if (crosstab.contains("cells")) {
    for (const auto& cell : crosstab["cells"]) {
      std::vector<std::pair<std::string, std::string>> variables;
      for (std::size_t i = 0; i < cell["options"].size(); ++i) {
        variables.emplace_back(crosstab["attributes"][i].get<std::string>(), cell["options"][i].get<std::string>());
      }
      rows.push_back({"", "joint_frequency", cell["frequency"], cell["std_error"], cell["ci_low"], cell["ci_high"],
                      cell["consistent_frequency"], nullptr, crosstab["n"], std::move(variables)});
    }
  }
  return rows;
}

}  // namespace deniable
