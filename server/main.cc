// The `deniable` binary: see server/cli.h.
#include <string>
#include <vector>

#include "server/cli.h"

int main(int argc, char** argv) {
  return deniable::server::RunCli(std::vector<std::string>(argv + 1, argv + argc));
}
