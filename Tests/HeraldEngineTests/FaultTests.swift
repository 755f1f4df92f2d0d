import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
@testable import HeraldEngine

@Suite struct FaultTests {
    @Test func theNextCallsFailThenServiceResumes() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let settings = GetApplicationSettings(secret: h.creds.secret, applicationKey: h.creds.applicationKey)
        await h.engine.injectFaults(.serverError(status: 503), count: 2)
        #expect(await h.engine.pendingFaults == 2)
        await #expect(throws: APIError.server(status: 503, text: "Injected fault")) { try await h.call(settings) }
        await #expect(throws: APIError.server(status: 503, text: "Injected fault")) { try await h.call(settings) }
        #expect(try await h.call(settings).applicationKey == h.creds.applicationKey)
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await h.engine.injectFaults(.tooManyRequests(retryAfter: 12))
        let r = await h.raw(.get, "/herald/1/application/\(h.creds.applicationKey)/settings", auth: "App \(h.creds.secret)")
        #expect(r.status == 429)
        #expect(r.header("Retry-After") == "12")
        #expect(apiError(r) == .tooManyRequests(retryAfter: 12))
    }

    @Test func timeoutBeforeProcessingSendsNothing() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await h.engine.injectFaults(.timeout)
        await #expect(throws: APIError.timeout) { try await h.invite([.init(address: Numbers.croatianMobile, messageId: "t")]) }
        #expect(try await h.engine.messagesCount() == 0)
    }

    @Test func faultsCanTargetOnePath() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        await h.engine.injectFaults(.serverError(status: 500), count: 1, pathPrefix: "/1/smsmessaging/")
        _ = try await h.call(GetApplicationSettings(secret: h.creds.secret, applicationKey: h.creds.applicationKey))
        #expect(await h.engine.pendingFaults == 1)
        let bulk = try await h.invite([.init(address: Numbers.croatianMobile)])
        await #expect(throws: APIError.self) { try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: bulk.bulkId)) }
        #expect(await h.engine.pendingFaults == 0)
        await h.engine.injectFaults(.timeout, count: 3)
        await h.engine.clearFaults()
        #expect(await h.engine.pendingFaults == 0)
    }
}
