import Foundation
import Testing
@testable import HeraldCore

@Suite struct ResendPolicyTests {
    @Test func neverInvitedIsSent() {
        #expect(ResendPolicy.default.decide(latest: nil) == .send)
    }

    @Test(arguments: [DeliveryStatus.messageWaiting, .queued, .unknown])
    func pendingIsNeverResent(_ status: DeliveryStatus) {
        for policy in [ResendPolicy(), ResendPolicy(allowResendToInvited: true)] {
            guard case .skip(let reason) = policy.decide(latest: status) else {
                Issue.record("\(status) was resent with \(policy)")
                continue
            }
            #expect(reason.contains("on its way"))
        }
    }

    @Test(arguments: [DeliveryStatus.deliveredToTerminal, .deliveredToNetwork, .deliveryUncertain])
    func invitedIsNotResentByDefault(_ status: DeliveryStatus) {
        guard case .skip(let reason) = ResendPolicy.default.decide(latest: status) else {
            Issue.record("\(status) was resent by default")
            return
        }
        #expect(reason.contains("already invited"))
        #expect(ResendPolicy(allowResendToInvited: true).decide(latest: status) == .send)
    }

    @Test(arguments: [DeliveryStatus.deliveryImpossible, .rejected, .sendFailed])
    func failedMayBeRetried(_ status: DeliveryStatus) {
        #expect(ResendPolicy.default.decide(latest: status) == .send)
        #expect(ResendPolicy(allowResendToInvited: true).decide(latest: status) == .send)
    }

    @Test func aFailureTheCarrierCallsPermanentIsNotRetriedUnlessResendIsAsked() {
        guard case .skip(let reason) = ResendPolicy.default.decide(latest: .deliveryImpossible, permanentFailure: true) else {
            Issue.record("a permanent failure was retried")
            return
        }
        #expect(reason.contains("permanent"))
        #expect(ResendPolicy(allowResendToInvited: true).decide(latest: .deliveryImpossible, permanentFailure: true) == .send)
        #expect(ResendPolicy.default.decide(latest: .deliveryImpossible, permanentFailure: false) == .send)
    }

    @Test(arguments: DeliveryStatus.allCases)
    func anAnswerGoesWhateverTheLatestStatus(_ status: DeliveryStatus) {
        #expect(ResendPolicy.answer.decide(latest: status, permanentFailure: true) == .send)
    }

    @Test func aPolicyWrittenBeforeAnswersExistedStillReads() throws {
        let old = try JSONDecoder().decode(ResendPolicy.self, from: Data(#"{"allowResendToInvited":true}"#.utf8))
        #expect(old == ResendPolicy(allowResendToInvited: true))
        let round = try JSONDecoder().decode(ResendPolicy.self, from: JSONEncoder().encode(ResendPolicy.answer))
        #expect(round == .answer)
    }
}
