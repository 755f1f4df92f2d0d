// swift-tools-version: 6.2
import PackageDescription

let uiIsolation: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .executable(name: "herald-bench", targets: ["herald-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // System-library bridges
        .systemLibrary(name: "CNCurses",
                       providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode",
                       providers: [.apt(["libqrencode-dev"])]),
        .target(
            name: "CPhoneNumber",
            cxxSettings: [.unsafeFlags(["-std=c++17"])],
            linkerSettings: [.linkedLibrary("phonenumber"), .linkedLibrary("protobuf")]
        ),

        // Herald modules (see ../shared/DESIGN.md for the one-way rule)
        .target(name: "HeraldLocks"),
        .target(name: "HeraldCore", dependencies: ["CPhoneNumber"]),
        .target(name: "HeraldAPI", dependencies: ["HeraldCore"]),
        .target(name: "HeraldEngine", dependencies: [
            "HeraldCore", "HeraldAPI", "HeraldLocks",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The engine's PostgreSQL store (replicas of `herald serve` on one database), kept apart so the embedded
        // platform never builds postgres-nio's dependants again for an engine change it does not need.
        .target(name: "HeraldEnginePostgres", dependencies: [
            "HeraldEngine",
            .product(name: "PostgresNIO", package: "postgres-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HeraldStore", dependencies: [
            "HeraldCore", "HeraldLocks",
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HeraldServices", dependencies: [
            "HeraldCore", "HeraldAPI", "HeraldStore", "HeraldLocks", "CQRencode",
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The embedded platform: the engine in-process, handed to Services as one transport.
        .target(name: "HeraldEmbedded", dependencies: ["HeraldCore", "HeraldAPI", "HeraldEngine", "HeraldServices",
                                                 .product(name: "Logging", package: "swift-log")]),
        // `herald serve`: the engine over HTTP (Hummingbird), kept apart so a pane change never rebuilds it.
        .target(name: "HeraldServer", dependencies: [
            "HeraldAPI", "HeraldEngine", "HeraldLocks",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // A server's mailer: email invitations over SMTP (STARTTLS, AUTH PLAIN).
        .target(name: "HeraldSMTP", dependencies: [
            "HeraldCore", "HeraldEngine",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        // The client's HTTP transport and event-stream reader for terminals on a Herald server.
        .target(name: "HeraldHTTP", dependencies: [
            "HeraldAPI", "HeraldCore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // CardDAV address books (RFC 6352, sync-collection of RFC 6578) over HTTP, kept apart like the other HTTP code.
        .target(name: "HeraldCardDAV", dependencies: [
            "HeraldCore", "HeraldStore",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Infobip as the platform: its SMS API v3 as the engine's carrier, its Mobile Messaging inbox.
        .target(name: "HeraldInfobip", dependencies: [
            "HeraldCore", "HeraldAPI", "HeraldEngine", "HeraldServices", "HeraldEmbedded", "HeraldHTTP",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The UI's modules run on the main actor (the UI thread) unless a declaration says otherwise: the
        // compiler, not a convention, keeps view-models and panes on that one thread.
        .target(name: "HeraldViewModels", dependencies: ["HeraldCore", "HeraldServices"], swiftSettings: uiIsolation),
        .target(name: "HeraldTUI", dependencies: [
            "CNCurses", "HeraldCore", "HeraldViewModels",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ], swiftSettings: uiIsolation),
        // The composition root of the screens: panes built on a workspace's services, in one place.
        .target(name: "HeraldApp", dependencies: ["HeraldCore", "HeraldServices", "HeraldViewModels", "HeraldTUI"],
                swiftSettings: uiIsolation),
        // The commit `herald --version` names, read from .git at build time (Plugins/BuildInfoPlugin).
        .executableTarget(name: "herald-build-info"),
        .plugin(name: "BuildInfoPlugin", capability: .buildTool(), dependencies: ["herald-build-info"]),
        .executableTarget(name: "herald", dependencies: [
            "HeraldCore", "HeraldAPI", "HeraldStore", "HeraldServices", "HeraldViewModels", "HeraldTUI", "HeraldApp", "HeraldEngine",
            "HeraldEmbedded", "HeraldServer", "HeraldHTTP", "HeraldInfobip", "HeraldEnginePostgres", "HeraldCardDAV", "HeraldSMTP",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "TOMLKit", package: "TOMLKit"),
        ], plugins: ["BuildInfoPlugin"]),

        .executableTarget(name: "herald-bench", dependencies: [
            "HeraldCore", "HeraldStore", "HeraldServices", "HeraldViewModels", "HeraldTUI", "HeraldApp", "HeraldEmbedded",
            "HeraldAPI", "HeraldEngine", "HeraldServer", "HeraldHTTP", "HeraldEnginePostgres", "HeraldInfobip", "HeraldCardDAV",
            "HeraldTestKit",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The one test kit: the temporary folder, the workspace builder, the engine and server harnesses (SQLite or
        // PostgreSQL), the Infobip harness, the effect pump and UI-thread guard of the screens' tests, and the stand-ins
        // (a throwaway PostgreSQL cluster and Radicale, Infobip's APIs on a loopback port: test fixtures, never a
        // platform). Every test target and the bench build on it; it builds without testability (the bench is a
        // release build), so it reaches the modules through their API, and without a default isolation (the screens'
        // helpers say @MainActor).
        .target(name: "HeraldTestKit", dependencies: [
            "HeraldCore", "HeraldAPI", "HeraldStore", "HeraldEngine", "HeraldEnginePostgres", "HeraldServices", "HeraldEmbedded",
            "HeraldServer", "HeraldHTTP", "HeraldInfobip", "HeraldViewModels",
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/HeraldTestKit"),
        .executableTarget(name: "infobip-stand-in", dependencies: ["HeraldTestKit"], path: "Tests/InfobipStandInServer"),

        .testTarget(name: "HeraldCoreTests", dependencies: ["HeraldCore", "CPhoneNumber", "HeraldTestKit"]),
        .testTarget(name: "HeraldAPITests", dependencies: ["HeraldAPI", "HeraldTestKit"]),
        .testTarget(name: "HeraldEngineTests", dependencies: [
            "HeraldEngine", "HeraldAPI", "HeraldEnginePostgres", "HeraldTestKit", .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "NIOPosix", package: "swift-nio"),
        ]),
        .testTarget(name: "HeraldStoreTests", dependencies: [
            "HeraldStore", "HeraldLocks", "HeraldTestKit", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "HeraldServicesTests", dependencies: [
            "HeraldServices", "HeraldEngine", "HeraldStore", "HeraldEmbedded", "HeraldAPI", "HeraldLocks", "HeraldTestKit",
        ]),
        .testTarget(name: "HeraldViewModelsTests", dependencies: [
            "HeraldViewModels", "HeraldServices", "HeraldEmbedded", "HeraldEngine", "HeraldTestKit",
        ], swiftSettings: uiIsolation),
        .testTarget(name: "HeraldTUITests", dependencies: ["HeraldTUI", "HeraldServices", "HeraldEmbedded", "HeraldEngine", "HeraldTestKit"],
                    swiftSettings: uiIsolation),
        .testTarget(name: "HeraldCardDAVTests", dependencies: ["HeraldCardDAV", "HeraldStore", "HeraldCore", "HeraldTestKit"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "HeraldServerTests", dependencies: ["HeraldServer", "HeraldHTTP", "HeraldEngine", "HeraldAPI", "HeraldTestKit",
                                                         .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "HeraldInfobipTests", dependencies: [
            "HeraldInfobip", "HeraldEngine", "HeraldAPI", "HeraldServices", "HeraldEmbedded", "HeraldTestKit",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["HeraldTestKit"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
