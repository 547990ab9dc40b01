"""The gzipped listing of `make bench`, also run alone with `python3 bench/bench.py --only gzip`.

`GET /documents` at BENCH_WARM_DOCUMENTS (10,000) documents, as it is and with `Accept-Encoding: gzip`,
Larder against nginx serving the same listing two ways: `gzip_static`, Larder's own gzip bytes as
listing.json.gz beside listing.json (compressed once, as Larder does, so both send the same bytes),
and `gzip on` at level 6 (Larder's), which compresses on every request. Alternating rounds, medians."""
import gzip
import os
import statistics
import time

ACCEPT_GZIP = "Accept-Encoding: gzip"


def run(larder, nginx, static, wrk, request, rounds, connections):
    """`larder`, `nginx`: (port, pids) of a Larder mirroring the documents and of nginx serving `static`;
    `wrk(address, headers, pids)` runs one timed wrk; `request(method, address, headers=…)` one urllib
    request. Returns the report's lines."""
    (port, larder_pids), (nginx_port, nginx_pids) = larder, nginx
    listing = f"http://127.0.0.1:{port}/documents"
    status, identity, _ = request("GET", listing)  # renders the listing, so the next request times compression alone
    assert status == 200, f"/documents: {status}"
    timings, bodies = [], []
    for _ in range(2):
        started = time.monotonic()
        status, body, headers = request("GET", listing, headers={"Accept-Encoding": "gzip"})
        timings.append((time.monotonic() - started) * 1000)
        assert status == 200 and headers.get("Content-Encoding") == "gzip", f"/documents gzip: {status} {headers}"
        bodies.append(body)
    compressed = bodies[0]
    assert bodies[1] == compressed, "two gzip answers differ"
    assert gzip.decompress(compressed) == identity, "the gzip listing does not inflate to the identity one"

    for folder in ("gzip-static", "gzip-on"):
        os.makedirs(os.path.join(static, folder), exist_ok=True)
        with open(os.path.join(static, folder, "listing.json"), "wb") as file:
            file.write(identity)
    with open(os.path.join(static, "gzip-static", "listing.json.gz"), "wb") as file:
        file.write(compressed)
    static_listing, on_the_fly = (f"http://127.0.0.1:{nginx_port}/{folder}/listing.json" for folder in ("gzip-static", "gzip-on"))
    assert request("GET", static_listing)[1] == identity, "nginx static serves other bytes"
    assert request("GET", static_listing, headers={"Accept-Encoding": "gzip"})[1] == compressed
    _, per_request, _ = request("GET", on_the_fly, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(per_request) == identity, "nginx gzip on sends other bytes"

    targets = [  # (name, address, headers, bytes sent, pids)
        ("Larder, identity", listing, (), len(identity), larder_pids),
        ("Larder, gzip", listing, (ACCEPT_GZIP,), len(compressed), larder_pids),
        ("nginx static, identity", static_listing, (), len(identity), nginx_pids),
        ("nginx gzip_static", static_listing, (ACCEPT_GZIP,), len(compressed), nginx_pids),
        ("nginx gzip on, level 6", on_the_fly, (ACCEPT_GZIP,), len(per_request), nginx_pids),
    ]
    print(f"bench: GET /documents at {len(identity):,} B, gzip {len(compressed):,} B", flush=True)
    results = {}
    for round_number in range(rounds):
        for name, address, headers, _, pids in targets:
            figures = wrk(address, headers, pids)
            results.setdefault(name, []).append(figures)
            print(f"  round {round_number + 1} {name:24} {figures['rate']:>10,.0f} req/s  p50 {figures['p50']:.2f} ms"
                  f"  p99 {figures['p99']:.2f} ms", flush=True)

    def rate(name):
        return statistics.median(figures["rate"] for figures in results[name])

    documents = identity.count(b'"name"')
    lines = [f"### GET /documents, the listing of {documents:,} documents, identity and gzip "
             f"(wrk -c{connections}, {rounds} alternating rounds, medians)", "",
             "| target | bytes sent | req/s | MiB/s sent | p50 ms | p99 ms | × nginx gzip_static | non-2xx/3xx, socket errors |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for name, _, _, size, _ in targets:
        runs = results[name]
        lines.append(f"| {name} | {size:,} | {rate(name):,.0f} | {rate(name) * size / 2**20:,.0f} | "
                     f"{statistics.median(r['p50'] for r in runs):.2f} | {statistics.median(r['p99'] for r in runs):.2f} | "
                     f"{rate(name) / rate('nginx gzip_static'):.2f} | "
                     f"{sum(r['bad'] for r in runs)}, {sum(r['errors'] for r in runs)} |")
    lines += ["", f"gzip is {len(compressed) / len(identity):.1%} of the listing (zlib level 6; nginx's own level 6: "
              f"{len(per_request):,} B). Larder wrote it beside the listing when the sync rendered both: the first gzip answer took "
              f"{timings[0]:.0f} ms, the next {timings[1]:.0f} ms.", ""]
    return lines
