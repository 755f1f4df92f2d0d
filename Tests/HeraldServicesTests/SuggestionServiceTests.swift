import Foundation
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldServices

@Suite struct SuggestionServiceTests {
    @Test func peopleAlreadyInvitedAreLeftOutAndShownOnesRotateBehind() async throws {
        let h = try await WorkspaceHarness()
        let people = try h.people(6)
        _ = try await h.workspace.invites.invite(people: Array(people.prefix(2)))
        let first = try await h.workspace.suggestions.suggestions(count: 2)
        #expect(first.count == 2)
        let invited = Set(people.prefix(2).compactMap(\.id))
        #expect(first.allSatisfy { !invited.contains($0.person.id ?? -1) })
        try await h.workspace.suggestions.markShown(first)
        h.clock.advance(by: 60)
        let second = try await h.workspace.suggestions.suggestions(count: 2)
        #expect(Set(second.compactMap(\.person.id)).isDisjoint(with: Set(first.compactMap(\.person.id))))
        try await h.workspace.suggestions.markShown(second)
        // Everyone not invited has now been shown: the rotation starts over, least recently shown first.
        h.clock.advance(by: 60)
        let third = try await h.workspace.suggestions.suggestions(count: 4)
        #expect(third.count == 4)
        #expect(Set(third.prefix(2).compactMap(\.person.id)) == Set(first.compactMap(\.person.id)))
    }
}
