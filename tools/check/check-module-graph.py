#!/usr/bin/env python3
"""The module graph drawn in docs/architecture.md is the one Package.swift declares.

    python3 tools/check/check-module-graph.py          # exit 1, naming each difference
    python3 tools/check/check-module-graph.py --print  # the block as Package.swift has it now

The drawing is the fenced block after the line `<!-- module graph -->`: one line per product or
test-support target, `Name → A, B` (or `Name → (none)`), listing the package's own targets it depends
on. A target that imports a module the drawing does not allow it fails: the build refuses an import of
a target not declared (`--explicit-target-dependency-import-check error`), the manifest check refuses a
declaration nothing imports (check-manifest-imports.py), and this refuses a declaration the drawing
lacks. Test targets are left out of the drawing: they may use any module.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
MARKER = "<!-- module graph -->"


def declared():
    manifest = json.loads(subprocess.run(
        ["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout)
    own = {target["name"] for target in manifest["targets"]}
    graph = {}
    for target in manifest["targets"]:
        if target["type"] == "test":
            continue
        names = {next(iter(dependency.values()))[0] for dependency in target["dependencies"]}
        graph[target["name"]] = sorted(names & own)
    return graph


def drawn():
    text = DOC.read_text()
    if MARKER not in text:
        sys.exit(f"module graph: {DOC.relative_to(ROOT)} has no `{MARKER}` block")
    block = text.split(MARKER, 1)[1].split("```", 2)[1]
    graph = {}
    for line in block.splitlines()[1:]:
        if not line.strip():
            continue
        match = re.fullmatch(r"\s*(\S+)\s+→\s+(.*?)\s*", line)
        if not match:
            sys.exit(f"module graph: cannot read the line {line!r}")
        name, targets = match.groups()
        graph[name] = [] if targets == "(none)" else sorted(t.strip() for t in targets.split(","))
    return graph


def render(graph):
    width = max(map(len, graph))
    return "\n".join(f"{name.ljust(width)} → {', '.join(deps) or '(none)'}" for name, deps in graph.items())


def main():
    graph = declared()
    if "--print" in sys.argv:
        print(render(graph))
        return 0
    drawing = drawn()
    findings = []
    for name in sorted(set(graph) | set(drawing)):
        if name not in drawing:
            findings.append(f"{name}: in Package.swift, not in the drawing")
        elif name not in graph:
            findings.append(f"{name}: in the drawing, not in Package.swift")
        else:
            for extra in sorted(set(graph[name]) - set(drawing[name])):
                findings.append(f"{name} depends on {extra}, which the drawing does not allow")
            for missing in sorted(set(drawing[name]) - set(graph[name])):
                findings.append(f"{name}: the drawing shows {missing}, which Package.swift does not declare")
    for finding in findings:
        print(f"module graph: {finding}", file=sys.stderr)
    print(f"module graph: {len(graph)} targets, {len(findings)} differences from docs/architecture.md")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
