"""a2a_certify.py — one certified all-to-all run, shared by the all-to-all benches.

`topocoll a2a SPEC --method dw --gap G --time-limit T --json` in a fresh process: its JSON
report (certified lower and upper bounds as exact fractions, the gap, the analytic bounds)
and the wall time. Exit 1 (the gap was not reached, after a full report) is an answer, any
other failure aborts the bench.
"""
import json
import subprocess
import sys
import time


def certify(binary, spec, gap, limit, who):
    argv = [binary, "a2a", spec, "--method", "dw", "--gap", str(gap), "--time-limit", f"{limit}s", "--json"]
    t0 = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True)
    seconds = time.monotonic() - t0
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        sys.exit(f"{who}: {' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()}")
    return json.loads(proc.stdout), seconds
