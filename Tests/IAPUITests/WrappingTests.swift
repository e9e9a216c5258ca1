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

    @Test("a command in backquotes stays on one row when it fits in one, in English and in Chinese; a lone backquote changes nothing (found in a QA walk: `family` | `sandbox-1 sandbox-2`)")
    func commandWhole() {
        let rows = wrappedLines("or the script step `family sandbox-1 sandbox-2`, then Restore", width: 30)
        #expect(rows == ["or the script step", "`family sandbox-1 sandbox-2`,", "then Restore"], "\(rows)")
        let chinese = wrappedLines("或脚本步骤 `family sandbox-1 sandbox-2`,然后用另一个 Apple ID 恢复购买", width: 34)
        #expect(chinese.contains { $0.contains("`family sandbox-1 sandbox-2`") }, "\(chinese)")
        #expect(chinese.allSatisfy { displayWidth($0) <= 34 }, "\(chinese)")
        #expect(wrappedLines("a lone ` quote and more words here", width: 12) == ["a lone `", "quote and", "more words", "here"])
        let wide = wrappedLines("run `a b c d e f g h i j k l` now", width: 10)
        #expect(wide.allSatisfy { displayWidth($0) <= 10 }, "\(wide)")
    }

    @Test("a word wider than a row is cut where it must be, and every row fits")
    func longWord() {
        let rows = wrappedLines("see https://example.com/a/very/long/path/indeed now", width: 16)
        #expect(rows.allSatisfy { displayWidth($0) <= 16 }, "\(rows)")
        #expect(rows.first == "see", "\(rows)")
        #expect(rows.joined(separator: " ").replacingOccurrences(of: " ", with: "") == "seehttps://example.com/a/very/long/path/indeednow")
    }
}
