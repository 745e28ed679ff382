# A user name and password in the stage URLs (SOURCE and --mirror, http://user:PASSWORD@host/)
# are sent to the servers, but the passwords are never printed or stored: not on stdout (the
# source table, the final line), not on stderr (warnings, the error of a failed stage), not in
# the results folder (summary.json's workload, source, config.mirrors; the op-log; the report
# page). Issue 34 found both in all of these.
source "$(dirname "$0")/../lib/common.sh"
stage_use_servers
cd "$WORK"

name=credentials-$$.bin
at_exit 'rm -f "$STAGE_WWW/$name"'
head -c 300000 /dev/urandom >"$STAGE_WWW/$name"
sha=$(sha256sum <"$STAGE_WWW/$name" | cut -d' ' -f1)
origin="http://alice:PASSW0RDX@${STAGE_ORIGIN#http://}"
mirror="http://bob:MIRRORPW@${STAGE_MIRROR#http://}"

expect_exit 0 ok.out "$TB" stage "$origin/$name" "$WORK/dest" --mirror "$mirror" --sha256 "$sha" \
  --chunk-size 64KiB --no-progress --output "$WORK/results" --op-log "$WORK/results/stage.tsv"
cat ok.out
check "staged" cmp -s "$STAGE_WWW/$name" "$WORK/dest/$name"
summary=$(stage_summary_of ok.out)
check "the workload keeps the user, not the password" [ "$(json "$summary" 'd["workload"]')" = \
  "http://alice:<redacted>@${STAGE_ORIGIN#http://}/$name" ]
check "config.mirrors likewise" [ "$(json "$summary" 'd["config"]["mirrors"]')" = \
  "['http://bob:<redacted>@${STAGE_MIRROR#http://}']" ]
check "the rows name the servers" [ "$(json "$summary" 'sorted(s["source"] for s in d["sources"])')" = \
  "$("$PY" -c 'import sys; print(sorted(sys.argv[1:]))' "$STAGE_ORIGIN" "$STAGE_MIRROR")" ]
check "the mirror served" [ "$(json "$summary" '[s["bytes"] for s in d["sources"] if s["role"] == "mirror"][0] > 0')" = True ]
check "the op-log has its lines" grep -q "$name" "$WORK/results/stage.tsv"

# A stage that fails quotes SOURCE in its error (and its account's stop_reason).
expect_exit 1 missing.out "$TB" stage "$origin/no-such-$name" "$WORK/dest2" --mirror "$mirror" \
  --no-progress --output "$WORK/results"
cat missing.out
contains missing.out "alice:<redacted>@"

# The report page of the results.
for folder in "$WORK"/results/stage-*; do
  expect_exit 0 "report-$(basename "$folder").out" "$TB" report "$folder"
done
check "report pages written" ls "$WORK"/results/stage-*/report.html

if grep -rlE 'PASSW0RDX|MIRRORPW' ok.out missing.out "$WORK/results"; then
  fail "a password was printed or stored in the files above"
fi
checks=$((checks + 1))
done_ok
