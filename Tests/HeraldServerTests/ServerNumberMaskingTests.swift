import Foundation
import HeraldAPI
import HeraldServer
import HeraldTestKit
import Testing

/// `--mask-numbers-for-viewers`: a viewer key reads every number and address masked — delivery infos, opt-outs,
/// referral links, the audit trail, the event queue, the event stream and the errors that echo a number — while a sender key, and a
/// viewer on a server without the option, read them whole.
@Suite struct ServerNumberMaskingTests {
    static let optedOut = "385981299999"
    static let referrer = "zoe.horvat@example.com"

    func text(_ response: APIResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// A server with two invitations sent (to 385981200000 and 385981200001), an opt-out and a referral link made
    /// with the sender key; the bulk's id.
    func serverWithTraffic(masking: Bool) async throws -> (ServerHarness, String) {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maskNumbersForViewers = masking
        let s = try await ServerHarness(options: options)
        let bulk = try await s.invite(2, key: s.sender).bulkId
        let optOut = try await s.raw(.put, "/1/social-invite/optouts/+\(Self.optedOut)", key: s.sender, body: Data("{}".utf8))
        #expect(optOut.isSuccess, "\(text(optOut))")
        let link = try await s.raw(.get, "/herald/1/application/\(s.applicationKey)/referral", key: s.sender, query: ["referrer": Self.referrer])
        #expect(link.isSuccess, "\(text(link))")
        return (s, bulk)
    }

    /// Every read a viewer may make that carries numbers, as `key` reads it: one text per route.
    func reads(_ s: ServerHarness, bulk: String, key: String) async throws -> [String: String] {
        var out: [String: String] = [:]
        let infos = try await s.raw(.get, "/1/smsmessaging/outbound/requests/\(bulk)/deliveryInfos", key: key)
        #expect(infos.isSuccess)
        out["delivery infos"] = text(infos)
        let optOuts = try await s.raw(.get, "/1/social-invite/optouts", key: key)
        #expect(optOuts.isSuccess)
        out["opt-outs"] = text(optOuts)
        let link = try await s.raw(.get, "/herald/1/application/\(s.applicationKey)/referral", key: key, query: ["referrer": Self.referrer])
        #expect(link.isSuccess)
        out["referral link"] = text(link)
        let queue = try await s.raw(.get, "/1/messaging/messages", key: key, query: ["after": "0"])
        #expect(queue.isSuccess)
        out["event queue"] = text(queue)
        let audit = try await s.raw(.get, "/1/social-invite/audit", key: key)
        #expect(audit.isSuccess)
        out["audit trail"] = text(audit)
        out["event stream"] = try await streamReplay(s, key: key)
        return out
    }

    /// The event stream replayed from its start, read until the bulk's delivery change has come.
    func streamReplay(_ s: ServerHarness, key: String) async throws -> String {
        let c = try RawConnection(port: s.port)
        defer { c.close() }
        _ = c.send("GET /1/events HTTP/1.1\r\nHost: x\r\nAuthorization: App \(key)\r\nLast-Event-ID: 0\r\n\r\n")
        let read = await c.read(timeout: 5) { String(decoding: $0, as: UTF8.self).contains(PlatformEvent.deliveryChangedType) }
        let stream = String(decoding: read.data, as: UTF8.self)
        #expect(stream.contains(PlatformEvent.deliveryChangedType), "no delivery change on the stream: \(stream.prefix(300))")
        return stream
    }

    @Test func aViewerReadsEveryNumberMaskedASenderReadsThemWhole() async throws {
        let (s, bulk) = try await serverWithTraffic(masking: true)
        defer { s.stop() }
        let whole = ["385981200000", "385981200001", Self.optedOut, Self.referrer]
        for (route, answer) in try await reads(s, bulk: bulk, key: s.viewer) {
            for number in whole { #expect(!answer.contains(number), "the viewer's \(route) shows \(number): \(answer.prefix(400))") }
            #expect(answer.contains("•••"), "the viewer's \(route) shows no masked number: \(answer.prefix(400))")
        }
        let viewer = try await reads(s, bulk: bulk, key: s.viewer)
        #expect(viewer["delivery infos"]?.contains("+385 98 ••• 0000") == true)
        #expect(viewer["delivery infos"]?.contains("+385 98 ••• 0001") == true)
        #expect(viewer["opt-outs"]?.contains("+385 98 ••• 9999") == true)
        #expect(viewer["referral link"]?.contains("z•••@example.com") == true)
        #expect(viewer["event stream"]?.contains("+385 98 ••• 0000") == true)
        // Ids, states and the bulk stay readable: a masked answer is read by the same client.
        #expect(viewer["delivery infos"]?.contains(bulk) == true)
        let infos = try await s.call(GetDeliveryInfos(secret: s.viewer, bulkId: bulk))
        #expect(infos.deliveryInfoList.deliveryInfo.count == 2)
        for (route, answer) in try await reads(s, bulk: bulk, key: s.sender) {
            let shown = whole.filter { answer.contains($0) }
            #expect(!answer.contains("•••"), "the sender's \(route) is masked: \(answer.prefix(400))")
            #expect(!shown.isEmpty, "the sender's \(route) shows no number whole: \(answer.prefix(400))")
        }
        let sender = try await reads(s, bulk: bulk, key: s.sender)
        #expect(sender["opt-outs"]?.contains(Self.optedOut) == true)
        #expect(sender["referral link"]?.contains(Self.referrer) == true)
        #expect(sender["delivery infos"]?.contains("385981200001") == true)
    }

    @Test func anErrorThatEchoesANumberIsMaskedForAViewer() async throws {
        let (s, _) = try await serverWithTraffic(masking: true)
        defer { s.stop() }
        // The server's own answer: a bad event id is echoed.
        let viewer = try await s.raw(.get, "/1/messaging/messages", key: s.viewer, query: ["after": "+385 98 120 0000"])
        #expect(viewer.status == 400)
        #expect(text(viewer).contains("+385 98 ••• 0000"), "\(text(viewer))")
        #expect(!text(viewer).contains("120 0000"))
        let sender = try await s.raw(.get, "/1/messaging/messages", key: s.sender, query: ["after": "+385 98 120 0000"])
        #expect(text(sender).contains("+385 98 120 0000"), "\(text(sender))")
        // An engine route's error, for a caller the server marked as seeing numbers masked.
        let secret = try #require(try await s.engine.credentials(applicationKey: s.applicationKey)).secret
        var request = APIRequest(method: .delete, path: "/1/social-invite/optouts/385981234599", headers: ["Authorization": "App \(secret)"])
        request.caller = APICaller(keyId: "k", name: "support", role: .sender)
        request.caller?.masksNumbers = true
        let masked = await s.engine.handle(request)
        #expect(masked.status == 404)
        #expect(text(masked).contains("+385 98 ••• 4599 is not opted out"), "\(text(masked))")
        request.caller?.masksNumbers = false
        #expect(text(await s.engine.handle(request)).contains("+385981234599 is not opted out"))
    }

    @Test func withoutTheOptionAViewerReadsNumbersWhole() async throws {
        let (s, bulk) = try await serverWithTraffic(masking: false)
        defer { s.stop() }
        let viewer = try await reads(s, bulk: bulk, key: s.viewer)
        for (route, answer) in viewer { #expect(!answer.contains("•••"), "the viewer's \(route) is masked without the option") }
        #expect(viewer["delivery infos"]?.contains("385981200000") == true)
        #expect(viewer["opt-outs"]?.contains(Self.optedOut) == true)
        #expect(viewer["referral link"]?.contains(Self.referrer) == true)
        #expect(viewer["event stream"]?.contains("385981200000") == true)
        #expect(viewer["event queue"]?.contains("385981200001") == true)
    }
}
