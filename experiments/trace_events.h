// A run as a trace of events for a timeline viewer (ui.perfetto.dev, chrome://tracing): Chrome's
// Trace Event Format, JSON Object Format. docs/guide/run.md#trace-events says what each track
// shows. Processes: "network" (flits in flight), one per node (its steps, sends, receives and
// local operations) and one per router (every channel a packet held or a head waited for).
// A node is a process, not a thread: its sends overlap its receives and each other, and a
// track draws only spans that nest. Times are cycles: one cycle is one nanosecond of the
// timeline (trace_writer.h), the profile's clock is in the metadata. The file depends on the
// run only (not on the backend or the threads), byte for byte.
#pragma once
#include "experiments/collective_run.h"
#include "experiments/report_file.h"

namespace wn::fw {

// `r` must come from a run with options.run.timeline set (the channels' intervals, the nodes'
// local operations): std::logic_error otherwise.
void write_trace_events(const ScheduleRunResult& r, ReportOut& out);

namespace trace {
class Writer;
// The routers' processes (trace_channels.cpp), process ids from `first_pid` (router r: first_pid + r).
void channel_tracks(const ScheduleRunResult& r, int first_pid, Writer& w);
// A packet's spans are named by its message: "m12 3->7 s2" (message 12 from node 3 to 7, step 2).
std::string packet_name(const ScheduleRunResult& r, uint32_t packet);
// Its message, ends and step as the args of a span (without the braces).
std::string packet_args(const ScheduleRunResult& r, uint32_t packet);
}  // namespace trace

}  // namespace wn::fw
