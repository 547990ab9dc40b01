#!/usr/bin/env bash
# `make deps` (and the Dockerfile's build stage): the one libmicrohttpd Larder links, at the exact Debian
# version and source sums pinned below, built static and without HTTPS, with the patches of $PATCHES
# applied, into PREFIX, whose lib/pkgconfig the caller puts on PKG_CONFIG_PATH. A system libmicrohttpd is
# never used: a build next month links the same bytes as one today. A stamp in PREFIX says what it holds:
# a later run with the same stamp does nothing and prints nothing.
#
#   tools/deps/libmicrohttpd.sh [PREFIX [PATCH...]]   PREFIX defaults to .build/libmicrohttpd; PATCHES to
#                                                  the ones Larder needs (below)
#
# Needs root to install what is missing (pkg-config; to build: gcc, make, patch, dpkg-dev, debian-keyring);
# otherwise prints the apt-get command and fails. The machine's apt configuration is left alone: the
# source package comes through a temporary one of its own.
set -euo pipefail

# Larder needs 1.0.10 (docs/architecture.md#libmicrohttpd-1010): the 1.0.x releases after Debian 13's
# 1.0.1 fix request smuggling, crashes and a suspend/resume assertion. No stable suite or backports
# carries 1.0.10 on 2026-11-28, so the pin is of the moving suites' exact upload, and each file's sum is
# checked before anything is unpacked; once unstable and testing move on, `make deps` says so and
# fails, and the pin is moved on purpose (docs/architecture.md says how).
VERSION=1.0.10-1
SUITES=${LIBMICROHTTPD_SUITES:-"unstable testing"}
SHA256=(
    "19d4ca6fa7fe198d126bbe01e567c6c78c8edf3db8d7e407c87e28ffa60f9f4d  libmicrohttpd_1.0.10-1.dsc"
    "04bfe8ef75db7d629a33de767599765cecadc56274a39822d5d081030d577685  libmicrohttpd_1.0.10.orig.tar.gz"
    "7d4e1d701c0e7d54f83a79aa77e82d964ce4bb0eb233733de407dfb012236102  libmicrohttpd_1.0.10.orig.tar.gz.asc"
    "a85b2124ff118dc54d26852c934bd5b803821a7ab609ebcc44a27599650699e2  libmicrohttpd_1.0.10-1.debian.tar.xz"
)
# Static (no runtime .so to ship), no TLS (Larder serves plain HTTP: no GnuTLS), no docs or examples.
CONFIGURE=(--disable-https --without-gnutls --disable-shared --enable-static --with-pic
    --disable-doc --disable-examples --disable-curl)
# Applied in this order with `patch -p1` to the unpacked source; one that does not apply fails the build.
# libmicrohttpd-sendfile-chunk.patch: one sendfile() call sends up to 2 MiB, not 128 KiB per turn of the
# event loop (docs/libmicrohttpd-sendfile-patch.md): the listing and documents under 128 KiB go by
# sendfile. libmicrohttpd-pool-reset.patch: between two requests of a connection, only the bytes the
# request used are zeroed, not the whole 32 KiB pool (docs/libmicrohttpd-pool-patch.md).
# libmicrohttpd-sendfile-lock.patch: a sendfile() write does not hold the response's mutex, so threads
# sending one file response do not wait for each other (docs/libmicrohttpd-sendfile-lock-patch.md).
# libmicrohttpd-epoll-timeout.patch: MHD_epoll() does not sleep again after a batch of exactly 128
# events, which it would leave unserved until its timeout; Larder's loops wait in MHD_epoll()
# (docs/libmicrohttpd-epoll-patch.md, checked by `make epoll-churn`).
if [ $# -gt 1 ]; then
    PATCHES=("${@:2}")
else
    PATCHES=(tools/deps/libmicrohttpd-sendfile-chunk.patch tools/deps/libmicrohttpd-pool-reset.patch
        tools/deps/libmicrohttpd-sendfile-lock.patch tools/deps/libmicrohttpd-epoll-timeout.patch)
fi

cd "$(dirname "$0")/../.."
root=$PWD
prefix=$(realpath -m "${1:-.build/libmicrohttpd}")
stamp="$prefix/larder.stamp"
# What a reusable build must match: the pinned version and sums, the flags, the prefix (the .pc file names it) and the
# patches' changes (each one's hunks, from its first `--- a/`, by file name: its description or folder may change),
# so a build made before a patch was added or changed is made again.
patches_key=""
for patch in "${PATCHES[@]}"; do
    patches_key+="$(basename "$patch") $(sed -n '/^--- a\//,$p' "$patch" | sha256sum | cut -c1-64); "
done
sums_key=$(printf '%s\n' "${SHA256[@]}" | sha256sum | cut -c1-16)
key="libmicrohttpd $VERSION (sums $sums_key); prefix $prefix; configure ${CONFIGURE[*]}; patches ${patches_key%; }"

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
# A build without a matching stamp is stale or half done.
rm -rf "$prefix"

need_packages gcc make patch dpkg-dev debian-keyring
started=$SECONDS
work=$(mktemp -d "$prefix.work.XXXXXX")
trap 'rm -rf "$work"' EXIT
# apt's own downloads run as _apt, which must be able to write where they go.
chmod 755 "$work"

# The Debian archive's sources of $SUITES, through a configuration of our own: the archive key checks
# the index, the index's hashes check the files apt fetches, and the pinned sums check them again.
mkdir -p "$work/sources.list.d" "$work/lists/partial" "$work/cache/archives/partial" "$work/source"
cat >"$work/sources.list.d/pinned.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $SUITES
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
say "fetching libmicrohttpd $VERSION's source from Debian ($SUITES)"
apt-get "${apt_options[@]}" -qq update
version=$VERSION
upstream=${version#*:}
upstream=${upstream%-*}
offered=$(apt-cache "${apt_options[@]}" showsrc --only-source libmicrohttpd 2>/dev/null | sed -n 's/^Version: //p' | sort -u | paste -sd ' ')
case " $offered " in
    *" $VERSION "*) ;;
    *) fail "the pinned source, libmicrohttpd $VERSION, is no longer in Debian's $SUITES (offered: ${offered:-none}). Move the pin in tools/deps/libmicrohttpd.sh (VERSION and the SHA256 of each file, from the new .dsc) to a version at least as new, after reading its changelog, then run make deps again (docs/architecture.md#libmicrohttpd-1010)" ;;
esac

cd "$work/source"
[ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1 && chown _apt "$work/source"
apt-get "${apt_options[@]}" -qq source --download-only "libmicrohttpd=$version" >/dev/null \
    || fail "apt-get could not download the source of libmicrohttpd $VERSION"
# Every file apt brought is one of the pinned, with the pinned sum, before anything reads it.
printf '%s\n' "${SHA256[@]}" >"$work/pinned.sha256"
sha256sum --check --strict --quiet "$work/pinned.sha256" >"$work/sums.log" 2>&1 \
    || { cat "$work/sums.log" >&2; fail "the downloaded source of libmicrohttpd $VERSION does not match the sums pinned in tools/deps/libmicrohttpd.sh"; }
for file in *; do
    [ -d "$file" ] || grep -q "  $file\$" "$work/pinned.sha256" || fail "apt brought $file, which is not pinned"
done
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
