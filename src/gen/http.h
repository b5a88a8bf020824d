// One HTTP POST of a JSON body through libcurl: the transport under the chat client (client.h). No retries here.
#pragma once
#include <string>
#include <vector>

namespace kgen::gen {
struct HttpResponse {
  int status = 0;              // HTTP status; 0 when no response came (see error)
  std::string body;
  std::string error;           // transport failure, precise: "connection refused to 127.0.0.1:8000", "timed out
                               // after 30 s", "malformed URL ..."; empty when a response came
  bool timed_out = false;
  bool unreachable = false;    // the connection was refused or the host did not resolve: nothing listens there
  double retry_after_s = -1;   // the Retry-After header in seconds when the server sent one, else -1
};
// POSTs body to url with "Content-Type: application/json" and the extra headers ("Authorization: Bearer ...").
// timeout_s bounds the whole exchange, connect_timeout_s the connection. Never throws.
HttpResponse http_post_json(const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                            double timeout_s, double connect_timeout_s = 10);
}  // namespace kgen::gen
