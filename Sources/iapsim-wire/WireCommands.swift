import AppleReceiptFormat
import AppleVocabulary
import AppleWire
import ArgumentParser
import Foundation
import IAPApp
import LaunchOptions
import Launcher
import MockStore
import StoreSigning

struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create an App Store Server API key: print its issuer id, key id and private key (PEM).",
        discussion: """
            The store keeps only the public half, to check the bearer tokens signed with it; save the private key now. \
            Also prints the data directory's own subscription offers key (its id and private key, PEM), which a team's server \
            signs promotional offers with when the catalog brings none (a .storekit file's subscriptionOffersKeyPair).
            """)

    @OptionGroup var data: DataOptions

    @Flag(help: "Print the key as JSON: {\"issuerId\", \"keyId\", \"bundleId\", \"privateKey\", \"sharedSecret\", \"bearerToken\", \"offersKeyId\", \"offersPrivateKey\"}.")
    var json = false

    private struct Printed: Encodable {
        let issuerId: String
        let keyId: String
        let bundleId: String
        let privateKey: String
        /// verifyReceipt's `password`.
        let sharedSecret: String
        /// Good for an hour from now: for curl.
        let bearerToken: String
        /// The subscription offers key promotional offers are signed with (iapsim's own).
        let offersKeyId: String
        let offersPrivateKey: String
    }

    func run() throws {
        let directory = data.givenOrDefaultDirectory()
        let key: APIKey, secret: String, token: String, offers: OffersKeyPair
        do {
            let store = try StoreDatabase(path: directory.store)
            key = try APIKey.create(in: store)
            secret = try store.sharedSecret()
            guard let own = try OffersKeyPair.own(in: store) else { Console.fail("\(directory.store): the subscription offers key kept there cannot be read") }
            offers = own
            try store.close()
            token = try Blocking.wait { try await key.bearerToken() }
        } catch {
            Console.fail(error, file: directory.store)
        }
        Console.keepWhatWasMade()
        if json {
            print(try JSONText.encode(Printed(issuerId: key.issuerId, keyId: key.keyId, bundleId: Receipt.bundleId, privateKey: key.privateKeyPEM,
                                              sharedSecret: secret, bearerToken: token, offersKeyId: offers.id,
                                              offersPrivateKey: offers.privateKeyPEM)))
            return
        }
        print("issuer id:     \(key.issuerId)")
        print("key id:        \(key.keyId)")
        print("bundle id:     \(Receipt.bundleId)")
        print("shared secret: \(secret)   (verifyReceipt's password)")
        print("bearer token:  \(token)   (good for an hour)")
        print(key.privateKeyPEM)
        print("subscription offers key id: \(offers.id)   (promotional offers; its private key follows)")
        print(offers.privateKeyPEM)
    }
}

struct CertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "certs",
        abstract: "Write the certificates that sign this data directory's transactions and notifications.",
        discussion: """
            Writes iapsim-root.cer (DER, what Apple's SignedDataVerifier takes as a root certificate) and PEM files of \
            the root, the intermediate and the leaf. The chain is made once per data directory and kept in its store.
            """)

    @OptionGroup var data: DataOptions

    @Option(help: "The folder to write them to (created if needed).", completion: .directory)
    var out: String

    func run() throws {
        // Checked before the data directory is opened: a bad --out leaves nothing behind.
        do { try DataDirectory(path: out).checkPath(option: "--out") } catch { Console.fail(error) }
        let directory = data.givenOrDefaultDirectory()
        let certificates: StoreCertificates
        do {
            let store = try StoreDatabase(path: directory.store)
            certificates = try StoreCertificates.of(store)
            try store.close()
        } catch {
            Console.fail(error, file: directory.store)
        }
        Console.keepWhatWasMade()
        do {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let files: [(String, Data)] = [
                ("iapsim-root.cer", Data(certificates.root)),
                ("iapsim-root.pem", Data(try StoreCertificates.pem(certificates.root).utf8)),
                ("iapsim-intermediate.pem", Data(try StoreCertificates.pem(certificates.intermediate).utf8)),
                ("iapsim-leaf.pem", Data(try StoreCertificates.pem(certificates.leaf).utf8)),
            ]
            for (name, bytes) in files { try bytes.write(to: URL(fileURLWithPath: out).appendingPathComponent(name), options: .atomic) }
            print("wrote \(files.map(\.0).joined(separator: ", ")) to \(out)")
        } catch {
            Console.fail("--out: cannot write to \(out) (\(error.localizedDescription)); check the folder's permissions")
        }
    }
}

struct ReceiptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "receipt",
        abstract: "Print a device's app receipt (base64), as the app sends it to its server to verify.",
        discussion: """
            It lists the device's unfinished transactions and every non-consumable and subscription purchase; POST it to \
            verifyReceipt. It is Apple's format: base64 of a PKCS#7 (CMS) container of Apple's ASN.1 receipt, signed by \
            the chain `iapsim certs` writes; `base64 -d | openssl cms -verify -inform DER -noverify | openssl asn1parse \
            -inform DER` shows it.
            """)

    @OptionGroup var data: DataOptions
    @OptionGroup var catalog: CatalogOption

    @Option(help: "Whose queue: the device's name.")
    var device: String = StoreDatabase.firstDevice

    func run() throws {
        let products = catalog.load()
        let devices = data.existingDirectory().deviceNames
        guard devices.contains(device) else {
            Console.fail("no device \"\(device)\" in \(data.directory.path) (it has \(devices.joined(separator: ", "))); give one of them (--device NAME)")
        }
        let directory = data.sharedDirectory()
        let receipt: String?
        do {
            receipt = try DeviceReceipt.read(in: directory.on(device: device), catalog: products)
        } catch {
            Console.fail(error, file: directory.store)
        }
        Console.keepWhatWasMade()
        guard let receipt else {
            Console.fail("no receipt on \(device): nothing there for it to list (a finished consumable leaves the receipt, as on iOS); buy a non-consumable or a subscription, or leave a purchase unfinished, first")
        }
        print(receipt)
    }
}

/// An async call from a command, which runs on the main thread, outside Swift's cooperative pool.
enum Blocking {
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let box = Box<T>()
        Task.detached {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    private final class Box<T>: @unchecked Sendable {
        var result: Result<T, Error>?
    }
}
