#!/usr/bin/env python3
"""`make container-check`: prove Docker/Dockerfile's runtime image works, without a Docker engine.

1. Builds the binaries the way the Dockerfile's build stages do (their `swift build` flags: release,
   --static-swift-stdlib), on this machine's toolchain, in its own scratch folder (.build-container/).
2. Makes a minimal Debian bookworm root with `debootstrap --variant=minbase` (cached in .build-rootfs/)
   and replays the Dockerfile's two runtime stages (sample-upstream and the last, both FROM
   debian:bookworm-slim) into a copy of it: its RUN commands run in the root (so the packages installed
   are exactly the Dockerfile's, read from it, and the user is made by its own useradd), its COPY
   instructions copy the binaries just built (a `COPY --from=<stage> /staging/X` is X from the build),
   its ENV, USER, WORKDIR, VOLUME, HEALTHCHECK, ENTRYPOINT, CMD and STOPSIGNAL are honoured.
3. Checks that every shared library the binaries need resolves inside that root (ldd in the root).
4. Runs the images as the containers would: chroot into the root mounted read-only, as the image's
   USER, with the VOLUME a separate writable mount, /proc and a tmpfs /tmp, the image's environment,
   ENTRYPOINT + CMD. The sample-upstream image serves Examples/upstream on loopback (the chroots share
   this machine's network), Larder uses it as its rates and documents upstream; curl on the host checks
   /health, /ready, /rates and /documents; the image's HEALTHCHECK command runs inside the root;
   STOPSIGNAL stops Larder, which must exit 0 in time.

Needs root (debootstrap, mount, chroot) and the network (Debian mirror). Takes minutes the first time.
Not run in CI. Environment: DOCKERFILE (default Docker/Dockerfile), CONTAINER_CHECK_DIR (.build-rootfs),
CONTAINER_CHECK_SCRATCH (.build-container), DEBIAN_MIRROR / DEBIAN_SECURITY_MIRROR (default: this machine's
apt sources for bookworm, else deb.debian.org), CONTAINER_CHECK_MAX_AGE_DAYS (7).
`--clean` unmounts anything left and removes the cache folder.
"""
import fcntl
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import dockerfile  # tools/container/dockerfile.py, beside this script

REPO = Path(__file__).resolve().parents[2]
os.chdir(REPO)
DOCKERFILE = Path(os.environ.get("DOCKERFILE", "Docker/Dockerfile"))
WORK = (REPO / os.environ.get("CONTAINER_CHECK_DIR", ".build-rootfs")).resolve()
SCRATCH = os.environ.get("CONTAINER_CHECK_SCRATCH", ".build-container")
MAX_AGE = float(os.environ.get("CONTAINER_CHECK_MAX_AGE_DAYS", "7")) * 86400
SUITE = "bookworm"
BASE_IMAGE = "debian:bookworm-slim"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
STOP_GRACE = 15  # compose's stop_grace_period and Kubernetes' terminationGracePeriodSeconds

failures = []
passes = 0
figures = {}


def say(message):
    print(f"container-check: {message}", flush=True)


def passed(what, detail=""):
    global passes
    passes += 1
    say(f"PASS  {what}" + (f" — {detail}" if detail else ""))


def failed(what, detail=""):
    failures.append(what)
    say(f"FAIL  {what}" + (f" — {detail}" if detail else ""))


class Abort(Exception):
    """A failure after which nothing further can be checked."""


def run(argv, **kwargs):
    return subprocess.run(argv, text=True, capture_output=True, **kwargs)


def tail(path_or_text, lines=15):
    text = Path(path_or_text).read_text(errors="replace") if isinstance(path_or_text, Path) else path_or_text
    return "\n".join("      | " + line for line in text.rstrip().splitlines()[-lines:])


def human(size):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{size:.1f} {unit}" if unit != "B" else f"{size} B"
        size /= 1024


# ---------------------------------------------------------------------------------------------------
# The Dockerfile


def chain(stages, stage):
    """The stage and the stages it is built FROM, base first."""
    by_name = {s.name: s for s in stages}
    result = [stage]
    while result[0].base in by_name:
        result.insert(0, by_name[result[0].base])
    return result


def staged_outputs(stages, stage_name):
    """For a build stage: its `swift build --product P` commands and where each /staging/X comes from."""
    by_name = {s.name: s for s in stages}
    if stage_name not in by_name:
        raise Abort(f"COPY --from={stage_name}: no such stage")
    builds, staging = {}, {}
    for stage in chain(stages, by_name[stage_name]):
        for keyword, argument in stage.steps:
            if keyword != "RUN":
                continue
            for match in re.finditer(r"swift build((?:\s+[^\s&;|)\"'$]+)+)", argument):
                words = match.group(1).split()
                if "--product" in words:
                    at = words.index("--product")
                    product = words[at + 1]
                    builds[product] = words[:at] + words[at + 2:]
            for match in re.finditer(r"(\"?[^\s\"]+\"?)\s+/staging/([^\s&;|]+)", argument):
                source, target = match.group(1).strip('"'), match.group(2)
                staging[target] = source
    return builds, staging


