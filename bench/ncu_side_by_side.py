#!/usr/bin/env python3
"""ncu_side_by_side.py: chosen metrics of kernels profiled with every Nsight Compute section, side
by side (the raw pages that bench/run_quda_ovr.sh writes with DETAIL=1: detail_<name>.csv), as a
markdown table with one column a file. The metrics: time, launch shape, registers, occupancy,
issue, the warp instructions executed by kind, the pipes' use, the stall reasons (warps stalled
for each instruction issued), the memory requests and the DRAM bytes; a metric a file lacks
shows as "-". Further metrics by name with --metric NAME (repeatable).
Usage: ncu_side_by_side.py [--metric NAME ...] FILE.csv ..."""
import csv
import pathlib
import sys

METRICS = [
    ("gpu__time_duration.sum", "duration"),
    ("launch__block_size", "threads a block"),
    ("launch__registers_per_thread", "registers a thread"),
    ("launch__occupancy_limit_registers", "blocks an SM (registers)"),
    ("sm__warps_active.avg.pct_of_peak_sustained_active", "achieved occupancy %"),
    ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue slots busy %"),
    ("smsp__inst_executed.sum", "warp instructions"),
    ("smsp__sass_inst_executed_op_global_ld.sum", "global load instructions"),
    ("smsp__sass_inst_executed_op_global_st.sum", "global store instructions"),
    ("smsp__sass_inst_executed_op_local_ld.sum", "local load instructions"),
    ("smsp__sass_inst_executed_op_local_st.sum", "local store instructions"),
    ("smsp__sass_inst_executed_op_shared_ld.sum", "shared load instructions"),
    ("smsp__sass_inst_executed_op_shared_st.sum", "shared store instructions"),
    ("smsp__inst_executed_op_branch.sum", "branches"),
    ("sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active", "FMA pipe % of peak"),
    ("sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active", "ALU pipe % of peak"),
    ("sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active", "FP64 pipe % of peak"),
    ("sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active", "LSU pipe % of peak"),
    ("sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_active", "ADU pipe % of peak"),
    ("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
     "stalled on memory (long scoreboard), warps an issue"),
    ("smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
     "stalled on shuffles, shared memory, MUFU (short scoreboard)"),
    ("smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", "stalled on fixed latency (wait)"),
    ("smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "stalled at barriers"),
    ("smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", "stalled on a busy pipe"),
    ("smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio", "eligible, not selected"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors"),
    ("dram__bytes_read.sum", "DRAM bytes read"),
    ("dram__bytes_write.sum", "DRAM bytes written"),
]


def read_raw(path):
    """The metrics of the first kernel of an `ncu --page raw --csv` export: name -> (value, unit)."""
    rows = [r for r in csv.reader(path.read_text(errors="replace").splitlines()) if r]
    head = next(i for i, r in enumerate(rows) if "Kernel Name" in r or "ID" in r)
    names, units, values = rows[head], rows[head + 1], rows[head + 2]
    return {n: (v, u) for n, u, v in zip(names, units, values)}


def main():
    args = sys.argv[1:]
    metrics = list(METRICS)
    while args and args[0] == "--metric":
        metrics.append((args[1], args[1]))
        args = args[2:]
    if not args:
        sys.exit(__doc__)
    tables = [read_raw(pathlib.Path(a)) for a in args]
    print("| metric | " + " | ".join(pathlib.Path(a).stem for a in args) + " |")
    print("|---" * (len(args) + 1) + "|")
    for name, label in metrics:
        cells = []
        for t in tables:
            v, u = t.get(name, ("-", ""))
            cells.append(f"{v} {u}".strip() if u and v != "-" else v)
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
