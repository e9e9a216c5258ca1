import SwiftASN1

/// One entry of Apple's receipt payload, `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER, value OCTET
/// STRING }`: the value is itself DER (a string, a number, a date as text, or the SET of an in-app purchase), wrapped
/// so that a reader may skip types it does not know.
struct ReceiptAttribute: DERImplicitlyTaggable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    let type: Int
    let value: ASN1OctetString

    init(_ type: Int, _ value: some DERSerializable) throws {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        self.type = type
        self.value = ASN1OctetString(contentBytes: serializer.serializedBytes[...])
    }

    init(derEncoded rootNode: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        (type, value) = try DER.sequence(rootNode, identifier: identifier) { nodes in
            let type = try Int(derEncoded: &nodes)
            _ = try Int(derEncoded: &nodes)
            return (type, try ASN1OctetString(derEncoded: &nodes))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(type)
            // Apple's own attributes say 1 or 2 here and no reader looks at it.
            try coder.serialize(1)
            try coder.serialize(value)
        }
    }

    /// The value's own DER, parsed.
    func decoded<Value: DERParseable>(as: Value.Type) throws -> Value {
        try Value(derEncoded: try DER.parse(value.bytes))
    }

    var text: String {
        get throws { String(decoding: try decoded(as: ASN1UTF8String.self).bytes, as: UTF8.self) }
    }

    var asciiText: String {
        get throws { String(decoding: try decoded(as: ASN1IA5String.self).bytes, as: UTF8.self) }
    }

    var number: Int {
        get throws { try decoded(as: Int.self) }
    }
}

extension Array where Element == ReceiptAttribute {
    /// Apple's SET of attributes, in the order given: a DER SET OF would be sorted by encoding, which would lose the
    /// order of the in-app purchases that verifyReceipt answers with; ASN.1 readers (Apple's library, openssl) take a
    /// SET in any order.
    func serialize(into coder: inout DER.Serializer) throws {
        try coder.appendConstructedNode(identifier: .set) { coder in
            for attribute in self { try coder.serialize(attribute) }
        }
    }

    init(setIn bytes: ArraySlice<UInt8>) throws {
        self = try DER.set(try DER.parse(bytes), identifier: .set) { nodes in
            var attributes: [ReceiptAttribute] = []
            while let node = nodes.next() { attributes.append(try ReceiptAttribute(derEncoded: node)) }
            return attributes
        }
    }
}
