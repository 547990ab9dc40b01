#!/usr/bin/env python3
"""The status page's script and stylesheet are well-formed (`make test`): `node --check` on page.js, and
page.css parsed by tinycss2 (pinned in tools/requirements.txt), every rule, nested rule and declaration,
with any parse error failing the check. Both are compiled into the binary as they are
(Package.swift's `.embedInCode`), so what is checked here is what the page serves."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESOURCES = ROOT / "Sources/LarderApp/StatusPage/Resources"


def css_errors(css):
    import tinycss2
    errors, rules, declarations = [], 0, 0

    def walk(nodes, nested):
        nonlocal rules, declarations
        for node in nodes:
            if node.type == "error":
                errors.append(f"{node.source_line}:{node.source_column}: {node.message}")
            elif node.type == "qualified-rule":
                rules += 1
                for item in tinycss2.parse_declaration_list(node.content, skip_comments=True, skip_whitespace=True):
                    if item.type == "error":
                        errors.append(f"{item.source_line}:{item.source_column}: {item.message}")
                    elif item.type == "declaration":
                        declarations += 1
            elif node.type == "at-rule":
                rules += 1
                if node.content is not None:
                    walk(tinycss2.parse_rule_list(node.content, skip_comments=True, skip_whitespace=True), True)

    walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True), False)
    return errors, rules, declarations


def main():
    if subprocess.run([sys.executable, str(ROOT / "tools/check/python-tools.py")]).returncode != 0:
        return 1
    status = 0
    script = RESOURCES / "page.js"
    node = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True)
    if node.returncode != 0:
        print(f"page.js: node --check failed:\n{node.stderr}", file=sys.stderr)
        status = 1
    errors, rules, declarations = css_errors((RESOURCES / "page.css").read_text())
    for error in errors:
        print(f"page.css:{error}", file=sys.stderr)
    if errors or not declarations:
        status = 1
    print(f"page assets: page.js {'passes' if node.returncode == 0 else 'FAILS'} node --check; page.css: "
          f"{rules} rules, {declarations} declarations, {len(errors)} parse errors")
    return status


if __name__ == "__main__":
    sys.exit(main())
