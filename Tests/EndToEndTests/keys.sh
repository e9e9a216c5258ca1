#!/usr/bin/env bash
# Drives the real iapsim binary inside a private tmux server: keys, small and dumb terminals, signals.
# usage: keys.sh CASE BINARY WORKDIR [TERM]   — exit 0 when the case held; the screen on failure
set -euo pipefail
case_=$1 bin=$2 work=$3 kterm=${4:-xterm-256color}
source "$(dirname "$0")/tmux.sh"

# Starts the app in a shell that writes its exit status to $work/status when it ends.
start() {
  local size=$1 term=$2; shift 2
  rm -f "$work/status"
  tmux_ new-session -d -x "${size%x*}" -y "${size#*x}" -e LANG=C.UTF-8 -e TERM="$term" -e NO_COLOR= \
    -e SWIFT_BACKTRACE=interactive=no \
    "env TERM=$term $bin --data-dir '$data' $*; echo \$? > '$work/status'; sleep 30"
  # (env: tmux sets TERM for the pane itself, whatever -e says)
}

app_pid() {
  local shell; shell=$(tmux_ display -p '#{pane_pid}')
  for _ in $(seq 1 100); do
    pgrep -P "$shell" -x iapsim && return 0
    sleep 0.05
  done
  fail "no iapsim process"
}

wait_status() {
  for _ in $(seq 1 200); do
    [ -s "$work/status" ] && { cat "$work/status"; return 0; }
    sleep 0.05
  done
  fail "the app did not exit"
}

case $case_ in
  keypad-enter)
    # A pending order; at the relaunch prompt keypad Enter must choose Continue, as Enter does.
    start 100x30 "$kterm" --user alice --fault backend-down
    wait_for "60 Coins"
    tmux_ send-keys Enter
    wait_for "retry 1"
    kill -9 "$(app_pid)"
    wait_status > /dev/null
    tmux_ kill-session
    start 100x30 "$kterm"
    wait_for "Unfinished order found"
    tmux_ send-keys KPEnter
    wait_for "Purchase complete"
    ;;
  keypad-digits)
    start 100x30 "$kterm"
    wait_for "Log in as:"
    tmux_ send-keys a KP1 KP2 KP0
    wait_for "a120▏"
    tmux_ send-keys KPEnter
    wait_for "user a120 · pending 0"
    ;;
  too-small)
    start 40x10 xterm-256color --user alice
    wait_for "Terminal too small"
    sleep 0.5
    tmux_ send-keys Enter
    sleep 1
    tmux_ resize-window -x 100 -y 30
    wait_for "60 Coins"
    sleep 0.5
    tmux_ capture-pane -p | grep -qF "Purchasing" && fail "Enter bought on a screen nobody could see"
    "$bin" state --data-dir "$data" | grep -q '"transactionId"' && fail "the store holds a transaction"
    tmux_ resize-window -x 40 -y 10
    wait_for "Terminal too small"
    tmux_ send-keys q
    [ "$(wait_status)" = 0 ] || fail "q did not quit while too small"
    ;;
  dumb)
    start 100x30 dumb
    status=$(wait_status)
    [ "$status" != 0 ] || fail "TERM=dumb was accepted"
    wait_for "iapsim: "
    tmux_ capture-pane -p | grep -qF "cannot move the cursor" || fail "no message about the terminal"
    [ ! -e "$data" ] || fail "the data directory was created"
    ;;
  sigterm|sigint)
    start 100x30 xterm-256color
    wait_for "Log in as:"
    signal=TERM expected=143
    [ "$case_" = sigint ] && signal=INT expected=130
    kill -s "$signal" "$(app_pid)"
    status=$(wait_status)
    [ "$status" = "$expected" ] || fail "SIG$signal: exit status $status, not $expected"
    ;;
  state-readonly)
    # kill -9 mid-purchase leaves WAL files; `state` must read through them without changing a byte of any
    # database or WAL file (the -shm is SQLite's shared index, which every reader writes to), nor delete one.
    start 100x30 xterm-256color --user alice --fault backend-down
    wait_for "60 Coins"
    tmux_ send-keys Enter
    wait_for "retry 1"
    kill -9 "$(app_pid)"
    wait_status > /dev/null
    [ -e "$data/store.sqlite-wal" ] || fail "no WAL file to test with"
    before=$(cd "$data" && ls | grep -v -- '-shm$' | xargs sha256sum; ls)
    "$bin" state --data-dir "$data" > "$work/state.json" || fail "state failed"
    grep -q '"pending"' "$work/state.json" || fail "state did not show the pending order"
    after=$(cd "$data" && ls | grep -v -- '-shm$' | xargs sha256sum; ls)
    [ "$before" = "$after" ] || fail "state changed the data: $before → $after"
    ;;
  *) fail "unknown case $case_" ;;
esac
