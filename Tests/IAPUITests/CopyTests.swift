import IAPCore
import IAPUI
import Testing

/// The screens' copy: every text for people, in both languages, kept with the screens.
@Suite("Copy: every text in both languages")
struct CopyTests {
    @Test("every fault says what it does in both languages", arguments: Fault.allCases)
    func faultSummaries(fault: Fault) {
        let summary = fault.summary
        #expect(!summary.en.isEmpty && !summary.zh.isEmpty, "\(fault.rawValue)")
        #expect(summary.en != summary.zh, "\(fault.rawValue) is not translated")
        // VALUE is where the value in force goes: a summary of a fault that takes one says where.
        #expect(summary.en.contains("VALUE") == summary.zh.contains("VALUE"), "\(fault.rawValue)")
    }

    @Test("every party and every panel row is named in both languages")
    func panelCopy() {
        for party in [Fault.Party.store, .backend, .app] {
            #expect(party.name.en == party.rawValue && party.name.zh != party.rawValue)
        }
        for row in FaultPanelRow.all {
            #expect(!row.summary.en.isEmpty && !row.summary.zh.isEmpty, "\(row.label)")
        }
    }

    @Test("every sentence is written in both languages", arguments: Text.allCases)
    func sentences(text: Text) {
        #expect(!text.localized.en.isEmpty && !text.localized.zh.isEmpty, "\(text)")
    }

    @Test("every state the core can name is explained, and every explanation names a state")
    func catalogMatchesTheCore() {
        #expect(StateCatalog.entries.map(\.id) == VisibleState.ids)
    }

    @Test("every alarm is said in both languages")
    func alarms() {
        let alarms: [Alarm] = [
            .writeFailed(transactionId: "1"), .verifyFailing(transactionId: "1", attempts: 10, reason: .http(503)),
            .readFailed(user: "a"), .storage(party: .backend, detail: "disk I/O error"),
            .unattributed(transactionId: "1", productId: "p"), .creditMissing(transactionIds: ["1", "2", "3", "4"], ofLatest: 50),
        ]
        for alarm in alarms {
            #expect(!alarm.words.en.isEmpty && alarm.words.en != alarm.words.zh, "\(alarm)")
        }
        #expect(alarms[1].text(.zh).contains("HTTP 错误 503"))
        #expect(alarms[3].text(.zh).contains("后端存储出错") && alarms[3].text(.zh).contains("disk I/O error"))
        #expect(alarms[5].text(.en).contains("(1, 2, 3, …)"))
        // How many were looked at, so that 50 of the latest 50 reads as what it is, a lower bound (found in a QA walk:
        // "the store finished 50 paid transaction(s)" when 90,000 were missing).
        #expect(alarms[5].text(.en).contains("4 of the store's latest 50 finished paid transaction(s)"), "\(alarms[5].text(.en))")
        #expect(alarms[5].text(.zh).contains("最近完成的 50 笔已付款交易中,有 4 笔"), "\(alarms[5].text(.zh))")
    }
}
