/* The floor for iapsim's engine: the same inserts, updates and read-backs of one purchase → verify → finish
   cycle, each write in its own transaction as iapsim does, on three SQLite files in WAL with
   synchronous=NORMAL, into the schema iapsim's files have (its columns, indexes and triggers: what a write
   changes on disk). No receipts, no signing, no state machine: just the storage work.
   usage: engine DIR CYCLES   prints cycles per second */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static sqlite3 *open_db(const char *dir, const char *name, const char *schema) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    remove(path);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) { fprintf(stderr, "open %s\n", path); exit(1); }
    sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", 0, 0, 0);
    if (sqlite3_exec(db, schema, 0, 0, 0) != SQLITE_OK) { fprintf(stderr, "%s\n", sqlite3_errmsg(db)); exit(1); }
    return db;
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql) {
    sqlite3_stmt *s;
    if (sqlite3_prepare_v2(db, sql, -1, &s, 0) != SQLITE_OK) { fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db)); exit(1); }
    return s;
}

/* Binds text arguments (NULL allowed), steps to the end, resets. Answers the first column of the last row. */
static long long run(sqlite3_stmt *s, int n, const char **args) {
    for (int i = 0; i < n; i++) {
        if (args[i]) sqlite3_bind_text(s, i + 1, args[i], -1, SQLITE_TRANSIENT); else sqlite3_bind_null(s, i + 1);
    }
    long long first = 0;
    int rc;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) first = sqlite3_column_int64(s, 0);
    if (rc != SQLITE_DONE) { fprintf(stderr, "step: %s\n", sqlite3_errmsg(sqlite3_db_handle(s))); exit(1); }
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return first;
}

