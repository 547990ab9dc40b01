#!/usr/bin/env python3
"""The manifest checks itself: every target declares exactly the modules its files import.

`swift build --explicit-target-dependency-import-check error` catches an import of another of the
package's targets that a target does not declare; this catches the rest: a declared dependency no
file of the target imports, and an import of a dependency's product that the target does not declare
(it builds only because another target pulled the product in). Reads `swift package dump-package`;
exits 1 and names each finding.
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
# Every module the manifest knows: its own targets, and the products any target depends on.
known = {target["name"] for target in manifest["targets"]}
known |= {value[0] for target in manifest["targets"] for dependency in target["dependencies"]
          for kind, value in dependency.items() if kind == "product"}
findings = []
for target in manifest["targets"]:
    if target["type"] == "system":
        continue
    folder = "Tests" if target["type"] == "test" else "Sources"
    path = root / (target.get("path") or f"{folder}/{target['name']}")
    imported = {name for file in path.rglob("*.swift") for name in import_line.findall(file.read_text())}
    declared = {next(iter(dependency.values()))[0] for dependency in target["dependencies"]}
    for name in sorted(declared - imported):
        findings.append(f"{target['name']}: declares {name} but no file imports it")
    for name in sorted((imported & known) - declared - {target["name"]}):
        findings.append(f"{target['name']}: imports {name} without declaring it")
for finding in findings:
    print(finding)
print(f"manifest imports: {len(manifest['targets'])} targets, {len(findings)} findings")
sys.exit(1 if findings else 0)
