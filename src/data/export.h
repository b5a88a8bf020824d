// `kgen data export`: training rows from what kgen has evaluated (docs/data.md). Every row is backed by a verdict kgen
// computed: correct results of the results store whose candidate still has the hash it was judged with, and the LLM
// loop's trajectories (prompt, reply, verdict per round).
//   sft     the generation prompt of the candidate's target (gen/prompt.h, as a model sees it) -> the correct candidate
//           in the reply format (a store result: an expert tile program, an op project; a trajectory's round 0)
//   repair  a repair round's prompt (the failing attempt and kgen's feedback) -> the reply that fixed it
//   dpo     one prompt, a chosen and a rejected reply: chosen correct and fastest (modeled), rejected wrong or slower
//           by more than the margin (round-0 replies of different samples of a task)
// Formats: chat ({"messages": [...]}, the chat-template layout of TRL and LLaMA-Factory), sharegpt ({"conversations":
// [{"from", "value"}], "system"}), alpaca ({"instruction", "input", "output", "system"}), and for dpo the TRL
// conversational preference layout ({"prompt": [...], "chosen": [...], "rejected": [...]}). JSON lines; each row has
// "kind" and "provenance" (task, task and candidate hashes, SoC, kgen version, verdict, modeled speedup and its shape,
// source, sample, round).
#pragma once
#include <map>
#include <set>
#include <string>

namespace kgen::data {
struct ExportOptions {
  std::string store;                 // results.db (must exist: an export never creates a store)
  std::string format = "chat";       // chat, sharegpt, alpaca (sft and repair rows); dpo
  std::string kinds = "sft,repair";  // of chat/sharegpt/alpaca: sft, repair, or both
  std::string suite;                 // the tasks of the store's results (default the source tree's tasks/)
  std::string out;                   // the JSON-lines file, written whole (temp file, then rename)
  double dpo_margin = 1.1;           // a correct reply is rejected when the chosen one's speedup is this much higher
  size_t max_reply_bytes = 256 * 1024;   // longer replies are skipped, counted
  bool any_version = false;              // keep results judged by another kgen version (skipped, counted by default)
  std::set<std::string> hidden_examples;  // task ids whose solutions no prompt may show (kgen data build's held-out
                                         // tasks): built prompts leave them out, a stored prompt showing one is skipped
};
struct ExportSummary {
  std::map<std::string, int> rows;       // by kind
  std::map<std::string, int> skipped;    // by reason
  int tasks = 0;
};
// 0 when the file is written; 2 with err (precise) when an option is wrong or the store cannot be read; 1 with err
// when the file cannot be written. The CLI's exit status.
int export_rows(const ExportOptions& o, ExportSummary& s, std::string& err);
std::string summary_text(const ExportOptions& o, const ExportSummary& s);
}  // namespace kgen::data
