import Foundation
import HeraldAPI
import HeraldEngine
@testable import HeraldServer
import PostgresTestCluster
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

    @Test func everyKeyedRouteRefusesAMissingKeyBeforeItsBodyArrives() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let keyed = ServerRoutes.all.filter { ![.open, .metrics].contains($0.access) }
        #expect(keyed.count >= 14)
        for route in keyed {
            let c = try RawConnection(port: s.port)
            defer { c.close() }
            let path = Self.path(route.path, applicationKey: s.applicationKey)
            c.send("\(route.method.rawValue) \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{")
            let answer = await c.response(timeout: 3)
            // The carrier's webhook hides itself behind its token: a wrong one is a path that does not exist.
            #expect(answer.status == (route.access == .carrierReports ? 404 : 401), "\(route.method) \(route.path)")
            #expect(answer.head.lowercased().contains("connection: close"), "\(route.method) \(route.path)")
        }
    }

    @Test func aViewerKeyIsRefusedEveryChangeBeforeItsBodyArrivesAndToldWhy() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let changes = ServerRoutes.all.filter { [.send, .admin, .inboxWrite].contains($0.access) }
        #expect(changes.count == 5)
        for route in changes {
            let c = try RawConnection(port: s.port)
            defer { c.close() }
            let path = Self.path(route.path, applicationKey: s.applicationKey)
            c.send("\(route.method.rawValue) \(path) HTTP/1.1\r\nHost: x\r\nAuthorization: App \(s.viewer)\r\nContent-Length: 1048576\r\n\r\n{")
            let answer = await c.response(timeout: 3)
            #expect(answer.status == 403, "\(route.method) \(route.path)")
            let text = answer.body
            #expect(text.contains("viewer key") || text.contains("admin key"), "\(route.method) \(route.path): \(text)")
        }
    }
}
