import Foundation
import Testing
@testable import HeraldCore

@Suite struct PersonInvitationSummaryTests {
    let ana = Fixtures.person(1, "Ana", "Horvat", phones: ["091 234 5678", "+385 91 234 5678", "092 111 2222"])

    @Test func duplicateNumbersCountOnce() {
        #expect(ana.distinctNumbers == ["+385912345678", "+385921112222"])
        let s = PersonInvitationSummary(person: ana, invitations: [])
        #expect(s.numbers == ["+385912345678", "+385921112222"])
        #expect(s.notYetInvitedCount == 2)
        #expect(s.state == .notInvited)
        #expect(!s.isFinal)
        #expect(!s.isImpossible)
    }

    @Test func latestInvitationPerNumberWins() {
        let invs = [
            Fixtures.invitation("+385912345678", personId: 1, status: .deliveredToTerminal, at: 200, bulkId: "b2"),
            Fixtures.invitation("+385912345678", personId: 1, status: .deliveryImpossible, at: 100, bulkId: "b1"),
        ]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.statusByNumber == ["+385912345678": .deliveredToTerminal])
        #expect(s.state == .invited)
        #expect(s.notYetInvited == ["+385921112222"])
    }

    @Test func laterFailureReplacesEarlierPending() {
        let invs = [
            Fixtures.invitation("+385912345678", personId: 1, status: .messageWaiting, at: 100),
            Fixtures.invitation("+385912345678", personId: 1, status: .sendFailed, at: 300),
        ]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.statusByNumber["+385912345678"] == .sendFailed)
        #expect(s.state == .impossible)
        #expect(s.isFinal)
    }

    @Test func bulkIdsAreDistinctOldestFirst() {
        let invs = [
            Fixtures.invitation("+385921112222", personId: 1, status: .messageWaiting, at: 300, bulkId: "b3"),
            Fixtures.invitation("+385912345678", personId: 1, status: .deliveryImpossible, at: 100, bulkId: "b1"),
            Fixtures.invitation("+385921112222", personId: 1, status: .deliveryImpossible, at: 150, bulkId: "b1"),
            Fixtures.invitation("+385912345678", personId: 1, status: .deliveryImpossible, at: 200, bulkId: "b2"),
            Fixtures.invitation("+385912345678", personId: 1, status: .queued, at: 250),
        ]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.bulkIds == ["b1", "b2", "b3"])
        #expect(s.state == .pending)
        #expect(s.notYetInvited.isEmpty)
    }

    @Test func invitedWinsOverPendingOnAnotherNumber() {
        let invs = [
            Fixtures.invitation("+385912345678", personId: 1, status: .messageWaiting, at: 100),
            Fixtures.invitation("+385921112222", personId: 1, status: .deliveredToNetwork, at: 100),
        ]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.isInvited && s.isPending)
        #expect(s.state == .invited)
        #expect(!s.isFinal)
    }

    @Test func otherPeoplesInvitationsAreIgnored() {
        let invs = [Fixtures.invitation("+385981234567", personId: 2, status: .deliveredToTerminal, at: 100, bulkId: "x")]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.statusByNumber.isEmpty)
        #expect(s.bulkIds.isEmpty)
    }

    @Test func unsavedPersonDoesNotCollectInvitationsOfUnknownPeople() {
        var unsaved = ana
        unsaved.id = nil
        let invs = [Fixtures.invitation("+385981234567", personId: nil, status: .deliveredToTerminal, at: 100, bulkId: "x")]
        let s = PersonInvitationSummary(person: unsaved, invitations: invs)
        #expect(s.statusByNumber.isEmpty)
        #expect(s.state == .notInvited)
    }

    @Test func invitationByPersonIdCountsEvenAfterTheNumberChanged() {
        let invs = [Fixtures.invitation("+385981234567", personId: 1, status: .deliveredToTerminal, at: 100)]
        let s = PersonInvitationSummary(person: ana, invitations: invs)
        #expect(s.state == .invited)
        #expect(s.notYetInvitedCount == 2)
    }
}
