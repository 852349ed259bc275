#!/usr/bin/env bash
# Builds the part of libsodium the WebAssembly core uses (core/oprf/: the
# ristretto255 group, SHA-512, constant-time comparison) with Emscripten, into
#   build-wasm/libsodium-1.0.18/lib/libsodium.a
#   build-wasm/libsodium-1.0.18/include/{sodium.h,sodium/}   (the public headers)
# Called by wasm/build.sh; quick (nothing done) when that output is current.
#
# Same code natively and in the browser: the server links Debian's libsodium23
# (1.0.18-1+deb12u1), so this compiles THE SAME Debian source package: the
# upstream tarball plus Debian's patches (debian/patches/, applied in series
# order), fetched with apt-get source from deb.debian.org (only Debian's and
# npm's registries are reachable). apt checks the .dsc against the signed
# Sources index and the tarballs against the .dsc; the SHA-256 values pinned
# below make the build reproducible as well. apt runs with its own source list,
# lists and cache in a temporary directory: the machine's apt configuration and
# state are not touched.
#
# Only the files that define what core/oprf calls, and their internal
# dependencies, are compiled (not the whole library through emconfigure):
# seconds instead of minutes, and nothing else can end up in the module.
# The configure choices mirror libsodium's dist-build/emscripten.sh: no
# assembly, no threads, no 128-bit arithmetic (configure refuses TI mode under
# Emscripten, so ref10 uses the fe_25_5 field code).
#
# randombytes is NOT compiled: core draws every random scalar through its
# RandomSource (OsRandom = getentropy = crypto.getRandomValues). The few
# libsodium functions that would call randombytes (scalar_random, random
# points, sodium_malloc's canary) are linked against wasm/libsodium_stubs.c,
# which aborts: a use would fail loudly, never quietly draw other randomness.
#
# Usage: bash wasm/build-libsodium.sh
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "wasm/build-libsodium.sh: $*" >&2; exit 1; }

SODIUM_VERSION=1.0.18
DEBIAN_VERSION=1.0.18-1+deb12u1
ORIG_TARBALL=libsodium_${SODIUM_VERSION}.orig.tar.gz
ORIG_SHA256=d59323c6b712a1519a5daf710b68f5e7fde57040845ffec53850911f10a5d4f4
DEBIAN_TARBALL=libsodium_${DEBIAN_VERSION}.debian.tar.xz
DEBIAN_SHA256=f410474e46346b06b162defa05b1be26906aeed6cf309e3d4ebe30b4d1350733
ARCHIVE_URI=http://deb.debian.org/debian
SUITE=bookworm

OUT_DIR="build-wasm/libsodium-$SODIUM_VERSION"
LIBRARY="$OUT_DIR/lib/libsodium.a"
STUBS=wasm/libsodium_stubs.c

# Relative to src/libsodium/. What defines the functions core/oprf calls:
SOURCES=(
  crypto_core/ed25519/core_ristretto255.c          # crypto_core_ristretto255_* (from_hash, add, scalar_*)
  crypto_core/ed25519/core_ed25519.c               # the ed25519 scalar functions ristretto255's call
  crypto_core/ed25519/ref10/ed25519_ref10.c        # the group and field arithmetic (fe_25_5)
  crypto_scalarmult/ristretto255/ref10/scalarmult_ristretto255_ref10.c  # crypto_scalarmult_ristretto255*
  crypto_hash/sha512/hash_sha512.c                 # crypto_hash_sha512_bytes ...
  crypto_hash/sha512/cp/hash_sha512_cp.c           # crypto_hash_sha512{,_init,_update,_final}
  crypto_verify/sodium/verify.c                    # crypto_verify_32/64
  sodium/utils.c                                   # sodium_memcmp, sodium_is_zero, sodium_memzero
)
# What configure would define for Emscripten (see the header comment).
# explicit_bzero: Emscripten's musl has it (sodium_memzero uses it).
CFLAGS=(-O2 -DCONFIGURED=1 -DNATIVE_LITTLE_ENDIAN=1 -DHAVE_EXPLICIT_BZERO=1
        -fno-strict-aliasing -fwrapv)

export NODE_PATH="${NODE_PATH:-/usr/share/nodejs}"
command -v emcc >/dev/null 2>&1 || fail "emcc not found (apt-get install emscripten, or run scripts/setup.sh)"

# Anything that changes the output: this script, the stubs, the compiler.
stamp_text() {
  printf '%s\n' "$(sha256sum wasm/build-libsodium.sh "$STUBS" | cut -d' ' -f1 | tr '\n' ' ')" \
    "$(emcc --version | head -n 1)"
}

# The native library should be the same Debian version, or both sides differ.
warn_if_native_differs() {
  local native
  native=$(dpkg-query -W -f='${Version}' libsodium23 2>/dev/null || true)
  if [ -n "$native" ] && [ "$native" != "$DEBIAN_VERSION" ]; then
    echo "wasm/build-libsodium.sh: warning: the native libsodium23 is $native, this builds $DEBIAN_VERSION;" \
         "update DEBIAN_VERSION and the SHA-256 pins so that both sides run the same code" >&2
  fi
}

