#!/usr/bin/env bash
# Drives the real iapsim binary inside a private tmux server.
# usage: drive.sh SCENARIO BINARY WORKDIR   — leaves `iapsim state` JSON in WORKDIR/state.json
set -euo pipefail
scenario=$1 bin=$2 work=$3 fixture=${4:-}
source "$(dirname "$0")/tmux.sh"

# Polls until a fixed string is no longer on screen, up to 15 s.
wait_gone() {
  for _ in $(seq 1 300); do
    tmux_ capture-pane -p 2>/dev/null | grep -qF -- "$1" || return 0
    sleep 0.05
  done
  fail "still showing: $1"
}

start() {
  tmux_ new-session -d -x 100 -y 30 -e LANG=C.UTF-8 -e TERM=xterm-256color -e NO_COLOR= -e SWIFT_BACKTRACE=interactive=no \
    "exec $bin --data-dir '$data' $*"
}

# Waits for the app to leave; the session closes with it.
wait_exit() {
  for _ in $(seq 1 200); do
    tmux_ has-session 2>/dev/null || return 0
    sleep 0.05
  done
  fail "the app did not exit"
}

case $scenario in
  lang-c)
    # A terminal whose locale is not UTF-8: ASCII stands in for frames, the cursor, currency symbols and Chinese.
    tmux_ new-session -d -x 100 -y 30 -e LANG=C -e LC_ALL=C -e TERM=xterm-256color -e NO_COLOR= -e SWIFT_BACKTRACE=interactive=no \
      "exec $bin --data-dir '$data' --user alice --lang zh"
    wait_for "> 60 jin bi"
    wait_for "CNY6"
    tmux_ send-keys Enter
    wait_for "+-----"
    wait_for "gou mai cheng gong"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  storekit-settings)
    # A .storekit file's settings arm their faults at launch, shown as badges; its warnings go to stderr first.
    tmux_ new-session -d -x 100 -y 30 -e LANG=C.UTF-8 -e TERM=xterm-256color -e NO_COLOR= -e SWIFT_BACKTRACE=interactive=no \
      "exec $bin --data-dir '$data' --user alice --catalog '$fixture' 2>'$work/stderr'"
    wait_for "ask-to-buy"
    wait_for "purchase-fails"
    wait_for "did not answer the product request"
    tmux_ send-keys q
    wait_exit
    grep -q "iapsim: warning: .*_timeRate" "$work/stderr" || fail "no _timeRate warning on stderr: $(cat "$work/stderr")"
    ;;
  renewal-killed)
    # alice subscribes; the app is closed through the renewal; bob's launch receives it with the backend down and is
    # killed; the next launch verifies it, and the backend credits alice, the subscriber.
    start --user alice
    wait_for "Yearly VIP"
    tmux_ send-keys End Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape
    wait_for "Active · renews"
    tmux_ send-keys q
    wait_exit
    start --user bob --fault renewal-while-closed --fault backend-down
    wait_for "user bob · pending 1"
    pid=$(tmux_ display -p '#{pane_pid}')
    kill -9 "$pid"
    wait_exit
    start --user bob
    wait_for "Unfinished order found"
    tmux_ send-keys Enter
    wait_for "pending 0"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  buy)
    start
    wait_for "Log in as:"
    # A new data folder's phone has an Apple ID signed in, as a new phone's owner does first.
    wait_for "Apple ID sandbox-1"
    tmux_ send-keys alice Enter
    wait_for "60 Coins"
    wait_for "user alice · pending 0"
    tmux_ send-keys Enter
    wait_for "Purchasing…"
    wait_for "Confirming payment…"
    wait_for "Purchase complete"
    wait_for "Balance 60 coins"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  kill-and-recover)
    start --user alice --fault backend-down
    wait_for "60 Coins"
    tmux_ send-keys Enter
    wait_for "Confirming payment…"
    wait_for "retry 1"
    pid=$(tmux_ display -p '#{pane_pid}')
    kill -9 "$pid"
    wait_exit
    start
    wait_for "Unfinished order found"
    wait_for "user alice · pending 1"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    wait_for "pending 0"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  switch-user)
    start --user alice --fault backend-down
    wait_for "60 Coins"
    tmux_ send-keys Enter
    wait_for "retry 1"
    tmux_ send-keys Escape L
    wait_for "Orders still pending — log out anyway?"
    tmux_ send-keys Right Enter
    wait_for "Log in as:"
    tmux_ send-keys bob Enter
    wait_for "user bob · pending 0"
    wait_for "backend down"
    tmux_ send-keys b
    wait_gone "backend down"
    # The backend is up with bob logged in: alice's order must stay untouched. A bounded negative check.
    sleep 3
    tmux_ capture-pane -p | grep -qF "Unfinished order found" && fail "alice's order prompted under bob"
    "$bin" state --data-dir "$data" | grep -q '"user" : "bob"' && fail "something was credited to bob"
    tmux_ send-keys L
    wait_for "Log in as:"
    tmux_ send-keys alice Enter
    wait_for "Unfinished order found"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  crash-zh)
    # A crash on purpose in a Chinese session is said in Chinese once the terminal is given back.
    tmux_ new-session -d -x 100 -y 30 -e LANG=C.UTF-8 -e TERM=xterm-256color -e NO_COLOR= -e SWIFT_BACKTRACE=interactive=no \
      "exec $bin --data-dir '$data' --user alice --lang zh --fault crash-at=verify 2>'$work/stderr'"
    wait_for "60 金币"
    tmux_ send-keys Enter
    wait_exit
    grep -qF "iapsim: 已按要求崩溃(crash-at=verify:应用死在 verify 这一步之前);再次运行 iapsim 即可看到恢复过程" "$work/stderr" \
      || fail "the crash was not said in Chinese: $(cat "$work/stderr")"
    ;;
  panel-crash)
    # The fault panel arms crash-at (one-shot) by keyboard; the app really dies before verifying.
    start --user alice
    wait_for "60 Coins"
    tmux_ send-keys F
    wait_for "payments-disabled"
    tmux_ send-keys Up Up Up Up Up o
    wait_for "crash-at=verify·once"
    tmux_ send-keys Escape i
    wait_for "key o → arm crash-at (once)"
    tmux_ send-keys Escape Enter
    wait_exit
    start
    wait_for "Unfinished order found"
    tmux_ send-keys i
    wait_for "Store queue (1)"
    tmux_ send-keys Escape
    wait_for "Unfinished order found"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  restore-kill)
    # Restore Purchases while the backend is down, kill -9 once the restored transaction is saved, relaunch, Continue.
    start --user alice
    wait_for "Remove Ads"
    tmux_ send-keys Down Down Down Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape b
    wait_for "backend down"
    tmux_ send-keys R
    wait_for "Restoring purchases…"
    wait_for "user alice · pending 1"
    pid=$(tmux_ display -p '#{pane_pid}')
    kill -9 "$pid"
    wait_exit
    start
    wait_for "Unfinished order found"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    wait_for "pending 0"
    tmux_ send-keys Escape R
    wait_for "Purchases restored (1)"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  scenario)
    # A shipped scenario set up on its own data and handed over at its prompt.
    start --scenario paid-then-killed
    wait_for "Unfinished order found"
    wait_for "user alice · pending 1"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape q
    wait_exit
    data="$data/scenarios/paid-then-killed"
    ;;
  inspector)
    # The live screen with the inspector open, for a test to compare with `iapsim play`'s of the same keys.
    tmux_ new-session -d -x 80 -y 24 -e LANG=C.UTF-8 -e TERM=xterm-256color -e NO_COLOR=1 -e SWIFT_BACKTRACE=interactive=no \
      "exec $bin --data-dir '$data' --user alice"
    wait_for "60 Coins"
    tmux_ send-keys Enter
    wait_for "Purchase complete"
    wait_for "Balance 60 coins"
    tmux_ send-keys Escape i
    wait_for "Timeline"
    sleep 0.3
    tmux_ capture-pane -p > "$work/live.txt"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  serve)
    # The app serves Apple's endpoints while it runs: a Server API call for the purchase just made, without a bearer
    # token, is refused as Apple refuses it, and the request is on the inspector's timeline.
    start --user alice --serve 0
    wait_for "serving 127.0.0.1:"
    port=$(tmux_ capture-pane -p | grep -o 'serving 127.0.0.1:[0-9]*' | head -1 | cut -d: -f2)
    wait_for "Remove Ads"
    tmux_ send-keys Down Down Down Enter
    wait_for "Purchase complete"
    tmux_ send-keys Escape
    python3 - "$port" "$bin" "$data" > "$work/verify.json" <<'PY' || fail "the Server API call failed"
import json, subprocess, sys, urllib.request
port, binary, data = sys.argv[1:]
state = json.loads(subprocess.run([binary, "state", "--data-dir", data], capture_output=True, text=True, check=True).stdout)
request = urllib.request.Request(f"http://127.0.0.1:{port}/inApps/v1/transactions/{state['store']['transactions'][0]['transactionId']}")
try:
    urllib.request.urlopen(request, timeout=10)
except urllib.error.HTTPError as error:
    print(json.dumps({"status": error.code}))
PY
    grep -q '"status": 401' "$work/verify.json" || fail "an unsigned Server API call was not refused: $(cat "$work/verify.json")"
    tmux_ send-keys i
    wait_for "wire: GET /inApps/v1/transactions/"
    wait_for "→ 401"
    tmux_ send-keys Escape q
    wait_exit
    ;;
  *) fail "unknown scenario $scenario" ;;
esac
"$bin" state --data-dir "$data" > "$work/state.json"
