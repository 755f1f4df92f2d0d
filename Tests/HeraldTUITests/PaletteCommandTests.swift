import Testing
@testable import HeraldTUI

/// The registered palette commands: one name each, completion in their order, a line found by name or alias.
@Suite struct PaletteCommandTests {
    @Test func everyNameAndAliasRunsExactlyOneCommand() {
        let words = PaletteCommand.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(words).count == words.count, "a name or alias is registered twice: \(words)")
        #expect(PaletteCommand.all.allSatisfy { !$0.summary.isEmpty && $0.name == $0.name.lowercased() })
    }

    @Test func anEmptyLineCompletesEveryCommandInTheRegisteredOrder() {
        let palette = CommandPalette(themeNames: ["dark", "light"])
        #expect(palette.completions(for: "") == PaletteCommand.all.map(\.name))
        #expect(palette.completions(for: "theme l") == ["theme light"])
        #expect(palette.complete("them") == "theme ", "a command taking an argument completes with a space")
        #expect(palette.complete("quit") == "quit")
    }

    @Test func aLineIsFoundByNameOrAliasInAnyCaseAndItsArgumentKeepsOneSpace() throws {
        let palette = CommandPalette(themeNames: [])
        #expect(try palette.parse("Q").get().command.name == "quit")
        #expect(try palette.parse("find  ana  horvat").get().command.name == "search")
        #expect(try palette.parse("find  ana  horvat").get().argument == "ana horvat")
        #expect(try palette.parse("help").get().argument == nil)
        guard case .failure(let error) = palette.parse("frobnicate") else { Issue.record("an unknown command is refused"); return }
        #expect(error.description.hasPrefix("unknown command \"frobnicate\": try :quit :help :theme"))
    }
}
