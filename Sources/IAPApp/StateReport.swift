import Foundation
import ClientPersistence
import MockBackend
import MockStore

/// `iapsim state`: what each party holds, as JSON. The field names are a contract with QA scripts.
public enum StateReport {
    public static func json(for directory: DataDirectory) throws -> String {
        let files = FileManager.default
        var transactions: [[String: Any]] = []
        if files.fileExists(atPath: directory.store) {
            transactions = try StoreDatabase(path: directory.store).all().map { record in
                let transaction = record.transaction
                return ["transactionId": transaction.id, "productId": transaction.productId, "state": transaction.state.rawValue,
                        "finished": record.finished, "applicationUsername": transaction.applicationUsername ?? NSNull(),
                        "error": transaction.error?.rawValue ?? NSNull(), "account": record.account ?? NSNull(),
                        "originalTransactionId": transaction.originalTransactionId ?? NSNull()]
            }
        }
        var credits: [[String: Any]] = []
        if files.fileExists(atPath: directory.backend) {
            credits = try BackendDatabase(path: directory.backend).credits().map {
                ["transactionId": $0.transactionId, "user": $0.user, "productId": $0.productId, "orderId": $0.orderId, "coins": $0.coins]
            }
        }
        var users: [String: Any] = [:]
        if files.fileExists(atPath: directory.keychain) {
            let client = try ClientDatabase(keychainPath: directory.keychain, sandboxPath: directory.sandbox)
            let orders = Dictionary(grouping: try client.allOrders(), by: \.user)
            let intents = Dictionary(grouping: try client.openIntents(), by: \.user)
            for user in Set(orders.keys).union(intents.keys) {
                users[user] = [
                    "pending": (orders[user] ?? []).map {
                        ["transactionId": $0.transactionId, "productId": $0.productId, "orderId": $0.orderId ?? NSNull(),
                         "attempts": $0.attempts, "status": $0.status.rawValue] as [String: Any]
                    },
                    "openIntents": (intents[user] ?? []).map {
                        ["id": $0.id, "productId": $0.productId, "orderId": $0.orderId ?? NSNull(), "interrupted": $0.interrupted] as [String: Any]
                    },
                ]
            }
        }
        let report: [String: Any] = [
            "store": ["transactions": transactions],
            "backend": ["credits": credits],
            "client": ["users": users],
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
        return String(decoding: data, as: UTF8.self)
    }
}
