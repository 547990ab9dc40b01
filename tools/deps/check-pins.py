#!/usr/bin/env python3
"""Fails unless the build's inputs are the pinned ones: SwiftPM resolved exactly the packages and versions
of tools/deps/swift-dependencies.txt, and pkg-config finds the libmicrohttpd tools/deps/libmicrohttpd.sh pins.

Package.swift pins Larder's direct dependencies with `exact:`; their own dependencies are ranges, so a
newer release of one (swift-nio's, say) would change the binary without a change here. Package.resolved
is not committed (it names this machine's mirrors), so the pins live in the list and this check reads the
resolution SwiftPM wrote. libmicrohttpd comes through pkg-config, so a PKG_CONFIG_PATH without `make deps`'
build first would link whatever the system has: the stamp of the build it finds must name the pin.
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def pinned():
    with open(os.path.join(ROOT, "tools/deps/swift-dependencies.txt")) as listing:
        lines = [line.split() for line in listing if line.strip() and not line.startswith("#")]
    return {identity: version for identity, version in lines}


def resolved():
    path = os.path.join(ROOT, "Package.resolved")
    if not os.path.exists(path):
        sys.exit("check-pins: no Package.resolved: run `swift package resolve` (or any build) first")
    with open(path) as file:
        return {pin["identity"]: pin["state"].get("version") for pin in json.load(file)["pins"]}


def libmicrohttpd_problems():
    with open(os.path.join(ROOT, "tools/deps/libmicrohttpd.sh")) as script:
        version = re.search(r"^VERSION=(\S+)$", script.read(), re.M).group(1)
    found = subprocess.run(["pkg-config", "--variable=prefix", "libmicrohttpd"], capture_output=True, text=True)
    if found.returncode != 0:
        return [f"libmicrohttpd: pkg-config finds none; run `make deps` (pinned {version})"]
    try:
        with open(os.path.join(found.stdout.strip(), "larder.stamp")) as stamp:
            built = stamp.read().split("\n", 1)[0]
    except OSError:
        return [f"libmicrohttpd: pkg-config finds {found.stdout.strip()}, not a build of tools/deps/libmicrohttpd.sh (pinned {version})"]
    if not built.startswith(f"libmicrohttpd {version} "):
        return [f"libmicrohttpd: pinned {version}, pkg-config finds a build of `{built.split(';')[0]}`"]
    return []


def manifest_problems():
    """Each `.package` of Package.swift at an `exact:` version: a range would let a build next month differ."""
    with open(os.path.join(ROOT, "Package.swift")) as manifest:
        packages = re.findall(r"\.package\((url:[^)]*)\)", manifest.read())
    return [f"Package.swift: {package} is not pinned with exact:" for package in packages if "exact:" not in package]


def main():
    want, got = pinned(), resolved()
    problems = [f"{name}: pinned {want[name]}, resolved {got.get(name, 'nothing')}"
                for name in sorted(want) if got.get(name) != want[name]]
    problems += [f"{name}: resolved {got[name]}, not pinned" for name in sorted(set(got) - set(want))]
    problems += manifest_problems() + libmicrohttpd_problems()
    if problems:
        print("check-pins: the build's inputs differ from their pins (tools/deps/swift-dependencies.txt, tools/deps/libmicrohttpd.sh):", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
