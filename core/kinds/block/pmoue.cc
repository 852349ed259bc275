#include "core/kinds/block/pmoue.h"

#include <cmath>
#include <string>

namespace deniable {

std::uint32_t BlockReport::answered_mask() const {
  std::uint32_t mask = 0;
  for (std::size_t a = 0; a < bits.size(); ++a) {
    if (!bits[a].empty()) mask |= std::uint32_t{1} << a;
  }
  return mask;
}

int BlockReport::answered_count() const {
  int count = 0;
  for (const auto& block : bits) count += block.empty() ? 0 : 1;
  return count;
}

double OueQ(double epsilon) { return 1.0 / (std::exp(epsilon) + 1.0); }

BlockReport PerturbBlock(const BlockDefinition& block, const std::vector<int>& values,
                         const std::vector<double>& shares, RandomSource& random) {
  BlockReport report;
  report.bits.resize(block.attributes.size());
  for (std::size_t a = 0; a < block.attributes.size(); ++a) {
    if (values[a] < 0) continue;
    const double q = OueQ(shares[a]);
    Support& bits = report.bits[a];
    bits.resize(static_cast<std::size_t>(block.attributes[a].size()));
    for (std::size_t b = 0; b < bits.size(); ++b) {
      bits[b] = Bernoulli(random, static_cast<int>(b) == values[a] ? 0.5 : q) ? 1 : 0;
    }
  }
  return report;
}

nlohmann::json BlockReportToJson(const BlockDefinition& block, const BlockReport& report) {
  auto ids = nlohmann::json::array();
  auto bits = nlohmann::json::array();
  for (std::size_t a = 0; a < block.attributes.size(); ++a) {
    if (report.bits[a].empty()) continue;
    ids.push_back(block.attributes[a].id);
    auto row = nlohmann::json::array();
    for (auto bit : report.bits[a]) row.push_back(static_cast<int>(bit));
    bits.push_back(std::move(row));
  }
  return {{"attributes", ids}, {"bits", bits}};
}

namespace {

Result<Support> ReadBits(const nlohmann::json& row, const BlockAttribute& attribute, const std::string& where) {
  if (!row.is_array() || row.size() != attribute.options.size()) {
    return MakeError(where + ": must be an array of " + std::to_string(attribute.options.size()) + " bits (attribute \"" +
                     attribute.id + "\")");
  }
  Support bits;
  for (std::size_t b = 0; b < row.size(); ++b) {
    if (!row[b].is_number_integer() || (row[b].get<long long>() != 0 && row[b].get<long long>() != 1)) {
      return MakeError(where + "[" + std::to_string(b) + "]: must be 0 or 1, but is " + row[b].dump());
    }
    bits.push_back(static_cast<std::uint8_t>(row[b].get<int>()));
  }
  return bits;
}

}  // namespace

Result<BlockReport> BlockReportFromJson(const BlockDefinition& block, const nlohmann::json& wire) {
  if (!wire.is_object() || wire.size() != 2 || !wire.contains("attributes") || !wire.contains("bits")) {
    return MakeError("a block report must be {\"attributes\": [...], \"bits\": [[...], ...]}");
  }
  const auto& ids = wire.at("attributes");
  const auto& rows = wire.at("bits");
  if (!ids.is_array() || ids.empty() || ids.size() > block.attributes.size()) {
    return MakeError("attributes: must list 1 to " + std::to_string(block.attributes.size()) + " answered attributes");
  }
  if (!rows.is_array() || rows.size() != ids.size()) {
    return MakeError("bits: must hold one block of bits per answered attribute (" + std::to_string(ids.size()) + ")");
  }
  BlockReport report;
  report.bits.resize(block.attributes.size());
  int previous = -1;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    const std::string where = "attributes[" + std::to_string(i) + "]";
    const int a = ids[i].is_string() ? block.IndexOf(ids[i].get<std::string>()) : -1;
    if (a < 0) return MakeError(where + ": no attribute " + ids[i].dump() + " in this block");
    if (a <= previous) return MakeError(where + ": attributes must be listed once each, in the block's order");
    previous = a;
    DENIABLE_ASSIGN_OR_RETURN(auto bits,
                              ReadBits(rows[i], block.attributes[static_cast<std::size_t>(a)], "bits[" + std::to_string(i) + "]"));
    report.bits[static_cast<std::size_t>(a)] = std::move(bits);
  }
  return report;
}

}  // namespace deniable
