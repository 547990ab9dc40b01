#!/usr/bin/env python3
"""The manifest checks itself: every target declares exactly the modules its files import.

`swift build --explicit-target-dependency-import-check error` catches an import of another of the
package's targets that a target does not declare; this catches the rest: a declared dependency no
file of the target imports, and an import of a dependency's product that the target does not declare
(it builds only because another target pulled the product in). Reads `swift package dump-package`;
exits 1 and names each finding.

It also keeps test code out of the product: a type declared at the top level of a product module's file
that no product code uses (comments aside) but a test or the test-support modules (LarderTesting,
LarderFuzzing) do belongs in those, not in what ships.
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
# A C target "imports" a system library when it includes a header that the library's module header
# includes (CLarderHTTP's `#include <microhttpd.h>` is CMicroHTTPD's).
include_line = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]', re.M)
system_headers = {}
for target in manifest["targets"]:
    if target["type"] == "system":
        folder = root / (target.get("path") or f"Sources/{target['name']}")
        headers = re.findall(r'header[ \t]+"([^"]+)"', (folder / "module.modulemap").read_text())
        system_headers[target["name"]] = {name for header in headers
                                          for name in include_line.findall((folder / header).read_text())}
findings = []
for target in manifest["targets"]:
    if target["type"] == "system":
        continue
    folder = "Tests" if target["type"] == "test" else "Sources"
    path = root / (target.get("path") or f"{folder}/{target['name']}")
    imported = {name for file in path.rglob("*.swift") for name in import_line.findall(file.read_text())}
    included = {name for pattern in ("*.c", "*.h") for file in path.rglob(pattern)
                for name in include_line.findall(file.read_text())}
    imported |= {name for name, headers in system_headers.items() if headers & included}
    declared = {next(iter(dependency.values()))[0] for dependency in target["dependencies"]}
    for name in sorted(declared - imported):
        findings.append(f"{target['name']}: declares {name} but no file imports it")
    for name in sorted((imported & known) - declared - {target["name"]}):
        findings.append(f"{target['name']}: imports {name} without declaring it")

# Test code out of product modules.
TEST_SUPPORT = {"LarderTesting", "LarderFuzzing"}
declaration = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?[ \t]+)*(?:(?:public|package|internal|final|indirect)[ \t]+)*"
    r"(?:struct|class|enum|actor|protocol)[ \t]+(\w+)", re.M)


def code(file):
    """A Swift file's text without its comments (line comments and block comments)."""
    text = re.sub(r"/\*.*?\*/", " ", file.read_text(), flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


product, tests = {}, []
for target in manifest["targets"]:
    if target["type"] == "system":
        continue
    folder = "Tests" if target["type"] == "test" else "Sources"
    files = list((root / (target.get("path") or f"{folder}/{target['name']}")).rglob("*.swift"))
    if target["type"] == "test" or target["name"] in TEST_SUPPORT:
        tests += [code(file) for file in files]
    else:
        product[target["name"]] = {file: code(file) for file in files}
product_text = "\n".join(text for files in product.values() for text in files.values())
test_text = "\n".join(tests)
test_only = 0
for module, files in sorted(product.items()):
    for file, text in sorted(files.items()):
        for name in declaration.findall(text):
            uses = len(re.findall(rf"\b{name}\b", product_text))
            declared_here = len(re.findall(rf"\b(?:struct|class|enum|actor|protocol|extension)[ \t]+{name}\b", product_text))
            if uses == declared_here and re.search(rf"\b{name}\b", test_text):
                test_only += 1
                findings.append(f"{module}: {name} ({file.relative_to(root)}) is used only by tests: "
                                "move it to LarderTesting or the test target that uses it")

for finding in findings:
    print(finding)
print(f"manifest imports: {len(manifest['targets'])} targets, {len(findings) - test_only} findings; "
      f"test-only types in product modules: {test_only}")
sys.exit(1 if findings else 0)
