import GRDB

extension DatabaseQueue {
    /// `write`, with its `BEGIN IMMEDIATE` and `COMMIT` prepared once per connection: GRDB's `write` has SQLite parse
    /// both anew for every write transaction, and a purchase makes nine.
    public func writeTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try transaction("BEGIN IMMEDIATE TRANSACTION", updates)
    }

    /// Several reads as one snapshot. Outside a transaction each statement is a read transaction of its own, and SQLite
    /// takes and drops its shared-memory read lock (system calls) at every one.
    public func readTransaction<T>(_ reads: (Database) throws -> T) throws -> T {
        try transaction("BEGIN DEFERRED TRANSACTION", reads)
    }

    private func transaction<T>(_ begin: String, _ work: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.cachedStatement(sql: begin).execute()
            do {
                let result = try work(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return result
            } catch {
                // SQLite may have rolled back already (a full disk, an I/O error): only an open transaction is ended.
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }
}
