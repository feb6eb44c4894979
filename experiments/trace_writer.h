// The pieces of a trace of events (experiments/trace_events.h) as text: Chrome's Trace Event
// Format, one event per line, written as they are made (a big run's trace is millions of
// events). Only what wormnet writes: complete events ("X"), counters ("C") and the metadata
// events that name and order processes and threads ("M", at ts 0: some readers want a ts on
// every event).
#pragma once
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "experiments/report_file.h"

namespace wn::fw::trace {

// A cycle on the timeline: one cycle is one nanosecond, written in the format's microseconds
// with exactly three decimals, so a viewer that keeps nanoseconds (Perfetto) reads every
// timestamp and duration as a whole number of cycles.
inline std::string time_text(uint64_t cycle) { return fmt::format("{}.{:03}", cycle / 1000, cycle % 1000); }

class Writer {
 public:
  explicit Writer(ReportOut& out) : out_(out) {}
  // A new thread id: one space for every thread of every process, above every process id (a
  // viewer that follows Linux takes a thread whose id is a process id for that process's main thread).
  int new_tid() { return next_tid_++; }
  void first_tid(int tid) { next_tid_ = tid; }
  void process(int pid, std::string_view name, int sort) {
    event(
        fmt::format(R"({{"name":"process_name","ph":"M","ts":0,"pid":{},"tid":0,"args":{{"name":"{}"}}}})", pid, name));
    event(fmt::format(R"({{"name":"process_sort_index","ph":"M","ts":0,"pid":{},"tid":0,"args":{{"sort_index":{}}}}})",
                      pid, sort));
  }
  void thread(int pid, int tid, std::string_view name, int sort) {
    event(fmt::format(R"({{"name":"thread_name","ph":"M","ts":0,"pid":{},"tid":{},"args":{{"name":"{}"}}}})", pid, tid,
                      name));
    event(fmt::format(R"({{"name":"thread_sort_index","ph":"M","ts":0,"pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                      pid, tid, sort));
  }
  // Cycles [start, end); `args`: a JSON object's text.
  void complete(int pid, int tid, uint64_t start, uint64_t end, std::string_view name, std::string_view cat,
                std::string_view args) {
    event(fmt::format(R"({{"name":"{}","cat":"{}","ph":"X","ts":{},"dur":{},"pid":{},"tid":{},"args":{}}})", name, cat,
                      time_text(start), time_text(end - start), pid, tid, args));
  }
  void counter(int pid, int tid, uint64_t at, std::string_view name, std::string_view args) {
    event(fmt::format(R"({{"name":"{}","ph":"C","ts":{},"pid":{},"tid":{},"args":{}}})", name, time_text(at), pid, tid,
                      args));
  }
  void raw(std::string_view text) { out_.write(text); }

 private:
  void event(const std::string& text) {
    out_.write(first_ ? "\n" : ",\n");
    out_.write(text);
    first_ = false;
  }
  ReportOut& out_;
  bool first_ = true;
  int next_tid_ = 1;
};

// Spans on as few tracks as they fit without overlapping (a track draws only nested spans):
// each, in order of start, on the first lane free by then.
class Lanes {
 public:
  size_t place(uint64_t start, uint64_t end) {
    for (size_t k = 0; k < free_at_.size(); ++k)
      if (free_at_[k] <= start) {
        free_at_[k] = end;
        return k;
      }
    free_at_.push_back(end);
    return free_at_.size() - 1;
  }
  size_t count() const { return free_at_.size(); }

 private:
  std::vector<uint64_t> free_at_;
};

// "name", "name 2", "name 3": the lanes of one kind of span.
inline std::string lane_name(std::string_view name, size_t lane) {
  return lane == 0 ? std::string(name) : fmt::format("{} {}", name, lane + 1);
}

}  // namespace wn::fw::trace