def apt_packages(steps):
    names = []
    for keyword, argument in steps:
        if keyword == "RUN":
            for match in re.finditer(r"apt-get\s+install\s+([^&;|]*)", argument):
                names += [w for w in match.group(1).split() if not w.startswith("-")]
    return names


# ---------------------------------------------------------------------------------------------------
# Mounts and folders


def mountpoints_under(path):
    path = str(path)
    points = []
    with open("/proc/self/mountinfo") as mountinfo:
        for line in mountinfo:
            point = line.split()[4].encode().decode("unicode_escape")
            if point == path or point.startswith(path + "/"):
                points.append(point)
    return points


def unmount_under(path):
    for point in sorted(set(mountpoints_under(path)), key=len, reverse=True):
        if run(["umount", point]).returncode != 0:
            run(["umount", "-l", point])
    left = mountpoints_under(path)
    if left:
        raise Abort(f"cannot unmount {left}")


def remove_tree(path):
    path = Path(path)
    unmount_under(path)
    if path.exists() or path.is_symlink():
        subprocess.run(["rm", "-rf", "--one-file-system", str(path)], check=True)


def mount(*argv):
    result = run(["mount", *argv])
    if result.returncode != 0:
        raise Abort(f"mount {' '.join(argv)}: {result.stderr.strip()}")


# ---------------------------------------------------------------------------------------------------
# Building the binaries like the Dockerfile's build stages


def toolchain_usr():
    swift = shutil.which("swift")
    if not swift:
        raise Abort("swift is not on PATH")
    return Path(os.path.realpath(swift)).parent.parent


def build_products(builds):
    """Builds each product with the Dockerfile's flags; returns {product: host path}."""
    paths = {}
    for product, flags in builds.items():
        command = ["swift", "build", *flags, "--product", product, "--scratch-path", SCRATCH]
        say(f"building {product}: {shlex.join(command)}")
        started = time.monotonic()
        result = run(command)
        if result.returncode != 0:
            raise Abort(f"swift build of {product} failed:\n{tail(result.stdout + result.stderr, 25)}")
        bin_path = run(["swift", "build", *flags, "--show-bin-path", "--scratch-path", SCRATCH]).stdout.strip()
        paths[product] = Path(bin_path) / product
        figures[f"{product} binary"] = human(paths[product].stat().st_size)
        passed(f"build {product}", f"{time.monotonic() - started:.0f} s, {human(paths[product].stat().st_size)} "
                                   f"({' '.join(flags)})")
    return paths


def staging_sources(stages, copies):
    """Maps every `COPY --from=S /staging/X` source to a file on this machine (building what is needed)."""
    builds, sources, wanted = {}, {}, {}
    for stage_name, source in copies:
        stage_builds, staging = staged_outputs(stages, stage_name)
        name = source.removeprefix("/staging/")
        if not source.startswith("/staging/") or name not in staging:
            raise Abort(f"COPY --from={stage_name} {source}: container-check only knows files the build stage "
                        f"installs into /staging/")
        if name in stage_builds:
            builds[name] = stage_builds[name]
            wanted[(stage_name, source)] = ("product", name)
        elif staging[name].startswith("/usr/"):
            host = toolchain_usr() / staging[name].removeprefix("/usr/")
            if not host.is_file():
                raise Abort(f"{staging[name]} (the build image's toolchain) is {host} here, which does not exist")
            wanted[(stage_name, source)] = ("file", host)
        else:
            raise Abort(f"/staging/{name} comes from {staging[name]}, which container-check cannot map")
    built = build_products(builds)
    for key, (kind, value) in wanted.items():
        sources[key] = built[value] if kind == "product" else value
    return sources


# ---------------------------------------------------------------------------------------------------
# The Debian root


def apt_mirror(suite, default):
    files = ["/etc/apt/sources.list"] + glob.glob("/etc/apt/sources.list.d/*.list") + \
        glob.glob("/etc/apt/sources.list.d/*.sources")
    for name in files:
        try:
            text = Path(name).read_text()
        except OSError:
            continue
        if name.endswith(".sources"):
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(re.findall(r"(?m)^(\w[\w-]*):\s*(.*)$", stanza))
                if suite in fields.get("Suites", "").split() and "main" in fields.get("Components", "").split():
                    return fields["URIs"].split()[0].rstrip("/")
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line).split()
                if len(words) >= 4 and words[0] == "deb" and words[2] == suite and "main" in words[3:]:
                    return words[1].rstrip("/")
    return default


