#!/usr/bin/env python3
"""pipes_table.py: the table of bench/profile_pipes.sh's Nsight Compute csv files (docs/kernels.md,
"Arithmetic against bytes"). Usage: pipes_table.py STREAM_GBS ncu_NAME.csv ...

For each profiled launch: the kernel, its time, DRAM bytes moved and their rate as a fraction of
the streaming rate STREAM_GBS (GB/s, measured in the same run), registers, the FP64 and FP32
thread instructions executed (adds, multiplies and FMAs), and the time those take at the pipes'
peak: 64 FP64 and 128 FP32 thread instructions a cycle an SM (Hopper), at the SM clock and SM
count of the run. 'fp64 share' is that FP64 time over the launch's time: the least fraction of
the launch that the FP64 pipes alone take.
"""
import csv
import sys
from collections import OrderedDict


def number(text):
    return float(text.replace(",", ""))


def launches(path):
    rows = OrderedDict()
    with open(path, newline="") as f:
        body = [line for line in f if line.startswith('"')]
    for r in csv.DictReader(body):
        key = (r["ID"], r["Kernel Name"])
        rows.setdefault(key, {})[r["Metric Name"]] = number(r["Metric Value"])
    return rows


def short(kernel):
    inner = kernel.split("<", 1)[1] if "<" in kernel else kernel
    return inner.split("<", 1)[0] + "<" + inner.split("<", 1)[1].split(",")[0].strip() + ",…>"


def main():
    stream = float(sys.argv[1]) * 1e9
    print("| run | kernel | µs | DRAM MB | of streaming | registers | FP64 G | FP32 G | µs at FP64 peak | fp64 share |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in sys.argv[2:]:
        name = path.rsplit("/", 1)[-1][4:-4]
        for (_, kernel), m in launches(path).items():
            sec = m["gpu__time_duration.sum"] * 1e-9
            moved = m["dram__bytes_read.sum"] + m["dram__bytes_write.sum"]
            fp64 = sum(m[f"sm__sass_thread_inst_executed_op_{o}_pred_on.sum"] for o in ("dfma", "dadd", "dmul"))
            fp32 = sum(m[f"sm__sass_thread_inst_executed_op_{o}_pred_on.sum"] for o in ("ffma", "fadd", "fmul"))
            sms = m["device__attribute_multiprocessor_count"]
            clock = m["sm__cycles_elapsed.avg.per_second"]
            fp64_sec = fp64 / (64 * sms * clock)
            print(f"| {name} | {short(kernel)} | {sec * 1e6:.1f} | {moved / 1e6:.0f} | "
                  f"{moved / sec / stream:.3f} | {m['launch__registers_per_thread']:.0f} | "
                  f"{fp64 / 1e9:.3f} | {fp32 / 1e9:.3f} | {fp64_sec * 1e6:.1f} | {fp64_sec / sec:.2f} |")


if __name__ == "__main__":
    main()
