import GRDB

extension DatabaseQueue {
    /// `write`, with its `BEGIN IMMEDIATE` and `COMMIT` prepared once per connection: GRDB's `write` has SQLite parse
    /// both anew for every write transaction, and a purchase makes nine.
    public func writeTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
            do {
                let result = try updates(db)
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
