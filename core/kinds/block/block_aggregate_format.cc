// The block aggregate's statistics (core/survey/aggregate_format.h):
// {"n": n, "groups": [per group (S, m) with a respondent, in the order of
// their key S * 16 + m: {"set": S (a bit mask of at most joint_order of the
// block's attributes), "answered": m (|S| <= m <= attributes), "s": its
// respondents (1 to n), "cooccurrences": [the (l_a + 1)-ary table of
// block_aggregate.h, each at most s, the all-"any" cell s], "row_sum_moments":
// [2^|S| finite non-negative sums, the empty product's s]}]}.
#include <string>

#include "core/kinds/block/block_aggregate.h"
#include "core/survey/aggregate_statistics.h"

namespace deniable {

nlohmann::json BlockAggregate::StatisticsToJson() const {
  nlohmann::json groups = nlohmann::json::array();
  for (const auto& [key, group] : groups_) {
    groups.push_back({{"set", key / 16u},
                      {"answered", key % 16u},
                      {"s", group.s},
                      {"cooccurrences", group.cooccurrences},
                      {"row_sum_moments", group.row_sum_moments}});
  }
  return {{"n", n_}, {"groups", std::move(groups)}};
}

Status BlockAggregate::StatisticsFromJson(const nlohmann::json& statistics) {
  const std::string where = "statistics";
  DENIABLE_ASSIGN_OR_RETURN(const CountedList read_list, ReadCountedList(statistics, "groups"));
  const std::int64_t n = read_list.n;
  const nlohmann::json& array = *read_list.items;
  const int attributes = static_cast<int>(sizes_.size());
  BlockAggregate read(sizes_, joint_order_);
  read.n_ = n;
  for (std::size_t g = 0; g < array.size(); ++g) {
    const std::string at = where + ".groups[" + std::to_string(g) + "]";
    const nlohmann::json& item = array[g];
    DENIABLE_TRY(RequireFields(item, {"set", "answered", "s", "cooccurrences", "row_sum_moments"}, at));
    DENIABLE_ASSIGN_OR_RETURN(const std::int64_t set,
                              ReadCount(item, "set", (std::int64_t{1} << attributes) - 1, "the attributes' mask", at));
    const int members = SetSize(static_cast<std::uint32_t>(set));
    if (members == 0 || members > joint_order_) {
      return MakeError(at + ".set: must name 1 to " + std::to_string(joint_order_) +
                       " attributes (joint_order), but names " + std::to_string(members));
    }
    DENIABLE_ASSIGN_OR_RETURN(const std::int64_t answered, ReadCount(item, "answered", attributes, "attributes", at));
    if (answered < members) {
      return MakeError(at + ".answered: must be at least the set's " + std::to_string(members) +
                       " attributes, but is " + std::to_string(answered));
    }
    const std::uint32_t key = Key(static_cast<std::uint32_t>(set), static_cast<int>(answered));
    if (!read.groups_.empty() && key <= read.groups_.rbegin()->first) {
      return MakeError(at + ": groups must be in increasing order of set * 16 + answered, each once");
    }
    BlockGroup& group = read.GroupFor(static_cast<std::uint32_t>(set), static_cast<int>(answered));
    DENIABLE_ASSIGN_OR_RETURN(group.s, ReadCount(item, "s", n, "n", at));
    if (group.s == 0) return MakeError(at + ".s: a group is kept only once a respondent is in it, but is 0");
    DENIABLE_ASSIGN_OR_RETURN(group.cooccurrences,
                              ReadCounts(item, "cooccurrences", group.cooccurrences.size(), group.s, "s", at));
    if (group.cooccurrences.back() != group.s) {  // every member's digit "any": the whole group
      return MakeError(at + ".cooccurrences: the last cell (every attribute \"any\") must be s (" +
                       std::to_string(group.s) + "), but is " + std::to_string(group.cooccurrences.back()));
    }
    DENIABLE_ASSIGN_OR_RETURN(group.row_sum_moments,
                              ReadFinites(item, "row_sum_moments", group.row_sum_moments.size(), at));
    for (std::size_t i = 0; i < group.row_sum_moments.size(); ++i) {
      if (group.row_sum_moments[i] < 0.0) {  // sums of products of counts of 1 bits
        return MakeError(at + ".row_sum_moments[" + std::to_string(i) + "]: must not be negative");
      }
    }
    if (group.row_sum_moments[0] != static_cast<double>(group.s)) {  // the empty product, 1 per respondent
      return MakeError(at + ".row_sum_moments[0]: must be s (" + std::to_string(group.s) + ")");
    }
  }
  *this = std::move(read);
  return OkStatus();
}

}  // namespace deniable
