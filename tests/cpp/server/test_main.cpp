// The server's C++ tests (deniable_server_tests): its units tested without
// starting the binary: framing, storage on a temporary file, the estimation
// gate, the results cache, the error table. One file per unit, in folders that
// mirror server/.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
