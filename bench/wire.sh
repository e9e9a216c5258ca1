#!/usr/bin/env bash
# The wire under load on loopback: iapsim serve (release) answering verifyReceipt and the Server API's
# transactions/{id} to wrk, 2 threads and 16 connections for a bounded time each. Prints one row per endpoint:
# requests per second and the 99th percentile of latency.
# usage: bench/wire.sh BINARY WORKDIR [SECONDS]
set -euo pipefail
bin=$1 work=$2 seconds=${3:-10}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
rm -rf "$work" && mkdir -p "$work"
data="$work/data"
printf 'launch alice\nselect non-consumable 1\npress Enter\nwait until "Purchase complete"\npress Esc\n' > "$work/buy.iapsim"
"$bin" play --data-dir "$data" "$work/buy.iapsim" >/dev/null
receipt=$("$bin" receipt --data-dir "$data")
key=$("$bin" keys --data-dir "$data" --json)
field() { python3 -c "import json, sys; print(json.load(sys.stdin)['$1'])" <<<"$key"; }
token=$(field bearerToken) secret=$(field sharedSecret)
transaction=$("$bin" state --data-dir "$data" | python3 -c "import json, sys; print(json.load(sys.stdin)['store']['transactions'][0]['transactionId'])")
python3 -c "import json, sys; print(json.dumps({'receipt-data': sys.argv[1], 'password': sys.argv[2]}))" "$receipt" "$secret" > "$work/body.json"
cat > "$work/post.lua" <<LUA
local f = io.open("$work/body.json")
wrk.method = "POST"
wrk.body = f:read("*a")
wrk.headers["Content-Type"] = "application/json"
f:close()
LUA

"$bin" serve --data-dir "$data" --port 0 > "$work/serve.log" 2>&1 &
server=$!
trap 'kill -INT $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q "http://127.0.0.1:" "$work/serve.log" && break; sleep 0.05; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve.log" | head -1 | cut -d: -f3)
[ -n "$port" ] || { cat "$work/serve.log" >&2; exit 1; }

# wrk's latency lines read "99%  12.34ms"; rows: name, requests/s, p99.
report() {
  local name=$1 out=$2
  local rps p99
  rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  p99=$(awk '$1 == "99%" { print $2 }' "$out")
  printf '%-46s %10s %10s\n' "$name" "$rps" "$p99"
}
wrk -t2 -c16 -d"${seconds}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/sandbox/verifyReceipt" > "$work/verify.txt"
report "wire: POST /sandbox/verifyReceipt" "$work/verify.txt"
wrk -t2 -c16 -d"${seconds}s" --latency -H "Authorization: Bearer $token" \
  "http://127.0.0.1:$port/inApps/v1/transactions/$transaction" > "$work/transaction.txt"
report "wire: GET /inApps/v1/transactions/{id}" "$work/transaction.txt"
# Every answer was a good one: non-2xx would be listed by wrk.
! grep -q "Non-2xx" "$work/verify.txt" "$work/transaction.txt" || { echo "some answers were errors:" >&2; grep "Non-2xx" "$work"/*.txt >&2; exit 1; }