def ensure_debootstrap():
    if shutil.which("debootstrap"):
        return
    say("installing debootstrap with apt-get")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update", "-qq"], env=env)
    result = run(["apt-get", "install", "-y", "-qq", "debootstrap"], env=env)
    if result.returncode != 0:
        raise Abort(f"cannot install debootstrap:\n{tail(result.stderr)}")


MINBASE_RECIPE = "slim-1"  # bump when slim() changes, to rebuild the cached root
# What the debian:bookworm-slim image adds to a minbase root (debuerreotype's "slim" and docker tweaks): no
# documentation, man pages or translations, and apt keeps no downloaded packages or caches.
SLIM_DPKG = """path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/groff/*
path-exclude /usr/share/info/*
path-exclude /usr/share/linda/*
path-exclude /usr/share/lintian/overrides/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/man/*
"""
SLIM_APT = """DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
APT::Update::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; };
Dir::Cache::pkgcache "";
Dir::Cache::srcpkgcache "";
"""


def slim(root):
    """Makes a minbase root look like debian:bookworm-slim, so the root's size estimates the image's."""
    (root / "etc/dpkg/dpkg.cfg.d/docker").write_text(SLIM_DPKG)
    (root / "etc/apt/apt.conf.d/docker-clean").write_text(SLIM_APT)
    for pattern in ("usr/share/groff/*", "usr/share/info/*", "usr/share/linda/*", "usr/share/lintian/overrides/*",
                    "usr/share/locale/*", "usr/share/man/*", "var/cache/apt/archives/*.deb", "var/cache/apt/*.bin",
                    "var/lib/apt/lists/*"):
        for path in root.glob(pattern):
            remove_tree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
    for path in root.glob("usr/share/doc/*"):
        if path.is_dir() and not path.is_symlink():
            for entry in path.iterdir():
                if entry.name != "copyright":
                    remove_tree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()


