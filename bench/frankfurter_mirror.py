"""A local Frankfurter at full size, part of `make bench`, also run alone with
`python3 bench/bench.py --only frankfurter` (`make bench-frankfurter`).

The data: tools/generate/frankfurter-full.py writes Frankfurter's 84 providers with their coverage, ~160
currencies, some 11 million rows (never committed; some 20 s), into the work folder; the sample upstream
serves it as Frankfurter v2 (its load is timed apart, before Larder starts, so the sync measures Larder).
Then, SPEC §7's rows of a local Frankfurter:

first sync      release Larder on an empty cache mirroring the upstream's root (`;format=frankfurter`), from
                spawn until `/status` says every provider synced, and until `/v2/providers` serves them all
                (the mirror published); `/status` polled every 0.5 s, a 15-minute cap; resident memory
                (VmRSS) sampled every 0.2 s during it, and after it: at once, and once 5 s idle; the CPU
                time Larder and the sample upstream used until synced (the upstream's share should be small).
latest          wrk `GET /v2/rates` (no query: every currency, blended) against `GET /rates` on the same
                Larder, and nginx static serving the same two bodies, BENCH_ROUNDS alternating rounds,
                ratios round by round, and each server's CPU time per request (`/proc` around each run);
                Larder's two routes again with `Accept-Encoding: gzip` (its prepared gzip bytes).
whole history   one `GET /v2/rates?from=<first day>&to=<last day>` with `Accept: application/x-ndjson`:
                its size, and Larder's resident memory sampled every 50 ms while it streams, the growth
                over the level before it as a share of the body.

Environment: BENCH_FRANKFURTER_SET (a folder holding a set already generated, `frankfurter/rows.csv`
and `providers.json`, to skip the generator), BENCH_FRANKFURTER_CAP (seconds the first sync may take,
default 900)."""
import datetime
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import threading
import time

from cost import cpu_seconds, one_run

CAP = int(os.environ.get("BENCH_FRANKFURTER_CAP", "900"))
WINDOW_DAYS = 1825  # FrankfurterMirrorPlan.windowDays: a first sync's windows of at most 5 years
SYNCED = re.compile(r"(\d+)/(\d+) provider\(s\) synced, (\d+) row\(s\) mirrored")


class Sampler:
    """Resident memory of one process every `interval` seconds in a thread: the peak, and the last."""

    def __init__(self, tools, pid, interval):
        self.tools, self.pid, self.interval = tools, pid, interval
        self.peak = self.last = tools.rss_kib([pid])
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while not self.done.is_set():
            self.last = self.tools.rss_kib([self.pid])
            self.peak = max(self.peak, self.last)
            time.sleep(self.interval)

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.peak


