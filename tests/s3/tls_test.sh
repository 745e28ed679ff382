# S3 over TLS: the gateway's https endpoint (beast ssl_endpoint, a certificate signed by the CA
# gateway.sh made at start). With the CA given (AWS_CA_BUNDLE for datagen, then
# storage_options.ca_bundle for run) a datagen and a run over https read every byte written.
# Without it, or with a CA bundle that does not hold that CA, run fails at once (no retries)
# naming the endpoint and saying to set ca_bundle / AWS_CA_BUNDLE; an unreadable bundle is
# named; a host the certificate does not list is named. The secret is in no output. Bounded:
# ~5 s.
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
cd "$WORK"
skip_unless '[ -n "${S3_TEST_TLS_ENDPOINT:-}" ] && [ -n "${S3_TEST_CA_BUNDLE:-}" ]' \
  "the gateway has no TLS endpoint (S3_TEST_TLS_ENDPOINT; openssl missing? see its log/tls.out)"
# The environment may name a CA bundle of its own (AWS_CA_BUNDLE): each case below sets its own.
unset AWS_CA_BUNDLE
tls=$S3_TEST_TLS_ENDPOINT
ca=$S3_TEST_CA_BUNDLE

s3_new_bucket tls
common=(resnet50_h100 dataset.num_files_train=3 dataset.num_samples_per_file=20
  "dataset.data_folder=s3://$bucket/tls" "output.folder=$WORK/out")

# fails_fast NAME WHAT COMMAND...: the command fails within 10 s (stdout NAME.out, stderr NAME.err).
fails_fast() {
  local name=$1 what=$2 t0 code=0
  shift 2
  t0=$(date +%s%N)
  "$@" >"$name.out" 2>"$name.err" || code=$?
  [ "$code" != 0 ] || fail "$what: it succeeded"
  (($(date +%s%N) - t0 < 10000000000)) || fail "$what: took $((($(date +%s%N) - t0) / 1000000)) ms to fail"
  checks=$((checks + 1))
}

# (a) datagen over https with AWS_CA_BUNDLE; curl (with the CA) finds the objects.
AWS_ENDPOINT_URL=$tls AWS_CA_BUNDLE=$ca "$TB" datagen "${common[@]}" --verify >datagen.out 2>datagen.err ||
  { cat datagen.err; fail "datagen over https with AWS_CA_BUNDLE"; }
grep -q "verify: 3 files OK" datagen.out || fail "datagen --verify over https: $(cat datagen.out)"
S3CURL_ENDPOINT=$tls s3_curl GET "/$bucket?list-type=2&prefix=tls%2Ftrain%2F" --cacert "$ca" -o list.xml
written=$(s3_listed_bytes list.xml 3) || fail "listing over https: $(cat list.xml)"

# ... and run over https with storage_options.ca_bundle: every byte written is read.
AWS_ENDPOINT_URL=$tls "$TB" run "${common[@]}" "storage.storage_options.ca_bundle=$ca" \
  train.computation_time=0 train.epochs=1 reader.batch_size=10 reader.read_threads=2 \
  >run.out 2>run.err || { cat run.err; fail "run over https with storage_options.ca_bundle"; }
tail -n 1 run.out >run.json
[ "$(json run.json 'd["trainbench_metrics"]["bytes_read"]')" = "$written" ] ||
  fail "run over https read $(json run.json 'd["trainbench_metrics"]["bytes_read"]') bytes, wrote $written"
grep -q "at s3://$bucket/tls" run.err || fail "run's banner: $(cat run.err)"
# The certificate names localhost too.
AWS_ENDPOINT_URL=https://localhost:${tls##*:} AWS_CA_BUNDLE=$ca "$TB" run "${common[@]}" \
  storage.storage_options.s3_force_path_style=true train.computation_time=0 train.epochs=1 \
  reader.batch_size=10 >local.out 2>local.err || { cat local.err; fail "run over https://localhost"; }

# (b) No CA bundle: the system's CAs do not trust the gateway's; run fails at once, naming the
# endpoint and what to set (a certificate failure is not retried).
fails_fast noca "run over https without a CA bundle" env AWS_ENDPOINT_URL="$tls" "$TB" run "${common[@]}" \
  train.computation_time=0
contains noca.err "at $tls:"
contains noca.err "SSL certificate problem"
contains noca.err "not signed by a CA trusted here (the system's CAs)"
contains noca.err "set storage.storage_options.ca_bundle or AWS_CA_BUNDLE"
fails_fast noca-gen "datagen over https without a CA bundle" env AWS_ENDPOINT_URL="$tls" "$TB" datagen \
  "${common[@]}" "dataset.data_folder=s3://$bucket/tls-noca"
contains noca-gen.err "set storage.storage_options.ca_bundle or AWS_CA_BUNDLE"
# A bundle with another CA: named, with where it came from.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout other.key \
  -out other-ca.pem -days 1 -subj "/CN=another CA" >openssl.out 2>&1 || fail "openssl: $(cat openssl.out)"
fails_fast otherca "run with another CA in AWS_CA_BUNDLE" env AWS_ENDPOINT_URL="$tls" \
  AWS_CA_BUNDLE="$WORK/other-ca.pem" "$TB" run "${common[@]}"
contains otherca.err "the CAs in $WORK/other-ca.pem, from AWS_CA_BUNDLE"
# A bundle that is not there: named.
fails_fast noneca "run with a missing ca_bundle" env AWS_ENDPOINT_URL="$tls" "$TB" run "${common[@]}" \
  "storage.storage_options.ca_bundle=$WORK/missing.pem"
contains noneca.err "the CA bundle '$WORK/missing.pem' (from storage.storage_options.ca_bundle) cannot be read"
# A host the certificate does not list (libcurl resolves *.localhost to the loopback).
fails_fast host "run with a host the certificate does not name" env \
  AWS_ENDPOINT_URL="https://other.localhost:${tls##*:}" AWS_CA_BUNDLE="$ca" "$TB" run "${common[@]}" \
  storage.storage_options.s3_force_path_style=true
contains host.err "does not name the host connected to (other.localhost)"
# https to the plain-http port: a failed handshake, said so.
fails_fast plain "run with https to the http port" env AWS_ENDPOINT_URL="https://${S3_TEST_ENDPOINT#http://}" \
  AWS_CA_BUNDLE="$ca" "$TB" run "${common[@]}"
contains plain.err "the TLS handshake failed"

# (c) The secret is in no output, nor in the results.
s3_no_secret ./*.out ./*.err "$WORK/out"
done_ok