def minbase_root(mirror, security):
    root = WORK / f"minbase-{SUITE}"
    stamp = root / ".container-check-minbase"
    if stamp.is_file() and stamp.read_text().split("\n")[0] == f"{mirror} {MINBASE_RECIPE}":
        say(f"debootstrap root: cached {root.relative_to(REPO)}")
        return root
    ensure_debootstrap()
    partial = WORK / f"minbase-{SUITE}.partial"
    remove_tree(partial)
    remove_tree(root)
    log = WORK / "logs" / "debootstrap.log"
    say(f"debootstrap --variant=minbase {SUITE} {partial.relative_to(REPO)} {mirror} (a minute or two)")
    started = time.monotonic()
    with open(log, "w") as out:
        code = subprocess.run(["debootstrap", "--variant=minbase", SUITE, str(partial), mirror],
                              stdout=out, stderr=subprocess.STDOUT).returncode
    unmount_under(partial)  # debootstrap mounts /proc and /sys while it works
    if code != 0:
        raise Abort(f"debootstrap failed (exit {code}):\n{tail(log)}")
    # The same apt sources as the debian:bookworm-slim image (with updates and security).
    (partial / "etc/apt/sources.list").unlink(missing_ok=True)
    (partial / "etc/apt/sources.list.d/debian.sources").write_text(
        f"Types: deb\nURIs: {mirror}\nSuites: {SUITE} {SUITE}-updates\nComponents: main\n"
        f"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n"
        f"Types: deb\nURIs: {security}\nSuites: {SUITE}-security\nComponents: main\n"
        f"Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    slim(partial)
    (partial / ".container-check-minbase").write_text(f"{mirror} {MINBASE_RECIPE}\n{time.time()}\n")
    partial.rename(root)
    passed("debootstrap --variant=minbase", f"{time.monotonic() - started:.0f} s")
    return root


# ---------------------------------------------------------------------------------------------------
# Replaying a runtime stage


class Image:
    """What a stage's metadata instructions leave: the runtime configuration of the image."""

    def __init__(self, stage):
        self.stage = stage
        self.env = {}
        self.user, self.workdir = "0", "/"
        self.volumes = []
        self.healthcheck = None
        self.entrypoint, self.cmd = [], []
        self.stopsignal = "SIGTERM"


def passwd_entry(root, user):
    for line in (root / "etc/passwd").read_text().splitlines():
        fields = line.split(":")
        if user in (fields[0], fields[2]):
            return fields
    return None


def group_id(root, group):
    if group.isdigit():
        return int(group)
    for line in (root / "etc/group").read_text().splitlines():
        fields = line.split(":")
        if fields[0] == group:
            return int(fields[2])
    raise Abort(f"group {group!r} is not in the image's /etc/group")


def identity(root, userspec):
    """(uid, gid, supplementary groups, home) for a USER value, resolved in the image like Docker does."""
    user, _, group = userspec.partition(":")
    entry = passwd_entry(root, user)
    if entry is None and not user.isdigit():
        raise Abort(f"user {user!r} is not in the image's /etc/passwd")
    uid = int(user) if user.isdigit() else int(entry[2])
    gid = group_id(root, group) if group else (int(entry[3]) if entry else 0)
    groups = {gid}
    if entry:
        for line in (root / "etc/group").read_text().splitlines():
            fields = line.split(":")
            if entry[0] in fields[3].split(","):
                groups.add(int(fields[2]))
    return uid, gid, sorted(groups), (entry[5] if entry else "/")


def enter(root, workdir, uid, gid, groups):
    def preexec():
        os.chroot(root)
        os.chdir(workdir)
        os.setgroups(groups)
        os.setgid(gid)
        os.setuid(uid)
    return preexec


def container_env(image, root, extra=None):
    home = identity(root, image.user)[3]
    env = {"PATH": DEFAULT_PATH, "HOSTNAME": "container-check", "HOME": home}
    env.update(image.env)
    env.update(extra or {})
    return env


def replay(image, steps, root, copy_sources, execute, log):
    """Applies the stage's instructions to the image's metadata and, when execute, to the root."""
    for keyword, argument in steps:
        if keyword == "RUN":
            command = argument
            if command.startswith("--"):
                raise Abort(f"RUN {command.split()[0]}: flags are not supported by container-check")
            if not execute:
                continue
            uid, gid, groups, home = identity(root, image.user)
            env = {"PATH": DEFAULT_PATH, "HOME": home, **image.env}
            with open(log, "a") as out:
                out.write(f"\n$ RUN {command}\n")
                out.flush()
                code = subprocess.run(dockerfile.exec_form(command), env=env, stdout=out, stderr=subprocess.STDOUT,
                                      preexec_fn=enter(str(root), image.workdir, uid, gid, groups)).returncode
            if code != 0:
                raise Abort(f"RUN in stage {image.stage.name} failed (exit {code}): {command[:100]}…\n{tail(log)}")
        elif keyword == "COPY":
            flags, rest = dockerfile.flags_and_rest(argument)
            if set(flags) - {"from"}:
                raise Abort(f"COPY {argument}: only --from is supported by container-check")
            *sources, destination = dockerfile.words(rest)
            if not execute:
                continue
            if not destination.startswith("/"):
                destination = os.path.join(image.workdir, destination)
            for source in sources:
                host = copy_sources[(flags["from"], source)] if "from" in flags else REPO / source
                target = root / destination.lstrip("/")
                if host.is_dir():
                    shutil.copytree(host, target, dirs_exist_ok=True, symlinks=True)
                    paths = [target, *target.rglob("*")]
                else:
                    if destination.endswith("/") or len(sources) > 1:
                        target = target / host.name
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(host, target)
                    paths = [target]
                for path in paths:
                    os.lchown(path, 0, 0)  # COPY without --chown: root's
        elif keyword == "ENV":  # the key=value form only
            image.env.update(word.split("=", 1) for word in shlex.split(argument))
        elif keyword == "USER":
            image.user = argument.strip()
        elif keyword == "WORKDIR":
            image.workdir = os.path.join(image.workdir, argument.strip())
            if execute:
                (root / image.workdir.lstrip("/")).mkdir(parents=True, exist_ok=True)
        elif keyword == "VOLUME":
            image.volumes += dockerfile.words(argument)
        elif keyword == "HEALTHCHECK":
            command = dockerfile.flags_and_rest(argument)[1]
            image.healthcheck = None if command.upper() == "NONE" else \
                dockerfile.exec_form(re.sub(r"^CMD\s+", "", command))
        elif keyword == "ENTRYPOINT":
            image.entrypoint, image.cmd = dockerfile.exec_form(argument), []
        elif keyword == "CMD":
            image.cmd = dockerfile.exec_form(argument)
        elif keyword == "STOPSIGNAL":
            image.stopsignal = argument.strip()
        elif keyword not in ("LABEL", "EXPOSE"):  # the host's ports are shared: nothing to publish
            raise Abort(f"{keyword}: not supported by container-check")


def prepare_image(stage, pristine, copy_sources, mirror):
    """The stage's root, fresh for this run: a cached copy of the root after the stage's first RUNs, then
    the rest (the COPY of the binaries just built, and anything after it) replayed on a copy."""
    first_copy = next((i for i, (k, _) in enumerate(stage.steps) if k == "COPY"), len(stage.steps))
    prefix, suffix = stage.steps[:first_copy], stage.steps[first_copy:]
    if any(k == "RUN" for k, _ in suffix):
        raise Abort(f"stage {stage.name}: a RUN after a COPY; keep the RUN steps first (their root is cached)")
    image = Image(stage)
    log = WORK / "logs" / f"{stage.name}-replay.log"
    key = hashlib.sha256(json.dumps([BASE_IMAGE, mirror, prefix,
                                     (pristine / ".container-check-minbase").read_text()]).encode()).hexdigest()
    cached = WORK / f"image-{stage.name}"
    stamp = cached / ".container-check-stage"
    fresh = stamp.is_file() and stamp.read_text().split("\n")[0] == key and \
        time.time() - float(stamp.read_text().split("\n")[1]) < MAX_AGE
    if fresh:
        replay(image, prefix, cached, copy_sources, execute=False, log=log)
        say(f"stage {stage.name}: cached root after its RUN steps ({cached.relative_to(REPO)})")
    else:
        partial = WORK / f"image-{stage.name}.partial"
        remove_tree(partial)
        remove_tree(cached)
        log.write_text("")
        say(f"stage {stage.name}: replaying its RUN steps in a copy of the minbase root (apt-get: a minute)")
        started = time.monotonic()
        subprocess.run(["cp", "-a", str(pristine), str(partial)], check=True)
        mount("-t", "proc", "proc", str(partial / "proc"))
        try:
            replay(image, prefix, partial, copy_sources, execute=True, log=log)
        finally:
            unmount_under(partial)
        (partial / ".container-check-minbase").unlink(missing_ok=True)
        stamp_text = f"{key}\n{time.time()}\n"
        (partial / ".container-check-stage").write_text(stamp_text)
        partial.rename(cached)
        passed(f"stage {stage.name}: RUN steps replayed", f"{time.monotonic() - started:.0f} s")
    root = WORK / f"run-{stage.name}"
    remove_tree(root)
    subprocess.run(["cp", "-a", str(cached), str(root)], check=True)
    (root / ".container-check-stage").unlink(missing_ok=True)
    replay(image, suffix, root, copy_sources, execute=True, log=log)
    return image, root


def check_packages(image, root):
    wanted = apt_packages(image.stage.steps)
    result = run(["chroot", str(root), "dpkg-query", "-W", "-f", "${Package}=${Version} ${db:Status-Status}\n",
                  *wanted])
    installed = [line.split()[0] for line in result.stdout.splitlines() if line.endswith(" installed")]
    total = len(run(["chroot", str(root), "dpkg-query", "-W"]).stdout.splitlines())
    if result.returncode == 0 and len(installed) == len(wanted):
        passed(f"stage {image.stage.name}: the Dockerfile's packages are installed",
               f"{', '.join(installed)} ({total} packages in the root)")
    else:
        failed(f"stage {image.stage.name}: packages", result.stdout + result.stderr)
    return wanted


def owning_package(root, library):
    for candidate in (library, "/usr" + library if not library.startswith("/usr/") else library[4:]):
        result = run(["chroot", str(root), "dpkg-query", "-S", candidate])
        if result.returncode == 0:
            return result.stdout.split(":")[0]
    return "?"


def check_libraries(image, root, binaries, stage_packages):
    """ldd inside the root: every library resolves there. Lists which package brings each."""
    for binary in binaries:
        result = run(["chroot", str(root), "/usr/bin/ldd", binary])
        missing = [line.strip() for line in result.stdout.splitlines() if "not found" in line]
        if result.returncode != 0 and "not a dynamic executable" not in result.stdout + result.stderr:
            failed(f"ldd {binary} in the {image.stage.name} root", tail(result.stdout + result.stderr))
            continue
        if missing:
            failed(f"ldd {binary} in the {image.stage.name} root: {len(missing)} libraries not found",
                   "; ".join(missing))
            continue
        libraries = re.findall(r"^\s*(\S+) => (/\S+)", result.stdout, re.M)
        if not libraries:
            passed(f"ldd {binary} in the {image.stage.name} root", "statically linked")
            continue
        listed = []
        for soname, path in libraries:
            package = owning_package(root, path)
            mark = "*" if package.split(":")[0] in stage_packages else ""
            listed.append(f"{soname} ({package}{mark})")
        passed(f"ldd {binary} in the {image.stage.name} root: all {len(libraries)} libraries resolve",
               ", ".join(listed) + "   [* = installed by the stage's apt-get]")


# ---------------------------------------------------------------------------------------------------
# Running the images


def free_port():
    with socket.socket() as probe:
        probe.bind(("0.0.0.0", 0))
        return probe.getsockname()[1]


class Container:
    def __init__(self, image, root, argv, env, name):
        self.image, self.root, self.argv, self.env, self.name = image, root, argv, env, name
        self.process = None
        self.mounts = []
        self.stdout = WORK / "logs" / f"{name}.stdout"
        self.stderr = WORK / "logs" / f"{name}.stderr"

    def mount(self):
        root = str(self.root)
        mount("--bind", root, root)
        mount("-o", "remount,bind,ro", root)
        mount("-t", "proc", "proc", f"{root}/proc")
        mount("-t", "tmpfs", "-o", "size=16m,mode=1777", "tmpfs", f"{root}/tmp")
        for number, volume in enumerate(self.image.volumes):
            # A new named volume: Docker copies the image's folder (contents, owner, mode) into it.
            host = WORK / f"volume-{self.name}-{number}"
            remove_tree(host)
            subprocess.run(["cp", "-a", f"{root}/{volume.lstrip('/')}", str(host)], check=True)
            mount("--bind", str(host), f"{root}/{volume.lstrip('/')}")
            self.mounts.append((volume, host))

    def start(self):
        uid, gid, groups, _ = identity(self.root, self.image.user)
        self.identity = (uid, gid)
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.argv, env=self.env, stdin=subprocess.DEVNULL,
                                        stdout=open(self.stdout, "w"), stderr=open(self.stderr, "w"),
                                        preexec_fn=enter(str(self.root), self.image.workdir, uid, gid, groups))

    def exec(self, argv, env=None, timeout=10):
        uid, gid, groups, _ = identity(self.root, self.image.user)
        return subprocess.run(argv, env=env or self.env, text=True, capture_output=True, timeout=timeout,
                              preexec_fn=enter(str(self.root), self.image.workdir, uid, gid, groups))

    def wait_listening(self, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(r"listening on (http://\S+)", self.stdout.read_text(errors="replace"))
            if match:
                return match.group(1), time.monotonic() - self.started
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        raise Abort(f"{self.name} did not print 'listening on' within {timeout} s "
                    f"(exit {self.process.poll()}):\n{tail(self.stderr)}")

    def stop(self, grace=STOP_GRACE):
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None, 0.0
        started = time.monotonic()
        self.process.send_signal(getattr(signal, self.image.stopsignal))
        try:
            code = self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
            code = f"killed after {grace} s"
        return code, time.monotonic() - started

    def unmount(self):
        unmount_under(self.root)


def curl(url):
    """(status, body bytes, headers text) through curl on the host."""
    body = WORK / "logs" / "curl.body"
    result = run(["curl", "-sS", "--max-time", "5", "-o", str(body), "-D", "-", "-w", "\n%{http_code}", url])
    status = int(result.stdout.rsplit("\n", 1)[-1] or 0) if result.returncode == 0 else 0
    return status, body.read_bytes() if body.exists() else b"", result.stdout + result.stderr


def process_status(pid):
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def override(argv, option, value):
    argv = list(argv)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return argv


def check_larder(larder):
    url, took = larder.wait_listening()
    figures["listening after"] = f"{took:.2f} s"
    base = f"http://127.0.0.1:{larder.env['LARDER_PORT']}"
    passed("larder serve started in the read-only root", f"printed 'listening on {url}' after {took:.2f} s")

    status = process_status(larder.process.pid)
    uid, gid = larder.identity
    real = (status["Uid"].split()[0], status["Gid"].split()[0])
    if real == (str(uid), str(gid)) and uid != 0:
        passed("runs as the image's non-root USER", f"uid {real[0]}, gid {real[1]}, groups {status['Groups'] or '-'}")
    else:
        failed("runs as the image's USER", f"uid/gid {real}, expected {uid}/{gid}")
    root_mount = [line for line in Path("/proc/self/mountinfo").read_text().splitlines()
                  if line.split()[4] == str(larder.root)]
    if root_mount and "ro" in root_mount[-1].split()[5].split(","):
        passed("root filesystem is read-only; the VOLUME is the writable mount", ", ".join(v for v, _ in larder.mounts))
    else:
        failed("root filesystem read-only", str(root_mount))

    code, body, _ = curl(base + "/health")
    if code == 200 and json.loads(body or b"{}").get("status") == "ok":
        passed("GET /health", f"200 {body.decode().strip()}")
    else:
        failed("GET /health", f"{code} {body[:200]!r}")

    if larder.image.healthcheck:
        began = time.monotonic()
        result = larder.exec(larder.image.healthcheck)
        figures["healthcheck"] = f"{time.monotonic() - began:.2f} s"
        if result.returncode == 0:
            passed(f"HEALTHCHECK {shlex.join(larder.image.healthcheck)} in the root",
                   f"exit 0 in {figures['healthcheck']}: {result.stdout.strip()}")
        else:
            failed("HEALTHCHECK", f"exit {result.returncode}: {result.stdout}{result.stderr}")
        closed = dict(larder.env, LARDER_PORT=str(free_port()))
        result = larder.exec(larder.image.healthcheck, env=closed)
        if result.returncode == 1:
            passed("HEALTHCHECK against a port nobody listens on", f"exit 1: {result.stderr.strip()}")
        else:
            failed("HEALTHCHECK against a closed port should exit 1", f"exit {result.returncode}")
    else:
        failed("the image has no HEALTHCHECK")

    deadline = time.monotonic() + 30
    while True:
        code, body, _ = curl(base + "/ready")
        if code == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    took = time.monotonic() - larder.started
    if code == 200:
        figures["ready after"] = f"{took:.2f} s"
        passed("GET /ready", f"200 after {took:.2f} s from start: {body.decode(errors='replace').strip()[:160]}")
    else:
        failed("GET /ready", f"{code} after 30 s: {body[:300]!r}\n{tail(larder.stderr)}")

    code, body, headers = curl(base + "/rates")
    try:
        rates = json.loads(body)
    except ValueError:
        rates = {}
    if code == 200 and rates.get("rates"):
        cache = re.search(r"(?im)^cache-status:\s*(.*?)\s*$", headers)
        passed("GET /rates", f"200 base {rates.get('base')} date {rates.get('date')}, {len(rates['rates'])} rates"
                             + (f", Cache-Status: {cache.group(1)}" if cache else ""))
    else:
        failed("GET /rates", f"{code} {body[:300]!r}")

    code, body, _ = curl(base + "/documents")
    try:
        documents = json.loads(body).get("documents", [])
    except (ValueError, AttributeError):
        documents = []
    if code == 200 and documents:
        first = documents[0]
        document_code, document, _ = curl(f"{base}/documents/{first['name']}")
        digest = hashlib.sha256(document).hexdigest()
        if document_code == 200 and digest == first.get("sha256", digest):
            passed("GET /documents and a document from the volume",
                   f"{len(documents)} documents; {first['name']}: 200, {len(document)} bytes, sha256 matches")
        else:
            failed(f"GET /documents/{first['name']}", f"{document_code}, sha256 {digest} vs {first.get('sha256')}")
    else:
        failed("GET /documents", f"{code} {body[:300]!r}")

    status = process_status(larder.process.pid)
    figures["larder RSS"] = f"{status['VmRSS']} (peak {status['VmHWM']}), {status['Threads']} threads"

    files = []
    for volume, host in larder.mounts:
        for path in sorted(host.rglob("*")):
            stat = path.lstat()
            files.append((path, stat))
    foreign = [str(p.relative_to(WORK)) for p, s in files if (s.st_uid, s.st_gid) != larder.identity]
    if files and not foreign:
        size = sum(s.st_size for p, s in files if p.is_file())
        passed("the cache is written on the volume, owned by the image's user",
               f"{len(files)} entries, {human(size)}: " +
               ", ".join(p.name for p, _ in files if p.parent == larder.mounts[0][1])[:200])
    else:
        failed("cache files on the volume", f"{len(files)} entries; not owned by {larder.identity}: {foreign[:5]}")


def main():
    if "--clean" in sys.argv:
        remove_tree(WORK)
        say(f"removed {WORK}")
        return 0
    if os.geteuid() != 0:
        say("needs root (debootstrap, mount and chroot): run `sudo make container-check`")
        return 2
    WORK.mkdir(exist_ok=True)
    (WORK / "logs").mkdir(exist_ok=True)
    lock = open(WORK / ".lock", "w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say(f"another container-check holds {WORK}/.lock")
        return 2
    unmount_under(WORK)  # leftovers of an interrupted run

    started = time.monotonic()
    containers = []
    try:
        stages = dockerfile.read(DOCKERFILE)
        final = stages[-1]
        upstream_stage = next((s for s in stages if s.name == "sample-upstream"), None)
        if upstream_stage is None:
            raise Abort("the Dockerfile has no sample-upstream stage, which Larder is checked against")
        checked = [upstream_stage, final]
        for stage in checked:
            if stage.base != BASE_IMAGE:
                raise Abort(f"stage {stage.name} is FROM {stage.base}; container-check replays {BASE_IMAGE} only")
        say(f"{DOCKERFILE}: {len(stages)} stages; replaying " +
            ", ".join(f"{s.name} (FROM {s.base}, apt-get install {' '.join(apt_packages(s.steps))})" for s in checked))

        copies = []  # (stage, /staging/X) of each COPY --from
        for stage in checked:
            for flags, rest in (dockerfile.flags_and_rest(a) for k, a in stage.steps if k == "COPY"):
                if "from" in flags:
                    copies.append((flags["from"], rest.split()[0]))
        copy_sources = staging_sources(stages, copies)

        mirror = os.environ.get("DEBIAN_MIRROR") or apt_mirror(SUITE, "http://deb.debian.org/debian")
        security = os.environ.get("DEBIAN_SECURITY_MIRROR") or \
            apt_mirror(f"{SUITE}-security", "http://deb.debian.org/debian-security")
        pristine = minbase_root(mirror, security)

        images = {}
        for stage in checked:
            image, root = prepare_image(stage, pristine, copy_sources, mirror)
            packages = check_packages(image, root)
            binaries = ["/" + str(p.relative_to(root)) for p in (root / "usr/local").rglob("*")
                        if p.is_file() and os.access(p, os.X_OK)]
            check_libraries(image, root, binaries, packages)
            size = int(run(["du", "-sxb", str(root)]).stdout.split()[0])
            figures[f"{stage.name} root"] = human(size)
            say(f"stage {stage.name}: root {human(size)} (about the image's uncompressed size)")
            images[stage.name] = (image, root)
        if failures:
            raise Abort("the images are incomplete; not starting them")

        # The sample upstream, from its own image.
        upstream_port = free_port()
        image, root = images[upstream_stage.name]
        argv = override(override(image.entrypoint + image.cmd, "--host", "127.0.0.1"), "--port", str(upstream_port))
        upstream = Container(image, root, argv, container_env(image, root), "sample-upstream")
        upstream.mount()
        containers.append(upstream)
        upstream.start()
        url, took = upstream.wait_listening()
        passed("sample-upstream image started (read-only root, its USER)", f"{url} after {took:.2f} s")
        upstream_url = f"http://127.0.0.1:{upstream_port}"

        image, root = images[final.name]
        larder_port = free_port()
        env = container_env(image, root, {
            "LARDER_PORT": str(larder_port),
            "LARDER_RATES_URL": f"{upstream_url}/rates/eurofxref-hist-90d.xml",
            "LARDER_DOCUMENTS_URL": f"{upstream_url}/documents/index.json",
        })
        argv = image.entrypoint + image.cmd
        larder = Container(image, root, argv, env, "larder")
        larder.mount()
        containers.append(larder)
        version = larder.exec(["larder", "--version"])
        say(f"image environment: " + " ".join(f"{k}={v}" for k, v in image.env.items() if k.startswith("LARDER_")) +
            f"; overridden: LARDER_PORT={larder_port}, LARDER_RATES_URL, LARDER_DOCUMENTS_URL -> {upstream_url}")
        say(f"starting {shlex.join(argv)} as {image.user} in {root.relative_to(REPO)} (cwd {image.workdir}); "
            f"larder --version: {version.stdout.strip() or version.stderr.strip()}")
        larder.start()
        check_larder(larder)

        code, took = larder.stop()
        figures["stop"] = f"{took:.2f} s"
        if code == 0 and took < STOP_GRACE:
            passed(f"{image.stopsignal} stops Larder", f"exit 0 after {took:.2f} s (grace {STOP_GRACE} s)")
        else:
            failed(f"{image.stopsignal} stops Larder", f"exit {code} after {took:.2f} s\n{tail(larder.stderr)}")
        warnings = [line for line in larder.stderr.read_text(errors="replace").splitlines()
                    if re.search(r"\b(error|critical|fatal)\b|swift runtime", line, re.I)]
        if warnings:
            say("larder logged (for a look):\n" + tail("\n".join(warnings), 10))
    except (Abort, ValueError) as problem:  # ValueError: the Dockerfile cannot be read
        failed("aborted", str(problem))
    except KeyboardInterrupt:
        failed("interrupted")
    finally:
        for container in reversed(containers):
            try:
                container.stop(grace=5)
            finally:
                container.unmount()
        if not failures:  # on failure the roots and volumes stay for a look
            for container in containers:
                remove_tree(container.root)
                for _, host in container.mounts:
                    remove_tree(host)
    elapsed = time.monotonic() - started
    say("figures: " + "; ".join(f"{k}: {v}" for k, v in figures.items()))
    say(f"logs in {(WORK / 'logs').relative_to(REPO)}/")
    if failures:
        say(f"FAIL: {len(failures)} failed, {passes} passed ({elapsed:.0f} s): {', '.join(failures)}")
        return 1
    say(f"PASS: {passes} checks passed ({elapsed:.0f} s)")
    return 0


def interrupted(*_):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, interrupted)
    sys.exit(main())
