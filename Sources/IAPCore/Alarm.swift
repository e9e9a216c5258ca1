/// Something that must not go unseen (I6), said in the app's language when drawn.
public enum Alarm: Sendable, Equatable {
    /// An order could not be written to (or read back from) the client's store.
    case writeFailed(transactionId: String)
    /// An order keeps failing verification.
    case verifyFailing(transactionId: String, attempts: Int, reason: String)
    /// A user's orders could not be read at login.
    case readFailed(user: String)
    /// A party's own database failed; the detail is the database's message, which stays as it is.
    case storage(party: String, detail: String)
    /// A paid transaction no evidence ties to one user: it waits unclaimed in the store's queue for support (I3).
    case unattributed(transactionId: String, productId: String)
    /// The store finished paid transactions the backend has no record of (a lost write, e.g. a lost WAL file):
    /// the user paid and was never credited.
    case creditMissing(transactionIds: [String])

    public func text(_ lang: Language) -> String {
        switch (self, lang) {
        case let (.writeFailed(id), .en): "order \(id) could not be written to the client store"
        case let (.writeFailed(id), .zh): "订单 \(id) 无法写入客户端存储"
        case let (.verifyFailing(id, attempts, reason), .en): "order \(id) failed \(attempts) verifications: \(reason)"
        case let (.verifyFailing(id, attempts, reason), .zh): "订单 \(id) 已验证失败 \(attempts) 次:\(Self.reason(reason, .zh))"
        case let (.readFailed(user), .en): "could not read \(user)'s orders from the client store"
        case let (.readFailed(user), .zh): "无法从客户端存储读取 \(user) 的订单"
        case let (.storage(party, detail), .en): "\(party) storage: \(detail)"
        case let (.storage(party, detail), .zh): "\(Self.party(party))存储出错:\(detail)"
        case let (.unattributed(id, _), .en): "tx \(id) paid, buyer unknown: support assigns it"
        case let (.unattributed(id, _), .zh): "交易 \(id) 已付款,买家不明:待客服分配"
        case let (.creditMissing(ids), .en):
            "the store finished \(ids.count) paid transaction(s) with no credit on the backend (\(Self.list(ids))): data was lost; credit by hand"
        case let (.creditMissing(ids), .zh):
            "商店已完成 \(ids.count) 笔已付款交易,后端却没有入账记录(\(Self.list(ids))):数据已丢失,请人工补发"
        }
    }

    /// A retry reason (`VerifyOutcome.retry`) in the app's language; codes and statuses stay as they are.
    public static func reason(_ reason: String, _ lang: Language) -> String {
        guard lang == .zh else { return reason }
        switch reason {
        case "backend unreachable": return "后端不可达"
        case "backend timed out": return "后端超时"
        case "receipt empty": return "收据为空"
        case "verification pending": return "仍在验证"
        default:
            if reason.hasPrefix("HTTP ") { return "HTTP 错误 " + reason.dropFirst(5) }
            if reason.hasPrefix("status ") { return "状态码 " + reason.dropFirst(7) }
            return reason
        }
    }

    private static func list(_ ids: [String]) -> String {
        ids.prefix(3).joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
    }

    private static func party(_ name: String) -> String {
        switch name {
        case "store": "商店"
        case "client": "客户端"
        case "backend": "后端"
        default: name
        }
    }
}
