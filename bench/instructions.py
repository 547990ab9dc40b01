#!/usr/bin/env python3
"""`make bench-instructions` (and a part of `make bench`): instructions per request, counted by
valgrind's callgrind, for Larder, the bare libmicrohttpd ceiling (bench/ceiling.c) and nginx, on
each scenario, serving the same bytes. Unlike requests per second, the count does not depend on
what else the machine runs: the same binaries and requests give the same figure anywhere (to a
fraction of a percent: timers and the thread interleaving vary a little).

How: each server runs alone under `valgrind --tool=callgrind` on loopback. Per scenario, a
sequential keep-alive client (one socket, one request at a time, wrk's request line and Host)
sends WARMUP requests, then `callgrind_control --zero`, then REQUESTS requests, then
`callgrind_control --dump`: the dump's total, over REQUESTS, is the figure. Start-up and the
warm-up are not counted; whatever the server does between requests (its event loop, timers) is.
Callgrind counts user-space instructions only: the kernel's share (the socket calls, `sendfile`'s
copy) is not in these figures, which matters most for the 1 MiB document.

Larder mirrors 1,000 small documents and one of 1 MiB and a generated ECB history of 1999-2026 (as
`make bench` does) natively first, then serves that warm cache under callgrind. The ceiling and
nginx (one process: `master_process off`, the static server of bench/peers/nginx.conf) serve the
bytes and header fields Larder sent.

usage: instructions.py [--keep DIR]    DIR keeps every count's callgrind dump, TARGET-SCENARIO.callgrind
                                       (for callgrind_annotate)
Environment: INSTRUCTIONS_REQUESTS (per scenario, default 2000; the 1 MiB document a tenth of it),
INSTRUCTIONS_WARMUP (default 200)."""
import json
import os
import platform
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import tempfile
import time

REQUESTS = int(os.environ.get("INSTRUCTIONS_REQUESTS", "2000"))
WARMUP = int(os.environ.get("INSTRUCTIONS_WARMUP", "200"))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORTS = {"upstream": 18701, "larder": 18700, "ceiling": 18702, "nginx": 18703}
DOCUMENTS = 1000
TARGETS = ["larder", "ceiling", "nginx"]
# The peers' file of each scenario (its extension gives nginx the content type Larder sends).
# bench/ceiling.c runs Larder's own C (its daemon options, epoll loop and shared limits), compiled in.
CLARDER = os.path.join(ROOT, "Sources/CLarderHTTP")
CEILING_SOURCES = [os.path.join(ROOT, "bench/ceiling.c"),
                   *sorted(os.path.join(CLARDER, name) for name in os.listdir(CLARDER) if name.endswith(".c")),
                   "-I", os.path.join(CLARDER, "include"), "-pthread"]
FILES = {"rates": "rates.json", "cross": "cross.json", "year": "year.json", "v1latest": "v1latest.json",
         "big": "big.bin", "list": "documents.json", "304": "rates.json", "v2latest": "v2latest.json",
         "v2year": "v2year.csv"}


def scenarios(tools):
    """(key, title, Larder's path, header) per scenario; the peers serve the same bytes at /FILES[key]."""
    return [
        ("rates", "GET /rates", "/rates", None),
        ("cross", f"GET /rates?{tools.CROSS_QUERY}", f"/rates?{tools.CROSS_QUERY}", None),
        ("year", f"GET {tools.YEAR_RANGE} (one year)", tools.YEAR_RANGE, None),
        ("v1latest", "GET /v1/latest", "/v1/latest", None),
        ("v2latest", "GET /v2/rates", "/v2/rates", None),
        ("v2year", f"GET {tools.V2_YEAR_CSV} (one year)", tools.V2_YEAR_CSV, None),
        ("big", f"GET /documents/{tools.BIG_NAME} (1 MiB)", f"/documents/{tools.BIG_NAME}", None),
        ("list", f"GET /documents (the list of {DOCUMENTS + 1})", "/documents", None),
        ("304", "GET /rates, 304 (If-None-Match)", "/rates", "etag"),
    ]


class Client:
    """One keep-alive connection, one request at a time, as wrk sends them."""

    def __init__(self, port, timeout=120):
        self.port = port
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""

    def get(self, path, headers=()):
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", *headers, "", ""]
        self.socket.sendall("\r\n".join(lines).encode())
        while b"\r\n\r\n" not in self.buffer:
            self.receive()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status_line, *fields = head.decode("latin-1").split("\r\n")
        status = int(status_line.split()[1])
        parsed = {}
        for field in fields:
            name, _, value = field.partition(":")
            parsed[name.strip().lower()] = value.strip()
        length = 0 if status == 304 else int(parsed.get("content-length", "0"))
        while len(self.buffer) < length:
            self.receive()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return status, parsed, body

    def receive(self):
        chunk = self.socket.recv(1 << 20)
        if not chunk:
            raise ConnectionError(f"127.0.0.1:{self.port} closed the connection")
        self.buffer += chunk

    def close(self):
        self.socket.close()