/* BEGIN IMMEDIATE and COMMIT, each prepared once per connection, as iapsim's write transactions prepare them. */
static void tx(sqlite3 *db, const char *sql) {
    static struct { sqlite3 *db; const char *sql; sqlite3_stmt *statement; } prepared[8];
    int i = 0;
    while (prepared[i].db && !(prepared[i].db == db && strcmp(prepared[i].sql, sql) == 0)) i++;
    if (!prepared[i].db) {
        prepared[i].db = db;
        prepared[i].sql = sql;
        sqlite3_prepare_v2(db, sql, -1, &prepared[i].statement, 0);
    }
    sqlite3_step(prepared[i].statement);
    sqlite3_reset(prepared[i].statement);
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: engine DIR CYCLES\n"); return 2; }
    const char *dir = argv[1];
    int cycles = atoi(argv[2]);
    sqlite3 *store = open_db(dir, "store.sqlite",
        "CREATE TABLE storeTransaction (id TEXT PRIMARY KEY, productId TEXT NOT NULL, state TEXT NOT NULL,"
        " applicationUsername TEXT, date DOUBLE NOT NULL, error TEXT, finished INTEGER NOT NULL DEFAULT 0,"
        " account TEXT, originalTransactionId TEXT, plan TEXT, expiresDate DOUBLE, offer TEXT, cancellationDate DOUBLE,"
        " cancellationReason INTEGER, webOrderLineItemId TEXT, refundedShare DOUBLE, device TEXT NOT NULL DEFAULT 'phone', pressedBy TEXT,"
        " appleOrderId TEXT, appAccountToken TEXT, consumption TEXT, sharedFrom TEXT, offerId TEXT, introEligible INTEGER, billingPlan TEXT,"
        " billingPeriod INTEGER, commitmentEndsAt DOUBLE, purchasedWithStoreKit2 INTEGER NOT NULL DEFAULT 0,"
        " storeRenewal INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX storeTransactionUnfinished ON storeTransaction(finished) WHERE finished = 0;"
        "CREATE INDEX storeTransactionByProduct ON storeTransaction(productId, state);"
        "CREATE INDEX storeTransactionPlanned ON storeTransaction(id) WHERE plan IS NOT NULL;"
        "CREATE INDEX storeTransactionOwned ON storeTransaction(account, productId, state);"
        "CREATE INDEX storeTransactionQueue ON storeTransaction(date, id) WHERE finished = 0;"
        "CREATE INDEX storeTransactionFinishedPaid ON storeTransaction(finished) WHERE finished = 1 AND state IN ('purchased', 'restored');"
        "CREATE INDEX storeTransactionWebOrder ON storeTransaction(webOrderLineItemId) WHERE webOrderLineItemId IS NOT NULL;"
        "CREATE UNIQUE INDEX storeTransactionByAppleOrder ON storeTransaction(appleOrderId) WHERE appleOrderId IS NOT NULL;"
        "CREATE INDEX storeTransactionSharedFrom ON storeTransaction(sharedFrom) WHERE sharedFrom IS NOT NULL;"
        "CREATE INDEX storeTransactionChain ON storeTransaction(COALESCE(originalTransactionId, id), state, date);"
        "CREATE INDEX storeTransactionDate ON storeTransaction(date);"
        "CREATE TRIGGER storeKit2FailureAtOnce AFTER INSERT ON storeTransaction"
        " WHEN NEW.state = 'failed' AND NEW.purchasedWithStoreKit2 = 1 AND NEW.error IS NOT 'interrupted'"
        " BEGIN UPDATE storeTransaction SET finished = 1 WHERE id = NEW.id; END;"
        "CREATE TRIGGER storeKit2FailureLater AFTER UPDATE OF state ON storeTransaction"
        " WHEN NEW.state = 'failed' AND NEW.purchasedWithStoreKit2 = 1 AND NEW.error IS NOT 'interrupted'"
        " BEGIN UPDATE storeTransaction SET finished = 1 WHERE id = NEW.id; END;"
        "CREATE TABLE notificationOutbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, type TEXT NOT NULL, subtype TEXT,"
        " transactionId TEXT, originalTransactionId TEXT, date DOUBLE NOT NULL, notification BLOB NOT NULL, backendDelivered INTEGER NOT NULL,"
        " delivery TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, firstAttemptAt DOUBLE, nextAttemptAt DOUBLE, lastAttemptAt DOUBLE,"
        " lastError TEXT, signedPayload TEXT, detour TEXT, attemptLog BLOB, content BLOB);"
        "CREATE INDEX notificationOutboxForBackend ON notificationOutbox(seq) WHERE backendDelivered = 0;"
        "CREATE INDEX notificationOutboxDue ON notificationOutbox(nextAttemptAt) WHERE delivery = 'pending';"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);");
    sqlite3 *backend = open_db(dir, "backend.sqlite",
        "CREATE TABLE orders (id TEXT PRIMARY KEY, user TEXT NOT NULL, productId TEXT NOT NULL, createdAt DOUBLE NOT NULL, compensatedAt DOUBLE);"
        "CREATE INDEX ordersByProduct ON orders(user, productId, createdAt, id);"
        "CREATE TABLE credit (transactionId TEXT PRIMARY KEY, user TEXT NOT NULL, productId TEXT NOT NULL, orderId TEXT NOT NULL,"
        " coins INTEGER NOT NULL, creditedAt DOUBLE NOT NULL, revokedAt DOUBLE, webOrderLineItemId TEXT, familyShared INTEGER NOT NULL DEFAULT 0);"
        "CREATE INDEX creditLive ON credit(user, revokedAt, productId, coins);"
        "CREATE UNIQUE INDEX creditWebOrder ON credit(webOrderLineItemId) WHERE webOrderLineItemId IS NOT NULL;"
        "CREATE INDEX creditFamilyShared ON credit(user, productId) WHERE familyShared = 1 AND revokedAt IS NULL;"
        "CREATE INDEX creditByOrder ON credit(orderId);"
        "CREATE INDEX creditRecent ON credit(user, creditedAt, transactionId) WHERE revokedAt IS NULL;"
        "CREATE TABLE creditSum (user TEXT NOT NULL, productId TEXT NOT NULL, coins INTEGER NOT NULL, credits INTEGER NOT NULL,"
        " PRIMARY KEY (user, productId)) WITHOUT ROWID;"
        "CREATE TRIGGER creditSumInsert AFTER INSERT ON credit WHEN NEW.revokedAt IS NULL BEGIN"
        " INSERT INTO creditSum (user, productId, coins, credits) SELECT NEW.user, NEW.productId, NEW.coins, 1 WHERE NEW.revokedAt IS NULL"
        " ON CONFLICT (user, productId) DO UPDATE SET coins = coins + excluded.coins, credits = credits + 1; END;"
        "CREATE TABLE decidedReceipt (receiptHash TEXT NOT NULL, transactionId TEXT NOT NULL, user TEXT NOT NULL,"
        " PRIMARY KEY (receiptHash, transactionId));"
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
        "CREATE TABLE verdict (transactionId TEXT PRIMARY KEY, status INTEGER NOT NULL, decidedAt DOUBLE NOT NULL);");
    sqlite3 *keychain = open_db(dir, "client-keychain.sqlite",
        "CREATE TABLE pendingOrder (transactionId TEXT PRIMARY KEY, user TEXT NOT NULL, productId TEXT NOT NULL, orderId TEXT,"
        " purchasedAt DOUBLE NOT NULL, price TEXT NOT NULL, receiptHash TEXT, attempts INTEGER NOT NULL, lastAttemptAt DOUBLE, status TEXT NOT NULL,"
        " amount TEXT, currency TEXT, claimsOwnership INTEGER NOT NULL DEFAULT 0, appleId TEXT);"
        "CREATE INDEX pendingOrderQueue ON pendingOrder(user, status, attempts, purchasedAt, transactionId);"
        "CREATE TABLE intent (id INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, productId TEXT NOT NULL, orderId TEXT,"
        " createdAt DOUBLE NOT NULL, interrupted INTEGER NOT NULL DEFAULT 0, appleId TEXT, appAccountToken TEXT);"
        "CREATE TABLE pendingCount (user TEXT PRIMARY KEY, count INTEGER NOT NULL) WITHOUT ROWID;"
        "CREATE TRIGGER pendingCountInsert AFTER INSERT ON pendingOrder WHEN NEW.status = 'pending' BEGIN"
        " INSERT INTO pendingCount (user, count) SELECT NEW.user, 0 WHERE NOT EXISTS (SELECT 1 FROM pendingCount WHERE user = NEW.user);"
        " UPDATE pendingCount SET count = count + 1 WHERE user = NEW.user; END;"
        "CREATE TRIGGER pendingCountDelete AFTER DELETE ON pendingOrder WHEN OLD.status = 'pending' BEGIN"
        " UPDATE pendingCount SET count = count - 1 WHERE user = OLD.user; END;"
        "CREATE TRIGGER pendingCountUpdate AFTER UPDATE OF user, status ON pendingOrder WHEN OLD.status = 'pending' OR NEW.status = 'pending' BEGIN"
        " UPDATE pendingCount SET count = count - 1 WHERE user = OLD.user AND OLD.status = 'pending';"
        " INSERT INTO pendingCount (user, count) SELECT NEW.user, 0 WHERE NEW.status = 'pending' AND NOT EXISTS (SELECT 1 FROM pendingCount WHERE user = NEW.user);"
        " UPDATE pendingCount SET count = count + 1 WHERE user = NEW.user AND NEW.status = 'pending'; END;");

    sqlite3_stmt *nextOrder = prep(backend, "SELECT value FROM meta WHERE key = 'nextOrder'");
    sqlite3_stmt *bumpOrder = prep(backend, "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextOrder', ?)");
    sqlite3_stmt *insertOrder = prep(backend, "INSERT INTO orders (id, user, productId, createdAt) VALUES (?, 'alice', 'coins.60', 1)");
    sqlite3_stmt *intent = prep(keychain, "INSERT INTO intent (user, productId, orderId, createdAt, appleId) VALUES ('alice', 'coins.60', ?, 1, 'sandbox-1')");
    sqlite3_stmt *nextTx = prep(store, "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'nextTransaction'");
    sqlite3_stmt *bumpTx = prep(store, "INSERT OR REPLACE INTO meta (key, value) VALUES ('nextTransaction', ?)");
    sqlite3_stmt *insertTx = prep(store, "INSERT INTO storeTransaction (id, productId, state, applicationUsername, date, error, account, originalTransactionId, plan, device,"
        " pressedBy, purchasedWithStoreKit2)"
        " VALUES (?, 'coins.60', 'purchasing', ?, 1, NULL, 'sandbox-1', NULL, '[{\"at\":1800000001,\"spawns\":false,\"state\":\"purchased\"}]', 'phone',"
        " 'alice', 0)");
    sqlite3_stmt *stepTaken = prep(store, "UPDATE storeTransaction SET plan = NULL WHERE id = ?");
    sqlite3_stmt *purchased = prep(store, "UPDATE storeTransaction SET state = 'purchased', error = NULL, originalTransactionId = NULL, date = 1800000001"
        " WHERE id = ?");
    sqlite3_stmt *appleOrder = prep(store, "UPDATE storeTransaction SET appleOrderId = 'MQ' || ? WHERE id = ?");
    /* Apple's ONE_TIME_CHARGE, written in the outbox with the charge. */
    sqlite3_stmt *news = prep(store, "INSERT INTO notificationOutbox (uuid, type, subtype, transactionId, originalTransactionId, date, notification,"
        " backendDelivered, delivery, nextAttemptAt, content) VALUES ('8cc470eb-c4c7-4f9e-8c1a-' || ?1, 'ONE_TIME_CHARGE', NULL, ?1, ?1, 1800000001,"
        " '{\"transactionId\":\"' || ?1 || '\",\"originalTransactionId\":\"' || ?1 || '\",\"kind\":\"ONE_TIME_CHARGE\",\"date\":821692800,"
        "\"uuid\":\"8cc470eb-c4c7-4f9e-8c1a-725a38db9fe5\",\"account\":\"sandbox-1\",\"productId\":\"com.iapsim.coins.60\"}', 1, 'not-sent', NULL,"
        /* What the notification carries, as the records stood when it was written: the signed transaction's fields. */
        " '{\"transaction\":{\"storefrontId\":\"143441\",\"purchaseDate\":1800000001500,\"price\":6000,\"storefront\":\"USA\","
        "\"transactionReason\":\"PURCHASE\",\"type\":\"Consumable\",\"originalPurchaseDate\":1800000001500,\"productId\":\"com.iapsim.coins.60\","
        "\"quantity\":1,\"environment\":\"Sandbox\",\"inAppOwnershipType\":\"PURCHASED\",\"transactionId\":\"' || ?1 || '\","
        "\"originalTransactionId\":\"' || ?1 || '\",\"currency\":\"CNY\",\"signedDate\":1800000001500,\"bundleId\":\"com.iapsim.app\"}}')");
    sqlite3_stmt *clock = prep(store, "INSERT INTO meta (key, value) VALUES ('clock', 1800000001.0)"
        " ON CONFLICT (key) DO UPDATE SET value = MAX(value, excluded.value)");
    sqlite3_stmt *save = prep(keychain,
        "INSERT INTO pendingOrder (transactionId, user, productId, orderId, purchasedAt, price, receiptHash, attempts, lastAttemptAt, status,"
        " amount, currency, claimsOwnership, appleId)"
        " VALUES (?, 'alice', 'coins.60', ?, 1, '¥6', 'ab12', 0, NULL, ?, '6', 'CNY', 0, 'sandbox-1') ON CONFLICT (transactionId) DO UPDATE SET"
        " orderId = excluded.orderId, receiptHash = excluded.receiptHash, attempts = excluded.attempts,"
        " lastAttemptAt = excluded.lastAttemptAt, status = excluded.status WHERE pendingOrder.user = excluded.user");
    sqlite3_stmt *readBack = prep(keychain, "SELECT * FROM pendingOrder WHERE transactionId = ?");
    sqlite3_stmt *receipt = prep(store, "SELECT id FROM storeTransaction WHERE finished = 0 AND state IN ('purchased', 'restored')");
    sqlite3_stmt *compensated = prep(backend, "SELECT compensatedAt IS NOT NULL FROM orders WHERE id = ?");
    sqlite3_stmt *existing = prep(backend, "SELECT * FROM credit WHERE transactionId = ?");
    sqlite3_stmt *order = prep(backend, "SELECT * FROM orders WHERE id = ?");
    sqlite3_stmt *credit = prep(backend, "INSERT INTO credit (transactionId, user, productId, orderId, coins, creditedAt, familyShared)"
        " VALUES (?, 'alice', 'coins.60', ?, 60, 1, 0)");
    /* Which user's receipt decided the transaction, for a replay from another user: written with the credit. */
    sqlite3_stmt *decider = prep(backend, "SELECT user FROM decidedReceipt WHERE receiptHash = 'ab12' AND transactionId = ?");
    sqlite3_stmt *decided = prep(backend, "INSERT OR IGNORE INTO decidedReceipt (receiptHash, transactionId, user) VALUES ('ab12', ?, 'alice')");
    sqlite3_stmt *finish = prep(store, "UPDATE storeTransaction SET finished = 1 WHERE id = ? AND finished = 0");
    sqlite3_stmt *findOrder = prep(keychain, "SELECT productId FROM pendingOrder WHERE transactionId = ? AND user = 'alice'");
    sqlite3_stmt *dropIntent = prep(keychain, "DELETE FROM intent WHERE id = ?");
    sqlite3_stmt *dropOrder = prep(keychain, "DELETE FROM pendingOrder WHERE transactionId = ? AND user = 'alice'");
    sqlite3_stmt *coins = prep(backend, "SELECT COALESCE(SUM(coins), 0) FROM creditSum WHERE user = 'alice'");
    sqlite3_stmt *owned = prep(backend, "SELECT productId FROM creditSum WHERE user = 'alice'");

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int c = 0; c < cycles; c++) {
        char orderId[32], txId[32], number[32];
        tx(backend, "BEGIN IMMEDIATE");
        long long next = run(nextOrder, 0, 0) + 1;
        snprintf(number, sizeof number, "%lld", next + 1);
        run(bumpOrder, 1, (const char *[]){number});
        snprintf(orderId, sizeof orderId, "ORD-%06lld", next);
        run(insertOrder, 1, (const char *[]){orderId});
        tx(backend, "COMMIT");

        char intentId[32];
        tx(keychain, "BEGIN IMMEDIATE"); run(intent, 1, (const char *[]){orderId}); tx(keychain, "COMMIT");
        snprintf(intentId, sizeof intentId, "%lld", sqlite3_last_insert_rowid(keychain));

        tx(store, "BEGIN IMMEDIATE");
        long long t = run(nextTx, 0, 0);
        if (t == 0) t = 1000000001;
        snprintf(number, sizeof number, "%lld", t + 1);
        run(bumpTx, 1, (const char *[]){number});
        snprintf(txId, sizeof txId, "%lld", t);
        run(clock, 0, 0);
        run(insertTx, 2, (const char *[]){txId, orderId});
        tx(store, "COMMIT");
        tx(store, "BEGIN IMMEDIATE");
        run(clock, 0, 0);
        run(stepTaken, 1, (const char *[]){txId});
        run(purchased, 1, (const char *[]){txId});
        run(appleOrder, 2, (const char *[]){txId, txId});
        run(news, 1, (const char *[]){txId});
        tx(store, "COMMIT");

        run(receipt, 0, 0);
        tx(keychain, "BEGIN IMMEDIATE");
        run(dropIntent, 1, (const char *[]){intentId});
        run(save, 3, (const char *[]){txId, orderId, "pending"});
        tx(keychain, "COMMIT");
        run(readBack, 1, (const char *[]){txId});

        run(receipt, 0, 0);
        run(decider, 1, (const char *[]){txId});
        run(compensated, 1, (const char *[]){orderId});
        tx(backend, "BEGIN IMMEDIATE");
        run(existing, 1, (const char *[]){txId});
        run(order, 1, (const char *[]){orderId});
        run(credit, 2, (const char *[]){txId, orderId});
        run(decided, 1, (const char *[]){txId});
        tx(backend, "COMMIT");

        tx(keychain, "BEGIN IMMEDIATE"); run(save, 3, (const char *[]){txId, orderId, "verified"}); tx(keychain, "COMMIT");
        run(readBack, 1, (const char *[]){txId});
        tx(store, "BEGIN IMMEDIATE"); run(finish, 1, (const char *[]){txId}); tx(store, "COMMIT");
        tx(keychain, "BEGIN IMMEDIATE");
        run(findOrder, 1, (const char *[]){txId});
        run(dropOrder, 1, (const char *[]){txId});
        tx(keychain, "COMMIT");
        run(coins, 0, 0);
        run(owned, 0, 0);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%.1f\n", cycles / seconds);
    return 0;
}