def expected_requests(providers):
    """The fewest `/v2/rates` queries a first sync can ask: one per 5-year window of each provider. A provider
    storing (foreign, PIVOT) rows is asked once per currency and window, and the orientation probe (which
    finds that out: /v2/providers does not say) adds its own, so the real count is higher."""
    total = 0
    for provider in providers:
        first, last = (datetime.date.fromisoformat(provider[key]) for key in ("start_date", "end_date"))
        total += -(-((last - first).days + 1) // WINDOW_DAYS)
    return total


def generate(tools, folder):
    """The full-size set in `folder`/frankfurter; returns what it is, and its number of rows."""
    if os.environ.get("BENCH_FRANKFURTER_SET"):
        os.makedirs(os.path.dirname(folder), exist_ok=True)
        os.symlink(os.path.abspath(os.environ["BENCH_FRANKFURTER_SET"]), folder)
        made = f"the set in {os.environ['BENCH_FRANKFURTER_SET']} (BENCH_FRANKFURTER_SET)"
    else:
        os.makedirs(folder)
        started = time.monotonic()
        out = subprocess.run([sys.executable, os.path.join(tools.root, "tools/generate/frankfurter-full.py"),
                              os.path.join(folder, "frankfurter")], check=True, capture_output=True, text=True).stdout
        made = f"{out.strip().split(': ', 1)[1]} (generated in {time.monotonic() - started:.0f} s)"
    with open(os.path.join(folder, "frankfurter", "rows.csv"), "rb") as rows:
        return made, sum(chunk.count(b"\n") for chunk in iter(lambda: rows.read(1 << 24), b"")) - 1


def status_of(tools, port):
    status, body, _ = tools.request("GET", f"http://127.0.0.1:{port}/status", timeout=10)
    return json.loads(body)["resources"]["rates"] if status == 200 else None


def upstream_requests(tools, port):
    status, body, _ = tools.request("GET", f"http://127.0.0.1:{port}/_control/requests", timeout=10)
    paths = json.loads(body)["paths"] if status == 200 else {}
    return {path: entry["requests"] for path, entry in paths.items()}


def first_sync(tools, port, upstream_port, providers, expected):
    """Spawn to every provider synced, and to the mirror served; the figures, or an error."""
    count = len(providers)
    upstream_pid = tools.processes.running["frankfurter-upstream"].pid
    upstream_cpu = cpu_seconds(upstream_pid)
    cache = os.path.join(tools.work, "frankfurter", "cache")
    started = time.monotonic()
    larder = tools.processes.start("frankfurter-larder", [
        tools.larder, "serve", "--port", str(port), "--cache-dir", cache, "--log-level", "info",
        "--threads", str(tools.threads), "--rates-url", f"http://127.0.0.1:{upstream_port}/;format=frankfurter"])
    sampler = Sampler(tools, larder.pid, 0.2)
    result = {"pid": larder.pid, "synced": None, "served": None, "error": None, "rows": None}
    shown = started
    while time.monotonic() - started < CAP:
        time.sleep(0.5)
        if larder.poll() is not None:
            result["error"] = f"Larder exited ({larder.returncode}); see frankfurter-larder.log"
            break
        rates = status_of(tools, port)
        if rates is None:
            continue
        found = SYNCED.search(json.dumps(rates))
        if result["synced"] is None and found and int(found[1]) == int(found[2]) == count:
            result["synced"], result["rows"], result["rss_synced"] = time.monotonic() - started, int(found[3]), sampler.last
            result["rss_peak_sync"], result["cpu"] = sampler.peak, (cpu_seconds(larder.pid), cpu_seconds(upstream_pid) - upstream_cpu)
        if result["synced"] is not None:
            status, body, _ = tools.request("GET", f"http://127.0.0.1:{port}/v2/providers", timeout=30)
            if status == 200 and len(json.loads(body)) == count:
                result["served"] = time.monotonic() - started
                break
        elif not rates.get("refreshing") and rates.get("last_error"):
            result["error"] = f"the sync ended: {rates['last_error']} ({found[0] if found else 'no provider synced'})"
            break
        if time.monotonic() - shown >= 30:
            shown = time.monotonic()
            asked = upstream_requests(tools, upstream_port).get("/v2/rates", 0)
            print(f"  {shown - started:5.0f} s: {asked:,} /v2/rates asked (at least {expected:,}), "
                  f"{found[0] if found else 'no provider synced yet'}; Larder {sampler.last / 1024:.0f} MiB", flush=True)
    else:
        result["error"] = f"not synced within {CAP} s"
    result["rss_peak"] = sampler.stop()
    result["rss_served"] = tools.rss_kib([larder.pid])
    time.sleep(5)
    result["rss_idle"], result["split_idle"] = tools.rss_kib([larder.pid]), tools.rss_split(larder.pid)
    return result


def latest_rounds(tools, port, pid, rounds):
    """wrk on Larder's `/v2/rates` and `/rates`, and on nginx static serving the same bytes, in alternating
    rounds: each run's rate, and the server's CPU time per request (`/proc` around the run)."""
    static = os.path.join(tools.work, "frankfurter", "static")
    os.makedirs(static, exist_ok=True)
    os.chmod(static, 0o755)
    files = {"/v2/rates": "v2-rates.json", "/rates": "rates.json"}
    for path, name in files.items():
        with open(os.path.join(static, name), "wb") as file:
            file.write(tools.request("GET", f"http://127.0.0.1:{port}{path}")[1])
    nginx_port = tools.ports["nginx"]
    nginx = tools.start_nginx(tools.processes, "frankfurter-nginx", static, nginx_port, tools.threads)
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{nginx_port}/rates.json")[0] == 200, 20,
                     "the Frankfurter scenario's nginx answering")
    for path, name in files.items():
        assert tools.request("GET", f"http://127.0.0.1:{nginx_port}/{name}")[1] == \
            tools.request("GET", f"http://127.0.0.1:{port}{path}")[1], f"nginx serves other bytes than {path}"
    targets = {}
    for path, name in files.items():
        targets[f"larder {path}"] = (f"http://127.0.0.1:{port}{path}", lambda: [pid], ())
        targets[f"nginx {path}"] = (f"http://127.0.0.1:{nginx_port}/{name}", lambda: tools.children_of(nginx.pid), ())
    # As browsers, curl --compressed and most HTTP libraries ask: Larder's prepared gzip bytes.
    for path in files:
        targets[f"larder {path} gzip"] = (f"http://127.0.0.1:{port}{path}", lambda: [pid], ("Accept-Encoding: gzip",))
    for address, _, headers in targets.values():
        subprocess.run(["wrk", "-t1", f"-c{tools.connections}", "-d3s"] + [a for h in headers for a in ("-H", h)] + [address],
                       capture_output=True, check=True)
    runs = {name: [] for name in targets}
    for number in range(rounds):
        for name, (address, pids, headers) in targets.items():
            figures = one_run(tools, address, pids, headers, None)
            runs[name].append(figures)
            print(f"  round {number + 1} {name:23} {figures['rate']:>10,.0f} req/s  p99 {figures['p99']:.2f} ms"
                  f"  {figures['cpu_us']:.1f} µs CPU/request", flush=True)
    tools.processes.stop("frankfurter-nginx")
    return runs


