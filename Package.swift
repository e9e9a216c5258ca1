// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "iapsim",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "iapsim", targets: ["iapsim"]),
        .executable(name: "iapsim-wire", targets: ["iapsim-wire"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        // Without swift-configuration, which nothing here reads.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
    ],
    targets: [
        // No pkgConfig: SwiftPM would warn that it drops ncursesw's -D flags; the shim defines what it needs.
        .systemLibrary(name: "CNcursesw", providers: [.apt(["libncurses-dev"])]),
        // glibc's malloc.h: the app keeps its free heap rather than handing it back and faulting it in again.
        .systemLibrary(name: "CMalloc"),
        // Pure: state, actions, reducer, client rules. No I/O, no clock reads.
        .target(name: "IAPCore"),
        // The default catalog and the scenario scripts, shipped beside the binary.
        .target(name: "ShippedAssets", path: "assets", resources: [.copy("catalog.json"), .copy("scenarios")]),
        // Opening each party's SQLite file with migrations and errors a person can act on.
        // SQLite's own API (GRDBSQLite) for the one setting GRDB does not carry: the WAL files kept between launches.
        .target(name: "DataFiles", dependencies: [.product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // Apple's words, which the store, the backend, the wire and the state report share: the receipt, verifyReceipt's
        // request and answer, renewal info, notifications, Apple's dates and status numbers. Pure values.
        .target(name: "AppleVocabulary", dependencies: ["IAPCore"]),
        // Apple's app receipt as bytes: the ASN.1 payload in a PKCS#7 container, signed with the certificate chain iapsim
        // creates once per data directory (which also signs the wire's JWS).
        .target(name: "AppleReceiptFormat", dependencies: [
            "AppleVocabulary",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
            .product(name: "SwiftASN1", package: "swift-asn1"),
        ]),
        // The mock App Store: catalog, payment queue, signed receipts, its own database. It is given what signs them
        // (StoreSigning's ChainSigner), so that it does not wait for swift-certificates to build.
        .target(name: "MockStore", dependencies: [
            "IAPCore", "AppleVocabulary", "DataFiles",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The store's chain kept in its database, and what signs its receipts and transactions with it (ChainSigner).
        .target(name: "StoreSigning", dependencies: [
            "AppleReceiptFormat", "AppleVocabulary", "MockStore", .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // The mock backend: orders, verifyReceipt, StoreKit 2's signed transactions, exactly-once ledger, its own database.
        .target(name: "MockBackend", dependencies: [
            "IAPCore", "AppleVocabulary", "DataFiles",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "X509", package: "swift-certificates"),
        ]),
        // Apple's signatures: signed transactions, renewal info and notifications as JWS, and the App Store Server API's
        // keys.
        .target(name: "AppleWire", dependencies: [
            "IAPCore", "AppleVocabulary", "AppleReceiptFormat", "MockStore",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        // Apple's servers and the app's backend over HTTP on 127.0.0.1: verifyReceipt, the App Store Server API and
        // the backend's contract; and App Store Server Notifications, which Apple's servers POST to the team's (through
        // Foundation's URL loading: libcurl, no second TLS library to build).
        .target(name: "StoreServer", dependencies: [
            "AppleWire", "AppleReceiptFormat", "AppleVocabulary", "IAPCore", "MockStore", "MockBackend", "StoreSigning",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        // The client's per-user "keychain" and app sandbox.
        .target(name: "ClientPersistence", dependencies: [
            "IAPCore", "DataFiles",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The C library's wcwidth in a UTF-8 locale: columns as ncurses and the terminal count them.
        .target(name: "CTextWidth"),
        // Pure: render(state, size) -> screen grid.
        .target(name: "IAPUI", dependencies: ["IAPCore", "CTextWidth"]),
        // The only code that calls ncurses.
        .target(name: "Terminal", dependencies: ["CNcursesw", "IAPUI", "IAPCore"]),
        // Wiring: the runtime that runs effects, the command line, live clock and paths.
        .target(name: "IAPApp", dependencies: [
            "IAPCore", "IAPUI", "AppleVocabulary", "MockStore", "MockBackend", "StoreSigning", "ClientPersistence", "DataFiles", "CMalloc",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // What both executables share: a launch's settings read without ArgumentParser, launching the app on the
        // terminal and its main loop, the shipped scenarios, failures said in one line.
        .target(name: "Launcher", dependencies: [
            "IAPApp", "IAPCore", "IAPUI", "AppleVocabulary", "MockStore", "MockBackend", "Terminal", "ShippedAssets", "DataFiles",
        ]),
        // The options as ArgumentParser reads them, for `iapsim-wire`'s commands: `iapsim` never builds ArgumentParser.
        .target(name: "LaunchOptions", dependencies: [
            "Launcher", "IAPApp", "IAPCore",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The wire beside the running app: `--serve`, `--backend`, `--notify`.
        .target(name: "WireLauncher", dependencies: ["Launcher", "IAPApp", "IAPCore", "StoreServer"]),
        // The app on the terminal and nothing else, so that it starts at the terminal's floor and builds first; any other
        // launch (a command, help, the wire) runs `iapsim-wire` in its place.
        .executableTarget(name: "iapsim", dependencies: ["Launcher"]),
        // Every command, the wire included.
        .executableTarget(name: "iapsim-wire", dependencies: [
            "Launcher", "LaunchOptions", "WireLauncher", "IAPApp", "IAPCore", "IAPUI", "ShippedAssets", "AppleVocabulary", "AppleReceiptFormat", "AppleWire", "MockStore", "StoreSigning", "Terminal",
            "StoreServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "IAPCoreTests", dependencies: ["IAPCore"]),
        .testTarget(name: "IAPUITests", dependencies: ["IAPUI", "IAPCore", "AppleVocabulary", "MockStore"], exclude: ["Snapshots"]),
        .testTarget(name: "IAPAppTests", dependencies: [
            "IAPApp", "IAPCore", "IAPUI", "AppleVocabulary", "MockStore", "MockBackend", "ClientPersistence", "Launcher", "LaunchOptions", "WireLauncher", "DataFiles",
            "AppleWire", "AppleReceiptFormat", "StoreSigning",
            .product(name: "GRDB", package: "GRDB.swift"), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "JWTKit", package: "jwt-kit"), .product(name: "X509", package: "swift-certificates"),
        ]),
        // Apple's side on the wire, against a receiver of the test's own on 127.0.0.1.
        .testTarget(name: "StoreServerTests", dependencies: [
            "StoreServer", "AppleWire", "AppleReceiptFormat", "AppleVocabulary", "IAPApp", "IAPCore", "IAPUI", "MockStore", "MockBackend", "StoreSigning", "Launcher",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        .testTarget(name: "EndToEndTests", dependencies: [], exclude: ["drive.sh", "keys.sh", "tmux.sh", "StoreKitFixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

// scripts/bench's programs are declared only when scripts/build-release is asked for them (IAPSIM_BENCH=1), so
// that neither `swift test` nor scripts/explore builds products no test runs.
if Context.environment["IAPSIM_BENCH"] == "1" {
    package.products += [
        .executable(name: "iapsim-bench", targets: ["iapsim-bench"]),
        .executable(name: "iapsim-first-frame", targets: ["iapsim-first-frame"]),
        .executable(name: "iapsim-wire-floor", targets: ["iapsim-wire-floor"]),
    ]
    package.targets += [
        // scripts/bench's measurements, so that the product binary carries no benchmark code.
        .executableTarget(name: "iapsim-bench", dependencies: [
            "Launcher", "LaunchOptions", "IAPApp", "IAPCore", "IAPUI", "Terminal", "AppleVocabulary", "AppleReceiptFormat", "AppleWire", "StoreSigning",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "JWTKit", package: "jwt-kit"),
        ]),
        // scripts/bench's start-up: `iapsim`'s plain launch, quitting after the launch screen or the first frame, in a binary like `iapsim`'s.
        .executableTarget(name: "iapsim-first-frame", dependencies: ["Launcher", "IAPApp"]),
        // bench/wire.sh's floor: Hummingbird and swift-crypto alone answering what the wire's two benchmarked routes
        // answer, so that the wire's figures have something to be set against.
        .executableTarget(name: "iapsim-wire-floor", dependencies: [
            "AppleVocabulary",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
    ]
}
