#!/usr/bin/env python3
"""Fails unless SwiftPM resolved exactly the packages and versions of scripts/swift-dependencies.txt.

Package.swift pins Larder's direct dependencies with `exact:`; their own dependencies are ranges, so a
newer release of one (swift-nio's, say) would change the binary without a change here. Package.resolved
is not committed (it names this machine's mirrors), so the pins live in the list and this check reads the
resolution SwiftPM wrote.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def pinned():
    with open(os.path.join(ROOT, "scripts/swift-dependencies.txt")) as listing:
        lines = [line.split() for line in listing if line.strip() and not line.startswith("#")]
    return {identity: version for identity, version in lines}


def resolved():
    path = os.path.join(ROOT, "Package.resolved")
    if not os.path.exists(path):
        sys.exit("check-swift-dependencies: no Package.resolved: run `swift package resolve` (or any build) first")
    with open(path) as file:
        return {pin["identity"]: pin["state"].get("version") for pin in json.load(file)["pins"]}


def main():
    want, got = pinned(), resolved()
    problems = [f"{name}: pinned {want[name]}, resolved {got.get(name, 'nothing')}"
                for name in sorted(want) if got.get(name) != want[name]]
    problems += [f"{name}: resolved {got[name]}, not pinned" for name in sorted(set(got) - set(want))]
    if problems:
        print("check-swift-dependencies: the resolution differs from scripts/swift-dependencies.txt:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
