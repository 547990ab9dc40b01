#!/usr/bin/env python3
"""The manifest checks itself: every target declares exactly the modules its files import.

`swift build --explicit-target-dependency-import-check error` catches an import a target does not
declare; this catches the other half, a declared dependency no file of the target imports.
Reads `swift package dump-package`; exits 1 and names each finding.
"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2]
manifest = json.loads(subprocess.run(
    ["swift", "package", "dump-package"], cwd=root, check=True, capture_output=True, text=True).stdout)
import_line = re.compile(
    r"^[ \t]*(?:@\w+(?:\([^)]*\))?[ \t]+)*(?:(?:public|package|internal)[ \t]+)?import[ \t]+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)", re.M)
findings = []
for target in manifest["targets"]:
    if target["type"] == "system":
        continue
    folder = "Tests" if target["type"] == "test" else "Sources"
    path = root / (target.get("path") or f"{folder}/{target['name']}")
    imported = {name for file in path.rglob("*.swift") for name in import_line.findall(file.read_text())}
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        if name not in imported:
            findings.append(f"{target['name']}: declares {name} but no file imports it")
for finding in findings:
    print(finding)
print(f"manifest imports: {len(manifest['targets'])} targets, {len(findings)} findings")
sys.exit(1 if findings else 0)
