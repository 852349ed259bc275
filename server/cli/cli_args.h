// Command-line flags: "--name value", "--name=value" and switches such as
// "--json". Every problem is a UsageError naming the argument; commands print
// it with a hint and exit with code 2.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/common/result.h"

namespace deniable::server {

inline constexpr int kExitUsage = 2;

struct FlagSpec {
  const char* name;  // with the dashes, e.g. "--port"
  bool takes_value;
  bool repeatable = false;  // may be given more than once (values kept in order)
};

class ParsedFlags {
 public:
  bool Has(const std::string& name) const { return values_.count(name) > 0 || switches_.count(name) > 0; }
  std::optional<std::string> Value(const std::string& name) const;
  std::string ValueOr(const std::string& name, const std::string& fallback) const;
  // Every value of a repeatable flag, in the order given (empty if absent).
  std::vector<std::string> Values(const std::string& name) const;

 private:
  friend Result<ParsedFlags> ParseFlags(const std::vector<std::string>&, std::initializer_list<FlagSpec>);
  std::map<std::string, std::string> values_;  // the last value of each flag
  std::map<std::string, std::vector<std::string>> all_values_;
  std::set<std::string> switches_;
};

Result<ParsedFlags> ParseFlags(const std::vector<std::string>& args, std::initializer_list<FlagSpec> specs);

// "--port must be an integer from 0 to 65535, but is \"abc\"".
Result<long long> IntegerFlag(const ParsedFlags& flags, const std::string& name, long long low, long long high,
                              long long fallback);
Result<std::uint64_t> UnsignedFlag(const ParsedFlags& flags, const std::string& name, std::uint64_t fallback);
Result<double> NumberFlag(const ParsedFlags& flags, const std::string& name);
// A flag that must be given, e.g. "--survey is required".
Result<std::string> RequiredFlag(const ParsedFlags& flags, const std::string& name);

bool WantsHelp(const std::vector<std::string>& args);

// The PostgreSQL URL of --database, else of the environment's
// DENIABLE_DATABASE_URL, else "" (SQLite); an error when it is not a
// postgresql:// or postgres:// URL (the message shows no password).
Result<std::string> DatabaseUrl(const ParsedFlags& flags);

}  // namespace deniable::server
