// The requests the adapter may hand to a route without cpp-httplib, and the
// ApiRequest it builds for them: the one the library's path would build.
//
// A report costs one pass through cpp-httplib on the library's path: it
// parses the head the gate has parsed already (header names compared case-
// insensitively a character at a time), matches the route patterns, builds a
// header multimap, and renders the usual 201 again for every report. Under
// load that was a fifth of the server's CPU per report. For an asynchronous
// route with a usual answer (http_adapter.cc), a "plain" request skips it:
// the handler gets the ApiRequest built here from the gate's head, and the
// usual answer's bytes are the ones the library rendered once, for an
// earlier plain request to the same route.
//
// Plain means that nothing in the request could make the library answer
// differently or show the handler something else: HTTP/1.1, POST, a path of
// unreserved characters (nothing to decode, no query), a short head, no
// Connection (keep-alive as usual), Range or multipart body, no header value
// the library would percent-decode, no empty one (the library may treat it
// its own way), no chunked body.
// Anything else takes the library's path, as before.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "server/http/api_types.h"
#include "server/http/request_framing.h"

namespace deniable::server {

// `request_line` is the request's first line (without its CRLF).
bool IsPlainRequest(const RequestHead& head, std::string_view request_line);

// The request as ToApiRequest (http_adapter.cc) makes it from the library's
// Request: lowercase header names, the first of repeated ones kept (the
// X-Forwarded-For lines joined in order), Accept-Encoding under its own name.
// (Not the library's pseudo-headers remote_addr, remote_port, local_addr,
// local_port: no handler reads them; remote_address is the client's address.)
ApiRequest PlainApiRequest(const RequestHead& head, std::string body, std::vector<std::string> path_params,
                           std::string remote_address);

}  // namespace deniable::server
