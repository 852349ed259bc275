#include "server/cli/cli_args.h"

#include <algorithm>
#include <cstdlib>

#include "core/common/number_text.h"

namespace deniable::server {
namespace {

const FlagSpec* FindSpec(std::initializer_list<FlagSpec> specs, const std::string& name) {
  for (const auto& spec : specs) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> ParsedFlags::Value(const std::string& name) const {
  const auto it = values_.find(name);
  return it == values_.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::string ParsedFlags::ValueOr(const std::string& name, const std::string& fallback) const {
  return Value(name).value_or(fallback);
}

std::vector<std::string> ParsedFlags::Values(const std::string& name) const {
  const auto it = all_values_.find(name);
  return it == all_values_.end() ? std::vector<std::string>{} : it->second;
}

Result<ParsedFlags> ParseFlags(const std::vector<std::string>& args, std::initializer_list<FlagSpec> specs) {
  ParsedFlags flags;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.rfind("--", 0) != 0) return MakeError("unexpected argument \"" + arg + "\"");
    const auto equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const FlagSpec* spec = FindSpec(specs, name);
    if (!spec) return MakeError("unknown option " + name);
    if (flags.Has(name) && !spec->repeatable) return MakeError(name + " is given more than once");
    if (!spec->takes_value) {
      if (equals != std::string::npos) return MakeError(name + " takes no value");
      flags.switches_.insert(name);
      continue;
    }
    if (equals != std::string::npos) {
      flags.values_[name] = arg.substr(equals + 1);
    } else if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
      flags.values_[name] = args[++i];
    } else {
      return MakeError(name + " needs a value");
    }
    flags.all_values_[name].push_back(flags.values_[name]);
  }
  return flags;
}

Result<long long> IntegerFlag(const ParsedFlags& flags, const std::string& name, long long low, long long high,
                              long long fallback) {
  const auto text = flags.Value(name);
  if (!text) return fallback;
  const auto value = ParseInteger(*text);
  if (!value || *value < low || *value > high) {
    return MakeError(name + " must be an integer from " + std::to_string(low) + " to " + std::to_string(high) +
                     ", but is \"" + *text + "\"");
  }
  return *value;
}

Result<std::uint64_t> UnsignedFlag(const ParsedFlags& flags, const std::string& name, std::uint64_t fallback) {
  const auto text = flags.Value(name);
  if (!text) return fallback;
  const auto value = ParseUnsigned(*text);
  if (!value) return MakeError(name + " must be an integer from 0 to 18446744073709551615, but is \"" + *text + "\"");
  return *value;
}

Result<double> NumberFlag(const ParsedFlags& flags, const std::string& name) {
  DENIABLE_ASSIGN_OR_RETURN(auto text, RequiredFlag(flags, name));
  const auto value = ParseFiniteNumber(text);
  if (!value) return MakeError(name + " must be a finite number, but is \"" + text + "\"");
  return *value;
}

Result<std::string> RequiredFlag(const ParsedFlags& flags, const std::string& name) {
  auto value = flags.Value(name);
  if (!value || value->empty()) return MakeError(name + " is required");
  return *value;
}

bool WantsHelp(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& arg) { return arg == "--help" || arg == "-h"; });
}

Result<std::string> DatabaseUrl(const ParsedFlags& flags) {
  std::string source = "--database";
  std::optional<std::string> url = flags.Value("--database");
  if (!url) {
    const char* env = std::getenv("DENIABLE_DATABASE_URL");
    if (!env || !*env) return std::string();
    url = env;
    source = "DENIABLE_DATABASE_URL";
  }
  if (url->rfind("postgresql://", 0) != 0 && url->rfind("postgres://", 0) != 0) {
    return MakeError(source + " must be a PostgreSQL URL (postgresql://... or postgres://...)");
  }
  return *url;
}

}  // namespace deniable::server