def wait_until(check, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    sys.exit(f"instructions: {what} did not happen within {seconds} s")


def answers(port, path="/"):
    client = Client(port, timeout=10)
    try:
        return client.get(path)[0]
    finally:
        client.close()


def mirrored(port):
    client = Client(port, timeout=10)
    try:
        return json.loads(client.get("/status")[2])["resources"]["documents"]["counts"]["mirrored"]
    finally:
        client.close()


def upstream_requests():
    """How many requests the sample upstream has answered (a refresh during a count would be in it)."""
    client = Client(PORTS["upstream"], timeout=10)
    try:
        paths = json.loads(client.get("/_control/requests")[2])["paths"]
        return sum(entry["requests"] for entry in paths.values())
    finally:
        client.close()


def machine():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            found = re.search(r"^model name\s*:\s*(.+)$", cpuinfo.read(), re.M)
            model = found.group(1).strip() if found else model
    except OSError:
        pass
    valgrind = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
    library = subprocess.run(["pkg-config", "--modversion", "libmicrohttpd"], capture_output=True, text=True).stdout.strip()
    nginx = subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip().replace("nginx version: ", "")
    return (f"{model}, {os.cpu_count()} cores, Linux {platform.release()}; {valgrind}, libmicrohttpd {library}, "
            f"{nginx}")


class Callgrind:
    """A server under callgrind, whose count is zeroed and dumped around each scenario."""

    def __init__(self, name, argv, work, log):
        self.name = name
        self.folder = os.path.join(work, f"callgrind-{name}")
        os.makedirs(self.folder)
        self.process = subprocess.Popen(
            ["valgrind", "--tool=callgrind", "--dump-instr=no", "--dump-line=no",
             f"--callgrind-out-file={self.folder}/callgrind.out.%p", *argv],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def control(self, option):
        result = subprocess.run(["callgrind_control", option, str(self.process.pid)], capture_output=True, text=True,
                                timeout=120)
        if result.returncode != 0 or "Error" in result.stdout:
            sys.exit(f"instructions: callgrind_control {option} {self.name}: {result.stdout}{result.stderr}")

    def count(self, run):
        """The instructions the server ran during `run()`, and the dump file that holds them."""
        before = set(os.listdir(self.folder))
        self.control("--zero")
        run()
        self.control("--dump")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            new = sorted(set(os.listdir(self.folder)) - before)
            if new:
                path = os.path.join(self.folder, new[-1])
                time.sleep(0.2)  # written whole before callgrind_control returns; a margin all the same
                with open(path) as dump:
                    totals = re.search(r"^(?:totals|summary):\s+(\d+)", dump.read(), re.M)
                if totals:
                    return int(totals.group(1)), path
            time.sleep(0.1)
        sys.exit(f"instructions: no callgrind dump of {self.name}")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def per_request(server, port, path, headers, count, keep, key):
    client = Client(port)
    expected = 304 if headers else 200

    def loop(number):
        for _ in range(number):
            status, _, _ = client.get(path, headers)
            if status != expected:
                sys.exit(f"instructions: {server.name} {path}: HTTP {status}, expected {expected}")
    loop(WARMUP)
    total, dump = server.count(lambda: loop(count))
    client.close()
    if keep:
        os.makedirs(keep, exist_ok=True)
        shutil.copy(dump, os.path.join(keep, f"{server.name}-{key}.callgrind"))
    return total / count


def run(bin_path, keep=None):
    """Measures every target; returns the report's lines and SPEC §7's checks (name, value, bound)."""
    import bench as tools  # its data generators and scenario names (imported here: bench.py imports this file)
    for tool in ("valgrind", "callgrind_control", "nginx", "cc"):
        if shutil.which(tool) is None:
            sys.exit(f"instructions: needs {tool} (apt-get install -y valgrind nginx gcc)")
    work = tempfile.mkdtemp(prefix="larder-instructions-")
    os.chmod(work, 0o755)  # nginx reads the static folder
    running = []
    log = open(os.path.join(work, "servers.log"), "wb")
    try:
        upstream_root = os.path.join(work, "upstream")
        shutil.copytree(os.path.join(ROOT, "Examples/upstream/rates"), os.path.join(upstream_root, "rates"))
        tools.write_documents(os.path.join(upstream_root, "docs"), DOCUMENTS, big=True)
        tools.write_ecb_history(os.path.join(upstream_root, "rates", tools.HISTORY_FILE))
        upstream = subprocess.Popen([f"{bin_path}/sample-upstream", "--root", upstream_root, "--port",
                                     str(PORTS["upstream"]), "--log-level", "error"], stdout=log, stderr=subprocess.STDOUT)
        running.append(upstream)
        wait_until(lambda: answers(PORTS["upstream"], "/_control/faults") == 200, 20, "the sample upstream listening")
        cache = os.path.join(work, "cache")
        argv = [f"{bin_path}/larder", "serve", "--port", str(PORTS["larder"]), "--cache-dir", cache,
                "--log-level", "warning", "--threads", "1",
                "--rates-url", f"http://127.0.0.1:{PORTS['upstream']}/rates/{tools.HISTORY_FILE}",
                "--documents-url", f"http://127.0.0.1:{PORTS['upstream']}/docs/index.json"]

        # The warm cache, filled natively (a first sync under callgrind would take minutes).
        print("instructions: filling Larder's cache natively …", flush=True)
        filler = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        running.append(filler)
        wait_until(lambda: mirrored(PORTS["larder"]) == DOCUMENTS + 1, 600, "the mirror of 1,001 documents")
        wait_until(lambda: answers(PORTS["larder"], "/ready") == 200, 300, "Larder ready")
        filler.send_signal(signal.SIGTERM)
        filler.wait(60)

        cases = scenarios(tools)
        static = os.path.join(work, "static")
        os.makedirs(static)
        os.chmod(static, 0o755)
        counts = {}

        # Larder first: the peers serve the bytes and header fields it sent.
        print("instructions: Larder under callgrind …", flush=True)
        # valgrind 3.19 cannot read the DWARF 5 of Swift's toolchain and gives up: a copy without
        # debug information (its symbol table kept, for callgrind_annotate's function names).
        stripped = os.path.join(work, "larder")
        subprocess.run(["objcopy", "--strip-debug", argv[0], stripped], check=True)
        larder = Callgrind("larder", [stripped, *argv[1:]], work, log)
        running.append(larder)
        wait_until(lambda: answers(PORTS["larder"], "/ready") == 200, 600, "Larder ready under callgrind")
        # Its start-up refreshes (the index answered 304, the rates' conditional GET) done before counting.
        wait_until(lambda: mirrored(PORTS["larder"]) == DOCUMENTS + 1, 300, "Larder's mirror loaded under callgrind")
        time.sleep(5)
        client = Client(PORTS["larder"])
        fields, etag = {}, None
        for key, _, path, header in cases:
            if header:
                continue
            status, headers, body = client.get(path)
            assert status == 200, f"Larder {path}: HTTP {status}"
            with open(os.path.join(static, FILES[key]), "wb") as file:
                file.write(body)
            fields[key] = [headers.get("content-type", "application/json")] + [
                f"{name}: {value}" for name, value in headers.items()
                if name not in ("date", "content-length", "content-type", "connection", "keep-alive")]
            if key == "rates":
                etag = headers["etag"]
        client.close()
        refreshes = 0
        for key, title, path, header in cases:
            extra = [f"If-None-Match: {etag}"] if header else []
            number = max(1, REQUESTS // 10) if key == "big" else REQUESTS
            before = upstream_requests()
            counts[("larder", key)] = per_request(larder, PORTS["larder"], path, extra, number, keep, key)
            refreshes += upstream_requests() - before
            print(f"  larder  {title:48} {counts[('larder', key)]:>12,.0f} instructions/request", flush=True)
        larder.stop()

        # The ceiling, built against the libmicrohttpd Larder links.
        ceiling_binary = os.path.join(work, "ceiling")
        library = subprocess.run(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], check=True, capture_output=True,
                                 text=True).stdout.split()
        subprocess.run(["cc", "-O2", "-g", "-o", ceiling_binary, *CEILING_SOURCES, *library], check=True)
        routes = [f"/{FILES[key]}={os.path.join(static, FILES[key])}:" + "|".join(fields[key]) for key in fields]
        ceiling = Callgrind("ceiling", [ceiling_binary, str(PORTS["ceiling"]), "1", *routes], work, log)
        running.append(ceiling)

        with open(os.path.join(ROOT, "bench/peers/nginx.conf")) as source:
            conf = source.read()
        # One process, the static server alone: what a worker does per request, nothing else.
        conf = conf.replace("worker_processes 2;", "worker_processes 1;\nmaster_process off;")
        conf = re.sub(r"\n    # nginx proxy_cache:.*\n}\n", "\n}\n", conf, flags=re.S)
        conf = string.Template(conf).safe_substitute(
            {"work": work, "static": static, "static_port": PORTS["nginx"], "proxy_port": 0})
        with open(os.path.join(work, "nginx.conf"), "w") as out:
            out.write(conf)
        nginx = Callgrind("nginx", ["nginx", "-c", os.path.join(work, "nginx.conf"), "-p", work], work, log)
        running.append(nginx)

        for server, port in ((ceiling, PORTS["ceiling"]), (nginx, PORTS["nginx"])):
            print(f"instructions: {server.name} under callgrind …", flush=True)
            wait_until(lambda: answers(port, "/rates.json") == 200, 300, f"{server.name} answering under callgrind")
            peer_etag = Client(port).get("/rates.json")[1].get("etag")
            for key, title, path, header in cases:
                target = f"/{FILES[key]}"
                extra = [f"If-None-Match: {peer_etag}"] if header else []
                number = max(1, REQUESTS // 10) if key == "big" else REQUESTS
                counts[(server.name, key)] = per_request(server, port, target, extra, number, keep, key)
                print(f"  {server.name:7} {title:48} {counts[(server.name, key)]:>12,.0f} instructions/request", flush=True)
            server.stop()
    finally:
        for process in running:
            if isinstance(process, Callgrind):
                process.stop()
            elif process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait(30)
        log.close()
        shutil.rmtree(work, ignore_errors=True)

    lines = [f"## Instructions per request (callgrind) — {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}", "",
             f"Machine: {machine()}. Each server alone under callgrind, one keep-alive connection, one request at a "
             f"time; {WARMUP} requests of warm-up, then {REQUESTS} counted ({max(1, REQUESTS // 10)} for the 1 MiB "
             f"document); user-space instructions only (the kernel's share, sendfile's copy included, is not "
             f"counted). Larder on 1 thread; the ceiling is bench/ceiling.c; nginx one process "
             f"(`master_process off`), bench/peers/nginx.conf's static server. Larder's upstream requests "
             f"during the counts (a refresh would be counted): {refreshes}.", "",
             "| scenario | Larder instr/req | ceiling instr/req | nginx instr/req | Larder / ceiling | Larder / nginx |",
             "|---|---:|---:|---:|---:|---:|"]
    for key, title, _, _ in cases:
        larder_count, ceiling_count, nginx_count = (counts[(target, key)] for target in TARGETS)
        lines.append(f"| {title} | {larder_count:,.0f} | {ceiling_count:,.0f} | {nginx_count:,.0f} | "
                     f"{larder_count / ceiling_count:.2f} | {larder_count / nginx_count:.2f} |")
    # SPEC §7's instruction targets (2026-11-28): against nginx's count on the same bytes.
    def versus_nginx(key):
        return counts[("larder", key)] / counts[("nginx", key)]
    checks = [(f"instructions per {title} ≤ 0.8 × nginx", versus_nginx(key), -0.8)
              for key, title, _, _ in cases if key in ("rates", "v1latest", "v2latest", "304")]
    checks += [(f"instructions per {title} ≤ 1.0 × nginx", versus_nginx(key), -1.0)
               for key, title, _, _ in cases if key in ("cross", "year", "v2year")]
    return lines, checks


def main():
    keep = None
    if len(sys.argv) == 3 and sys.argv[1] == "--keep":
        keep = os.path.abspath(sys.argv[2])
    elif len(sys.argv) != 1:
        sys.exit("usage: instructions.py [--keep DIR]")
    bin_path = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--show-bin-path"], cwd=ROOT,
                              capture_output=True, text=True, check=True).stdout.strip()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    lines, checks = run(bin_path, keep)
    import bench
    table, failed = bench.target_rows(checks)
    text = "\n".join(lines + [""] + table)
    print("\n" + text)
    os.makedirs(os.path.join(ROOT, ".build"), exist_ok=True)
    with open(os.path.join(ROOT, ".build/bench-instructions-report.md"), "w") as out:
        out.write(text + "\n")
    print(f"\ninstructions: {len(checks) - failed} of {len(checks)} SPEC §7 targets met "
          "(report: .build/bench-instructions-report.md)")


if __name__ == "__main__":
    main()
