#!/usr/bin/env bash
# A data directory with TOTAL stored transactions, PENDING of them pending for alice (unfinished in the store and kept by
# her client): the backlogs scripts/bench launches into and scripts/launch-order follows. The files are made by a first
# launch of FIRST_FRAME (a release iapsim-first-frame), then filled with the sqlite3 shell.
# usage: bench/fill.sh DIR TOTAL PENDING FIRST_FRAME
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: bench/fill.sh DIR TOTAL PENDING FIRST_FRAME" >&2; exit 64; }
dir=$1 total=$2 pending=$3 first_frame=$4
rm -rf "$dir"; mkdir -p "$dir"
python3 "$(dirname "$0")/measure.py" 1 "$first_frame" --data-dir "$dir" --user alice >/dev/null
[ "$total" -gt 0 ] || exit 0
sqlite3 "$dir/store.sqlite" "
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $total)
  INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, finished)
  SELECT 3000000000 + i, 'com.iapsim.coins.60', 'purchased', NULL, 1800000000 + i, CASE WHEN i < $pending THEN 0 ELSE 1 END FROM n;"
sqlite3 "$dir/client-keychain.sqlite" "
  WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $pending)
  INSERT INTO pendingOrder (transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status)
  SELECT 3000000000 + i, 'alice', 'com.iapsim.coins.60', NULL, 1800000000 + i, '¥6', NULL, 1, 1800000000 + i, 'pending' FROM n;"
