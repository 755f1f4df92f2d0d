import Foundation
import HeraldAPI
import HeraldEngine
@testable import HeraldServer
import HeraldTestKit
import Testing

/// The route groups' middleware, route by route from the one list: no key, or a key of too small a role, is answered
/// from the head alone, before a body announced and never sent.
@Suite struct ServerRouteGroupTests {
    static func path(_ template: PathTemplate, applicationKey: String) -> String {
        var path = template.description
        while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
            let name = path[path.index(after: open)..<close]
            path.replaceSubrange(open...close, with: name == "applicationKey" ? applicationKey : "x1")
        }
        return path
    }

    /// The answer to `route` sent a 1 MiB body announced but only its first byte, with `headers` (a key, or none).
    static func answerBeforeTheBody(_ route: ServerRoute, _ s: ServerHarness, headers: String) async throws
        -> (status: Int?, head: String, body: String) {
        let c = try RawConnection(port: s.port)
        defer { c.close() }
        let path = Self.path(route.path, applicationKey: s.applicationKey)
        c.send("\(route.method.rawValue) \(path) HTTP/1.1\r\nHost: x\r\n\(headers)Content-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{")
        return await c.response(timeout: 3)
    }

    @Test func everyKeyedRouteRefusesAMissingKeyBeforeItsBodyArrives() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let keyed = ServerRoutes.all.filter { ![.open, .metrics].contains($0.access) }
        #expect(keyed.count >= 14)
        for route in keyed {
            let answer = try await Self.answerBeforeTheBody(route, s, headers: "")
            // The carrier's webhook hides itself behind its token: a wrong one is a path that does not exist.
            #expect(answer.status == (route.access == .carrierReports ? 404 : 401), "\(route.method) \(route.path)")
            #expect(answer.head.lowercased().contains("connection: close"), "\(route.method) \(route.path)")
        }
    }

    @Test func aViewerKeyIsRefusedEveryChangeBeforeItsBodyArrivesAndToldWhy() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let changes = ServerRoutes.all.filter { [.send, .admin, .inboxWrite].contains($0.access) }
        // Send, messages create and update, settings, inbox seen, taking back or moving a held bulk, opting out or in,
        // marking a conversation's replies seen.
        #expect(changes.count == 10)
        for route in changes {
            let answer = try await Self.answerBeforeTheBody(route, s, headers: "Authorization: App \(s.viewer)\r\n")
            #expect(answer.status == 403, "\(route.method) \(route.path)")
            let text = answer.body
            #expect(text.contains("viewer key") || text.contains("admin key"), "\(route.method) \(route.path): \(text)")
        }
    }
}
