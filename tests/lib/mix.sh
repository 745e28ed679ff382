# The mix tests' judgement of what sharing the storage cost each training (sourced after
# common.sh).

# check_sharing_cost WHAT OUT RERUN...: OUT is a `mix --baseline` run's stdout; each of its
# trainings ran in the mix as alone: AU >= 90% with at most 5 points lost, samples/s within
# 10%. Alone and together run one after the other, so a host whose load changed between them
# moves them apart: on a miss (printed), RERUN, a command that writes a new mix's stdout to
# its last argument, measures once more, and the check passes when that pair holds (the better
# of the two); when neither does, both misses are printed.
check_sharing_cost() {
  local what=$1 out=$2
  shift 2
  checks=$((checks + 1))
  sharing_cost_holds "$out" >"$out.cost" 2>&1 && return 0
  echo "note: $what: the first pair missed, measuring once more: $(tail -1 "$out.cost")" >&2
  "$@" "$out.again" || { cat "$out.again" >&2; fail "$what: the second mix failed"; }
  sharing_cost_holds "$out.again" >"$out.again.cost" 2>&1 && return 0
  cat "$out.cost" "$out.again.cost" >&2
  fail "$what: sharing the storage cost a training more than noise, twice"
}

sharing_cost_holds() {
  "$PY" - "$(json_last_line "$1" 'd["trainbench"]["results"]')" <<'PY'
import json, os, sys
s = json.load(open(os.path.join(sys.argv[1], "summary.json")))
for j in s["jobs"]:
    if j["kind"] != "run":
        continue
    cost = j["alone"]["cost"]
    print(f'{j["name"]}: AU {j["au_percentage"]:.2f}% in the mix, {j["alone"]["au_percentage"]:.2f}% alone; '
          f'samples/s {cost["samples_per_second_ratio"]:.3f}x alone')
    assert j["au_percentage"] >= 90 and abs(cost["au_points"]) <= 5, (j["name"], j["au_percentage"], cost)
    assert 0.9 <= cost["samples_per_second_ratio"] <= 1.1, (j["name"], cost)
PY
}
