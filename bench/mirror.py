"""The documents mirror at scale, part of `make bench`, also run alone with
`python3 bench/bench.py --only mirror` (`make bench-mirror`).

For each number N of documents: N small text documents (1–4 KiB of random letters, all distinct) and
their JSON index (SPEC §5, real sizes and sha256s), written once into the work folder and served by
nginx as Debian ships it (bench/peers/nginx-stock.conf: access log on, keep-alive at its defaults), the
server a user would point both at. Then, on that nginx:

first sync  Larder from an empty cache, spawn until its log says the sync ended and `/status` counts
            N documents mirrored, against
            `wget -q -i urls.txt -P dir` (one process, one keep-alive connection, no fsync) and
            `aria2c -j16 -i urls.txt -d dir`, in alternating runs (Larder, wget, aria2c, Larder, …),
            medians; Larder's resident memory right after the sync, and its peak during it. Beside
            each wall time, the CPU time (user + system) the sync took: Larder's process from its
            spawn (its start included), the tool's from /proc of its child; and for the tools, the
            wall time to durable, their run and then one `sync` (Larder's commits are durable as
            they land: SPEC §5).
beside a    the first sync again, Larder and `wget -i` alternating, while another process
writer      (bench/steady_writer.py) writes BENCH_MIRROR_WRITER_MIB MiB steadily at
            BENCH_MIRROR_WRITER_RATE MiB/s into the same file system, and never syncs: its dirty pages wait
            for the kernel's writeback. It starts a second before each timed run and stops after it. What
            this measures: whether Larder's durability waits for someone else's bytes.
warm start  the release binary spawned on the cache the last sync left, until `/ready` answers 200
            (polled every millisecond): 5 starts, median.
serving     one more start on that cache: once ready and its own sync of the index is done, one
            `GET /documents` (the listing's size, and how long its first rendering took), then wrk on 8
            documents; resident memory at ready, its peak under wrk, and after.
A sync that does not finish (an index refused, downloads failing, too slow) is reported with the
error `/status` gives, and ends that N only, not the bench.

Environment: BENCH_MIRROR_COUNTS (default 1000,10000,30000,100000), BENCH_MIRROR_RUNS (first syncs per
tool where N ≤ 10,000, default 5; one above), BENCH_MIRROR_WRITER_COUNTS (the counts also run beside a
writer, default 10000), BENCH_MIRROR_WRITER_MIB (default 100), BENCH_MIRROR_WRITER_RATE (MiB/s, default
25), BENCH_MIRROR_SERVE_SECONDS (wrk's run, default 10),
BENCH_MIRROR_QUIET_WAIT (seconds to wait, before each timed run, for others' builds, tests, wrk or
browsers to end; default 0: such runs are only named in the report). With the default counts it takes
about 10 minutes on the 2-core machine, half of it at 100,000, and leaves some 700,000 files (3 GB) in
the work folder until the bench ends."""
import json
import os
import re
import shutil
import statistics
import string
import subprocess
import sys
import time

import cost

COUNTS = [int(count) for count in os.environ.get("BENCH_MIRROR_COUNTS", "1000,10000,30000,100000").split(",")]
RUNS = int(os.environ.get("BENCH_MIRROR_RUNS", "5"))
SERVE_SECONDS = int(os.environ.get("BENCH_MIRROR_SERVE_SECONDS", "10"))
QUIET_WAIT = int(os.environ.get("BENCH_MIRROR_QUIET_WAIT", "0"))
WRITER_COUNTS = [int(count) for count in os.environ.get("BENCH_MIRROR_WRITER_COUNTS", "10000").split(",") if count]
WRITER_MIB = int(os.environ.get("BENCH_MIRROR_WRITER_MIB", "100"))
WRITER_RATE = float(os.environ.get("BENCH_MIRROR_WRITER_RATE", "25"))
WRITER_TOOLS = ["larder", "wget"]
STARTS = 5
STOCK_NGINX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers", "nginx-stock.conf")
SIZES = (1024, 4096)
SERVED = 8
TOOLS = ["larder", "wget", "aria2c"]
# Others' work that would skew a run: builds, tests, load generators, browsers, other Larders.
SYNC_DONE = re.compile(rb"documents: sync added \d+, updated \d+, removed \d+, unchanged \d+, failed \d+")
BUSY = r"swift-build|swift-test|swift-frontend|swiftc|xctest|clang|wrk|chromium|larder serve"


