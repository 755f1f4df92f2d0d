import Foundation
import Testing

/// The module rules of DESIGN.md, held by `scripts/module-graph.sh`: it prints the graph the imports draw and fails,
/// naming the file, on an import a rule forbids. Run here on the repository and on a copy with a rule broken.
@Suite struct ModuleGraphTests {
    /// Runs the script on `sources`: its exit status and what it printed.
    static func check(_ sources: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [RepositoryFiles.url("scripts/module-graph.sh").path, sources.path]
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
        let copy = try RepositoryFiles.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: copy) }
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
}