# apt-get with a private configuration rooted at $1 (a deb-src list for the
# suite, its own lists and cache): nothing of the machine's apt is read or
# written beyond its keyring and dpkg status.
private_apt() {
  local dir=$1
  shift
  apt-get -q -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$dir/sources" \
    -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
    -o APT::Sandbox::User="$(id -un)" "$@"
}

download() {
  local work=$1
  mkdir -p "$work/sources" "$work/lists/partial" "$work/cache/archives/partial"
  printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
    "$ARCHIVE_URI" "$SUITE" /usr/share/keyrings/debian-archive-keyring.gpg >"$work/sources/libsodium-src.sources"
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
    fail "Debian's archive keyring is missing (apt-get install debian-archive-keyring)"
  # apt-get update exits 0 when an index cannot be fetched: look for the index itself.
  private_apt "$work" update >"$work/apt.log" 2>&1 || true
  compgen -G "$work/lists/*_Sources*" >/dev/null ||
    fail "cannot download the deb-src index of $ARCHIVE_URI $SUITE: is deb.debian.org reachable?" \
         "(apt-get update said: $(grep -E '^(E|W|Err):' "$work/apt.log" | head -n 3 | tr '\n' ' '))"
  (cd "$work" && private_apt "$work" source --download-only "libsodium=$DEBIAN_VERSION") >>"$work/apt.log" 2>&1 ||
    fail "apt-get source libsodium=$DEBIAN_VERSION failed (the archive may have a newer revision: update" \
         "DEBIAN_VERSION and the pins, with the native package) (log: $(tail -n 3 "$work/apt.log"))"
}

verify() {
  local work=$1
  echo "$ORIG_SHA256  $work/$ORIG_TARBALL" | sha256sum -c --quiet - ||
    fail "$ORIG_TARBALL does not have the pinned SHA-256 $ORIG_SHA256"
  echo "$DEBIAN_SHA256  $work/$DEBIAN_TARBALL" | sha256sum -c --quiet - ||
    fail "$DEBIAN_TARBALL does not have the pinned SHA-256 $DEBIAN_SHA256"
}

# The upstream tree with Debian's patches, as dpkg-source -x would unpack it.
unpack() {
  local work=$1 tree=$1/libsodium-$SODIUM_VERSION patch_name
  tar -xzf "$work/$ORIG_TARBALL" -C "$work"
  tar -xJf "$work/$DEBIAN_TARBALL" -C "$tree"
  while read -r patch_name; do
    patch_name=${patch_name%%#*}
    [ -n "${patch_name// /}" ] || continue
    patch -p1 -s -d "$tree" <"$tree/debian/patches/$patch_name" || fail "Debian patch $patch_name does not apply"
  done <"$tree/debian/patches/series"
  # The one header configure generates.
  sed -e "s/@VERSION@/$SODIUM_VERSION/" -e 's/@SODIUM_LIBRARY_VERSION_MAJOR@/10/' \
      -e 's/@SODIUM_LIBRARY_VERSION_MINOR@/3/' -e 's/@SODIUM_LIBRARY_MINIMAL_DEF@//' \
      "$tree/src/libsodium/include/sodium/version.h.in" >"$tree/src/libsodium/include/sodium/version.h"
}

compile() {
  local work=$1 source_root=$1/libsodium-$SODIUM_VERSION/src/libsodium objects=() source object
  mkdir -p "$work/obj"
  for source in "${SOURCES[@]}"; do
    object="$work/obj/$(echo "$source" | tr '/' '_').o"
    emcc "${CFLAGS[@]}" -I"$source_root/include" -I"$source_root/include/sodium" -c "$source_root/$source" \
      -o "$object" || fail "emcc failed on $source"
    objects+=("$object")
  done
  emcc "${CFLAGS[@]}" -I"$source_root/include" -c "$STUBS" -o "$work/obj/stubs.o" || fail "emcc failed on $STUBS"
  objects+=("$work/obj/stubs.o")
  emar rcs "$work/libsodium.a" "${objects[@]}"
}

install_output() {
  local work=$1 include_root=$1/libsodium-$SODIUM_VERSION/src/libsodium/include staged=$1/out
  mkdir -p "$staged/lib" "$staged/include/sodium"
  cp "$work/libsodium.a" "$staged/lib/"
  cp "$include_root/sodium.h" "$staged/include/"
  cp "$include_root"/sodium/*.h "$staged/include/sodium/"   # not private/: internal headers
  stamp_text >"$staged/stamp"
  rm -rf "$OUT_DIR"
  mkdir -p "$(dirname "$OUT_DIR")"
  mv "$staged" "$OUT_DIR"
}

main() {
  if [ -f "$LIBRARY" ] && [ -f "$OUT_DIR/stamp" ] && [ "$(cat "$OUT_DIR/stamp")" == "$(stamp_text)" ]; then
    return 0
  fi
  local start=$SECONDS
  echo "wasm: building libsodium $DEBIAN_VERSION (Debian's source package) into $OUT_DIR"
  warn_if_native_differs
  mkdir -p build-wasm
  WORK=$(mktemp -d "$PWD/build-wasm/libsodium-work.XXXXXX")
  trap 'rm -rf "$WORK"' EXIT
  download "$WORK"
  verify "$WORK"
  unpack "$WORK"
  compile "$WORK"
  install_output "$WORK"
  echo "wasm: libsodium $DEBIAN_VERSION built in $((SECONDS - start)) s"
}

main
