import Foundation
import Testing

/// The man pages in man/ are what the real binary says of itself: section 1 is generated from the commands (by
/// swift-argument-parser's generate-manual, from `herald --experimental-dump-help`, kept beside the pages), section 5
/// from the declarations the parser and the key map read. A page goes stale when a command, option or key changes and
/// `make docs` was not run: these tests say so.
@Suite struct ManPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("man").appendingPathComponent(name), encoding: .utf8)
    }

    @Test func theCommandPagesWereGeneratedFromTheseCommands() throws {
        let box = try CLISandbox()
        let run = try box.run(["--experimental-dump-help"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.file(".dump-help.json") == run.stdout,
                "man/ is out of date with the commands: run make docs (scripts/generate.sh) and commit man/")
        // One page per command, named as generate-manual names them (herald.config.check.1).
        struct Command: Decodable { let commandName: String; let subcommands: [Command]? }
        struct Tool: Decodable { let command: Command }
        let tool = try JSONDecoder().decode(Tool.self, from: Data(run.stdout.utf8))
        var pages: [String] = []
        func walk(_ command: Command, _ path: [String]) {
            pages.append((path + [command.commandName]).joined(separator: ".") + ".1")
            for sub in command.subcommands ?? [] { walk(sub, path + [command.commandName]) }
        }
        walk(tool.command, [])
        #expect(pages.count > 50 && pages.contains("herald.config.check.1") && pages.contains("herald.send.1"), "\(pages)")
        for page in pages {
            #expect((try? Self.file(page))?.contains(".Dt ") == true, "man/\(page) is missing")
        }
    }

    @Test func theConfigPageIsGeneratedFromTheDeclaredKeys() throws {
        let box = try CLISandbox()
        let run = try box.run(["config", "keys", "--man"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(".TP\n.B send.hold_seconds\n"), "\(run.stdout)")
        #expect(try Self.file("herald-config.5") == run.stdout, "man/herald-config.5 is out of date: run make docs")
    }

    @Test func theKeysPageIsGeneratedFromTheKeyTable() throws {
        let box = try CLISandbox()
        let run = try box.run(["keys", "--man", "--defaults"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(".B j, down\nMove down (action move_down"), "\(run.stdout)")
        #expect(try Self.file("herald-keys.5") == run.stdout, "man/herald-keys.5 is out of date: run make docs")
    }
}
