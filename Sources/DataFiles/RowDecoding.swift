import GRDB

/// Rows decoded where they are read. A row read from a cursor finds a column by name in the statement's own index of
/// its names; a row that `Row.fetchOne` or `Row.fetchAll` copies out lowercases every column's name at each lookup,
/// which costs more than the read itself in the store's wide rows.
extension Statement {
    public func decodeFirst<T>(arguments: StatementArguments = StatementArguments(), _ decode: @escaping (Row) throws -> T) throws -> T? {
        try Row.fetchCursor(self, arguments: arguments).map(decode).next()
    }

    public func decodeAll<T>(arguments: StatementArguments = StatementArguments(), _ decode: @escaping (Row) throws -> T) throws -> [T] {
        try Array(Row.fetchCursor(self, arguments: arguments).map(decode))
    }
}
