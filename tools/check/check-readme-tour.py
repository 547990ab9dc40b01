#!/usr/bin/env python3
"""The README's tour, run (`make test`): every command of a block marked `<!-- tour … -->` prints
exactly what the README shows under it.

    python3 tools/check/check-readme-tour.py [BIN]   # BIN: where larder and sample-upstream are (swift build's)

It starts the real `sample-upstream` on Examples/upstream and `larder serve` in front of it, as `make run`
does (Examples/run.sh), on free ports and a fresh cache, waits for /ready, then runs each `$ ` line of
the block with bash, the README's `127.0.0.1:8080` pointed at this Larder, and compares its standard
output with the lines below it, up to the next `$ `. Nothing is normalised: the tour shows answers that
the bundled sample data keep stable."""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"<!-- tour\b.*?-->\n```console\n(.*?)```", re.S)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def steps(readme):
    """[(command, expected output)] of every tour block."""
    result = []
    for block in BLOCK.findall(readme):
        for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
            command, _, output = chunk.partition("\n")
            result.append((command, output.rstrip("\n")))
    return result


def wait_ready(port, deadline):
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2)
            return True
        except OSError:
            time.sleep(0.1)
    return False


def main():
    binary = Path(sys.argv[1] if len(sys.argv) > 1 else
                  subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True,
                                 text=True, check=True).stdout.strip())
    tour = steps((ROOT / "README.md").read_text())
    if not tour:
        print("README tour: no block marked <!-- tour --> with commands", file=sys.stderr)
        return 1
    port, upstream_port = free_port(), free_port()
    cache = tempfile.mkdtemp(prefix="larder-tour.")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    processes = [subprocess.Popen([str(binary / "sample-upstream"), "--root", "Examples/upstream",
                                   "--host", "127.0.0.1", "--port", str(upstream_port), "--log-level", "error"],
                                  cwd=ROOT, **quiet)]
    try:
        time.sleep(0.3)
        upstream = f"http://127.0.0.1:{upstream_port}"
        processes.append(subprocess.Popen(
            [str(binary / "larder"), "serve", "--host", "127.0.0.1", "--port", str(port), "--cache-dir", cache,
             "--log-level", "error", "--rates-url", f"{upstream}/rates/eurofxref-hist-90d.xml",
             "--documents-url", f"{upstream}/documents/index.json"], cwd=ROOT, **quiet))
        if not wait_ready(port, time.monotonic() + 30):
            print(f"README tour: larder did not become ready on port {port}", file=sys.stderr)
            return 1
        failures = 0
        for command, expected in tour:
            run = command.replace("127.0.0.1:8080", f"127.0.0.1:{port}")
            result = subprocess.run(["bash", "-c", run], cwd=ROOT, capture_output=True, text=True, timeout=30)
            actual = result.stdout.rstrip("\n")
            if result.returncode != 0 or actual != expected:
                failures += 1
                print(f"README tour: `{command}` (exit {result.returncode}) printed:\n{actual}\n"
                      f"where the README shows:\n{expected}\n{result.stderr}", file=sys.stderr)
        print(f"README tour: {len(tour) - failures} of {len(tour)} commands print what the README shows")
        return 1 if failures else 0
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
