#!/usr/bin/env bash
# A data directory with TOTAL stored transactions, PENDING of them pending for alice (unfinished in the store and kept by
# her client): the backlogs scripts/bench launches into and scripts/launch-order follows. The files are made by a first
# launch of FIRST_FRAME (a release iapsim-first-frame), then filled with the sqlite3 shell.
# usage: bench/fill.sh DIR TOTAL PENDING FIRST_FRAME
set -euo pipefail
fail() { echo "iapsim: fill: $*" >&2; exit 64; }
[ $# -eq 4 ] || fail "give DIR TOTAL PENDING FIRST_FRAME, e.g. bench/fill.sh /tmp/backlog 1000 100 .build/release/iapsim-first-frame"
dir=$1 total=$2 pending=$3 first_frame=$4
[ -n "$dir" ] || fail "DIR is empty; give a folder to make, e.g. /tmp/backlog"
for number in "$total" "$pending"; do
  [[ "$number" =~ ^[0-9]{1,9}$ ]] || fail "\"$number\" is not a whole number of transactions; give e.g. 1000"
done
[ "$((10#$pending))" -le "$((10#$total))" ] || fail "PENDING ($pending) is more than TOTAL ($total): the pending ones are among those stored"
[ -x "$first_frame" ] && [ -f "$first_frame" ] || fail "$first_frame is not a program; build it with scripts/build-release iapsim-first-frame"
# The folder is made anew: only an empty one or a data folder holding iapsim's files alone (not a note, not a device's
# folder) is removed first.
if [ -e "$dir" ] || [ -L "$dir" ]; then
  [ -d "$dir" ] && [ ! -L "$dir" ] || fail "$dir is not a folder; give a new one or a data folder to fill again"
  foreign=$(ls -A "$dir" | grep -Evx 'iapsim\.lock|(store|backend|client-keychain|client-sandbox)\.sqlite(-wal|-shm)?' | head -1 || true)
  [ -z "$foreign" ] || fail "$dir holds $foreign, which is not iapsim's data; give a new folder or a data folder to fill again"
fi
rm -rf "$dir"
mkdir -p "$dir" 2>/dev/null || fail "$dir cannot be made (a file in its path, or no permission); give another folder"
# A fill that fails leaves no half-made folder behind.
trap 'status=$?; [ "$status" -eq 0 ] || rm -rf "$dir"' EXIT
total=$((10#$total)) pending=$((10#$pending))
python3 "$(dirname "$0")/measure.py" 1 "$first_frame" --data-dir "$dir" --user alice >/dev/null
[ "$total" -gt 0 ] || exit 0
sqlite3 "$dir/store.sqlite" "
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $total)
  INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, finished)
  SELECT 3000000000 + i, 'com.iapsim.coins.60', 'purchased', NULL, 1800000000 + i, CASE WHEN i < $pending THEN 0 ELSE 1 END FROM n;"
# What the store finished the backend credited, under an order of alice's each, as a purchase verified and finished
# leaves it: without the credits the launch's agreement check rightly raised its credit-missing alarm at every launch.
sqlite3 "$dir/backend.sqlite" "
  WITH RECURSIVE n(i) AS (SELECT $pending WHERE $pending < $total UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $total)
  INSERT INTO orders (id, user, productId, createdAt) SELECT 'ORD-B' || i, 'alice', 'com.iapsim.coins.60', 1800000000 + i FROM n;
  WITH RECURSIVE n(i) AS (SELECT $pending WHERE $pending < $total UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $total)
  INSERT INTO credit (transactionId, user, productId, orderId, coins, creditedAt)
  SELECT 3000000000 + i, 'alice', 'com.iapsim.coins.60', 'ORD-B' || i, 60, 1800000001 + i FROM n;"
sqlite3 "$dir/client-keychain.sqlite" "
  WITH RECURSIVE n(i) AS (SELECT 0 WHERE $pending > 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $pending)
  INSERT INTO pendingOrder (transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status)
  SELECT 3000000000 + i, 'alice', 'com.iapsim.coins.60', NULL, 1800000000 + i, '¥6', NULL, 1, 1800000000 + i, 'pending' FROM n;"
