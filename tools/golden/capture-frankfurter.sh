#!/usr/bin/env bash
# Captures the golden answers of the real Frankfurter for the committed multi-provider sample set:
# Tests/Fixtures/frankfurter-golden/ (manifest.json + bodies/) and its late/ capture (after late.csv).
# See tools/golden/README.md for making a Ruby with Frankfurter's gems (FF_CHROOT) and the source tree.
#
# Usage: tools/golden/capture-frankfurter.sh
#   FF_SRC     Frankfurter's source tree (default /opt/frankfurter, inside FF_CHROOT when that is set)
#   FF_CHROOT  a root whose ruby has Frankfurter's gems (Debian sid's); empty: this machine's ruby
#   FF_TODAY   Frankfurter's "today" (default 2026-11-28 12:00:00, UTC)
#   FF_COMMIT  the commit FF_SRC was taken at, recorded in capture.json (default 60541ad)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
FF_SRC="${FF_SRC:-/opt/frankfurter}"
FF_CHROOT="${FF_CHROOT:-}"
FF_TODAY="${FF_TODAY:-2026-11-28 12:00:00}"
OUT="$ROOT/Tests/Fixtures/frankfurter-golden"

# WORK is where inputs and databases go; IN is the same folder as the ruby sees it.
if [[ -n "$FF_CHROOT" ]]; then
  WORK="$FF_CHROOT/golden"; IN=/golden
  run() { chroot "$FF_CHROOT" env TZ=UTC RUBYLIB=/golden/tools/shim faketime "$FF_TODAY" "$@"; }
else
  WORK="$(mktemp -d)"; IN="$WORK"
  run() { env TZ=UTC RUBYLIB="$IN/tools/shim" faketime "$FF_TODAY" "$@"; }
fi
rm -rf "$WORK/tools" "$WORK/data" "$WORK/out" "$WORK"/*.sqlite3*
mkdir -p "$WORK/tools" "$WORK/data" "$WORK/out"
cp -r "$ROOT/tools/golden/." "$WORK/tools/"
cp "$ROOT/Examples/upstream/frankfurter/"{rows.csv,late.csv,providers.json} "$WORK/data/"

rebuild() { # Frankfurter's own rake tasks: the materialized blend and the weekly and monthly rollups, from scratch
  run sh -c "cd '$FF_SRC' && DATABASE_URL='sqlite://$1' rake blend:rebuild rollups:rebuild"
}

# 1. rows.csv through Frankfurter's ingest, then the rebuilds, then every query.
run ruby "$IN/tools/load-frankfurter.rb" "$FF_SRC" "$IN/data" "$IN/base.sqlite3"
rebuild "$IN/base.sqlite3"
run ruby "$IN/tools/capture.rb" "$FF_SRC" "$IN/base.sqlite3" "$IN/tools/queries.txt" "$IN/out/base"

# 2. The same database learns late.csv (a later fetch of each provider), then the queries whose answers can change.
cp "$WORK/base.sqlite3" "$WORK/late.sqlite3"
run ruby "$IN/tools/load-frankfurter.rb" "$FF_SRC" "$IN/data" "$IN/late.sqlite3" "$IN/data/late.csv"
rebuild "$IN/late.sqlite3"
run ruby "$IN/tools/capture.rb" "$FF_SRC" "$IN/late.sqlite3" "$IN/tools/queries-late.txt" "$IN/out/late"
# The same queries before late.csv: each late answer says whether late.csv changed it.
run ruby "$IN/tools/capture.rb" "$FF_SRC" "$IN/base.sqlite3" "$IN/tools/queries-late.txt" "$IN/out/late-before"
python3 - "$WORK/out" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
late = json.loads((out / "late/manifest.json").read_text())
before = json.loads((out / "late-before/manifest.json").read_text())
for now, then in zip(late, before):
    now["changed_by_late"] = (now["status"], (out / "late" / now["body_file"]).read_bytes()) != \
        (then["status"], (out / "late-before" / then["body_file"]).read_bytes())
(out / "late/manifest.json").write_text(json.dumps(late, indent=2, ensure_ascii=False) + "\n")
PY

# What was captured with what.
run ruby -e '
  require "json"; require "roda"; require "sequel"; require "sqlite3"; require "oj"; require "money"; require "rack"
  commit = ARGV[0]
  puts JSON.pretty_generate({
    frankfurter: commit, today: ARGV[1] + "Z", ruby: RUBY_VERSION,
    gems: { roda: Roda::RodaVersion, sequel: Sequel::VERSION, sqlite3: SQLite3::VERSION, oj: Oj::VERSION,
            money: Money::VERSION, rack: Rack.release },
    data: "Examples/upstream/frankfurter (rows.csv, providers.json; late/: also late.csv)",
    made_by: "tools/golden/capture-frankfurter.sh"
  })' "${FF_COMMIT:-60541ad}" "$FF_TODAY" > "$WORK/out/base/capture.json"

rm -rf "$OUT"
mkdir -p "$OUT"
cp -r "$WORK/out/base/." "$OUT/"
cp -r "$WORK/out/late" "$OUT/late"
echo "golden answers in ${OUT#"$ROOT"/}: $(grep -c '"path"' "$OUT/manifest.json") queries, late/: $(grep -c '"path"' "$OUT/late/manifest.json")"
