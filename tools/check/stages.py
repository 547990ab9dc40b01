#!/usr/bin/env python3
"""`make check` and `make test`: the stages each runs, in order, and one `summary:` line.

    python3 tools/check/stages.py check   # the developer's loop: manifest, build, every Swift test, the docs
    python3 tools/check/stages.py test    # CI: the same and the rest (container lint, C tests, generated
                                          # sources, page assets, the OpenAPI contract, alerting rules, browser)

A stage marked `gate` stops the run when it fails (nothing after it could run on a broken build); the
others all run, and the exit status is 1 when any failed. Swift's own output streams through (but its
`◇ … started` lines); the totals come from Swift Testing's JUnit XML (test-totals.py), not the console."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ".build/test-results.xml"


def bin_path():
    return subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.strip()


def swift_tests():
    """Every Swift test; the old results go first, so a run that writes none cannot be counted with the last."""
    for old in (ROOT / ".build").glob("test-results*.xml"):
        old.unlink()
    run = subprocess.Popen(["swift", "test", "--skip-build", "--xunit-output", RESULTS], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    for line in run.stdout:
        if not line.startswith("◇"):
            sys.stdout.write(line)
    run.wait()
    totals = subprocess.run([sys.executable, "tools/check/test-totals.py", ".build/test-results-swift-testing.xml"],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)
    return run.returncode == 0 and totals.returncode == 0, totals.stdout.strip() or "no totals"


def build():
    """The build and the tests' build, failing on a compiler warning in this repository's own Swift or C
    (the brief's zero warnings; dependencies' warnings are theirs). An incremental build shows only the
    files it compiled again; a fresh clone's build (CI) shows every one."""
    run = subprocess.Popen(["swift", "build", "--build-tests", "--explicit-target-dependency-import-check", "error"],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    own = re.compile(rf"^{re.escape(str(ROOT))}/(Sources|Tests)/[^:]+:\d+:\d+: warning: ")
    warnings = set()
    for line in run.stdout:
        sys.stdout.write(line)
        if own.match(line):
            warnings.add(line.strip())
    run.wait()
    for warning in sorted(warnings):
        print(f"build: a warning in Larder's own code: {warning}", file=sys.stderr)
    if run.returncode != 0:
        return False, None
    return not warnings, f"FAILED ({len(warnings)} warning(s) in Larder's own code)" if warnings else None


def command(*argv, shell=False):
    def stage():
        return subprocess.run(argv[0] if shell else list(argv), cwd=ROOT, shell=shell).returncode == 0, None
    return stage


def with_bin(*argv):
    def stage():
        return subprocess.run([*argv, bin_path()], cwd=ROOT).returncode == 0, None
    return stage


# (name in the summary, the stage, in `make check` too, a gate)
STAGES = [
    ("container files (hadolint, compose, Kubernetes)", command("bash", "tools/container/lint.sh"), False, False),
    ("manifest imports", command(sys.executable, "tools/check/check-manifest-imports.py"), True, True),
    ("module graph", command(sys.executable, "tools/check/check-module-graph.py"), True, True),
    ("build", build, True, True),
    ("pins", command(sys.executable, "tools/deps/check-pins.py"), True, True),
    ("C tests (shared limits, pool reset, epoll burst)", command("make", "--no-print-directory", "test-c"), True, False),
    ("swift tests", swift_tests, True, False),
    ("settings tables", with_bin(sys.executable, "tools/check/settings-tables.py", "--check"), True, False),
    ("links", command(sys.executable, "tools/check/check-links.py"), True, False),
    ("README tour", with_bin(sys.executable, "tools/check/check-readme-tour.py"), True, False),
    ("status page script and stylesheet (node --check, CSS parse)",
     command(sys.executable, "tools/check/check-page-assets.py"), False, False),
    ("generated sources (currency table, dialect OpenAPI documents)",
     command(sys.executable, "tools/check/check-generated.py"), False, False),
    ("openapi contract (schemathesis), Frankfurter clients, promtool check metrics",
     command("bash", "Tests/contract/schemathesis.sh"), False, False),
    ("alerting rules (promtool check and test rules)", command("bash", "Docker/prometheus/check.sh"), False, False),
    ("status page in chromium", command("timeout 600 python3 Tests/browser/status_page.py", shell=True), False, False),
]


def main(which):
    if which not in ("check", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    results = []
    for name, stage, in_check, gate in STAGES:
        if which == "check" and not in_check:
            continue
        ok, shown = stage()
        results.append(f"{name}: {shown if shown else ('passed' if ok else 'FAILED')}")
        if not ok and gate:
            print(f"\n{which}: stopped: {name} failed", file=sys.stderr)
            break
        if not ok and shown:
            results[-1] += " (FAILED)"
    print(f"\nsummary: {'; '.join(results)}")
    # A gate that failed is among the results, so a stopped run fails too.
    return 1 if any("FAILED" in result for result in results) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ""))
