#!/usr/bin/env python3
"""`make bench-tier` (and a part of `make bench`): the origin's requests per hour with many Larders,
tiered and not (issue 39).

For each N of BENCH_TIER_COUNTS (default 1,10,100), on the release binaries, all on loopback:

tiered     the sample upstream (the origin: the ECB 90-day file and the sample documents), 2 primaries
           polling it (`--rates-schedule ttl --rates-ttl T --documents-ttl T`), and N replicas mirroring
           the primaries (`;format=frankfurter`, the documents' `/documents`, the origin last as
           `;fallback`, `--rates-schedule follow --documents-schedule follow`).
per node   N Larders each polling the origin itself with the same TTLs: one Larder per node, no tiers.

Once every Larder serves the rates and the documents, the origin's request log is cleared and counted
again after BENCH_TIER_SECONDS (default 60): the requests per hour are that count scaled to an hour. With
T = BENCH_TIER_TTL (default 30 s) the figures are for that poll interval; they scale with 1/T."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COUNTS = [int(n) for n in os.environ.get("BENCH_TIER_COUNTS", "1,10,100").split(",")]
SECONDS = int(os.environ.get("BENCH_TIER_SECONDS", "60"))
TTL = int(os.environ.get("BENCH_TIER_TTL", "30"))


def get(port, target, timeout=10):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{target}", timeout=timeout) as answer:
            return answer.status, answer.read()
    except Exception:
        return 0, b""


class Fleet:
    """Processes started here, each with the port it printed; all killed on exit."""

    def __init__(self, binaries, work):
        self.binaries, self.work, self.processes = binaries, work, []

    def start(self, binary, arguments):
        process = subprocess.Popen([os.path.join(self.binaries, binary)] + arguments, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True)
        self.processes.append(process)
        line = process.stdout.readline()
        if "listening on http://" not in line:
            sys.exit(f"bench-tier: {binary} did not start: {line!r}")
        return int(line.rsplit(":", 1)[1].strip().rstrip("/"))

    def stop(self):
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()
        self.processes = []


def larder(fleet, name, rates, documents, extra=()):
    arguments = ["serve", "--port", "0", "--cache-dir", os.path.join(fleet.work, name), "--log-level", "error"]
    for url in rates:
        arguments += ["--rates-url", url]
    for url in documents:
        arguments += ["--documents-url", url]
    return fleet.start("larder", arguments + list(extra))


def wait_served(ports, seconds=600):
    deadline = time.monotonic() + seconds
    pending = set(ports)
    while pending and time.monotonic() < deadline:
        pending = {p for p in pending if get(p, "/ready")[0] != 200}
        if pending:
            time.sleep(0.5)
    if pending:
        sys.exit(f"bench-tier: {len(pending)} Larder(s) never ready")


def origin_requests(upstream):
    status, body = get(upstream, "/_control/requests")
    paths = json.loads(body).get("paths", {}) if status == 200 else {}
    return sum(entry.get("requests", 0) for entry in paths.values())


def measure(fleet, upstream, ports):
    wait_served(ports)
    urllib.request.urlopen(urllib.request.Request(f"http://127.0.0.1:{upstream}/_control/requests", method="DELETE")).read()
    time.sleep(SECONDS)
    return origin_requests(upstream) * 3600 / SECONDS


def run(binaries):
    lines = []
    for count in COUNTS:
        figures = {}
        for shape in ("tiered", "per node"):
            work = tempfile.mkdtemp(prefix="larder-tier-bench-")
            fleet = Fleet(binaries, work)
            try:
                upstream_root = os.path.join(work, "upstream")
                shutil.copytree(os.path.join(ROOT, "Examples/upstream/rates"), os.path.join(upstream_root, "rates"))
                shutil.copytree(os.path.join(ROOT, "Examples/upstream/documents"), os.path.join(upstream_root, "documents"))
                upstream = fleet.start("sample-upstream", ["--root", upstream_root, "--port", "0", "--log-level", "error"])
                origin_rates = f"http://127.0.0.1:{upstream}/rates/eurofxref-hist-90d.xml"
                origin_documents = f"http://127.0.0.1:{upstream}/documents/index.json"
                ttl = ["--rates-schedule", "ttl", "--rates-ttl", f"{TTL}s", "--documents-ttl", f"{TTL}s"]
                if shape == "tiered":
                    primaries = [larder(fleet, f"primary-{i}", [origin_rates], [origin_documents], ttl) for i in range(2)]
                    wait_served(primaries)
                    ports = [larder(
                        fleet, f"replica-{i}",
                        [f"http://127.0.0.1:{p}/;format=frankfurter" for p in primaries] + [origin_rates + ";fallback"],
                        [f"http://127.0.0.1:{p}/documents" for p in primaries] + [origin_documents + ";fallback"],
                        ["--rates-schedule", "follow", "--documents-schedule", "follow"]) for i in range(count)]
                else:
                    ports = [larder(fleet, f"node-{i}", [origin_rates], [origin_documents], ttl) for i in range(count)]
                figures[shape] = measure(fleet, upstream, ports)
                print(f"bench-tier: {count} Larder(s), {shape}: {figures[shape]:,.0f} origin requests per hour", flush=True)
            finally:
                fleet.stop()
                shutil.rmtree(work, ignore_errors=True)
        lines.append(f"| {count} | {figures['tiered']:,.0f} | {figures['per node']:,.0f} |")
    return lines


def report_lines(binaries, heading):
    """The report under `heading`: what is counted, on which machine, and the table."""
    with open("/proc/cpuinfo") as cpuinfo:
        model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), "?")
    lines = [heading, "",
             f"The origin's requests per hour (rates and documents), counted over {SECONDS} s once every Larder "
             f"was ready, the primaries and the per-node Larders polling every {TTL} s (`--rates-ttl`, "
             f"`--documents-ttl`); {model}, {os.cpu_count()} cores.", "",
             "| Larders (replicas, or one per node) | tiered: 2 primaries + replicas | one Larder per node |", "|---:|---:|---:|"]
    return lines + run(binaries)


def main():
    binaries = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    lines = report_lines(binaries, f"## bench-tier — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    report = "\n".join(lines) + "\n"
    print(report)
    with open(os.path.join(ROOT, ".build", "bench-tier-report.md"), "w") as out:
        out.write(report)


if __name__ == "__main__":
    main()
