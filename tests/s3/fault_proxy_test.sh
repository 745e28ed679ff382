# tests/s3/fault_proxy.py in front of the gateway: 503 SlowDown, cut responses and delays
# happen at about their configured shares (a seeded plan, so the counts are the same on every
# run), a GET retried until it succeeds returns the right bytes, keep-alive and
# Expect: 100-continue work through it, and the Host header goes through unchanged (a
# rewritten one breaks the SigV4 signature).
source "$(dirname "$0")/../lib/common.sh"
s3_use_gateway
at_exit fault_proxy_stop

head -c 200000 /dev/urandom >"$WORK/obj"
# Setup directly against the gateway.
s3_new_bucket proxy
[ "$(s3_status PUT "/$bucket/obj" "$WORK/b" -T "$WORK/obj")" = 200 ] || fail "PUT: $(cat "$WORK/b")"

# json FILE EXPR: a Python expression over the parsed document `d`.

# --- Faults: 20% SlowDown, 20% cut, 20% delayed by 200 ms. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/faults.json" --seed 7 --slowdown 0.2 --cut 0.2 --delay 0.2 --delay-ms 200
export S3CURL_ENDPOINT=$FAULT_PROXY_ENDPOINT
gets=60 attempts=0 slow=0 cuts=0 delayed=0 retried=0
for i in $(seq "$gets"); do
  ok=0
  for try in $(seq 10); do
    attempts=$((attempts + 1))
    rc=0
    out=$(s3_curl GET "/$bucket/obj" -o "$WORK/got" -w '%{http_code} %{time_total}' 2>/dev/null) || rc=$?
    code=${out% *} secs=${out#* }
    if [ "$rc" = 0 ] && [ "$code" = 200 ]; then
      cmp -s "$WORK/got" "$WORK/obj" || fail "GET $i returned other bytes"
      "$PY" -c "import sys; sys.exit(0 if float('$secs') >= 0.19 else 1)" && delayed=$((delayed + 1))
      ok=1
      break
    fi
    if [ "$code" = 503 ]; then
      [ "$(s3_error_code "$WORK/got")" = SlowDown ] || fail "a 503 without SlowDown: $(cat "$WORK/got")"
      slow=$((slow + 1))
    elif [ "$rc" = 18 ]; then # curl: transfer closed with bytes remaining
      cuts=$((cuts + 1))
    else
      fail "GET $i: curl exit $rc, HTTP $code"
    fi
  done
  [ "$ok" = 1 ] || fail "GET $i did not succeed in 10 tries"
  [ "$try" -gt 1 ] && retried=$((retried + 1))
done
fault_proxy_stop
unset S3CURL_ENDPOINT
stats=$WORK/faults.json
echo "client: $attempts attempts, $slow SlowDown, $cuts cut, $delayed slow successes, $retried GETs retried"
echo "proxy: $(cat "$stats")"
check "the proxy saw every attempt" [ "$(json "$stats" 'd["requests"]')" = "$attempts" ]
check "the client saw every SlowDown" [ "$(json "$stats" 'd["slowdown"]')" = "$slow" ]
check "the client saw every cut" [ "$(json "$stats" 'd["cut"]')" = "$cuts" ]
check "no upstream errors" [ "$(json "$stats" 'd["upstream_errors"]')" = 0 ]
# Shares near 0.2 each (binomial over ~80 requests: well within 0.08..0.35).
for kind in slowdown cut delayed; do
  check "$kind share near 0.2" "$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d[sys.argv[2]]/d["requests"]; print(sys.argv[2], round(s, 3)); sys.exit(0 if 0.08 <= s <= 0.35 else 1)' "$stats" "$kind"
done
# Every delayed request that was not also a fault took >= 200 ms, and only those did.
check "delayed requests took 200 ms" [ "$delayed" = "$(json "$stats" 'd["delayed"]')" ]
check "some GETs needed retries" [ "$retried" -gt 5 ]

# --- Keep-alive: one curl, five requests, one connection through the proxy. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/keepalive.json"
args=()
for i in 1 2 3 4 5; do args+=(-o "$WORK/k$i" "$FAULT_PROXY_ENDPOINT/$bucket/obj"); done
curl -sS --max-time 30 --aws-sigv4 "aws:amz:$AWS_REGION:s3" \
  --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" \
  "${args[@]}" || fail "keep-alive GETs"
fault_proxy_stop
for i in 1 2 3 4 5; do check "keep-alive GET $i" cmp -s "$WORK/k$i" "$WORK/obj"; done
check "five requests on one connection" [ "$(json "$WORK/keepalive.json" '(d["requests"], d["connections"])')" = "(5, 1)" ]

# --- A 3 MB PUT (curl sends Expect: 100-continue) and a GET through a fault-free proxy. ---
head -c 3000000 /dev/urandom >"$WORK/big"
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/plain.json"
export S3CURL_ENDPOINT=$FAULT_PROXY_ENDPOINT
check "PUT with Expect: 100-continue" [ "$(s3_status PUT "/$bucket/big" "$WORK/b" -T "$WORK/big" -v 2>"$WORK/v")" = 200 ]
contains "$WORK/v" "Expect: 100-continue"
check "GET of the 3 MB object" [ "$(s3_status GET "/$bucket/big" "$WORK/big.got")" = 200 ]
check "3 MB object intact" cmp -s "$WORK/big" "$WORK/big.got"
fault_proxy_stop

# --- The Host header is signed: a proxy that rewrites it breaks every request. ---
fault_proxy_start "${S3_TEST_ENDPOINT#http://}" "$WORK/rewrite.json" --rewrite-host "${S3_TEST_ENDPOINT#http://}"
export S3CURL_ENDPOINT=$FAULT_PROXY_ENDPOINT
check "a rewritten Host is refused" [ "$(s3_status GET "/$bucket/obj" "$WORK/b")" = 403 ]
check "... as SignatureDoesNotMatch" [ "$(s3_error_code "$WORK/b")" = SignatureDoesNotMatch ]
fault_proxy_stop
unset S3CURL_ENDPOINT

for key in obj big; do s3_status DELETE "/$bucket/$key" "$WORK/b" >/dev/null; done
check "bucket removed" [ "$(s3_status DELETE "/$bucket" "$WORK/b")" = 204 ]
done_ok
