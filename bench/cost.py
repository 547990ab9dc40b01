"""What one answer costs the server, part of `make bench` (SPEC §7's figure that travels), also run
alone with `python3 bench/bench.py --only cost` (`make bench-cost`).

CPU time per request: user + system time of every thread (every worker process, for nginx) of the
server, read from `/proc` just before and just after each wrk run, divided by the requests wrk
counted. It includes the kernel's share (socket calls, copies), which callgrind's instruction counts
do not see, and it does not depend on how the scheduler splits the cores between wrk and the server.

Larder on `--threads N`, nginx static (bench/peers/nginx.conf) on `worker_processes N` and the ceiling
(bench/ceiling.c, Larder's own C on libmicrohttpd, one prepared buffer per route) on N threads, N = 1
and 2, serving the same bytes with the same header fields; per scenario (BENCH_COST_SCENARIOS, a comma
list of keys, runs only those), BENCH_ROUNDS rounds, the
targets alternating within a round, the ratios to nginx taken round by round (median and worst). The
scenarios: `/rates`, cross rates, `/v2/rates` (latest, every currency), a one-year `/v2/rates.csv`, the
1 MiB document (wrk -c16), a 304 (`If-None-Match`), and `/rates` with 3,000 idle keep-alive
connections open to the same server (Larder and nginx; the ceiling has no connection limit to raise).
Its own sample upstream and cache: a generated ECB history and two documents."""
import os
import shutil
import statistics
import subprocess
import time

import idle

WORKERS = [int(count) for count in os.environ.get("BENCH_COST_WORKERS", "1,2").split(",")]
# Scenario keys to run (rates, cross, v2rates, v2year, big, 304, idle); default every one.
ONLY = [key for key in os.environ.get("BENCH_COST_SCENARIOS", "").split(",") if key]
IDLE = 3000
BIG_CONNECTIONS = 16


def scenarios(tools):
    """(key, title, Larder's path, the peers' file, extra: None, "etag" or "idle", wrk connections)."""
    return [
        ("rates", "GET /rates", "/rates", "rates.json", None, None),
        ("cross", f"GET /rates?{tools.cross_query}", f"/rates?{tools.cross_query}", "cross.json", None, None),
        ("v2rates", "GET /v2/rates", "/v2/rates", "v2-rates.json", None, None),
        ("v2year", f"GET {tools.v2_year_csv} (one year)", tools.v2_year_csv, "v2year.csv", None, None),
        ("big", f"GET /documents/{tools.big_name} (1 MiB)", f"/documents/{tools.big_name}", tools.big_name, None,
         BIG_CONNECTIONS),
        ("304", "GET /rates, 304 (If-None-Match)", "/rates", "rates.json", "etag", None),
        ("idle", f"GET /rates, {IDLE:,} idle connections open", "/rates", "rates.json", "idle", None),
    ]


# SPEC §7's CPU targets: Larder ÷ nginx per request, at every worker count.
BOUNDS = {"rates": 0.8, "cross": 1.0, "v2year": 1.0, "idle": 1.0, "big": 1.0}


def prepare(tools):
    """The upstream's files, the upstream, and Larder's warm cache; returns the cache's folder."""
    root = os.path.join(tools.work, "cost")
    upstream_root = os.path.join(root, "upstream")
    shutil.copytree(os.path.join(tools.root, "Examples/upstream/rates"), os.path.join(upstream_root, "rates"))
    tools.write_ecb_history(os.path.join(upstream_root, "rates", tools.history_file))
    tools.write_documents(os.path.join(upstream_root, "docs"), 1, big=True)
    port = tools.ports["upstream"]
    tools.processes.start("cost-upstream", [tools.sample_upstream, "--root", upstream_root, "--port", str(port),
                                            "--log-level", "error"])
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{port}/_control/faults")[0] == 200, 20,
                     "the cost scenario's upstream listening")
    return os.path.join(root, "cache")


def larder_argv(tools, cache, workers):
    upstream = f"http://127.0.0.1:{tools.ports['upstream']}"
    return [tools.larder, "serve", "--port", str(tools.ports["larder"]), "--cache-dir", cache, "--log-level", "warning",
            "--threads", str(workers), "--rates-url", f"{upstream}/rates/{tools.history_file}",
            "--documents-url", f"{upstream}/docs/index.json",
            "--max-connections", "8192", "--max-connections-per-ip", "8192"]


def start_servers(tools, cache, workers, cases):
    """Larder, nginx static and the ceiling on `workers` each, serving the same bytes; {target: (port, pids)}."""
    larder_port = tools.ports["larder"]
    larder = tools.processes.start("cost-larder", larder_argv(tools, cache, workers))
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{larder_port}/ready")[0] == 200, 300, "Larder ready")
    tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{larder_port}/documents/{tools.big_name}")[0] == 200, 300,
                     "the 1 MiB document mirrored")
    static = os.path.join(tools.work, "cost", f"static-{workers}")
    os.makedirs(static, exist_ok=True)
    os.chmod(static, 0o755)
    fields = {}
    for key, _, path, name, extra, _ in cases:
        if extra:
            continue
        status, body, headers = tools.request("GET", f"http://127.0.0.1:{larder_port}{path}")
        assert status == 200, f"Larder {path}: HTTP {status}"
        with open(os.path.join(static, name), "wb") as file:
            file.write(body)
        fields[name] = tools.served_fields(headers)
    nginx = tools.start_nginx(tools.processes, "cost-nginx", static, tools.ports["nginx"], workers)
    routes = [f"/{name}={os.path.join(static, name)}:" + "|".join(values) for name, values in fields.items()]
    ceiling = tools.processes.start("cost-ceiling", [tools.ceiling(), str(tools.ports["ceiling"]), str(workers), *routes])
    servers = {"larder": (larder_port, lambda: [larder.pid]),
               "nginx": (tools.ports["nginx"], lambda: tools.children_of(nginx.pid)),
               "ceiling": (tools.ports["ceiling"], lambda: [ceiling.pid])}
    for target, (port, _) in servers.items():
        if target == "larder":
            continue
        for _, _, path, name, extra, _ in cases:
            tools.wait_until(lambda: tools.request("GET", f"http://127.0.0.1:{port}/{name}")[0] == 200, 20,
                             f"{target} answering")
            if not extra:
                assert tools.request("GET", f"http://127.0.0.1:{port}/{name}")[1] == \
                    tools.request("GET", f"http://127.0.0.1:{larder_port}{path}")[1], f"{target} serves other bytes than {path}"
    return servers


