// getentropy(3) for core's OsRandom, as an Emscripten JS library: the buffer
// is filled by ONE call to crypto.getRandomValues (Web Crypto: every browser,
// and Node >= 19 as globalThis.crypto).
//
// Why replace Emscripten 3.1.6's own getentropy: it calls getRandomValues once
// per byte, i.e. 256 JS calls per refill of OsRandom's buffer. The source is
// the same CSPRNG either way. There is deliberately no fallback: without Web
// Crypto this fails and OsRandom aborts (fails closed) rather than produce a
// report with predictable noise.
mergeInto(LibraryManager.library, {
  getentropy: function (buffer, size) {
    // POSIX: at most 256 bytes per call.
    if (size > 256) return -1;
    if (typeof crypto !== 'object' || typeof crypto.getRandomValues !== 'function') return -1;
    crypto.getRandomValues(HEAPU8.subarray(buffer, buffer + size));
    return 0;
  },
});
