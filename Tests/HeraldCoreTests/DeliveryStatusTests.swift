import Testing
@testable import HeraldCore

@Suite struct DeliveryStatusTests {
    @Test(arguments: DeliveryStatus.allCases)
    func rawValuesRoundTrip(_ status: DeliveryStatus) {
        #expect(DeliveryStatus(parsing: status.rawValue) == status)
    }

    @Test func historicalMisspellingIsAcceptedOnInput() {
        #expect(DeliveryStatus(parsing: "DeleveredToNetwork") == .deliveredToNetwork)
        #expect(DeliveryStatus(parsing: " DeleveredToNetwork ") == .deliveredToNetwork)
        #expect(DeliveryStatus(parsing: "DELEVERED_TO_NETWORK") == .deliveredToNetwork)
        #expect(DeliveryStatus(parsing: "deleveredtonetwork") == .deliveredToNetwork)
    }

    @Test func misspellingIsNeverEmitted() {
        #expect(!DeliveryStatus.allCases.contains { $0.rawValue.contains("Delevered") })
        #expect(DeliveryStatus.deliveredToNetwork.rawValue == "DeliveredToNetwork")
    }

    @Test func otherSpellingsAndUnknowns() {
        #expect(DeliveryStatus(parsing: "DELIVERED_TO_TERMINAL") == .deliveredToTerminal)
        #expect(DeliveryStatus(parsing: "message-waiting") == .messageWaiting)
        #expect(DeliveryStatus(parsing: "Exploded") == .unknown)
        #expect(DeliveryStatus(parsing: "") == .unknown)
    }

    @Test func wireStatusesAreTheFiveOneAPIStatusesAndTheHold() {
        #expect(DeliveryStatus.wireStatuses.map(\.rawValue) ==
                ["DeliveredToTerminal", "DeliveredToNetwork", "DeliveryUncertain", "DeliveryImpossible", "MessageWaiting",
                 "Scheduled", "Cancelled"])
        #expect(!DeliveryStatus.queued.isWireStatus)
        #expect(DeliveryStatus.messageWaiting.isWireStatus)
    }

    @Test func predicatesFollowTheReferenceSDK() {
        let invited = DeliveryStatus.allCases.filter(\.isInvited)
        let pending = DeliveryStatus.allCases.filter(\.isPending)
        let impossible = DeliveryStatus.allCases.filter(\.isImpossible)
        #expect(Set(invited) == [.deliveredToTerminal, .deliveredToNetwork, .deliveryUncertain])
        #expect(Set(pending) == [.messageWaiting, .unknown, .queued, .scheduled])
        #expect(Set(impossible) == [.deliveryImpossible, .rejected, .sendFailed])
    }

    @Test func everyStatusButCancelledIsExactlyOneOfInvitedPendingImpossible() {
        #expect(!DeliveryStatus.cancelled.isInvited && !DeliveryStatus.cancelled.isPending && !DeliveryStatus.cancelled.isImpossible)
        #expect(DeliveryStatus.cancelled.isFinal && DeliveryStatus.cancelled.state == .cancelled)
        #expect(DeliveryStatus.scheduled.state == .pending && !DeliveryStatus.scheduled.isFinal)
        for s in DeliveryStatus.allCases where s != .cancelled {
            let hits = [s.isInvited, s.isPending, s.isImpossible].filter { $0 }.count
            #expect(hits == 1, "\(s) is in \(hits) groups")
        }
    }

    @Test func finalStates() {
        #expect(DeliveryStatus.deliveredToTerminal.isFinal)
        #expect(DeliveryStatus.deliveryImpossible.isFinal)
        #expect(DeliveryStatus.deliveryUncertain.isFinal)
        #expect(!DeliveryStatus.deliveredToNetwork.isFinal, "the carrier may still report the handset")
        #expect(!DeliveryStatus.messageWaiting.isFinal)
        #expect(!DeliveryStatus.queued.isFinal)
        #expect(!DeliveryStatus.unknown.isFinal)
    }

    @Test func labelsAreDistinct() {
        #expect(Set(DeliveryStatus.allCases.map(\.label)).count == DeliveryStatus.allCases.count)
    }

    @Test func everyStatusStandsInExactlyOneOfTheThreeStatesAndFailedIsTheWord() {
        for status in DeliveryStatus.allCases where status != .cancelled {
            let flags = [status.isInvited, status.isPending, status.isImpossible].filter { $0 }
            #expect(flags.count == 1, "\(status) is in \(flags.count) states")
        }
        #expect(DeliveryStatus.deliveredToNetwork.state == .invited)
        #expect(DeliveryStatus.queued.state == .pending && DeliveryStatus.unknown.state == .pending)
        #expect(DeliveryStatus.deliveryImpossible.state == .failed && DeliveryStatus.sendFailed.state == .failed)
        #expect(DeliveryStatus.deliveryImpossible.label == "failed")
        #expect(DeliveryState.allCases.map(\.word) == ["invited", "pending", "failed", "cancelled"])
        #expect(InvitationState.impossible.word == "failed" && InvitationState.impossible.rawValue == "impossible")
    }
}
