#!/usr/bin/env python3
"""sass_histogram.py: the SASS instructions of each function in a `cuobjdump -sass` listing,
counted by opcode (the mnemonic before the first dot) and grouped: floating point, integer
and logic, memory, shuffles and control, so that two kernels' instruction mixes can be set side
by side (docs/kernels.md). Static counts: for straight-line kernels, the instructions a thread
executes. FUNCTION_REGEX (optional) keeps the functions whose name matches it.
Usage: sass_histogram.py LISTING [FUNCTION_REGEX]"""
import collections
import re
import sys

GROUPS = {
    "fp32": {"FFMA", "FADD", "FMUL", "FMNMX", "FSEL", "FSETP", "FCHK", "FSWZADD"},
    "fp64": {"DFMA", "DADD", "DMUL", "DSETP", "DMNMX"},
    "conversion": {"F2F", "F2I", "I2F", "F2FP", "I2FP", "FRND"},
    "special function": {"MUFU"},
    "integer and logic": {"IMAD", "IADD3", "IMNMX", "ISETP", "LOP3", "SHF", "LEA", "SEL", "PRMT",
                          "IABS", "POPC", "FLO", "BMSK", "IMUL", "VIADD", "VIMNMX", "PLOP3", "P2R",
                          "R2P", "LDC", "ULDC", "UIADD3", "ULOP3", "UMOV", "UIMAD", "USHF", "ULEA",
                          "UISETP", "USEL", "S2R", "S2UR", "CS2R", "MOV", "R2UR", "IDP", "UPRMT",
                          "USHL"},
    "global memory": {"LDG", "STG"},
    "local memory": {"LDL", "STL"},
    "shared memory": {"LDS", "STS", "BAR", "LDSM"},
    "shuffle": {"SHFL"},
    "control": {"BRA", "EXIT", "BSSY", "BSYNC", "CALL", "RET", "NOP", "WARPSYNC", "BPT", "YIELD",
                "DEPBAR", "ACQBULK"},
}


def group_of(op):
    return next((g for g, ops in GROUPS.items() if op in ops), "other")


def functions(text):
    name, ops = None, collections.Counter()
    for line in text.splitlines():
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            if name:
                yield name, ops
            name, ops = m.group(1), collections.Counter()
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", line)
        if name and m:
            ops[m.group(1)] += 1
    if name:
        yield name, ops


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    text = open(sys.argv[1], errors="replace").read()
    keep = re.compile(sys.argv[2]) if len(sys.argv) > 2 else None
    for name, ops in functions(text):
        if keep and not keep.search(name):
            continue
        groups = collections.Counter()
        for op, n in ops.items():
            groups[group_of(op)] += n
        print(f"## {name}\n")
        print(f"total {sum(ops.values())}: " + ", ".join(f"{g} {n}" for g, n in groups.most_common()))
        print("opcodes: " + ", ".join(f"{op} {n}" for op, n in ops.most_common()) + "\n")


if __name__ == "__main__":
    main()
