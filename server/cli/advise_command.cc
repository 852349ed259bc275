#include "server/cli/advise_command.h"

#include <cstdio>
#include <iostream>

#include "core/frequency/advisor.h"
#include "core/common/validation.h"
#include "server/cli/cli_args.h"

namespace deniable::server {

const char* const kAdviseUsage =
    "Usage: deniable advise --options K --epsilon E --respondents N [--json]\n"
    "\n"
    "For a question with K options, a per-question epsilon E and N respondents, prints\n"
    "the expected standard error and 95% interval half-width of a frequency under\n"
    "each mechanism, the respondents needed for +-5 points, and the recommendation.\n"
    "\n"
    "Options:\n"
    "  --options K        number of answer options, 2 to 4096\n"
    "  --epsilon E        privacy budget of the question, in [0.01, 30]\n"
    "  --respondents N    expected number of respondents, at least 1\n"
    "  --json             print JSON (the same document as GET /api/advice)\n"
    "  --help             this help\n";

namespace {

struct AdviseOptions {
  int options;
  double epsilon;
  std::int64_t respondents;
  bool json;
};

Result<AdviseOptions> ParseAdviseOptions(const std::vector<std::string>& args) {
  DENIABLE_ASSIGN_OR_RETURN(auto flags,
                            ParseFlags(args, {{"--options", true}, {"--epsilon", true}, {"--respondents", true}, {"--json", false}}));
  for (const char* name : {"--options", "--respondents"}) {
    if (!flags.Has(name)) return MakeError(std::string(name) + " is required");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto options, IntegerFlag(flags, "--options", 2, 4096, 0));
  DENIABLE_ASSIGN_OR_RETURN(auto epsilon, NumberFlag(flags, "--epsilon"));
  DENIABLE_ASSIGN_OR_RETURN(auto respondents, IntegerFlag(flags, "--respondents", 1, 2147483647, 0));
  return AdviseOptions{static_cast<int>(options), epsilon, respondents, flags.Has("--json")};
}

std::string AdviceText(const Advice& advice) {
  std::string text = "k = " + std::to_string(advice.options) + " options, epsilon " + FormatNumber(advice.epsilon) +
                     ", n = " + std::to_string(advice.respondents) + "\n";
  text += "mechanism  epsilon            expected SE  95% CI +-  n for +-5 points\n";
  for (const auto& item : advice.mechanisms) {
    char line[160];
    std::snprintf(line, sizeof(line), "%-9s  %-17s  %11.4f  %9.4f  %16lld\n", item.mechanism.c_str(),
                  item.epsilon ? FormatNumber(*item.epsilon).c_str() : "no formal epsilon", item.std_error,
                  item.ci_half_width, static_cast<long long>(item.n_for_5_points));
    text += line;
  }
  return text + "recommended: " + advice.recommended + ": " + advice.reason + "\n";
}

}  // namespace

int RunAdviseCommand(const std::vector<std::string>& args) {
  if (WantsHelp(args)) {
    std::cout << kAdviseUsage;
    return 0;
  }
  auto options = ParseAdviseOptions(args);
  if (!options) {
    std::cerr << "deniable advise: " << options.error() << "\nRun 'deniable advise --help' for usage." << std::endl;
    return kExitUsage;
  }
  auto advice = Advise(options->options, options->epsilon, options->respondents);
  if (!advice) {
    std::cerr << "deniable advise: " << advice.error() << std::endl;
    return kExitUsage;
  }
  std::cout << (options->json ? AdviceToJson(*advice).dump(2) + "\n" : AdviceText(*advice));
  return 0;
}

}  // namespace deniable::server
