import AppleVocabulary
import Crypto
import SwiftASN1

/// The receipt as Apple's ASN.1 payload, the content of its PKCS#7 container.
extension Receipt {
    struct MissingField: Error {
        let type: Int
    }

    /// Apple's SET of attributes. `opaque` is Apple's per-receipt random value, which the SHA-1 hash covers.
    func payload(opaque: [UInt8]) throws -> [UInt8] {
        typealias F = ReceiptFields
        let bundle = try ReceiptAttribute(F.bundleId, ASN1UTF8String(bundle_id))
        // Apple hashes the device's identifierForVendor, the opaque value and the bundle id's DER; iapsim's devices have
        // no identifier, so its 16 bytes are zeros.
        let hash = Insecure.SHA1.hash(data: [UInt8](repeating: 0, count: 16) + opaque + bundle.value.bytes)
        var attributes = [
            try ReceiptAttribute(F.receiptType, ASN1UTF8String(environment == "Production" ? F.production : F.sandbox)),
            bundle,
            try ReceiptAttribute(F.appVersion, ASN1UTF8String(Receipt.applicationVersion)),
            try ReceiptAttribute(F.opaqueValue, ASN1OctetString(contentBytes: opaque[...])),
            try ReceiptAttribute(F.sha1Hash, ASN1OctetString(contentBytes: Array(hash)[...])),
            try ReceiptAttribute(F.originalAppVersion, ASN1UTF8String(Receipt.originalApplicationVersion)),
        ]
        if let created = receipt_creation_date_ms { attributes.append(try ReceiptAttribute(F.creationDate, ASN1IA5String(try RFC3339.text(created)))) }
        for entry in in_app { attributes.append(try ReceiptAttribute(F.inApp, EntrySet(try entry.attributes()))) }
        var serializer = DER.Serializer()
        try attributes.serialize(into: &serializer)
        return serializer.serializedBytes
    }

    init(payload: ArraySlice<UInt8>) throws {
        typealias F = ReceiptFields
        var environment: String?, bundleId: String?, created: String?, entries: [Entry] = []
        for attribute in try [ReceiptAttribute](setIn: payload) {
            switch attribute.type {
            case F.receiptType: environment = try attribute.text
            case F.bundleId: bundleId = try attribute.text
            case F.creationDate: created = try RFC3339.milliseconds(try attribute.asciiText)
            case F.inApp: entries.append(try Entry(attributes: try [ReceiptAttribute](setIn: attribute.value.bytes)))
            default: break
            }
        }
        guard let bundleId else { throw MissingField(type: F.bundleId) }
        switch environment {
        case F.production: environment = "Production"
        case F.sandbox: environment = "Sandbox"
        default: throw MissingField(type: F.receiptType)
        }
        self.init(bundle_id: bundleId, environment: environment ?? "Sandbox", in_app: entries, receipt_creation_date_ms: created)
    }
}

/// An in-app purchase's attributes, written as the SET that type 17's value holds.
private struct EntrySet: DERSerializable {
    let attributes: [ReceiptAttribute]

    init(_ attributes: [ReceiptAttribute]) { self.attributes = attributes }

    func serialize(into coder: inout DER.Serializer) throws { try attributes.serialize(into: &coder) }
}

extension Receipt.Entry {
    func attributes() throws -> [ReceiptAttribute] {
        typealias F = ReceiptFields
        var attributes = [
            try ReceiptAttribute(F.quantity, Int(quantity) ?? 1),
            try ReceiptAttribute(F.productId, ASN1UTF8String(product_id)),
            try ReceiptAttribute(F.transactionId, ASN1UTF8String(transaction_id)),
            try ReceiptAttribute(F.originalTransactionId, ASN1UTF8String(original_transaction_id)),
            try ReceiptAttribute(F.purchaseDate, ASN1IA5String(try RFC3339.text(purchase_date_ms))),
        ]
        func date(_ type: Int, _ milliseconds: String?) throws {
            if let milliseconds { attributes.append(try ReceiptAttribute(type, ASN1IA5String(try RFC3339.text(milliseconds)))) }
        }
        func flag(_ type: Int, _ value: String?) throws {
            if let value { attributes.append(try ReceiptAttribute(type, value == "true" ? 1 : 0)) }
        }
        try date(F.originalPurchaseDate, original_purchase_date_ms)
        try date(F.expiresDate, expires_date_ms)
        try date(F.cancellationDate, cancellation_date_ms)
        if let web = web_order_line_item_id.flatMap(Int.init) { attributes.append(try ReceiptAttribute(F.webOrderLineItemId, web)) }
        try flag(F.isTrialPeriod, is_trial_period)
        try flag(F.isInIntroOfferPeriod, is_in_intro_offer_period)
        if let offer = promotional_offer_id { attributes.append(try ReceiptAttribute(F.promotionalOfferId, ASN1UTF8String(offer))) }
        if let code = offer_code_ref_name { attributes.append(try ReceiptAttribute(F.offerCodeRefName, ASN1UTF8String(code))) }
        if let reason = cancellation_reason.flatMap(Int.init) { attributes.append(try ReceiptAttribute(F.cancellationReason, reason)) }
        if let group = subscription_group_identifier {
            attributes.append(try ReceiptAttribute(F.subscriptionGroupIdentifier, ASN1UTF8String(group)))
        }
        return attributes
    }

    init(attributes: [ReceiptAttribute]) throws {
        typealias F = ReceiptFields
        var fields: [Int: ReceiptAttribute] = [:]
        for attribute in attributes { fields[attribute.type] = attribute }
        func required(_ type: Int) throws -> ReceiptAttribute {
            guard let attribute = fields[type] else { throw Receipt.MissingField(type: type) }
            return attribute
        }
        func date(_ type: Int) throws -> String? {
            // Apple writes an empty date where it has none.
            guard let attribute = fields[type] else { return nil }
            let text = try attribute.asciiText
            return text.isEmpty ? nil : try RFC3339.milliseconds(text)
        }
        self.init(transaction_id: try required(F.transactionId).text, original_transaction_id: try required(F.originalTransactionId).text,
                  product_id: try required(F.productId).text, purchase_date_ms: try RFC3339.milliseconds(try required(F.purchaseDate).asciiText),
                  quantity: String(try required(F.quantity).number))
        original_purchase_date_ms = try date(F.originalPurchaseDate)
        expires_date_ms = try date(F.expiresDate)
        cancellation_date_ms = try date(F.cancellationDate)
        web_order_line_item_id = try fields[F.webOrderLineItemId].map { String(try $0.number) }
        is_trial_period = try fields[F.isTrialPeriod].map { String(try $0.number == 1) }
        is_in_intro_offer_period = try fields[F.isInIntroOfferPeriod].map { String(try $0.number == 1) }
        promotional_offer_id = try fields[F.promotionalOfferId]?.text
        offer_code_ref_name = try fields[F.offerCodeRefName]?.text
        cancellation_reason = try fields[F.cancellationReason].map { String(try $0.number) }
        subscription_group_identifier = try fields[F.subscriptionGroupIdentifier]?.text
    }
}
