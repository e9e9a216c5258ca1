@testable import IAPUI
import Testing

/// From a QA walk: with the scenarios' and faults' descriptions shown whole, the wrapping split identifiers
/// (`_billingGracePeriodEnabl` | `ed`) and left Chinese lines short at a space.
@Suite("Wrapping breaks at spaces and between Chinese characters, inside a word only when it must")
struct WrappingTests {
    @Test("an identifier moves to the next row whole")
    func identifierWhole() {
        let rows = wrappedLines("ab cd ef gh _billingGracePeriodEnabled is off", width: 30)
        #expect(rows == ["ab cd ef gh", "_billingGracePeriodEnabled is", "off"])
    }

    @Test("Chinese fills its rows, and keeps an ASCII word in it whole")
    func chineseFills() {
        let rows = wrappedLines("宽限期已结束(GRACE_PERIOD_EXPIRED),服务暂停", width: 24)
        #expect(rows == ["宽限期已结束", "(GRACE_PERIOD_EXPIRED),", "服务暂停"])
        let filled = wrappedLines("稍候。订单已安全保存在设备上:按 Esc 可转入后台继续处理。", width: 48)
        #expect(filled.first.map(displayWidth) == 48, "\(filled)")
    }

    @Test("a closing quote or stop never starts a row, an opening quote never ends one (found by QA: a row began \"”。\")")
    func chinesePunctuationStaysOn() {
        // "后端确认后提示框变为“购买成功”。" at a width that ends the row right after 功.
        let rows = wrappedLines("后端确认后提示框变为“购买成功”。然后", width: 29)
        #expect(rows.allSatisfy { displayWidth($0) <= 29 }, "\(rows)")
        #expect(!rows.dropFirst().contains { $0.hasPrefix("”") || $0.hasPrefix("。") }, "\(rows)")
        let opened = wrappedLines("后端确认后提示框变为“购买成功”", width: 21)
        #expect(!opened.contains { $0.hasSuffix("“") }, "\(opened)")
    }

    @Test("a word wider than a row is cut where it must be, and every row fits")
    func longWord() {
        let rows = wrappedLines("see https://example.com/a/very/long/path/indeed now", width: 16)
        #expect(rows.allSatisfy { displayWidth($0) <= 16 }, "\(rows)")
        #expect(rows.first == "see", "\(rows)")
        #expect(rows.joined(separator: " ").replacingOccurrences(of: " ", with: "") == "seehttps://example.com/a/very/long/path/indeednow")
    }
}