def runs_for(count):
    return RUNS if count <= 10000 else 1


def time_limit(count):
    """Seconds one first sync of `count` documents may take, by any tool."""
    return 60 + count // 200


def name(index):
    return f"doc-{index:05d}.txt"


class Mirror:
    """One scenario run: `bench` is bench.py's processes, paths, ports and helpers (bench.mirror_tools)."""

    def __init__(self, bench):
        self.bench = bench
        self.port = bench.ports["larder"]
        self.root = os.path.join(bench.work, "mirror")
        self.upstream = os.path.join(self.root, "upstream")
        self.busy = {}
        self.mark = {}

    def larder(self, cache, count):
        return self.bench.processes.start("mirror-larder", [
            self.bench.larder, "serve", "--port", str(self.port), "--cache-dir", cache, "--log-level", "info",
            "--threads", str(self.bench.threads),
            "--documents-url", f"http://127.0.0.1:{self.bench.ports['upstream']}/n{count}/index.json"])

    def documents_status(self):
        status, body, _ = self.bench.request("GET", f"http://127.0.0.1:{self.port}/status", timeout=5)
        return json.loads(body)["resources"].get("documents") if status == 200 else None

    def others(self):
        """{pid: (command line, CPU ticks so far)} of others' processes that match BUSY."""
        found = subprocess.run(["pgrep", "-fa", BUSY], capture_output=True, text=True).stdout.splitlines()
        own = {os.getpid()} | {process.pid for process in self.bench.processes.running.values()}
        ticks = {}
        for line in found:
            pid = int(line.split()[0])
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if pid not in own:
                ticks[pid] = (line, int(fields[11]) + int(fields[12]))  # utime + stime
        return ticks

    def working_since(self, before):
        """Others' processes that used more than a tenth of a second of CPU since `before` (idle ones don't count)."""
        return [line for pid, (line, ticks) in self.others().items() if ticks - before.get(pid, ("", 0))[1] > 10]

    def quiet(self, what):
        """Before a timed run: dirty pages written back (no run pays for the last one's writes); others'
        work waited for up to QUIET_WAIT seconds, then noted for the report."""
        os.sync()
        deadline = time.monotonic() + QUIET_WAIT
        while True:
            before = self.others()
            time.sleep(0.5)
            working = self.working_since(before)
            if not working or time.monotonic() > deadline:
                break
            print(f"bench: waiting for others' work to end before {what}: {working[0][:100]}", flush=True)
            time.sleep(30)
        if working:
            self.busy[what] = working
        self.mark = self.others()

    def ran_alone(self, what):
        """After a timed run: notes others' work that used the CPU during it."""
        if (working := self.working_since(self.mark)) and what not in self.busy:
            self.busy[what] = working

    def settled(self, count):
        """No sync running, and every document mirrored."""
        documents = self.documents_status()
        return documents is not None and not documents.get("refreshing") and documents["counts"]["mirrored"] == count

    def start_nginx(self):
        os.makedirs(self.upstream)
        ports = self.bench.ports
        template = {"work": self.root, "static": self.upstream, "static_port": ports["upstream"],
                    "proxy_port": ports["proxy"]}
        configuration = os.path.join(self.root, "nginx.conf")
        with open(STOCK_NGINX) as source, open(configuration, "w") as out:
            out.write(string.Template(source.read()).safe_substitute(template))
        self.bench.processes.start("mirror-nginx", ["nginx", "-c", configuration, "-p", self.root])
        self.bench.wait_until(lambda: self.bench.request("GET", f"http://127.0.0.1:{ports['upstream']}/")[0] != 0, 20,
                              "the mirror's nginx answering")

    def write_data(self, count):
        """The documents, their index and wget's and aria2c's list of URLs; returns (urls file, index bytes)."""
        folder = os.path.join(self.upstream, f"n{count}")
        self.bench.write_documents(folder, count, big=False, sizes=SIZES)
        urls = os.path.join(self.root, f"urls-{count}.txt")
        with open(urls, "w") as out:
            out.writelines(f"http://127.0.0.1:{self.bench.ports['upstream']}/n{count}/{name(index)}\n"
                           for index in range(count))
        return urls, os.path.getsize(os.path.join(folder, "index.json"))

    # -----------------------------------------------------------------------------------------

    def larder_sync(self, count, cache):
        """Spawn to N mirrored: {seconds, rss, peak} or {error}; Larder is left running. The end is the
        log's line for the finished sync, read every 10 ms (which costs Larder nothing), then confirmed
        by `/status`; meanwhile `/status`, which counts every document, is asked only twice a second,
        for progress and errors."""
        log = os.path.join(self.bench.work, "mirror-larder.log")  # where bench.Processes writes its output
        started = time.monotonic()
        process = self.larder(cache, count)
        peak, asked, mirrored, changed = 0, started, -1, started
        while (now := time.monotonic()) - started < time_limit(count):
            if process.poll() is not None:
                return {"error": f"larder exited with status {process.returncode}"}
            peak = max(peak, self.bench.rss_kib([process.pid]))
            with open(log, "rb") as out:
                done = SYNC_DONE.search(out.read())
            if done or now - asked >= 0.5:
                seconds, rss = time.monotonic() - started, self.bench.rss_kib([process.pid])
                asked, documents = now, self.documents_status()
                if documents:
                    counts = documents["counts"]
                    if counts["mirrored"] == count and done:
                        return {"seconds": seconds, "cpu": cost.cpu_seconds(process.pid), "rss": rss,
                                "peak": max(peak, rss)}
                    if counts["mirrored"] != mirrored:
                        mirrored, changed = counts["mirrored"], now
                    error, failed = documents.get("last_error"), documents.get("failed_documents") or []
                    if done or ((error or failed) and not documents.get("refreshing") and now - changed > 5):
                        why = f"{error['kind']}: {error['message']}" if error else f"{counts['failed']} downloads failed" + (
                            f", e.g. {failed[0]['name']}: {failed[0]['error']}" if failed else "")
                        return {"error": f"{mirrored:,} of {count:,} mirrored; {why}"}
            time.sleep(0.01)
        return {"error": f"{max(mirrored, 0):,} of {count:,} mirrored after {time_limit(count)} s"}

    def tool_sync(self, tool, count, urls, folder):
        """wget or aria2c fetching every URL into `folder`: {seconds} or {error}."""
        argv = {"wget": ["wget", "-q", "-i", urls, "-P", folder],
                "aria2c": ["aria2c", "-j16", "-i", urls, "-d", folder, "--file-allocation=none",
                           "--console-log-level=warn", "--summary-interval=0"]}[tool]
        if not shutil.which(tool):
            return {"error": f"{tool} is not installed"}
        errors = os.path.join(self.root, f"{tool}-errors.txt")
        started = time.monotonic()
        with open(errors, "wb") as sink:
            process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=sink)
        # wait4 reaps the tool with its own rusage: the CPU time of exactly this run.
        while (reaped := os.wait4(process.pid, os.WNOHANG))[0] == 0:
            if time.monotonic() - started > time_limit(count):
                process.kill()
                os.wait4(process.pid, 0)
                return {"error": f"not done within {time_limit(count)} s"}
            time.sleep(0.005)
        seconds = time.monotonic() - started
        _, status, usage = reaped
        process.returncode = os.waitstatus_to_exitcode(status)
        os.sync()
        durable = time.monotonic() - started
        got = len(os.listdir(folder)) if os.path.isdir(folder) else 0
        if process.returncode != 0 or got != count:
            with open(errors, "rb") as said:
                tail = said.read()[-200:].decode(errors="replace")
            return {"error": f"exit status {process.returncode}, {got:,} files; {tail}"}
        return {"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "durable": durable}

    def start_writer(self):
        """The steady writer of the "beside a writer" runs, given a second to be writing before the run."""
        writer = self.bench.processes.start("mirror-writer", [
            sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "steady_writer.py"),
            os.path.join(self.root, "writer.bin"), str(WRITER_MIB), str(WRITER_RATE)])
        time.sleep(1)
        return writer

    def first_syncs(self, count, urls, writer=False):
        """Alternating runs of every tool (Larder and wget alone beside a writer): ({tool: [result, …]},
        the cache of the last whole Larder sync)."""
        cache = None
        tools = WRITER_TOOLS if writer else TOOLS
        beside = " beside a writer" if writer else ""
        results = {tool: [] for tool in tools}
        for run in range(runs_for(count)):
            for tool in tools:
                # A folder of its own for every run, and nothing deleted until the bench ends: ext4 without
                # a journal (this machine's) skips inodes freed in the last 30 s at every file it creates,
                # which made whichever run followed a deletion of thousands of files pay for it.
                folder = os.path.join(self.root, f"{tool}-{count}-{run + 1}{'-writer' if writer else ''}")
                what = f"{count:,} documents, first sync{beside} run {run + 1}, {tool}"
                self.quiet(what)
                if writer:
                    self.start_writer()
                if tool == "larder":
                    result = self.larder_sync(count, folder)
                    self.ran_alone(what)
                    self.bench.processes.stop("mirror-larder")
                    if "seconds" in result:
                        cache = folder
                else:
                    result = self.tool_sync(tool, count, urls, folder)
                    self.ran_alone(what)
                self.bench.processes.stop("mirror-writer")
                results[tool].append(result)
                shown = f"{result['seconds']:.2f} s" if "seconds" in result else result["error"]
                print(f"  {count:,} documents{beside}, run {run + 1}: {tool:6} {shown}", flush=True)
        return results, cache

    def warm_starts(self, count, cache):
        """Spawn to the first 200 from /ready on the warm cache, STARTS times: milliseconds, or an error string."""
        starts = []
        for _ in range(STARTS):
            self.quiet(f"{count:,} documents, warm start")
            started = time.monotonic()
            self.larder(cache, count)
            ready = self.bench.ready_within(self.port, 30)
            elapsed = (time.monotonic() - started) * 1000
            self.ran_alone(f"{count:,} documents, warm start")
            self.bench.processes.stop("mirror-larder")
            if not ready:
                return "not ready within 30 s"
            starts.append(elapsed)
        return starts

    def serve(self, count, cache):
        """A restart on the warm cache, then the listing and wrk on a few documents: memory and sizes."""
        self.quiet(f"{count:,} documents, serving")
        process = self.larder(cache, count)
        if not self.bench.ready_within(self.port, 60):
            self.bench.processes.stop("mirror-larder")
            return {"error": "not ready within 60 s"}
        at_ready = self.bench.rss_kib([process.pid])

        deadline = time.monotonic() + 120
        while not self.settled(count):
            if time.monotonic() > deadline:
                self.bench.processes.stop("mirror-larder")
                return {"error": "its own sync of the index not done within 120 s"}
            time.sleep(0.05)
        started = time.monotonic()
        status, body, _ = self.bench.request("GET", f"http://127.0.0.1:{self.port}/documents", timeout=60)
        render_ms = (time.monotonic() - started) * 1000
        script = os.path.join(self.root, "few.lua")
        with open(script, "w") as out:
            paths = ", ".join(f'"/documents/{name(index * (count // SERVED))}"' for index in range(SERVED))
            out.write(f"local paths = {{{paths}}}\nlocal i = 0\n"
                      "request = function()\n  i = i + 1\n  return wrk.format(\"GET\", paths[i % #paths + 1])\nend\n")
        figures = self.bench.wrk(f"http://127.0.0.1:{self.port}/", sample=[process.pid], seconds=SERVE_SECONDS,
                                 script=script)
        after, split = self.bench.rss_kib([process.pid]), self.bench.rss_split(process.pid)
        self.ran_alone(f"{count:,} documents, serving")
        self.bench.processes.stop("mirror-larder")
        if status != 200:
            return {"error": f"GET /documents answered {status}"}
        return {"at_ready": at_ready, "peak": max(figures["rss"], after), "after": after, "split": split,
                "listing": len(body), "render_ms": render_ms, "rate": figures["rate"],
                "bad": figures["bad"] + figures["errors"]}

    # -----------------------------------------------------------------------------------------

    def run(self):
        self.start_nginx()
        figures = {}
        for count in COUNTS:
            print(f"bench: the mirror of {count:,} documents …", flush=True)
            urls, index_bytes = self.write_data(count)
            syncs, cache = self.first_syncs(count, urls)
            figure = {"index": index_bytes, "syncs": syncs}
            if count in WRITER_COUNTS:
                figure["beside"] = self.first_syncs(count, urls, writer=True)[0]
            if all("seconds" in result for result in syncs["larder"]):
                figure["starts"] = self.warm_starts(count, cache)
                figure["serve"] = self.serve(count, cache)
            figures[count] = figure
        self.bench.processes.stop("mirror-nginx")
        return self.report(figures), self.checks(figures)

    def report(self, figures):
        lines = ["### The documents mirror at scale (bench/mirror.py)", "",
                 f"N text documents of {SIZES[0]:,}–{SIZES[1]:,} B and their JSON index, served by nginx on loopback "
                 "as Debian ships it (bench/peers/nginx-stock.conf: access log on, keep-alive at its defaults). "
                 "Larder: the release build, documents only, "
                 f"{self.bench.threads} thread(s), from an empty cache. `wget -q -i urls.txt -P dir` (one keep-alive "
                 "connection, no fsync) and `aria2c -j16 -i urls.txt -d dir --file-allocation=none` fetch the same "
                 f"files. Runs alternate Larder, wget, aria2c; {RUNS} of each at 10,000 documents or fewer, 1 above; "
                 "medians, every run in brackets.", "",
                 "| documents | index | Larder first sync s | `wget -i` s | `aria2c -j16` s | Larder / wget | Larder / aria2c |",
                 "|---:|---:|---:|---:|---:|---:|---:|"]
        errors = []
        for count, figure in figures.items():
            cells, medians = [], {}
            for tool in TOOLS:
                seconds = [result["seconds"] for result in figure["syncs"][tool] if "seconds" in result]
                errors += [f"{count:,} documents, {tool}: {result['error']}" for result in figure["syncs"][tool]
                           if "error" in result]
                if len(seconds) == len(figure["syncs"][tool]):
                    medians[tool] = statistics.median(seconds)
                    runs = f" ({', '.join(f'{value:.2f}' for value in seconds)})" if len(seconds) > 1 else ""
                    cells.append(f"{medians[tool]:.2f}{runs}")
                else:
                    cells.append("failed")
            ratios = [f"{medians['larder'] / medians[other]:.2f}" if "larder" in medians and other in medians else ""
                      for other in ("wget", "aria2c")]
            lines.append(f"| {count:,} | {figure['index'] / 2**20:.1f} MiB | " + " | ".join(cells + ratios) + " |")
        lines += self.round_ratios(figures)
        lines += self.costs(figures)
        lines += ["",
                  f"| documents | start to ready ms, median (max) of {STARTS} | RSS right after the first sync MiB (peak during) "
                  f"| after a restart: RSS at ready / peak serving / after MiB (anon + file) | `GET /documents` bytes "
                  f"(first rendering ms) | wrk on {SERVED} documents req/s |",
                  "|---:|---:|---:|---:|---:|---:|"]
        for count, figure in figures.items():
            larder = [result for result in figure["syncs"]["larder"] if "rss" in result]
            if not larder or len(larder) != len(figure["syncs"]["larder"]):
                lines.append(f"| {count:,} | | | | | |")
                continue
            last = larder[-1]
            starts = figure["starts"]
            if isinstance(starts, str):
                errors.append(f"{count:,} documents, warm start: {starts}")
                started = starts
            else:
                started = f"{statistics.median(starts):.0f} ({max(starts):.0f})"
            serve = figure["serve"]
            if "error" in serve:
                errors.append(f"{count:,} documents, serving after a restart: {serve['error']}")
                memory = listing = rate = ""
            else:
                memory = (f"{serve['at_ready'] / 1024:.1f} / {serve['peak'] / 1024:.1f} / {serve['after'] / 1024:.1f} "
                          f"({serve['split'][0] / 1024:.1f} + {serve['split'][1] / 1024:.1f})")
                listing = f"{serve['listing']:,} ({serve['render_ms']:.0f})"
                rate = f"{serve['rate']:,.0f}" + (f", {serve['bad']} errors" if serve["bad"] else "")
            lines.append(f"| {count:,} | {started} | {last['rss'] / 1024:.1f} ({last['peak'] / 1024:.1f}) | {memory} "
                         f"| {listing} | {rate} |")
        lines += [""] + [f"- {error}" for error in errors] + ([""] if errors else [])
        if self.busy:
            lines += [f"Others' work ran on the machine during {len(self.busy)} timed run(s) ({', '.join(self.busy)}), "
                      f"e.g. {'; '.join(line[:120] for line in next(iter(self.busy.values()))[:2])}", ""]
        else:
            lines += [f"No build, test, wrk, browser or Larder of anyone else ran before any timed run ({BUSY}).", ""]
        return lines

    @staticmethod
    def costs(figures):
        """The quiet first syncs' CPU time beside their wall time, and the tools' wall time to durable."""
        lines = ["", "What the quiet first syncs cost: wall s, CPU s (user + system; Larder's whole process from its spawn, "
                 "the tool's from its rusage) and, for the tools, wall s to durable (the run, then one `sync`); medians.",
                 "", "| documents | Larder wall | Larder CPU | `wget -i` wall | `wget -i` CPU | `wget -i` to durable "
                 "| `aria2c -j16` wall | `aria2c -j16` CPU | Larder CPU / wget CPU |",
                 "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for count, figure in figures.items():
            medians = {}
            for tool in TOOLS:
                results = figure["syncs"][tool]
                if results and all("seconds" in result for result in results):
                    medians[tool] = {key: statistics.median(result[key] for result in results)
                                     for key in ("seconds", "cpu", "durable") if key in results[0]}
            cell = lambda tool, key: f"{medians[tool][key]:.2f}" if key in medians.get(tool, {}) else "failed"
            ratio = (f"{medians['larder']['cpu'] / medians['wget']['cpu']:.2f}"
                     if "larder" in medians and "wget" in medians and medians["wget"]["cpu"] else "")
            lines.append(f"| {count:,} | {cell('larder', 'seconds')} | {cell('larder', 'cpu')} | {cell('wget', 'seconds')} "
                         f"| {cell('wget', 'cpu')} | {cell('wget', 'durable')} | {cell('aria2c', 'seconds')} "
                         f"| {cell('aria2c', 'cpu')} | {ratio} |")
        return lines

    @staticmethod
    def ratios(syncs):
        """Larder's time over wget's, round by round (run k of one against run k of the other); None when a
        run failed."""
        if not all("seconds" in result for tool in WRITER_TOOLS for result in syncs[tool]):
            return None
        return [larder["seconds"] / wget["seconds"] for larder, wget in zip(syncs["larder"], syncs["wget"])]

    def round_ratios(self, figures):
        """Larder / `wget -i` round by round, quiet and beside a writer: every round, the median, the worst."""
        lines = ["", f"Larder / `wget -i`, round by round (each Larder run over the wget run after it); beside a writer: "
                 f"bench/steady_writer.py writes {WRITER_MIB} MiB at {WRITER_RATE:g} MiB/s into the same file system, "
                 "never syncing, from a second before each timed run to its end.", "",
                 "| documents | runs | Larder s | `wget -i` s | Larder / wget per round | median | worst |",
                 "|---:|---|---:|---:|---|---:|---:|"]
        for count, figure in figures.items():
            for label, key in (("quiet", "syncs"), ("beside a writer", "beside")):
                syncs = figure.get(key)
                if syncs is None:
                    continue
                ratios = self.ratios(syncs)
                seconds = {tool: ", ".join(f"{result['seconds']:.2f}" if "seconds" in result else "failed"
                                           for result in syncs[tool]) for tool in WRITER_TOOLS}
                if ratios is None:
                    lines.append(f"| {count:,} | {label} | {seconds['larder']} | {seconds['wget']} | failed | | |")
                    continue
                lines.append(f"| {count:,} | {label} | {seconds['larder']} | {seconds['wget']} | "
                             f"{', '.join(f'{ratio:.2f}' for ratio in ratios)} | {statistics.median(ratios):.2f} | "
                             f"{max(ratios):.2f} |")
        return lines

    def checks(self, figures):
        """SPEC §7's rows this scenario measures, for bench.target_rows; a figure not measured is a string."""
        def sync_ratio(count):
            syncs = figures[count]["syncs"]
            if not all("seconds" in result for tool in ("larder", "wget") for result in syncs[tool]):
                return "not measured (a first sync failed)"
            return (statistics.median(result["seconds"] for result in syncs["larder"])
                    / statistics.median(result["seconds"] for result in syncs["wget"]))

        def writer_ratio(count):
            ratios = self.ratios(figures[count].get("beside", {"larder": [{}], "wget": [{}]}))
            return statistics.median(ratios) if ratios else "not measured (a first sync beside a writer failed)"

        def after_sync_mib(count):
            syncs = figures[count]["syncs"]["larder"]
            return syncs[-1]["rss"] / 1024 if "rss" in syncs[-1] else "not measured (the first sync failed)"

        def serving_mib(count):
            serve = figures[count].get("serve", {"error": "the first sync failed"})
            return serve["peak"] / 1024 if "peak" in serve else f"not measured ({serve['error']})"

        def start_ms(count):
            starts = figures[count].get("starts", "the first sync failed")
            return statistics.median(starts) if not isinstance(starts, str) else f"not measured ({starts})"
        rows = [
            (1000, "resident memory under load, 1,000 documents mirrored ≤ 40 MiB", serving_mib, -40),
            (10000, "first sync of 10,000 documents ≤ 1.0 × `wget -i`", sync_ratio, -1.0),
            (10000, "first sync of 10,000 documents ≤ 1.2 × `wget -i` beside a writer", writer_ratio, -1.2),
            (30000, "resident memory right after a first sync of 30,000 documents ≤ 64 MiB", after_sync_mib, -64),
            (100000, "resident memory serving 100,000 documents after a restart ≤ 48 MiB", serving_mib, -48),
            (10000, "start to ready, warm cache of 10,000 documents ≤ 50 ms", start_ms, -50),
            (100000, "start to ready, warm cache of 100,000 documents ≤ 150 ms", start_ms, -150),
        ]
        return [(text, measure(count), bound) for count, text, measure, bound in rows if count in figures]


def run(bench):
    """The scenario: returns the report's lines and SPEC §7's rows (name, value, bound)."""
    return Mirror(bench).run()
