# One writer per dataset prefix on S3, as on a file system: the lock is a lease object
# (.trainbench.lock) created with a conditional PUT (If-None-Match: *), which the gateway
# enforces. Checks: a second datagen into a prefix being written is refused at once, naming
# the holder, and the first completes; the lease is gone when the holder ends; a lease
# left by a holder that died (expired) is taken over with a warning; a live lease written by
# another client is honoured. The lease objects are made and read with curl (lib.sh).
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"

s3_new_bucket lock
export AWS_ENDPOINT_URL=$S3_TEST_ENDPOINT
common=(resnet50_h100 dataset.num_files_train=12 dataset.num_samples_per_file=4
  "dataset.data_folder=s3://$bucket/ds" storage.storage_options.s3_force_path_style=true)

# Two datagens at once: the first holds the lease while it writes, one file at a time
# through a proxy that delays every request by 300 ms (so it takes seconds); the second is
# refused with the holder's pid and host, and exit 1.
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/proxy.json" --delay 1 --delay-ms 300
AWS_ENDPOINT_URL=$FAULT_PROXY_ENDPOINT "$TB" datagen "${common[@]}" storage.storage_options.lease_seconds=4 \
  -j 1 >first.out 2>first.err &
first=$!
for _ in $(seq 100); do  # bounded: 10 s
  [ "$(s3_status HEAD "/$bucket/ds/.trainbench.lock" /dev/null)" = 200 ] && break
  sleep 0.1
done
s3_curl GET "/$bucket/ds/.trainbench.lock" >lease.txt
grep -q "^holder: pid $first on " lease.txt || fail "lease object while datagen runs: $(cat lease.txt)"
expires() { sed -n 's/^expires_unix: //p' "$1"; }
set +e
"$TB" datagen "${common[@]}" >second.out 2>second.err
rc=$?
set -e
[ $rc = 1 ] || fail "a second datagen into a locked prefix exited $rc: $(cat second.err)"
grep -q "being written by another trainbench (pid $first on " second.err ||
  fail "the refusal does not name the holder: $(cat second.err)"
# The holder renews its 4 s lease every second (through the delaying proxy: If-Match, which
# the gateway checks): a later look finds a later expiry.
sleep 2.5
s3_curl GET "/$bucket/ds/.trainbench.lock" >renewed.txt
[ "$(expires renewed.txt)" -gt "$(expires lease.txt)" ] ||
  fail "the lease was not renewed: $(cat lease.txt) then $(cat renewed.txt)"
wait $first || { cat first.err; fail "the first datagen failed"; }
! grep -q "the lock" first.err || fail "the holder warned about its lock: $(cat first.err)"
fault_proxy_stop
# Released: the lease object is gone, and the next datagen (all files present) takes it.
[ "$(s3_status HEAD "/$bucket/ds/.trainbench.lock" /dev/null)" = 404 ] ||
  fail "the lease object outlived its holder"

# A lease whose holder died 5 minutes ago is taken over, with a warning naming it.
now=$(date +%s)
printf 'trainbench lock\nholder: pid 999999 on deadhost\ntoken: 0\nexpires_unix: %s\n' \
  $((now - 300)) >stale.txt
s3_curl PUT "/$bucket/ds/.trainbench.lock" -T stale.txt -o /dev/null
"$TB" datagen "${common[@]}" >stale.out 2>stale.err || { cat stale.err; fail "datagen over a stale lease"; }
grep -q "took over the lock .*pid 999999 on deadhost" stale.err ||
  fail "no warning about the stale lease taken over: $(cat stale.err)"
[ "$(s3_status HEAD "/$bucket/ds/.trainbench.lock" /dev/null)" = 404 ] ||
  fail "the taken-over lease was not removed"

# A lease of a process on this host that is gone (a killed datagen) is taken over at once,
# though unexpired.
printf 'trainbench lock\nholder: pid 999999 on %s\nhost: %s\npid: 999999\ntoken: 2\nexpires_unix: %s\n' \
  "$(hostname)" "$(hostname)" $((now + 600)) >killed.txt
s3_curl PUT "/$bucket/ds/.trainbench.lock" -T killed.txt -o /dev/null
"$TB" datagen "${common[@]}" >killed.out 2>killed.err || { cat killed.err; fail "datagen over a killed holder's lease"; }
grep -q "took over the lock .*pid 999999 on .*, which no longer runs" killed.err ||
  fail "no warning about the killed holder: $(cat killed.err)"

# A live lease from another client is honoured: refused, with how long it has left.
printf 'trainbench lock\nholder: pid 4242 on otherhost\ntoken: 1\nexpires_unix: %s\n' \
  $((now + 600)) >live.txt
s3_curl PUT "/$bucket/ds/.trainbench.lock" -T live.txt -o /dev/null
set +e
"$TB" datagen "${common[@]}" >live.out 2>live.err
rc=$?
set -e
[ $rc = 1 ] || fail "datagen under another's live lease exited $rc"
grep -q "pid 4242 on otherhost; its lease runs" live.err || fail "live lease message: $(cat live.err)"
s3_curl GET "/$bucket/ds/.trainbench.lock" | grep -q "pid 4242" || fail "another's lease was touched"
echo "ok"
