#!/usr/bin/env bash
# `make deps` (and the Dockerfile's build stage): a libmicrohttpd of at least $MINIMUM for the CMicroHTTPD
# system library. The system's if pkg-config finds one that new; otherwise one built from Debian's source
# package (unstable: bookworm has 0.9.75), static and without HTTPS, with the patches of $PATCHES applied,
# into PREFIX, whose lib/pkgconfig the caller puts on PKG_CONFIG_PATH. A stamp in PREFIX says what it
# holds: a later run with the same stamp does nothing and prints nothing.
#
#   scripts/libmicrohttpd.sh [PREFIX]      PREFIX defaults to .build/libmicrohttpd
#
# Needs root to install what is missing (pkg-config; to build: gcc, make, patch, dpkg-dev, debian-keyring);
# otherwise prints the apt-get command and fails. The machine's apt configuration is left alone: the
# source package comes through a temporary one of its own.
set -euo pipefail

MINIMUM=1.0.10
# Static (no runtime .so to ship), no TLS (Larder serves plain HTTP: no GnuTLS), no docs or examples.
CONFIGURE=(--disable-https --without-gnutls --disable-shared --enable-static --with-pic
    --disable-doc --disable-examples --disable-curl)
# Applied in this order with `patch -p1` to the unpacked source; one that does not apply fails the build.
# libmicrohttpd-epoll-timeout.patch: MHD_epoll() no longer sleeps again with a batch of 128 events in
# hand (docs/libmicrohttpd-epoll-patch.md; checked by `make epoll-churn`).
# libmicrohttpd-sendfile-chunk.patch: one sendfile() call sends up to 2 MiB, not 128 KiB per turn of the
# event loop (docs/libmicrohttpd-sendfile-patch.md, with the strace counts that check it).
PATCHES=(scripts/libmicrohttpd-epoll-timeout.patch scripts/libmicrohttpd-sendfile-chunk.patch)

cd "$(dirname "$0")/.."
root=$PWD
prefix=$(realpath -m "${1:-.build/libmicrohttpd}")
stamp="$prefix/larder.stamp"
# What a reusable build must match: the minimum, the flags, the prefix (the .pc file names it) and the
# patches' contents, so a build made before a patch was added or changed is made again.
patches_key=$(sha256sum "${PATCHES[@]}" | awk '{printf "%s %s; ", $2, $1}')
key="libmicrohttpd >= $MINIMUM; prefix $prefix; configure ${CONFIGURE[*]}; patches ${patches_key%; }"

say() { echo "libmicrohttpd: $*"; }
fail() { echo "libmicrohttpd: $*" >&2; exit 1; }

