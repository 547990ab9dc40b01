#!/usr/bin/env python3
"""Compares a running Larder with the real Frankfurter's golden answers (Tests/Fixtures/frankfurter-golden/).

The Larder must mirror the sample upstream (`--rates-url 'http://127.0.0.1:PORT/;format=frankfurter'` over
`--root Examples/upstream`) and think it is 2026-11-28 UTC. Each golden query is asked with its Accept header;
the status and the media type (Content-Type before any `;`) must be equal, JSON bodies equal as values (numbers
as doubles, key order free, array order kept), CSV and NDJSON bodies equal as text. Prints an equality table
(route x equal/total) and every difference; exits 1 when there is one.

Usage: tools/golden/compare.py BASE_URL [--set base|late] [--fixtures DIR] [--quiet]
"""
import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests/Fixtures/frankfurter-golden"


def route(path, accept, status):
    """The row of the table a query counts in: version, route, /v2/rates's shape, NDJSON, and errors apart."""
    bare = path.split("?", 1)[0].rstrip("/") or "/"
    parts = bare.strip("/").split("/")
    if parts[0] == "v1":
        rest = parts[1] if len(parts) > 1 else ""
        if rest in ("", "latest", "currencies"):
            name = f"/v1/{rest}".rstrip("/") or "/v1"
        elif ".." in rest:
            name = "/v1/{from}..{to}"
        elif rest[:1].isdigit():
            name = "/v1/{date}"
        else:
            name = "/v1/(other)"
    elif parts[0] == "v2":
        rest = parts[1] if len(parts) > 1 else ""
        if rest == "rates.csv":
            name = "/v2/rates.csv"
        elif rest in ("rate", "currency") and len(parts) > 2:
            name = f"/v2/{rest}/" + "/".join("{code}" for _ in parts[2:])
        elif rest in ("", "rates", "currencies", "providers"):
            name = f"/v2/{rest}".rstrip("/")
        else:
            name = "/v2/(other)"
    else:
        name = bare
    if name in ("/v2/rates", "/v2/rates.csv") and status < 400:
        params = {p.split("=", 1)[0] for p in path.partition("?")[2].split("&") if p}
        for param, shape in (("group", "group="), ("expand", "expand="), ("providers", "providers="),
                             ("from", "range"), ("to", "range"), ("date", "date="), ("base", "base="),
                             ("quotes", "quotes=")):
            if param in params:
                name += f" {shape}"
                break
        else:
            name += " latest"
    if status >= 400:
        name += " (error)"
    if "ndjson" in accept:
        name += " (NDJSON)"
    return name


def media_type(content_type):
    return (content_type or "").split(";", 1)[0].strip().lower()


def brief(value):
    """Short: a scalar as JSON writes it, an array by its length, an object by its keys."""
    if isinstance(value, list):
        return f"[{len(value)} elements]"
    if isinstance(value, dict):
        return "{" + ",".join(sorted(value)) + "}"
    return json.dumps(value)[:80]


def json_difference(want, got, where="$"):
    """The first place two JSON values differ, or None. Numbers compare as doubles; bool is not a number."""
    if isinstance(want, bool) or isinstance(got, bool):
        return None if want is got else f"{where}: {brief(want)} != {brief(got)}"
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        return None if float(want) == float(got) else f"{where}: {brief(want)} != {brief(got)}"
    if isinstance(want, dict) and isinstance(got, dict):
        if want.keys() != got.keys():
            return f"{where}: keys {sorted(want)} != {sorted(got)}"
        for key in want:
            found = json_difference(want[key], got[key], f"{where}.{key}")
            if found:
                return found
        return None
    if isinstance(want, list) and isinstance(got, list):
        for i, (w, g) in enumerate(zip(want, got)):
            found = json_difference(w, g, f"{where}[{i}]")
            if found:
                return found
        return None if len(want) == len(got) else f"{where}: {len(want)} elements != {len(got)}"
    return None if want == got else f"{where}: {brief(want)} != {brief(got)}"


def text_difference(want, got):
    if want == got:
        return None
    wl, gl = want.split("\n"), got.split("\n")
    for i, (w, g) in enumerate(zip(wl, gl)):
        if w != g:
            return f"line {i + 1}: {w[:120]!r} != {g[:120]!r}"
    return f"{len(wl)} lines != {len(gl)} lines"


def difference(entry, want_body, status, content_type, body):
    """Why Larder's answer differs from Frankfurter's, or None."""
    problems = []
    if status != entry["status"]:
        problems.append(f"status {entry['status']} != {status}")
    if media_type(content_type) != media_type(entry["content_type"]):
        problems.append(f"Content-Type {entry['content_type']!r} != {content_type!r}")
    kind = media_type(entry["content_type"])
    if kind == "application/json" and want_body:
        try:
            found = json_difference(json.loads(want_body), json.loads(body))
        except ValueError as error:
            found = f"not JSON ({error}): {body[:120]!r}"
    else:
        found = text_difference(want_body.decode("utf-8", "replace"), body.decode("utf-8", "replace"))
    if found:
        problems.append(found)
    return "; ".join(problems) or None


def ask(base_url, path, accept, timeout):
    request = urllib.request.Request(base_url.rstrip("/") + path, headers={"Accept": accept})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.headers.get("Content-Type"), response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type"), error.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base_url")
    parser.add_argument("--set", choices=["base", "late"], default="base")
    parser.add_argument("--fixtures", type=Path, default=FIXTURES)
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--quiet", action="store_true", help="print the table and the count only")
    args = parser.parse_args()

    folder = args.fixtures / "late" if args.set == "late" else args.fixtures
    manifest = json.loads((folder / "manifest.json").read_text())
    table, differences = {}, []
    for entry in manifest:
        want_body = (folder / entry["body_file"]).read_bytes()
        try:
            status, content_type, body = ask(args.base_url, entry["path"], entry["accept"], args.timeout)
            found = difference(entry, want_body, status, content_type, body)
        except OSError as error:
            found = f"no answer: {error}"
        row = table.setdefault(route(entry["path"], entry["accept"], entry["status"]), [0, 0])
        row[1] += 1
        if found:
            differences.append((entry["path"], entry["accept"], found))
        else:
            row[0] += 1

    width = max(len(name) for name in table)
    print(f"{'route':<{width}}  equal/total")
    for name, (equal, total) in table.items():
        print(f"{name:<{width}}  {equal:>5}/{total}")
    equal = sum(row[0] for row in table.values())
    print(f"{'all':<{width}}  {equal:>5}/{len(manifest)}")
    if differences and not args.quiet:
        print(f"\n{len(differences)} differences:")
        for path, accept, found in differences:
            shown = f"{path} [{accept}]" if accept != "application/json" else path
            print(f"- {shown}: {found}")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
