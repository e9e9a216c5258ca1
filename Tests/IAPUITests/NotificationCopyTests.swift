import Foundation
import IAPCore
@testable import IAPUI
import Testing

@Suite("Server notifications as the inspector and the timeline tell them")
struct NotificationCopyTests {
    private func delivery(_ state: NotificationDelivery.State, error: String? = nil) -> NotificationDelivery {
        NotificationDelivery(type: "DID_FAIL_TO_RENEW", subtype: "GRACE_PERIOD", transactionId: "1000000004", uuid: "u", state: state, lastError: error)
    }

    @Test("each delivery state reads in English and 简体中文, with Apple's names as they are")
    func rows() {
        let next = Date(timeIntervalSince1970: 1_800_003_600)  // 15 Jan 2027, 09:00 UTC
        let cases: [(NotificationDelivery, String, String)] = [
            (delivery(.sending), "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · sending…", "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · 发送中…"),
            (delivery(.retrying(retry: 2, of: 5, next: next), error: "HTTP 500"),
             "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · retry 2/5 at 15 Jan 09:00 (HTTP 500)",
             "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · 1月15日 09:00 第 2/5 次重试(HTTP 500)"),
            (delivery(.sent(retries: 0)), "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · sent", "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · 已送达"),
            (delivery(.failed(retries: 5), error: "connection refused"),
             "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · failed after 5 retries (connection refused)",
             "DID_FAIL_TO_RENEW/GRACE_PERIOD tx 1000000004 · 重试 5 次后仍失败(connection refused)"),
        ]
        for (delivery, en, zh) in cases {
            #expect(delivery.row(.en) == en)
            #expect(delivery.row(.zh) == zh)
        }
    }

    @Test("the timeline tells an attempt as Apple's side, in both languages")
    func timeline() {
        var timeline = Timeline()
        timeline.record(delivery(.sent(retries: 1)), at: Date(timeIntervalSince1970: 0))
        #expect(timeline.entries(.en).map(\.text) == ["Apple → server: DID_FAIL_TO_RENEW/GRACE_PERIOD sent after 1 retry"])
        #expect(timeline.entries(.zh).map(\.text) == ["Apple → 服务器:DID_FAIL_TO_RENEW/GRACE_PERIOD 重试 1 次后送达"])
    }
}
