#!/usr/bin/env python3
"""The settings tables of the Markdown files, written from the code's one table of settings.

    python3 tools/check/settings-tables.py --write BIN   # `make docs`: rewrite every table from BIN/larder
    python3 tools/check/settings-tables.py --check BIN   # `make test`: fail when a committed table differs

A table sits between `<!-- settings: NAMES -->` and `<!-- /settings -->`, NAMES being flag names without
the dashes, in the table's order, or `all`; anything in parentheses is a note to the reader. Its rows
come from `larder settings-table`, which prints `Setting.markdownTable` (Sources/LarderConfig/Setting+Documentation.swift).
"""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"(<!-- settings:(?P<names>.*?)-->\n)(?P<table>.*?)(<!-- /settings -->)", re.S)


def markdown_files():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def table(binary, names):
    names = re.sub(r"\(.*?\)", "", names).split()
    if names[:1] == ["all"]:
        names = []
    return subprocess.run([str(Path(binary) / "larder"), "settings-table", *names],
                          check=True, capture_output=True, text=True).stdout


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("--write", "--check"):
        print(__doc__, file=sys.stderr)
        return 64
    mode, binary = sys.argv[1], sys.argv[2]
    stale, count = [], 0
    for path in markdown_files():
        text = path.read_text()
        new = BLOCK.sub(lambda m: m.group(1) + table(binary, m.group("names")) + m.group(4), text)
        count += len(BLOCK.findall(text))
        if new != text:
            stale.append(path.relative_to(ROOT))
            if mode == "--write":
                path.write_text(new)
    if mode == "--write":
        print(f"settings tables: {count} written, {len(stale)} changed ({', '.join(map(str, stale)) or 'none'})")
        return 0
    if stale:
        print(f"settings tables: stale in {', '.join(map(str, stale))}: run `make docs` and commit", file=sys.stderr)
        return 1
    print(f"settings tables: {count} tables match the code")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
