// Output of one modeled launch: human table, JSON, Chrome-trace timeline (Perfetto). Every time is "modeled".
#pragma once
#include <string>
#include <vector>

#include "perf/model.h"

namespace kgen::perf {
std::string report_text(const Result& r, const Profile& p);
std::string report_json(const Result& r, const Profile& p);     // one JSON object
std::string chrome_trace(const Result& r, const Profile& p);    // needs Result::events (Options::keep_events)
// Compact timeline for reports (lanes.cpp): {"kernel","soc","bound","body_us","cores","lanes":[{"core","pipe",
// "busy_us","spans":[start,end,...]}]} for at most max_cores cores, each pipe's spans merged to at most max_spans;
// "all_cores":[{"core","start_us","end_us","pipe","busy_us"}] for every core (its busiest pipe).
std::string lanes_json(const Result& r, size_t max_cores = 4, size_t max_spans = 48);
bool write_file(const std::string& path, const std::string& text);
// The profile of one modeled launch: BASE.report.txt, BASE.report.json, BASE.lanes.json and, when the result kept its
// events, BASE.timeline.json (Chrome trace for Perfetto). Creates BASE's folder. False when a file cannot be written;
// `written` gets the paths that were.
bool write_profile(const Result& r, const Profile& p, const std::string& base, std::vector<std::string>& written);
// KGEN_PROFILE=DIR: models the launch and writes DIR/<n>_<kernel>.report.txt/.report.json/.timeline.json/
// .lanes.json.
// Called by the emulator after each launch; `index` numbers the launches of the process.
void profile_launch_to_dir(const sim::LaunchTrace& t, const std::string& dir, int index, GmLocate locate);
}  // namespace kgen::perf
