// Report paths that must not be replaced, as a table (bad_input_table.h). A
// report is written to a temporary file and renamed over its path, and a rename replaces anything:
// as root `traffic --json /dev/full` once turned /dev/full into a regular file, and a symlink or a
// directory failed only after the whole simulation. Every output option refuses, up front, a path
// that exists and is not a regular file (a device, a symlink, a directory) in one line naming
// itself. These use paths every Linux machine has; cases that need a fixture (a fifo, a symlink to
// a file of ours, a device node, a held lock, a full disk) are in cli_outputs_test.cpp.
#include "bad_input_table.h"

namespace {

#define WN_SPEC WN_SOURCE_DIR "/experiments/specs/ports_small.yaml"
#define WN_SCHEDULE WN_SOURCE_DIR "/testbench/schedule_files/good/allgather_ring.json"

// What every type refusal says is allowed ("-" too, except for a sweep's results file).
constexpr const char* kReg = "allowed: a regular file or a new path";
constexpr const char* kEmit = "allowed: parallel DIR, slurm DIR";

const BadInput kCases[] = {
    // traffic --json: devices, a directory, symlinks (to a file descriptor, to a folder).
    {"OutTrafficJsonDevFull", "traffic --json /dev/full", "--json", kReg},
    {"OutTrafficJsonDevNull", "traffic --json /dev/null", "--json", kReg},
    {"OutTrafficJsonDirectory", "traffic --json /tmp", "--json", kReg},
    {"OutTrafficJsonStdoutSymlink", "traffic --json /dev/stdout", "--json", "or - for stdout"},
    {"OutTrafficJsonProcSelfSymlink", "traffic --json /proc/self", "--json", kReg},
    {"OutTrafficJsonBelowAFile", "traffic --json /etc/passwd/r.json", "--json", kReg},
    // run / check --json, run --schedule --json.
    {"OutRunJsonDevZero", "run --json /dev/zero", "--json", kReg},
    {"OutRunJsonRootFolder", "run --json /", "--json", kReg},
    {"OutRunJsonDot", "run --json .", "--json", kReg},
    {"OutRunJsonStderrSymlink", "run --json /dev/stderr", "--json", kReg},
    {"OutRunJsonDevFdSymlink", "run --json /dev/fd", "--json", kReg},
    {"OutRunScheduleJsonDevFull", "run --schedule " WN_SCHEDULE " --json /dev/full", "--json", kReg},
    {"OutCheckJsonDevFull", "check --algorithm rd-broadcast --simulate --json /dev/full", "--json", kReg},
    {"OutCheckJsonDirectory", "check --algorithm rd-broadcast --json /tmp", "--json", kReg},
    // compare --json, also with forked points.
    {"OutCompareJsonDevNull", "compare --json /dev/null", "--json", kReg},
    {"OutCompareJsonParentFolder", "compare --json ..", "--json", kReg},
    {"OutCompareJobsJsonDevFull", "compare --algorithm rd-broadcast,direct-alltoall -j 2 --json /dev/full", "--json",
     kReg},
    {"OutCompareJsonStdoutSymlink", "compare --json /dev/stdout", "--json", kReg},
    // The rate sweep's --json.
    {"OutRateSweepJsonDevFull", "sweep --rates 0.1 --json /dev/full", "--json", kReg},
    {"OutRateSweepJsonDirectory", "sweep --rates 0.1,0.2 --json /tmp", "--json", kReg},
    // A spec sweep's --out (JSON lines, appended: never a device, and never stdout).
    {"OutSpecOutDevFull", "sweep " WN_SPEC " --out /dev/full", "--out", kReg},
    {"OutSpecOutDevNull", "sweep " WN_SPEC " --out /dev/null", "--out", kReg},
    {"OutSpecOutDirectory", "sweep " WN_SPEC " --out /tmp", "--out", kReg},
    {"OutSpecOutStdoutSymlink", "sweep " WN_SPEC " --out /dev/stdout", "--out", kReg},
    {"OutSpecOutDash", "sweep " WN_SPEC " --out -", "--out", "stdout cannot be read back"},
    // --summarize --csv, --merge --out.
    {"OutSummarizeCsvDevFull", "sweep --summarize /dev/null --csv /dev/full", "--csv", kReg},
    {"OutSummarizeCsvDirectory", "sweep --summarize /dev/null --csv /tmp", "--csv", kReg},
    {"OutSummarizeCsvStdoutSymlink", "sweep --summarize /dev/null --csv /dev/stdout", "--csv", kReg},
    {"OutMergeOutDevFull", "sweep --merge /dev/null --out /dev/full", "--out", kReg},
    {"OutMergeOutDirectory", "sweep --merge /dev/null --out /tmp", "--out", kReg},
    {"OutMergeOutProcSelfSymlink", "sweep --merge /dev/null --out /proc/self", "--out", kReg},
    // --emit KIND DIR: DIR a folder (or new), before anything is written.
    {"OutEmitParallelIntoDevice", "sweep " WN_SPEC " --emit parallel /dev/null", "--emit", kEmit},
    {"OutEmitSlurmIntoFile", "sweep " WN_SPEC " --emit slurm /etc/passwd", "--emit", kEmit},
    {"OutEmitBelowAFile", "sweep " WN_SPEC " --emit parallel /etc/passwd/jobs", "--emit", kEmit},
    {"OutEmitDash", "sweep " WN_SPEC " --emit parallel -", "--emit", kEmit},
    {"OutEmitUncreatable", "sweep " WN_SPEC " --emit slurm /proc/wormnet-jobs", "--emit", kEmit},
    // synth --out (before the solver runs).
    {"OutSynthOutDirectory", "synth --topology mesh:2x2 --out /tmp", "--out", kReg},
    {"OutSynthOutDot", "synth --topology mesh:2x2 --out .", "--out", kReg},
    {"OutSynthOutDevFull", "synth --topology mesh:2x2 --out /dev/full", "--out", kReg},
    {"OutSynthOutStdoutSymlink", "synth --topology mesh:2x2 --out /dev/stdout", "--out", kReg},
    // export --out, cost --json.
    {"OutExportOutDevFull", "export --algorithm rd-broadcast --out /dev/full", "--out", kReg},
    {"OutExportOutDirectory", "export --algorithm rd-broadcast --out /tmp", "--out", kReg},
    {"OutExportOutProcSelfSymlink", "export --algorithm rd-broadcast --out /proc/self", "--out", kReg},
    {"OutCostJsonDevNull", "cost --json /dev/null", "--json", kReg},
    {"OutCostJsonDirectory", "cost --json /tmp", "--json", kReg},
    {"OutTrafficTraceDevNull", "traffic --backend rtl --trace /dev/null", "--trace", kReg},
    {"OutRunTraceDirectory", "run --backend rtl --trace /tmp", "--trace", kReg},
    {"OutRunTraceStdout", "run --backend rtl --trace -", "--trace", "allowed: a file name"},
    {"OutCheckTraceDevFull", "check --simulate --backend rtl --trace /dev/full", "--trace", kReg},
    {"OutRunCsvStdout", "run --csv -", "--csv", "allowed: a file name prefix"},
    {"OutDeadlockJsonDirectory", "check --deadlock --json /tmp", "--json", kReg},
};

}  // namespace

WN_BAD_INPUT_TABLE(Outputs, kCases);