def cpu_seconds(pid):
    """User + system CPU time of a process so far, every thread's."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(tools, address, pids, headers, connections):
    """One wrk run; its figures and the server's CPU µs per request over it."""
    servers = pids()
    before = sum(cpu_seconds(server) for server in servers)
    figures = tools.wrk(address, headers=headers, sample=servers, connections=connections)
    figures["cpu_us"] = (sum(cpu_seconds(server) for server in servers) - before) * 1e6 / max(figures["requests"], 1)
    return figures


def measure(tools, servers, cases, workers):
    """Every scenario, rounds alternating the targets; {(key, target): [figures per round]}."""
    runs = {}
    etags = {target: tools.request("GET", f"http://127.0.0.1:{port}" + ("/rates" if target == "larder" else "/rates.json"))[2]
             .get("ETag") for target, (port, _) in servers.items()}
    for target, (port, _) in servers.items():  # warm alike: page faults, caches, frequency
        subprocess.run(["wrk", "-t1", f"-c{tools.connections}", "-d3s",
                        f"http://127.0.0.1:{port}" + ("/rates" if target == "larder" else "/rates.json")],
                       capture_output=True, check=True)
    for key, title, path, name, extra, connections in cases:
        print(f"bench: cost, {workers} worker(s): {title}", flush=True)
        targets = [target for target in servers if not (extra == "idle" and target == "ceiling")]
        held = {}
        if extra == "idle":
            for target in targets:
                held[target], failed = idle.open_idle(servers[target][0], path if target == "larder" else f"/{name}", IDLE)
                assert not failed, f"{target}: {failed} idle connections refused"
        for number in range(tools.rounds):
            for target in targets:
                port, pids = servers[target]
                address = f"http://127.0.0.1:{port}" + (path if target == "larder" else f"/{name}")
                headers = (f"If-None-Match: {etags[target]}",) if extra == "etag" else ()
                figures = one_run(tools, address, pids, headers, connections)
                runs.setdefault((key, target), []).append(figures)
                print(f"  round {number + 1} {target:8} {figures['cpu_us']:8.1f} µs CPU/request  "
                      f"{figures['rate']:>10,.0f} req/s  p99 {figures['p99']:.2f} ms", flush=True)
        for connections_held in held.values():
            for connection in connections_held:
                connection.close()
    return runs


def run(tools):
    """The cost table: returns the report's lines and SPEC §7's checks."""
    cache = prepare(tools)
    cases = [case for case in scenarios(tools) if not ONLY or case[0] in ONLY]
    results = {}
    for workers in WORKERS:
        servers = start_servers(tools, cache, workers, cases)
        results[workers] = measure(tools, servers, cases, workers)
        for name in ("cost-larder", "cost-nginx", "cost-ceiling"):
            tools.processes.stop(name)
    tools.processes.stop("cost-upstream")

    lines = [f"### What an answer costs the server (bench/cost.py) — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
             "",
             f"CPU time per request: user + system of every thread of the server (`/proc` around each wrk run) over "
             f"the requests wrk counted; wrk -t1 -c{tools.connections} (-c{BIG_CONNECTIONS} for 1 MiB) "
             f"-d{tools.seconds}s, {tools.rounds} rounds alternating Larder, nginx static and the ceiling; medians, "
             f"the worst round in brackets; Larder ÷ nginx round by round. {tools.machine()}. req/s and p99 are "
             f"information (wrk shares the cores).", "",
             "| answer | workers | Larder µs | nginx µs | ceiling µs | Larder ÷ nginx | Larder req/s | nginx req/s | "
             "Larder p99 ms | nginx p99 ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    checks = []

    def middle(runs, field):
        return statistics.median(figures[field] for figures in runs)
    for key, title, *_ in cases:
        for workers in WORKERS:
            runs = results[workers]
            mine, nginx, ceiling = runs[(key, "larder")], runs[(key, "nginx")], runs.get((key, "ceiling"))
            ratios = [a["cpu_us"] / max(b["cpu_us"], 1e-9) for a, b in zip(mine, nginx)]
            worst = max(ratios)
            shown_ceiling = f"{middle(ceiling, 'cpu_us'):.1f}" if ceiling else "–"
            lines.append(f"| {title} | {workers} | {middle(mine, 'cpu_us'):.1f} | {middle(nginx, 'cpu_us'):.1f} | "
                         f"{shown_ceiling} | {statistics.median(ratios):.2f} ({max(ratios):.2f}) | "
                         f"{middle(mine, 'rate'):,.0f} | {middle(nginx, 'rate'):,.0f} | {middle(mine, 'p99'):.2f} | "
                         f"{middle(nginx, 'p99'):.2f} |")
            if key in BOUNDS:
                checks.append((f"CPU time per {title}, {workers} worker(s) ≤ {BOUNDS[key]} × nginx", ratios, -BOUNDS[key]))
    return lines + [""], checks
