import Foundation
@testable import MockBackend
import Testing

/// The launch's agreement check asks the backend which of the store's latest finished purchases it has no record of.
@Suite("Party agreement: what the backend has no record of")
struct PartyAgreementTests {
    private let scratch = Scratch()

    @Test("of the transactions asked about, those with neither a credit nor a verdict, in the order asked")
    func unaccounted() throws {
        let backend = try BackendDatabase(path: scratch.directory.appendingPathComponent("backend.sqlite").path)
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try backend.credit(transactionId: "20", paidProduct: "com.iapsim.coins.60", orderId: nil, requester: "alice", coins: 60, at: at)
        try backend.recordVerdict(transactionId: "40", verdict: .compensated, at: at)
        #expect(try backend.unaccounted(["50", "40", "30", "20", "10"]) == ["50", "30", "10"])
        #expect(try backend.unaccounted(["20", "40"]) == [])
        #expect(try backend.unaccounted([]) == [])
        // As many as the check asks about at a launch, each answered.
        let many = (1...60).map { "\(1000 + $0)" }
        #expect(try backend.unaccounted(many + ["20"]) == many)
        try backend.close()
    }
}
