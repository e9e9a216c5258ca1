#!/usr/bin/env bash
# The wire under load on loopback: iapsim serve (release) answering verifyReceipt and the Server API's
# transactions/{id} to wrk, 2 threads and 16 connections for a bounded time each, and the same requests, with the same
# settings, to the floor (iapsim-wire-floor, beside BINARY: Hummingbird and swift-crypto alone answering what the wire
# answered, its payload signed anew). The two take turns, one endpoint at a time. Prints one row per endpoint: iapsim's
# requests per second, 99th percentile of latency and CPU time per request, the floor's, and iapsim's requests as a
# share of the floor's.
# With SOAK (4th argument, or SOAK_REQUESTS in the environment) it then soaks: both endpoints in turn until at least
# that many requests were answered, and a table of the server's resident memory (VmRSS, and its anonymous part) before
# any load, after the rows above (the warm-up), about every 50,000 requests (SOAK_STEP) and after 10 s idle (SOAK_IDLE).
# usage: bench/wire.sh BINARY WORKDIR [SECONDS [SOAK]]
set -euo pipefail
bin=$1 work=$2 seconds=${3:-10} soak=${4:-${SOAK_REQUESTS:-0}}
floor=$(dirname "$bin")/iapsim-wire-floor
[ -x "$floor" ] || { echo "bench/wire.sh: no $floor beside $bin (scripts/build-release iapsim-wire-floor)" >&2; exit 1; }
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

# Started with its output in LOG; prints the port it serves on.
port_of() {
  local log=$1 pid=$2
  for _ in $(seq 1 100); do grep -qs "http://127.0.0.1:" "$log" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  grep -o 'http://127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f3
}
"$bin" serve --data-dir "$data" --port 0 > "$work/serve.log" 2>&1 &
server=$! floor_pid=""
trap 'kill -INT $server $floor_pid 2>/dev/null; wait $server $floor_pid 2>/dev/null || true' EXIT
port=$(port_of "$work/serve.log" "$server")
[ -n "$port" ] || { cat "$work/serve.log" >&2; exit 1; }
# The floor answers what the wire answers: its signed transaction (signed anew, by the floor) and its verifyReceipt answer.
curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/inApps/v1/transactions/$transaction" > "$work/floor-transaction.json"
curl -sf -H "Content-Type: application/json" --data-binary "@$work/body.json" "http://127.0.0.1:$port/sandbox/verifyReceipt" > "$work/floor-verify.json"
"$floor" "$work/floor-transaction.json" "$work/floor-verify.json" > "$work/floor.log" 2>&1 &
floor_pid=$!
floor_port=$(port_of "$work/floor.log" "$floor_pid")
[ -n "$floor_port" ] || { cat "$work/floor.log" >&2; exit 1; }
# The server's resident memory in MB: all of it, and its anonymous part (the heap, not the mapped binary).
rss() { awk '$1 == "VmRSS:" { all = $2 } $1 == "RssAnon:" { anon = $2 } END { printf "%.1f %.1f", all / 1024, anon / 1024 }' "/proc/$server/status"; }
fresh=$(rss)

