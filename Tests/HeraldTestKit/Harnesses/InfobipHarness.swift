import Foundation
import HeraldAPI
import HeraldCore
import HeraldInfobip
import HeraldServices

/// A workspace on Infobip, where Infobip is the stand-in on a loopback port; folder and server go with it.
public final class InfobipHarness: @unchecked Sendable {
    public let dir: TempDir
    public var folder: URL { dir.url }
    public let state: StandInState
    public let url: URL
    public let server: Task<Void, any Error>
    public let settings: InfobipSettings
    public let workspace: Workspace

    public static let config = WorkspaceConfig(region: "HR", sender: "Herald", senderName: "Ana",
                                               sendRetry: SendRetry(attempts: 1, baseDelay: 0, maxDelay: 0))

    public init(apiKey: String? = nil, applicationCode: String? = "stand-in-app-code", maxPerRequest: Int = 100,
                state: StandInState = StandInState(), sendOptions: InfobipSendOptions = InfobipSendOptions(),
                config: WorkspaceConfig = InfobipHarness.config, mailProgram: MailProgram = MailProgram()) async throws {
        dir = try TempDir("infobip")
        self.state = state
        (url, server) = try await InfobipStandIn.start(state: state)
        var settings = InfobipSettings(baseURL: url, apiKey: apiKey ?? state.apiKey, apiKeySource: "HERALD_INFOBIP_API_KEY",
                                       mobileBaseURL: url, applicationCode: applicationCode, link: "https://example.com/join",
                                       reportInterval: 0, maxMessagesPerRequest: maxPerRequest, attempts: 3, maxRetryWait: 2)
        settings.sendOptions = sendOptions
        self.settings = settings
        workspace = try await Workspace.open(dataDirectory: dir.url, platform: InfobipPlatform(settings: settings, mailProgram: mailProgram),
                                             config: config)
    }

    deinit {
        workspace.close()
        server.cancel()
    }

    public static func mobile(_ i: Int) -> String { "+38591" + String(format: "%07d", 1_000_000 + i) }
}
