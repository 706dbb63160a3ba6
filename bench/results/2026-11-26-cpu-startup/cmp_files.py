#!/usr/bin/env python3
# cmp_files.py A B: every file of folder A against the same name in B. Classes: identical;
# identical after masking (text dates "Thu Nov 26 03:20:53 2026 UTC", log time stamps, run
# times in logs/summaries); identical but for HDF5 object-header time stamps (4-byte
# little-endian Unix times of 2026, which differ between two runs of one binary too); DIFFERENT.
import os, re, struct, sys
a, b = sys.argv[1:3]
date = re.compile(rb'\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4} UTC')
def mask(x):
    x = date.sub(b'DATE', x)
    x = re.sub(rb'(?m)^\d{4}-\d\d-\d\dT[\d:.]+Z ', b'', x)
    x = re.sub(rb'(seconds|_seconds): .*', rb'\1: T', x)
    x = re.sub(rb'[\d.]+(e[-+]?\d+)? s\b', b'T s', x)
    x = re.sub(rb'[\d.]+(e[-+]?\d+)? sweeps/s', b'T sweeps/s', x)
    x = re.sub(rb'[\d.]+ (gradients|sweeps)/s', rb'T \1/s', x)
    return x
def times_only(x, y):
    if len(x) != len(y): return False
    diff = [i for i in range(len(x)) if x[i] != y[i]]
    lo, hi = 1767225600, 1798761600  # 2026
    for i in diff:
        if not any(0 <= s and s + 4 <= len(x) and lo <= struct.unpack_from('<I', x, s)[0] < hi and lo <= struct.unpack_from('<I', y, s)[0] < hi for s in range(i - 3, i + 1)):
            return False
    return True
counts = {}
for name in sorted(os.listdir(a)):
    x = open(os.path.join(a, name), 'rb').read()
    p = os.path.join(b, name)
    y = open(p, 'rb').read() if os.path.exists(p) else None
    if y is None: c = 'MISSING'
    elif x == y: c = 'identical'
    elif mask(x) == mask(y): c = 'identical after masking dates and run times'
    elif times_only(mask(x), mask(y)): c = 'identical but for HDF5 object time stamps (and masked dates)'
    else: c = 'DIFFERENT'
    counts[c] = counts.get(c, 0) + 1
    print(f'{c}: {name}')
print('; '.join(f'{v} {k}' for k, v in counts.items()))
