#!/usr/bin/env python3
"""make fuzz: build Larder's fuzz targets with libFuzzer and AddressSanitizer, run each for
FUZZ_SECONDS (default 60) on the machine's cores, print executions and coverage per target, and
fail on any crash, leak, timeout or broken property, its input saved under Fuzz/reproducers/<target>/.

The growing corpus lives in .build/fuzz/corpus/<target> (not committed); the committed seeds are
Fuzz/corpus/<target>, and ../shared/fixtures, when present, seeds the rates targets too. Each
run's CPU time per target adds up in .build/fuzz/totals.json, so the README's figures can say how
long every target has been fuzzed in all.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FUZZ = ROOT / "Fuzz"
SCRATCH = ROOT / ".build" / "fuzz"
FIXTURES = ROOT.parent / "shared" / "fixtures"

# The dictionary each target's mutations draw tokens from (Fuzz/dict/NAME.dict).
DICTIONARIES = {
    "path": "http", "rates-query": "http", "byte-range": "http", "conditional": "http", "accept-encoding": "http",
    "bearer-token": "http", "json-reader": "json", "xml-screen": "xml", "ecb-rates": "xml",
    "pipe-rates": "pipe", "json-rates": "json", "ecb-sdmx-rates": "csv", "frankfurter-rates": "json", "json-index": "json", "json-index-stream": "json", "xml-index": "xml",
    "rfc3339": "time", "document-name": "http", "document-url": "http", "duration": "time",
    "rates-pipeline": "pipeline", "documents-pipeline": "pipeline",
}
RATES_TARGETS = {"ecb-rates", "json-rates", "ecb-sdmx-rates", "frankfurter-rates", "pipe-rates", "xml-screen", "json-reader"}
# The whole-pipeline targets leave work in flight on Swift concurrency between inputs (a refresh a
# request started, a listing rendering): libFuzzer's check after each input can take its memory for
# leaked, so leaks are checked when the process exits instead (LeakSanitizer still runs then).
EXTRA_FLAGS = {"documents-pipeline": ["-detect_leaks=0"], "rates-pipeline": ["-detect_leaks=0"]}


def build():
    command = ["swift", "build", "-c", "release", "--package-path", str(FUZZ), "--scratch-path", str(SCRATCH / "build"),
               "-Xswiftc", "-sanitize=fuzzer,address", "-Xswiftc", "-parse-as-library", "-Xswiftc", "-g"]
    print("fuzz: " + " ".join(command[:2] + command[2:]), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)
    binary = SCRATCH / "build" / "release" / "larder-fuzz"
    if not binary.exists():
        sys.exit(f"fuzz: {binary} was not built")
    return binary


def targets(binary):
    """The target names, from the same list the replay tests use (FuzzTarget.all)."""
    listing = subprocess.run([binary, "-runs=0"], env={**os.environ, "LARDER_FUZZ_TARGET": "?"},
                             capture_output=True, text=True)
    match = re.search(r"one of: (.*)", listing.stderr)
    if not match:
        sys.exit("fuzz: could not list the targets:\n" + listing.stderr)
    return [name.strip() for name in match.group(1).split(",")]


def run(binary, name, seconds):
    work = SCRATCH / "corpus" / name
    work.mkdir(parents=True, exist_ok=True)
    reproducers = FUZZ / "reproducers" / name
    reproducers.mkdir(parents=True, exist_ok=True)
    seeds = [FUZZ / "corpus" / name]
    if name in RATES_TARGETS and FIXTURES.is_dir():
        seeds.append(FIXTURES / "rates")
    log = SCRATCH / "logs" / f"{name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    command = [str(binary), f"-max_total_time={seconds}", "-print_final_stats=1", "-timeout=10",
               "-rss_limit_mb=2048", "-max_len=65536", f"-dict={FUZZ / 'dict' / (DICTIONARIES[name] + '.dict')}",
               f"-artifact_prefix={reproducers}/"] + EXTRA_FLAGS.get(name, []) + [str(work)] \
        + [str(seed) for seed in seeds if seed.is_dir()]
    before = set(reproducers.iterdir())
    started = time.monotonic()
    with open(log, "w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                   env={**os.environ, "LARDER_FUZZ_TARGET": name,
                                        # Swift's crash reporter can hang for minutes under AddressSanitizer
                                        # when a property fails; libFuzzer's own report is what counts.
                                        "SWIFT_BACKTRACE": "enable=no",
                                        "ASAN_OPTIONS": "detect_leaks=1:abort_on_error=0:symbolize=1",
                                        "LSAN_OPTIONS": f"suppressions={FUZZ / 'lsan.supp'}:print_suppressions=0"})
        _, status, usage = os.wait4(process.pid, 0)
    text = log.read_text(errors="replace")
    code = os.waitstatus_to_exitcode(status)
    inited = re.search(r"INITED cov: (\d+)", text)
    done = re.findall(r"#(\d+)\s+(?:DONE|NEW|pulse|REDUCE|RELOAD)\s+cov: (\d+)", text)
    executions = re.search(r"stat::number_of_executed_units:\s+(\d+)", text)
    new_units = re.search(r"stat::new_units_added:\s+(\d+)", text)
    saved = sorted(set(reproducers.iterdir()) - before)
    kind = "ok"
    if code != 0:
        kind = ("property" if "property violated" in text else "leak" if "ERROR: LeakSanitizer" in text
                else "timeout" if "ERROR: libFuzzer: timeout" in text else "out of memory" if "out-of-memory" in text
                else "crash")
    return {
        "target": name, "result": kind, "exit": code, "seconds": round(time.monotonic() - started, 1),
        "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 1),
        "executions": int(executions.group(1)) if executions else (int(done[-1][0]) if done else 0),
        "coverage_start": int(inited.group(1)) if inited else 0,
        "coverage_end": int(done[-1][1]) if done else (int(inited.group(1)) if inited else 0),
        "new_units": int(new_units.group(1)) if new_units else 0,
        "reproducers": [str(path.relative_to(ROOT)) for path in saved],
        "log": str(log.relative_to(ROOT)),
        "excerpt": "" if kind == "ok" else excerpt(text),
    }


def excerpt(text):
    lines = [line for line in text.splitlines() if "property violated" in line or "ERROR:" in line
             or "Fatal error" in line or line.strip().startswith("#0") or line.strip().startswith("#1 ")]
    return "\n".join(lines[:8])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")))
    parser.add_argument("--jobs", type=int, default=int(os.environ.get("FUZZ_JOBS", str(os.cpu_count() or 1))))
    parser.add_argument("--only", default=os.environ.get("FUZZ_TARGETS", ""), help="comma-separated target names")
    args = parser.parse_args()
    binary = build()
    names = targets(binary)
    if args.only:
        wanted = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            sys.exit(f"fuzz: no such target: {', '.join(unknown)} (targets: {', '.join(names)})")
        names = [name for name in names if name in wanted]
    print(f"fuzz: {len(names)} targets, {args.seconds} s each, {args.jobs} at a time", flush=True)
    results = []
    totals_path = SCRATCH / "totals.json"
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(lambda name: run(binary, name, args.seconds), names):
            results.append(result)
            # Kept as each target ends (read again first: another run may have added its own), so an
            # interrupted run still counts what it did.
            totals = json.loads(totals_path.read_text()) if totals_path.exists() else {}
            entry = totals.setdefault(result["target"], {"executions": 0, "cpu_seconds": 0.0, "failures": 0})
            entry["executions"] += result["executions"]
            entry["cpu_seconds"] = round(entry["cpu_seconds"] + result["cpu_seconds"], 1)
            entry["failures"] += result["result"] != "ok"
            totals_path.write_text(json.dumps(totals, indent=1, sort_keys=True))
            print(f"  {result['target']:<14} {result['result']:<9} {result['executions']:>12,} execs "
                  f"{result['cpu_seconds']:>7.1f} CPU-s  cov {result['coverage_start']:>5} -> {result['coverage_end']:>5}"
                  f"  +{result['new_units']} units", flush=True)
            if result["result"] != "ok":
                print("    " + result["excerpt"].replace("\n", "\n    "))
                for path in result["reproducers"]:
                    print(f"    reproducer: {path}")
                print(f"    log: {result['log']}")
    (SCRATCH / "last-run.json").write_text(json.dumps(results, indent=1))
    failed = [result for result in results if result["result"] != "ok"]
    executions = sum(result["executions"] for result in results)
    print(f"\nfuzz: {len(results)} targets, {executions:,} executions, "
          f"{sum(result['cpu_seconds'] for result in results) / 60:.1f} CPU-minutes, {len(failed)} failed"
          + (": " + ", ".join(f"{r['target']} ({r['result']})" for r in failed) if failed else ""))
    print(f"fuzz: in all so far (.build/fuzz/totals.json): "
          + ", ".join(f"{name} {entry['cpu_seconds'] / 60:.1f} CPU-min" for name, entry in sorted(totals.items())))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
