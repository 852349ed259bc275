// Headers sent with every response, and the Content-Security-Policy of the
// HTML pages: scripts and styles only from this origin ('wasm-unsafe-eval'
// lets the page compile the embedded WebAssembly core, nothing else), no
// framing, no plugins, and fetches only back to this server.
#pragma once

#include <utility>

namespace deniable::server {

inline constexpr std::pair<const char*, const char*> kSecurityHeaders[] = {
    {"X-Content-Type-Options", "nosniff"},
    {"Referrer-Policy", "no-referrer"},
    {"X-Frame-Options", "DENY"},
    // Pages open no window that could reach back into them, and vice versa.
    {"Cross-Origin-Opener-Policy", "same-origin"},
    // No page asks for a device feature: a script injected anyway cannot either.
    {"Permissions-Policy",
     "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()"},
    // Browsers heed this only over HTTPS (RFC 6797 section 8.1: ignored over
    // plain HTTP), so it is sent always: behind a TLS-terminating proxy, the
    // pages are then never reached over plain HTTP again.
    {"Strict-Transport-Security", "max-age=31536000"},
};

inline constexpr const char* kPageContentSecurityPolicy =
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// API responses are per-request data (results change, tokens are sent): never cached.
inline constexpr const char* kApiCacheControl = "no-store";

}  // namespace deniable::server