# wrk's latency lines read "99%  12.34ms"; rows: name, then for iapsim and for the floor requests/s, p99 and the
# server's CPU time per request (user and system, all its threads; steadier than requests/s on a busy machine), and
# iapsim's requests as a share of the floor's.
rps() { awk '/^Requests\/sec:/ { print $2 }' "$1"; }
p99() { awk '$1 == "99%" { print $2 }' "$1"; }
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
columns() { printf '%-40s %10s %9s %8s %10s %9s %8s %9s\n' "$@"; }
report() {
  local name=$1 ours=$2 theirs=$3
  columns "$name" "$(rps "$ours")" "$(p99 "$ours")" "$(cat "$ours.cpu")" "$(rps "$theirs")" "$(p99 "$theirs")" "$(cat "$theirs.cpu")" \
    "$(python3 -c "import sys; print(f'{100 * float(sys.argv[1]) / float(sys.argv[2]):.0f}%')" "$(rps "$ours")" "$(rps "$theirs")")"
}
# bench PID OUT WRK-ARGS...: wrk's report in OUT, and in OUT.cpu the microseconds of CPU the server PID spent per answer.
bench() {
  local pid=$1 out=$2 before; shift 2
  before=$(ticks "$pid")
  wrk -t2 -c16 -d"${seconds}s" --latency "$@" > "$out"
  python3 -c "import sys; print(f'{float(sys.argv[1]) * 1e6 / float(sys.argv[2]) / float(sys.argv[3]):.0f}')" \
    "$(( $(ticks "$pid") - before ))" "$hz" "$(awk '/ requests in / { print $1 }' "$out")" > "$out.cpu"
}
columns "wire (wrk, 2 threads, 16 connections)" "req/s" "p99" "CPU us" "floor" "floor p99" "CPU us" "of floor"
bench "$server" "$work/verify.txt" -s "$work/post.lua" "http://127.0.0.1:$port/sandbox/verifyReceipt"
bench "$floor_pid" "$work/floor-verify.txt" -s "$work/post.lua" "http://127.0.0.1:$floor_port/sandbox/verifyReceipt"
report "wire: POST /sandbox/verifyReceipt" "$work/verify.txt" "$work/floor-verify.txt"
bench "$server" "$work/transaction.txt" -H "Authorization: Bearer $token" "http://127.0.0.1:$port/inApps/v1/transactions/$transaction"
# The same request, though the floor reads no token.
bench "$floor_pid" "$work/floor-transaction.txt" -H "Authorization: Bearer $token" "http://127.0.0.1:$floor_port/inApps/v1/transactions/$transaction"
report "wire: GET /inApps/v1/transactions/{id}" "$work/transaction.txt" "$work/floor-transaction.txt"
# Every answer was a good one: non-2xx would be listed by wrk.
! grep -q "Non-2xx" "$work"/{,floor-}{verify,transaction}.txt || { echo "some answers were errors:" >&2; grep "Non-2xx" "$work"/*.txt >&2; exit 1; }
# The soak is the wire's alone.
kill -INT "$floor_pid"; wait "$floor_pid" 2>/dev/null || true; floor_pid=""

[ "$soak" -gt 0 ] || exit 0
step=${SOAK_STEP:-50000} idle=${SOAK_IDLE:-10}
answered() { awk '/ requests in / { print $1 }' "$1"; }
# One endpoint for about `want` requests, timed from its last run's rate; adds what was answered to `total`.
declare -A rate=([verify]=$(awk '/^Requests\/sec:/ { print $2 }' "$work/verify.txt") [transaction]=$(awk '/^Requests\/sec:/ { print $2 }' "$work/transaction.txt"))
load() {
  local name=$1 want=$2 out="$work/soak-$1.txt" d; shift 2
  d=$(python3 -c "import sys; print(max(1, round(float(sys.argv[1]) / max(float(sys.argv[2]), 1))))" "$want" "${rate[$name]}")
  wrk -t2 -c16 -d"${d}s" "$@" > "$out"
  ! grep -q "Non-2xx" "$out" || { echo "soak: some answers were errors after $total requests:" >&2; cat "$out" >&2; exit 1; }
  grep -q "Socket errors" "$out" && grep "Socket errors" "$out" | sed "s/^ */soak: $name: /" >&2
  rate[$name]=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
  total=$((total + $(answered "$out")))
}
row() { read -r all anon <<<"$3"; printf '%-12s %12s %10s %10s\n' "$1" "$2" "$all" "$anon"; }
total=$(( $(answered "$work/verify.txt") + $(answered "$work/transaction.txt") ))
printf '%-12s %12s %10s %10s\n' "soak" "requests" "RSS MB" "anon MB"
row fresh 0 "$fresh"
row warm "$total" "$(rss)"
while [ "$total" -lt "$soak" ]; do
  chunk=$(( soak - total < step ? soak - total : step ))
  load verify $((chunk / 2)) -s "$work/post.lua" "http://127.0.0.1:$port/sandbox/verifyReceipt"
  load transaction $((chunk - chunk / 2)) -H "Authorization: Bearer $token" "http://127.0.0.1:$port/inApps/v1/transactions/$transaction"
  row load "$total" "$(rss)"
done
sleep "$idle"
row "idle ${idle}s" "$total" "$(rss)"
