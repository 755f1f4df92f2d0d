import Foundation
import HeraldInfobip

extension GlobalOptions {
    /// Whether config or environment pick Infobip: `HERALD_PLATFORM=infobip` or `[platform] kind = "infobip"`.
    static func wantsInfobip(config: HeraldConfig, environment: [String: String]) throws -> Bool {
        let kind = nonEmpty(environment["HERALD_PLATFORM"])?.lowercased() ?? config.platformKind ?? "embedded"
        switch kind {
        case "infobip": return true
        case "embedded": return false
        default: throw Output.failure("HERALD_PLATFORM=\(Output.safe(kind)) is not one of embedded, infobip")
        }
    }

    /// The Infobip account from `[infobip]` and the `HERALD_INFOBIP_*` variables (which win). The key comes from
    /// `HERALD_INFOBIP_API_KEY`, `api_key` (a config file others can read draws a warning) or `api_key_file`.
    /// `requireLink`: a terminal on Infobip needs `[infobip] link`; a Herald server has its own short links.
    static func infobipSettings(config: HeraldConfig, environment: [String: String], configFile: URL,
                                requireLink: Bool = true) throws -> InfobipSettings {
        let role = requireLink ? "the platform" : "the server's carrier"
        let where_ = "set [infobip] base_url in \(configFile.path) or HERALD_INFOBIP_BASE_URL"
        guard let baseText = nonEmpty(environment["HERALD_INFOBIP_BASE_URL"]) ?? nonEmpty(config.infobipBaseURL) else {
            throw Output.failure("Infobip is \(role) but its API base URL is not set: \(where_) (it is shown on your Infobip account's home page)")
        }
        let baseURL = try httpURL(baseText, what: "the Infobip base URL")
        let mobileText = nonEmpty(environment["HERALD_INFOBIP_MOBILE_BASE_URL"]) ?? nonEmpty(config.infobipMobileBaseURL)
        let mobileURL = try mobileText.map { try httpURL($0, what: "the Mobile Messaging base URL") } ?? InfobipSettings.defaultMobileBaseURL
        var key = nonEmpty(environment["HERALD_INFOBIP_API_KEY"])
        var source = "HERALD_INFOBIP_API_KEY"
        if key == nil, let inline = nonEmpty(config.infobipKey) {
            key = inline
            source = "[infobip] api_key in \(configFile.path)"
            warnIfOthersCanRead(configFile, holding: "the Infobip API key")
        }
        if key == nil, let file = nonEmpty(config.infobipKeyFile) {
            let path = (file as NSString).expandingTildeInPath
            do { key = nonEmpty(try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) } catch {
                throw Output.failure("cannot read infobip.api_key_file \(Output.safe(path)): \(error.localizedDescription)")
            }
            source = "[infobip] api_key_file (\(path))"
            warnIfOthersCanRead(URL(fileURLWithPath: path), holding: "the Infobip API key")
        }
        guard let key else {
            throw Output.failure("Infobip is \(role) but no API key is set: set HERALD_INFOBIP_API_KEY, or [infobip] api_key_file in \(configFile.path)")
        }
        let link = nonEmpty(environment["HERALD_INFOBIP_LINK"]) ?? nonEmpty(config.infobipLink)
        if requireLink, link == nil {
            throw Output.failure("""
                Infobip is the platform but no invitation link is set: set [infobip] link in \(configFile.path) or HERALD_INFOBIP_LINK \
                to the page your invitations point to (Herald's short links exist only on a Herald server)
                """)
        }
        if let link { _ = try httpURL(link, what: "the invitation link") }
        let code = nonEmpty(environment["HERALD_INFOBIP_APP_CODE"]) ?? nonEmpty(config.infobipApplicationCode)
        var settings = InfobipSettings(baseURL: baseURL, apiKey: key, apiKeySource: source, mobileBaseURL: mobileURL,
                                       applicationCode: code, link: link)
        settings.lookupGrace = try config.number(\.infobipLookupGrace, environment: environment) ?? settings.lookupGrace
        settings.handOverLease = try config.number(\.infobipHandOverLease, environment: environment) ?? settings.handOverLease
        settings.reportDeadline = try config.number(\.infobipReportDeadline, environment: environment) ?? settings.reportDeadline
        settings.logsPerMinute = try config.number(\.infobipLogsPerMinute, environment: environment).map { Int($0) } ?? settings.logsPerMinute
        settings.sendOptions = config.infobipSend
        return settings
    }

    static func nonEmpty(_ s: String?) -> String? { s.flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 } }

    /// An absolute http(s) URL, or a failure naming `what`.
    static func httpURL(_ text: String, what: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw Output.failure("\(what) \"\(Output.safe(text))\" is not an http(s) URL such as https://xxxxx.api.infobip.com")
        }
        return url
    }

    /// Warns when a file holding a secret can be read by others.
    static func warnIfOthersCanRead(_ file: URL, holding what: String) {
        if let mode = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.posixPermissions] as? Int, mode & 0o077 != 0 {
            Output.warn("\(file.path) holds \(what) and others can read it: chmod 600 \(file.path)")
        }
    }
}