def whole_history(port, pid, tools, first, last):
    """The whole history as NDJSON: its size, time, and Larder's memory growth while it streams."""
    target = f"/v2/rates?from={first}&to={last}"
    before = tools.rss_kib([pid])
    sampler = Sampler(tools, pid, 0.05)
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    connection.request("GET", target, headers={"Accept": "application/x-ndjson"})
    response = connection.getresponse()
    first_byte, size, lines = time.monotonic() - started, 0, 0
    while piece := response.read(65536):
        size += len(piece)
        lines += piece.count(b"\n")
    connection.close()
    seconds = time.monotonic() - started
    peak = sampler.stop()
    return {"target": target, "status": response.status, "size": size, "lines": lines, "first_byte": first_byte,
            "seconds": seconds, "before": before, "peak": peak, "growth": (peak - before) * 1024 / max(size, 1)}


def run(tools):
    """Returns the report's lines and SPEC §7's checks (bench.py's target_rows)."""
    folder = os.path.join(tools.work, "frankfurter", "upstream")
    upstream_port, port = tools.ports["upstream"], tools.ports["larder"]
    print("bench: a full-size Frankfurter set …", flush=True)
    made, rows = generate(tools, folder)
    print(f"bench: {made}", flush=True)
    tools.processes.start("frankfurter-upstream", [tools.sample_upstream, "--root", folder, "--port", str(upstream_port),
                                                   "--log-level", "error"])
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{upstream_port}/_control/faults")[0] == 200, 60,
                     "the sample upstream listening")
    started = time.monotonic()
    status, body, _ = tools.request("GET", f"http://127.0.0.1:{upstream_port}/v2/providers", timeout=600)
    loaded = time.monotonic() - started
    assert status == 200, f"the sample upstream's /v2/providers: {status}"
    providers = json.loads(body)
    expected = expected_requests(providers)
    first = min(provider["start_date"] for provider in providers)
    last = max(provider["end_date"] for provider in providers)
    currencies = len(json.loads(tools.request("GET", f"http://127.0.0.1:{upstream_port}/v2/currencies?scope=all")[1]))
    tools.request("DELETE", f"http://127.0.0.1:{upstream_port}/_control/requests")
    print(f"bench: the sample upstream read it in {loaded:.1f} s; Larder's first sync asks at least {expected:,} windows …", flush=True)

    sync = first_sync(tools, port, upstream_port, providers, expected)
    asked = upstream_requests(tools, upstream_port)
    lines = ["### A local Frankfurter at full size (bench/frankfurter_mirror.py)", "",
             f"The set: {made}; {len(providers)} providers, {currencies} currencies in `/v2/currencies?scope=all`, "
             f"{first} to {last}. The sample upstream (release) read it in {loaded:.1f} s before Larder started.", ""]
    checks = []
    if sync["error"]:
        print(f"bench: the full-size Frankfurter mirror: {sync['error']}", flush=True)
        lines += [f"- First sync: **{sync['error']}**; Larder's resident memory peaked at {sync['rss_peak'] / 1024:.1f} MiB, "
                  f"{sync['rss_idle'] / 1024:.1f} MiB at the end; the upstream was asked {asked}.", ""]
        checks += [("full-size Frankfurter mirror: first sync ≤ 600 s", sync["error"], -600),
                   ("full-size Frankfurter mirror: resident memory after it ≤ 160 MiB", sync["error"], -160)]
        tools.processes.stop("frankfurter-larder")
        tools.processes.stop("frankfurter-upstream")
        return lines, checks
    rss_after = max(sync["rss_served"], sync["rss_idle"])
    lines += [f"- First sync from an empty cache: every provider synced after **{sync['synced']:.1f} s** "
              f"(`/status`: {sync['rows']:,} rows mirrored of the set's {rows:,}), the mirror served (`/v2/providers` lists {len(providers)}) "
              f"after **{sync['served']:.1f} s**; the upstream was asked {asked.get('/v2/rates', 0):,} `/v2/rates` "
              f"(at least {expected:,}: a window per provider; more per currency for providers storing (foreign, PIVOT), and the orientation probe), {asked.get('/v2/providers', 0)} `/v2/providers`, "
              f"{asked.get('/v2/currencies', 0)} `/v2/currencies`; CPU time to synced: Larder {sync['cpu'][0]:.1f} s, "
              f"the sample upstream {sync['cpu'][1]:.1f} s.",
              f"- Larder's resident memory: peak {sync['rss_peak_sync'] / 1024:.1f} MiB until `/status` said synced "
              f"({sync['rss_synced'] / 1024:.1f} MiB then), peak {sync['rss_peak'] / 1024:.1f} MiB until the mirror was "
              f"served, **{sync['rss_served'] / 1024:.1f} MiB** once it was, "
              f"{sync['rss_idle'] / 1024:.1f} MiB 5 s later ({sync['split_idle'][0] / 1024:.1f} MiB anonymous, "
              f"{sync['split_idle'][1] / 1024:.1f} MiB file-backed)."]

    print("bench: GET /v2/rates against GET /rates on the full-size mirror", flush=True)
    runs = latest_rounds(tools, port, sync["pid"], tools.rounds)
    ratios = [v2["rate"] / v1["rate"] for v2, v1 in zip(runs["larder /v2/rates"], runs["larder /rates"])]
    nginx_ratios = [v2["rate"] / v1["rate"] for v2, v1 in zip(runs["nginx /v2/rates"], runs["nginx /rates"])]
    sizes = {path: len(tools.request("GET", f"http://127.0.0.1:{port}{path}")[1]) for path in ("/v2/rates", "/rates")}
    under_load = max(figures["rss"] for name in ("larder /v2/rates", "larder /rates") for figures in runs[name])

    def median(name, key):
        return statistics.median(figures[key] for figures in runs[name])
    lines.append(f"- `GET /v2/rates` ({sizes['/v2/rates']:,} B, every currency blended) "
                 f"{median('larder /v2/rates', 'rate'):,.0f} req/s against `GET /rates` "
                 f"({sizes['/rates']:,} B) {median('larder /rates', 'rate'):,.0f} req/s, "
                 f"{tools.rounds} alternating rounds: ratio median {statistics.median(ratios):.3f}, worst {min(ratios):.3f}; "
                 f"Larder's resident memory under wrk up to {under_load / 1024:.1f} MiB. nginx static on the same two "
                 f"bodies ({tools.threads} workers, in the same rounds): {median('nginx /v2/rates', 'rate'):,.0f} against "
                 f"{median('nginx /rates', 'rate'):,.0f} req/s, ratio median {statistics.median(nginx_ratios):.3f}, "
                 f"worst {min(nginx_ratios):.3f}: what the body's size costs on this machine, where wrk shares the cores.")
    gzip_ratios = [v2["rate"] / v1["rate"] for v2, v1 in zip(runs["larder /v2/rates gzip"], runs["larder /rates gzip"])]
    gzip_sizes = {path: len(tools.request("GET", f"http://127.0.0.1:{port}{path}", headers={"Accept-Encoding": "gzip"})[1])
                  for path in ("/v2/rates", "/rates")}
    lines.append(f"- With `Accept-Encoding: gzip` (Larder's prepared gzip bytes, {gzip_sizes['/v2/rates']:,} B and "
                 f"{gzip_sizes['/rates']:,} B): `GET /v2/rates` {median('larder /v2/rates gzip', 'rate'):,.0f} req/s against "
                 f"`GET /rates` {median('larder /rates gzip', 'rate'):,.0f} req/s, ratio median {statistics.median(gzip_ratios):.3f}, "
                 f"worst {min(gzip_ratios):.3f}; CPU time per request {median('larder /v2/rates gzip', 'cpu_us'):.1f} µs "
                 f"and {median('larder /rates gzip', 'cpu_us'):.1f} µs.")
    lines.append(f"- The server's CPU time per request (`/proc` around each run, medians): Larder "
                 f"{median('larder /v2/rates', 'cpu_us'):.1f} µs for `/v2/rates`, {median('larder /rates', 'cpu_us'):.1f} µs "
                 f"for `/rates`; nginx {median('nginx /v2/rates', 'cpu_us'):.1f} µs and {median('nginx /rates', 'cpu_us'):.1f} µs "
                 f"for the same bytes. Larder's `/v2/rates` against nginx's on the same bytes: "
                 f"{median('larder /v2/rates', 'cpu_us') / max(median('nginx /v2/rates', 'cpu_us'), 1e-9):.2f}×.")

    print("bench: the whole history as NDJSON", flush=True)
    history = whole_history(port, sync["pid"], tools, first, last)
    lines += [f"- The whole history as NDJSON (`{history['target']}`, `Accept: application/x-ndjson`): HTTP "
              f"{history['status']}, {history['size'] / 2**20:.1f} MiB, {history['lines']:,} lines, first byte after "
              f"{history['first_byte']:.2f} s, all of it after {history['seconds']:.1f} s; Larder's resident memory "
              f"{history['before'] / 1024:.1f} MiB before, peak {history['peak'] / 1024:.1f} MiB while it streamed "
              f"(sampled every 50 ms): growth **{history['growth']:.4f} × the body**.", ""]
    checks += [("full-size Frankfurter mirror: first sync ≤ 600 s (to every provider synced)", sync["synced"], -600),
               ("full-size Frankfurter mirror: resident memory after it ≤ 160 MiB (served, or 5 s idle if more)",
                rss_after / 1024, -160),
               ("full-size Frankfurter mirror: GET /v2/rates ≥ 0.9 × GET /rates", ratios, 0.9),
               ("full-size Frankfurter mirror: whole-history NDJSON memory growth ≤ 0.25 × its size",
                history["growth"] if history["status"] == 200 else f"HTTP {history['status']}", -0.25)]
    tools.processes.stop("frankfurter-larder")
    tools.processes.stop("frankfurter-upstream")
    return lines, checks
