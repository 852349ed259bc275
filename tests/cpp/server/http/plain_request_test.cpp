// Which requests skip cpp-httplib (plain_request.h): anything the library
// could answer differently, or show the handler differently, is not plain.
#include "server/http/plain_request.h"

#include <doctest/doctest.h>

#include <string>

namespace deniable::server {
namespace {

struct Framed {
  RequestHead head;
  std::string line;
};

Framed Frame(const std::string& bytes) {
  RequestFramer framer(FramingLimits{});
  REQUIRE(framer.Feed(bytes) == RequestFramer::State::kComplete);
  return {framer.head(), bytes.substr(0, bytes.find("\r\n"))};
}

bool Plain(const std::string& bytes) {
  const Framed framed = Frame(bytes);
  return IsPlainRequest(framed.head, framed.line);
}

}  // namespace

TEST_CASE("plain request: a report POST is plain; what the library would treat otherwise is not") {
  const std::string body = "Content-Length: 2\r\n\r\n{}";
  CHECK(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\n" + body));
  CHECK(Plain("POST /api/surveys/a-b_c.d~e/reports HTTP/1.1\r\nX-Invitation-Token: abc_DEF-123\r\n" + body));
  CHECK_FALSE(Plain("GET /api/surveys/demo HTTP/1.1\r\n\r\n"));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.0\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports?x=1 HTTP/1.1\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/d%65mo/reports HTTP/1.1\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nConnection: close\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nconnection: keep-alive\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nRange: bytes=0-1\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nContent-Type: Multipart/form-data; boundary=x\r\n" + body));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nX-Token: a%20b\r\n" + body));  // decoded by the library
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nX-Empty:\r\n" + body));        // the library's to judge
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"));
  CHECK_FALSE(Plain("POST /api/surveys/demo/reports HTTP/1.1\r\nX-Long: " + std::string(5000, 'a') + "\r\n" + body));
}

TEST_CASE("plain request: the handler's request: lowercase names, first kept, X-Forwarded-For joined") {
  const Framed framed = Frame(
      "POST /api/x/y HTTP/1.1\r\nX-A: 1\r\nx-a: 2\r\nExpect: 100-continue\r\nAccept-Encoding: br\r\n"
      "X-Forwarded-For: 10.0.0.1\r\nX-Forwarded-For: 10.0.0.2\r\nContent-Length: 2\r\n\r\n{}");
  const ApiRequest request = PlainApiRequest(framed.head, "{}", {"y"}, "127.0.0.1");
  CHECK(request.method == "POST");
  CHECK(request.path == "/api/x/y");
  CHECK(request.path_params == std::vector<std::string>{"y"});
  CHECK(request.body == "{}");
  CHECK(request.remote_address == "127.0.0.1");
  CHECK(request.headers == std::map<std::string, std::string>{{"x-a", "1"},
                                                              {"accept-encoding", "br"},
                                                              {"x-forwarded-for", "10.0.0.1, 10.0.0.2"},
                                                              {"content-length", "2"}});
}

}  // namespace deniable::server
