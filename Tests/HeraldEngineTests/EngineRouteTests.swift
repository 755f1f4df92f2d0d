import Foundation
import HeraldAPI
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// The typed routes' adapter (the caller admitted by the route's access, the body decoded once, the answer encoded
/// once) and a route a server matched answering as the embedded platform's own routing does.
@Suite struct EngineRouteTests {
    /// A path of `route` with every parameter filled.
    private func path(of route: EngineRoute, _ values: [String: String]) throws -> String {
        let names = route.path.template.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
        return try route.path.path(Dictionary(uniqueKeysWithValues: names.map { ($0, values[$0] ?? "x") }))
    }

    @Test func aReadOnTheRouteAServerMatchedAnswersAsTheEmbeddedRoutingDoes() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let values = ["applicationKey": h.creds.applicationKey, "messageId": h.creds.messageKey, "bulkId": "nope",
                      "externalUserId": "ana", "code": "nope"]
        for route in PlatformEngine.routes where route.method == .get {
            let credential = route.access == .inbox ? h.creds.applicationCode : h.creds.secret
            for headers in [["Authorization": "App \(credential)"], [:]] {
                let request = APIRequest(method: .get, path: try path(of: route, values), query: ["referrer": "ana"], headers: headers)
                let embedded = await h.engine.handle(request)
                let matched = await h.engine.handle(request, on: route)
                #expect(matched == embedded, "\(route.path)")
                if headers.isEmpty, route.access != .open { #expect(embedded.status == 401, "\(route.path): no credential") }
            }
        }
    }

    @Test func aPathThatIsNotTheMatchedRoutesIsRefusedAsTheRoutingRefusesIt() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let route = try #require(PlatformEngine.routes.first { $0.path == ListOptOuts.path })
        let other = APIRequest(method: .get, path: "/1/nothing/here", headers: ["Authorization": "App \(h.creds.secret)"])
        #expect(await h.engine.handle(other, on: route) == (await h.engine.handle(other)))
        #expect(await h.engine.handle(other, on: route).status == 404)
        let broken = APIRequest(method: .get, path: "/1/social-invite/optouts/%zz", headers: ["Authorization": "App \(h.creds.secret)"])
        let remove = try #require(PlatformEngine.routes.first { $0.path == RemoveOptOut.path })
        #expect(await h.engine.handle(broken, on: remove).status == 400)
    }

    @Test func theAdapterChecksTheApplicationInThePathAndTheBody() async throws {
        let h = try await EngineHarness.make()
        defer { h.cleanUp() }
        let other = try await h.engine.createApplication(name: "other")
        // The secret of one application with another's key in the path: 401, as for no secret at all.
        let crossed = await h.raw(.get, "/herald/1/application/\(other.applicationKey)/settings", auth: "App \(h.creds.secret)")
        #expect(crossed.status == 401)
        // A required body missing, or not the endpoint's: 400 naming why.
        let missing = await h.raw(.put, "/1/social-invite/bulks/b/schedule", auth: "App \(h.creds.secret)")
        #expect(missing.status == 400 && String(decoding: missing.body, as: UTF8.self).contains("no JSON body"))
        let wrong = await h.raw(.put, "/1/social-invite/bulks/b/schedule", json: #"{"sendAt": 5}"#, auth: "App \(h.creds.secret)")
        #expect(wrong.status == 400 && String(decoding: wrong.body, as: UTF8.self).contains("not valid"))
        // A rule of the application refuses before the body is read: editing off is a 403 whatever the body.
        try await h.engine.setMessageEditingAllowed(false, applicationKey: h.creds.applicationKey)
        let editing = await h.raw(.post, "/1/social-invite/application/\(h.creds.applicationKey)/message", auth: "App \(h.creds.secret)")
        #expect(editing.status == 403)
                // An optional body may be left out; an empty answer is an empty body.
        let added = await h.raw(.put, "/1/social-invite/optouts/385981200001", auth: "App \(h.creds.secret)")
        #expect(added.status == 200)
        #expect(try HeraldJSON.decode(OptOut.self, from: added.body).source == "herald")
        let seen = await h.raw(.post, MarkInboxSeen.path.template, json: #"{"externalUserId": "ana", "messages": []}"#,
                               auth: "App \(h.creds.applicationCode)")
        #expect(seen.status == 200 && seen.body.isEmpty)
    }
}
