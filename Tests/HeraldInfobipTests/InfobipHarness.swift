import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import InfobipStandIn
@testable import HeraldInfobip

/// A workspace on Infobip, where Infobip is the stand-in on a loopback port; folder and server go with it.
final class InfobipHarness: @unchecked Sendable {
    let dir: URL
    let state: StandInState
    let url: URL
    let server: Task<Void, any Error>
    let settings: InfobipSettings
    let workspace: Workspace

    static let config = WorkspaceConfig(region: "HR", sender: "Herald", senderName: "Ana",
                                        sendRetry: SendRetry(attempts: 1, baseDelay: 0, maxDelay: 0))

    init(apiKey: String? = nil, applicationCode: String? = "stand-in-app-code", maxPerRequest: Int = 100,
         state: StandInState = StandInState(), sendOptions: InfobipSendOptions = InfobipSendOptions(),
         config: WorkspaceConfig = InfobipHarness.config, mailProgram: MailProgram = MailProgram()) async throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("herald-infobip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        self.state = state
        (url, server) = try await InfobipStandIn.start(state: state)
        var settings = InfobipSettings(baseURL: url, apiKey: apiKey ?? state.apiKey, apiKeySource: "HERALD_INFOBIP_API_KEY",
                                       mobileBaseURL: url, applicationCode: applicationCode, link: "https://example.com/join",
                                       reportInterval: 0, maxMessagesPerRequest: maxPerRequest, attempts: 3, maxRetryWait: 2)
        settings.sendOptions = sendOptions
        self.settings = settings
        workspace = try await Workspace.open(dataDirectory: dir, platform: InfobipPlatform(settings: settings, mailProgram: mailProgram),
                                             config: config)
    }

    deinit {
        workspace.close()
        server.cancel()
        try? FileManager.default.removeItem(at: dir)
    }

    static func mobile(_ i: Int) -> String { "+38591" + String(format: "%07d", 1_000_000 + i) }
}
