/* What libsodium's compiled files (wasm/build-libsodium.sh) reference but the
 * WebAssembly core must never run: libsodium's own randomness and its misuse
 * handler (core.c, which would bring sodium_init, threads and CPU detection).
 *
 * core/oprf draws every random scalar through core's RandomSource, never
 * through randombytes; the libsodium functions that would (scalar_random,
 * the random points, sodium_malloc's canary) are linked but unused. If one is
 * ever reached, the module aborts (core.js retires the instance) instead of
 * producing randomness from a source nobody reviewed. */
#include <stddef.h>
#include <stdlib.h>

#include "sodium/core.h"
#include "sodium/randombytes.h"

void randombytes_buf(void *const buf, const size_t size) {
  (void)buf;
  (void)size;
  abort();
}

void sodium_misuse(void) { abort(); }
