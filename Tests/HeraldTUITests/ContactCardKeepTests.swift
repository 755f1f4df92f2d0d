import Foundation
import Testing
@testable import HeraldTUI

/// A card the person gave up on is kept where no one else can read it or have prepared a file for it.
@Suite struct ContactCardKeepTests {
    @Test func aRefusedCardIsKeptInANewPrivateFileOfAnUnguessableName() throws {
        let card = "BEGIN:VCARD\nFN:Ana Private\nTEL:+385911234567\nEND:VCARD"
        let name = "contact-\(UUID().uuidString.prefix(8))"
        // Another user of /tmp prepares the name Herald used to write, as a link to a file of theirs.
        let predictable = FileManager.default.temporaryDirectory.appendingPathComponent("herald-\(name)-unsaved.txt")
        let bait = FileManager.default.temporaryDirectory.appendingPathComponent("herald-bait-\(UUID().uuidString)")
        try Data("theirs".utf8).write(to: bait)
        try FileManager.default.createSymbolicLink(at: predictable, withDestinationURL: bait)
        defer { try? FileManager.default.removeItem(at: predictable); try? FileManager.default.removeItem(at: bait) }

        let first = try ContactCardEditor.keep(card, name: name).get()
        let second = try ContactCardEditor.keep(card, name: name).get()
        defer { try? FileManager.default.removeItem(at: first); try? FileManager.default.removeItem(at: second) }
        #expect(first.path != predictable.path && second.path != first.path)
        #expect(first.lastPathComponent.hasPrefix("herald-\(name)-") && first.lastPathComponent.hasSuffix("-unsaved.txt"))
        #expect(try String(contentsOf: first, encoding: .utf8) == card)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "mode \(String(mode, radix: 8))")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: predictable.path) == bait.path, "the link was replaced")
        #expect(try String(contentsOf: bait, encoding: .utf8) == "theirs")
    }
}
