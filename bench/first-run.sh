#!/usr/bin/env bash
# A newcomer's first `scripts/run`: the seconds from starting it in a fresh clone (an empty .build, SwiftPM's shared
# package cache as this machine has it) until the screen shows the login prompt, polled once a second in a tmux of its
# own. One clone per commit given, one after the other; run it with nothing else on the machine.
# usage: bench/first-run.sh COMMIT...   e.g. bench/first-run.sh 87c5467~1 HEAD (the code before the split, then now)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
[ $# -gt 0 ] || { echo "usage: bench/first-run.sh COMMIT..." >&2; exit 64; }
command -v tmux >/dev/null || { apt-get update -qq && apt-get install -y -qq tmux >/dev/null; }
socket=iapsim-first-run-$$
trap 'tmux -L "$socket" kill-server 2>/dev/null || true' EXIT
# Every commit is checked before the first clone, so that a mistyped last one does not cost the first one's build.
for commit in "$@"; do
  git rev-parse --verify --quiet "$commit^{commit}" >/dev/null || { echo "bench/first-run.sh: $commit: no such commit" >&2; exit 64; }
done
for commit in "$@"; do
  hash=$(git rev-parse "$commit^{commit}")
  work=$(mktemp -d /tmp/iapsim-first-run.XXXXXX)
  git clone -q "$repo" "$work/clone"
  git -C "$work/clone" checkout -q "$hash"
  start=$(date +%s.%N)
  tmux -L "$socket" new-session -d -s run -x 100 -y 30 \
    "cd '$work/clone' && XDG_DATA_HOME='$work/data' scripts/run; echo first-run: exited; sleep 3600"
  until tmux -L "$socket" capture-pane -p -t run | grep -q "Log in as:"; do
    if tmux -L "$socket" capture-pane -p -t run | grep -q "first-run: exited"; then
      tmux -L "$socket" capture-pane -p -t run >&2
      echo "bench/first-run.sh: $commit: scripts/run stopped before the login screen (the clone is left in $work)" >&2
      exit 1
    fi
    sleep 1
  done
  end=$(date +%s.%N)
  tmux -L "$socket" kill-server
  printf '%s %s %.1f s\n' "$commit" "${hash:0:7}" "$(python3 -c "print($end - $start)")"
  rm -rf "$work"
done