# Installs the Debian packages that are missing, as root; otherwise names the command and fails.
need_packages() {
    local missing=() package
    for package in "$@"; do
        dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return
    [ "$(id -u)" = 0 ] || fail "missing Debian packages: ${missing[*]}; install them with: sudo apt-get install -y ${missing[*]}"
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

need_packages pkg-config
mkdir -p "$(dirname "$prefix")"
# Two makes at once in one checkout build it once, not over each other.
exec 9>"$prefix.lock"
flock 9
if [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$key" ]; then
    exit 0
fi
# A build without a matching stamp is stale or half done; gone, it cannot shadow the system's either.
rm -rf "$prefix"
# The system's library is used as is, without the patches: Larder runs its own wait loop (libmicrohttpd
# in external epoll mode, always run with a zero timeout: MHD_run_wait(daemon, 0)), so MHD_epoll() never
# blocks in it and the epoll stall cannot happen (ConcurrencyTests guard that). Only a build of our own
# carries the patches, and only `make epoll-churn` needs the first; without the second, a large document
# goes out 128 KiB per turn of the loop: the same bytes, in more system calls. Whoever lets libmicrohttpd's own threads wait
# (MHD_USE_EPOLL_INTERNAL_THREAD, a thread pool in epoll mode) must first require a fixed library here.
if pkg-config --atleast-version="$MINIMUM" libmicrohttpd 2>/dev/null; then
    exit 0
fi
system=$(pkg-config --modversion libmicrohttpd 2>/dev/null || echo none)

need_packages gcc make patch dpkg-dev debian-keyring
started=$SECONDS
work=$(mktemp -d "$prefix.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt's own downloads run as _apt, which must be able to write where they go.
chmod 755 "$work"

# The Debian archive's unstable sources, through a configuration of our own: the archive key checks
# the index, the index's hashes check the files apt fetches.
mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/source"
cat >"$work/sources.list.d/unstable.sources" <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: unstable
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
# The machine's apt settings (a proxy, a mirror's quirks) still apply; its update hooks (cache cleaners,
# AppStream refreshes) must not run for an index that is not the machine's. apt reads APT_CONFIG first,
# then /etc/apt/apt.conf.d, then Dir::Etc::Main: the same file read again, last, clears the hooks.
cat >"$work/apt.conf" <<EOF
Dir::Etc::Main "$work/apt.conf";
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
EOF
export APT_CONFIG="$work/apt.conf"
apt_options=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/sources.list.d"
    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache"
    -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null)
say "system has $system; fetching Debian's source package index (unstable)"
apt-get "${apt_options[@]}" -qq update

# The newest version on offer, whatever its Debian revision.
version=""
for offered in $(apt-cache "${apt_options[@]}" showsrc --only-source libmicrohttpd | sed -n 's/^Version: //p'); do
    if [ -z "$version" ] || dpkg --compare-versions "$offered" gt "$version"; then version=$offered; fi
done
[ -n "$version" ] || fail "Debian unstable offers no libmicrohttpd source package"
upstream=${version#*:}
upstream=${upstream%-*}
dpkg --compare-versions "$upstream" ge "$MINIMUM" || fail "Debian unstable offers $version, older than $MINIMUM"

cd "$work/source"
[ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1 && chown _apt "$work/source"
apt-get "${apt_options[@]}" -qq source --download-only "libmicrohttpd=$version" >/dev/null
# The .dsc must carry a valid signature of a Debian developer or maintainer (debian-keyring's keyrings);
# without --require-valid-signature, dpkg-source only warns when it cannot check one.
dpkg-source --require-valid-signature -x "libmicrohttpd_${version#*:}.dsc" tree >"$work/extract.log" 2>&1 \
    || { cat "$work/extract.log" >&2; fail "dpkg-source could not verify or unpack libmicrohttpd $version"; }
cd tree

# Debian's patches may change autotools inputs, which Debian regenerates (dh_autoreconf) and make would
# too, with the automake this build does without. quilt keeps the originals of what each patch changed
# under .pc/<patch>/; the changes are named, so one that matters is not missed: in 1.0.10-1 the only one
# is src/microhttpd/Makefile.am, for the test programs.
while IFS= read -r changed; do
    changed=${changed#.pc/*/}
    say "keeping the shipped Makefile.in: Debian's patch changes $changed"
    touch -d 2000-01-01 "$changed"
done < <(find .pc -mindepth 2 -type f \( -name Makefile.am -o -name configure.ac -o -name '*.m4' \) 2>/dev/null)

for patch in "${PATCHES[@]}"; do
    say "applying $(basename "$patch")"
    patch -p1 --forward --batch <"$root/$patch" >"$work/patch.log" 2>&1 \
        || { cat "$work/patch.log" >&2; fail "$patch does not apply to libmicrohttpd $version"; }
done

say "building $version (static, no HTTPS) into $prefix"
{
    ./configure --prefix="$prefix" "${CONFIGURE[@]}" \
        && make -j"$(nproc)" \
        && make install
} >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; fail "the build of $version failed"; }
printf '%s\nbuilt %s from Debian %s, patched: %s\n' "$key" "$upstream" "$version" "${PATCHES[*]}" >"$stamp"
say "$version built in $((SECONDS - started)) s"
