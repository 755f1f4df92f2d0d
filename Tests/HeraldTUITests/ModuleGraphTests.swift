import Foundation
import HeraldTestKit
import Testing

/// The module rules of docs/design.md, held by `scripts/module-graph.sh`: it prints the graph the imports draw and fails,
/// naming the file, on an import a rule forbids. Run here on the repository and on a copy with a rule broken.
@Suite struct ModuleGraphTests {
    /// Runs the script on `sources`: its exit status and what it printed.
    static func check(_ sources: URL) throws -> (status: Int32, output: String) {
        try run("/bin/sh", [RepositoryFiles.url("scripts/module-graph.sh").path, sources.path])
    }

    /// Runs a program to its end: its exit status and what it printed on stdout and stderr.
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func theRepositoryKeepsEveryRuleAndTheGraphIsPrinted() throws {
        let (status, output) = try Self.check(RepositoryFiles.url("Sources"))
        #expect(status == 0, "\(output)")
        #expect(output.contains("  HeraldTUI -> ") && output.contains("  HeraldViewModels -> "))
        #expect(!output.contains("Rules broken"))
    }

    @Test func aViewModelImportingTheStoreAndAPaneImportingAServiceAreEachNamed() throws {
        let tempDir = try TempDir("module-graph")
        let copy = tempDir.url
        for target in ["HeraldViewModels", "HeraldTUI", "HeraldServices"] {
            try FileManager.default.copyItem(at: RepositoryFiles.url("Sources/\(target)"), to: copy.appendingPathComponent(target))
        }
        #expect(try Self.check(copy).status == 0)
        try "import Foundation\n@testable import HeraldStore\n".write(to: copy.appendingPathComponent("HeraldViewModels/Sneaky.swift"),
                                                                      atomically: true, encoding: .utf8)
        try "import struct HeraldServices.ContactBook\n".write(to: copy.appendingPathComponent("HeraldTUI/Panes/Shortcut.swift"),
                                                             atomically: true, encoding: .utf8)
        let (status, output) = try Self.check(copy)
        #expect(status == 1)
        #expect(output.contains("HeraldViewModels/Sneaky.swift imports HeraldStore: HeraldViewModels may never import HeraldStore"))
        #expect(output.contains("HeraldTUI/Panes/Shortcut.swift imports HeraldServices: HeraldTUI may never import HeraldServices"))
    }

    /// `make release` (and `make install`) builds every regular target in release mode, where a module is not compiled
    /// for testing: one `@testable import` in a regular target, even a test-support one under Tests/, fails that build.
    @Test func noRegularTargetImportsForTesting() throws {
        let package = try String(contentsOf: RepositoryFiles.url("Package.swift"), encoding: .utf8)
        let declarations = package.components(separatedBy: "\n        .").filter {
            $0.hasPrefix("target(name:") || $0.hasPrefix("executableTarget(name:")
        }
        #expect(declarations.count > 10)
        var offenders: [String] = []
        for declaration in declarations {
            guard let name = Self.quoted(after: "name: ", in: declaration) else { continue }
            let folder = RepositoryFiles.url(Self.quoted(after: "path: ", in: declaration) ?? "Sources/\(name)")
            for case let file as URL in FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) ?? .init()
            where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                if text.split(separator: "\n").contains(where: { $0.hasPrefix("@testable import") }) {
                    offenders.append("\(name): \(file.lastPathComponent)")
                }
            }
        }
        #expect(offenders.isEmpty, "regular targets with @testable imports: \(offenders)")
    }

    static func quoted(after label: String, in text: String) -> String? {
        guard let start = text.range(of: label + "\"") else { return nil }
        return text[start.upperBound...].split(separator: "\"", maxSplits: 1).first.map(String.init)
    }

    /// The other half, the build's: `make test` builds with SwiftPM's import check. Without it, a target importing a
    /// target of the package it does not depend on builds whenever that target happens to be built first; with it,
    /// the build fails naming both. The check allows what a dependency brings along (a view-model reaching the store
    /// through the services), which is why the script above exists. Shown on a throwaway package.
    @Test func theBuildsImportCheckFailsATargetImportingWhatItDoesNotDependOn() throws {
        let makefile = try String(contentsOf: RepositoryFiles.url("Makefile"), encoding: .utf8)
        #expect(makefile.contains("build --build-tests --explicit-target-dependency-import-check error"))
        let tempDir = try TempDir("module-graph")
        let package = tempDir.url
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Rules", targets: [
                    .target(name: "Store"),
                    .target(name: "Services", dependencies: ["Store"]),
                    .target(name: "ViewModels"),
                ])
                """,
            "Sources/Store/Store.swift": "public struct Row {}\n",
            "Sources/Services/Book.swift": "import Store\npublic struct Book { var row: Row? }\n",
            "Sources/ViewModels/Model.swift": "import Store\npublic struct Model { var row: Row? }\n",
        ]
        for (path, text) in files {
            let url = package.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        func build(_ arguments: String...) throws -> (status: Int32, output: String) {
            try Self.run("/usr/bin/env", ["swift", "build", "--package-path", package.path] + arguments)
        }
        #expect(try build("--target", "Store").status == 0)
        let unchecked = try build()
        #expect(unchecked.status == 0, "without the check the undeclared import builds: \(unchecked.output)")
        let checked = try build("--explicit-target-dependency-import-check", "error")
        #expect(checked.status != 0)
        #expect(checked.output.contains("Target ViewModels imports another target (Store) in the package without declaring it a dependency"),
                "\(checked.output)")
    }
}
