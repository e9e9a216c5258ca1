# Sourced by drive.sh and keys.sh: a private tmux server for one test, and polling its screen.
# Needs $work (a folder of the test's own); sets $data and $sock.
data="$work/data"
sock="$work/tmux.sock"
# The server stays up between the app's runs: one that exits with its last session can take the next
# new-session down with it ("server exited unexpectedly") while the relaunch connects.
conf="$work/tmux.conf"
echo 'set -s exit-empty off' >"$conf"
tmux_() { tmux -S "$sock" -f "$conf" "$@"; }
trap 'tmux_ kill-server 2>/dev/null || true' EXIT

fail() {
  echo "FAILED: $*" >&2
  echo "--- screen ---" >&2
  tmux_ capture-pane -p >&2 2>/dev/null || true
  exit 1
}

# Polls the screen every 50 ms for a fixed string, up to 15 s.
wait_for() {
  for _ in $(seq 1 300); do
    tmux_ capture-pane -p 2>/dev/null | grep -qF -- "$1" && return 0
    sleep 0.05
  done
  fail "never saw: $1"
}
