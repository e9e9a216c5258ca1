import GRDB

/// Each user's live credits summed by product, kept by the database itself as the ledger changes: the balance and what
/// a user was credited are read from a row per product, never from the whole history (a user with 90,000 credits had
/// every launch's first state read them all).
extension BackendDatabase {
    static func creditSumsMigration(_ db: Database) throws {
        // Triggers, not the app's writes: every change to the ledger keeps the sums, whoever makes it (a refund, a chain
        // revoked and reinstated, support, a test's own SQL).
        try db.execute(sql: """
            CREATE TABLE creditSum (user TEXT NOT NULL, productId TEXT NOT NULL, coins INTEGER NOT NULL, credits INTEGER NOT NULL,
                                    PRIMARY KEY (user, productId)) WITHOUT ROWID;
            INSERT INTO creditSum SELECT user, productId, SUM(coins), COUNT(*) FROM credit WHERE revokedAt IS NULL GROUP BY user, productId;
            CREATE TRIGGER creditSumInsert AFTER INSERT ON credit WHEN NEW.revokedAt IS NULL BEGIN
                \(add)
            END;
            CREATE TRIGGER creditSumUpdate AFTER UPDATE OF user, productId, coins, revokedAt ON credit BEGIN
                \(subtract)
                \(add)
            END;
            CREATE TRIGGER creditSumDelete AFTER DELETE ON credit WHEN OLD.revokedAt IS NULL BEGIN
                \(subtract)
            END;
            """)
    }

    /// NEW's credit added to its sum, when it is live.
    private static let add = """
        INSERT INTO creditSum (user, productId, coins, credits) SELECT NEW.user, NEW.productId, NEW.coins, 1 WHERE NEW.revokedAt IS NULL
            ON CONFLICT (user, productId) DO UPDATE SET coins = coins + excluded.coins, credits = credits + 1;
        """

    /// OLD's credit taken from its sum, when it was live; a sum of no credits goes.
    private static let subtract = """
        UPDATE creditSum SET coins = coins - OLD.coins, credits = credits - 1
            WHERE OLD.revokedAt IS NULL AND user = OLD.user AND productId = OLD.productId;
        DELETE FROM creditSum WHERE user = OLD.user AND productId = OLD.productId AND credits = 0;
        """
}
