#!/usr/bin/env python3
"""Writes the OpenAPI document of each Frankfurter dialect Larder serves, from openapi.yaml, so there
is one source (`make docs`; `make test` fails while a committed file differs, tools/check/check-generated.py).

    python3 tools/generate/dialect-openapi.py --write   # Sources/LarderRatesAPI/Resources/v1-openapi.json, v2-…
    python3 tools/generate/dialect-openapi.py --print v1

A dialect's document holds openapi.yaml's paths under its prefix (`/v1/latest` becomes `/latest`, `/v1`
itself `/`), its server `/v1`, and only the components those paths reach. The binary serves the files
at `/v1/openapi.json` and `/v2/openapi.json` (`.embedInCode` in Package.swift)."""
import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
RESOURCES = ROOT / "Sources/LarderRatesAPI/Resources"
DIALECTS = {
    "v1": "Frankfurter v1 (frozen): latest, historical and time-series rates and the currency names.",
    "v2": "Frankfurter v2 (current): rates, one rate, currencies and providers.",
}


def references(node):
    """Every `#/components/...` reference under node."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/components/"):
                yield value
            else:
                yield from references(value)
    elif isinstance(node, list):
        for item in node:
            yield from references(item)


def document(source, dialect):
    prefix = "/" + dialect
    paths = {}
    for path, item in source["paths"].items():
        if path == prefix or path.startswith(prefix + "/"):
            paths[path[len(prefix):] or "/"] = item
    components, pending = {}, list(references(paths))
    while pending:
        ref = pending.pop()
        _, _, kind, name = ref.split("/", 3)
        if name in components.setdefault(kind, {}):
            continue
        component = source["components"][kind][name]
        components[kind][name] = component
        pending.extend(references(component))
    info = dict(source["info"])
    info["title"] = f"Larder: the Frankfurter {dialect} dialect"
    info.pop("summary", None)
    info["description"] = (
        f"{DIALECTS[dialect]} The part of Larder's contract (openapi.yaml) served under `{prefix}`, "
        "generated from it by tools/generate/dialect-openapi.py."
    )
    result = {
        "openapi": source["openapi"],
        "info": info,
        "servers": [{"url": prefix}],
        "paths": paths,
    }
    if components:
        result["components"] = {kind: dict(sorted(named.items())) for kind, named in sorted(components.items())}
    return result


def render(dialect):
    source = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    text = json.dumps(document(source, dialect), indent=1, ensure_ascii=False)
    # One space of indent keeps the embedded bytes small and the file readable.
    return re.sub(r"[ \t]+\n", "\n", text) + "\n"


def main():
    if sys.argv[1:] == ["--write"]:
        RESOURCES.mkdir(parents=True, exist_ok=True)
        for dialect in DIALECTS:
            (RESOURCES / f"{dialect}-openapi.json").write_text(render(dialect), encoding="utf-8")
        return 0
    if len(sys.argv) == 3 and sys.argv[1] == "--print" and sys.argv[2] in DIALECTS:
        sys.stdout.write(render(sys.argv[2]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
