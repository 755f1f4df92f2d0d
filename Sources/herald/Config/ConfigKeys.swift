import HeraldCore
import HeraldInfobip

/// Every plain key of `config.toml`, each declared once: adding a key is adding a line here (then `make docs`
/// writes it into docs/config.md). Read a value as `config.<property>` (`HeraldConfig` looks it up by this name);
/// nil when the file does not set it. The tables with rules of their own (`[keys]`, `[[books]]`, `[infobip.send]`)
/// are read in their own files; their names are in `ConfigKeys.tables`.
struct ConfigKeys: Sendable {
    // The top level
    let region = ConfigKey.countryCode("region", "The country of numbers written without a country code (else taken from LANG).")
    let theme = ConfigKey.string("theme", example: "default",
                                 "The colour theme: default, light, solarized, high-contrast, monochrome, or a user theme.")
    let sender = ConfigKey.string("sender", example: "Herald", "The sender ID: up to 11 letters and digits, or up to 16 digits.")
    let senderName = ConfigKey.string("sender_name", example: "Ana Horvat", environment: "HERALD_SENDER_NAME",
                                      "Fills {SENDER_NAME} (else your login name, not root's).")
    let signature = ConfigKey.string("signature", example: "— Ana", "What the Composer's g appends on its own line.")
    let ownerEmail = ConfigKey.string("owner_email", example: "ana@example.com",
                                      "Your address: suggestions rank people of your company's domain higher.")
    let readOnly = ConfigKey.flag("read_only", example: true, environment: "HERALD_READ_ONLY",
                                  "A terminal that only reads and watches (a support desk), as --read-only: no send, edit, import, delete, merge or resend keys, and the commands that change things refuse.")

    // [ui]
    let mouse = ConfigKey.flag("ui.mouse", example: false,
                               "Clicks and the wheel work in Herald (default true); false leaves the mouse to the terminal, to select and copy text.")
    let hyperlinks = ConfigKey.choice("ui.hyperlinks", ["auto", "on", "off"],
                                      "Links (referral and share links, links in inbox messages) are clickable OSC 8 hyperlinks: auto where the terminal is known to show them, on, or off; never with NO_COLOR or TERM=dumb.")

    // [notify]
    let notifyEnabled = ConfigKey.flag("notify.enabled", example: false,
                                       "Notices when a bulk settles, when its failures reach notify.failures, and when an inbox message arrives (default true).")
    let notifyFailures = ConfigKey.failureThreshold("notify.failures", example: "10%",
                                                    "The failures of a bulk worth a notice: a share of its recipients (default \"10%\") or a number of them (25).")
    let notifyCommand = ConfigKey.string("notify.command", example: "/usr/local/bin/page-me",
                                         "A program each notice is handed to, its title and body as two more arguments (no shell); it may run 10 seconds.")
    let notifyVia = ConfigKey.choice("notify.via", ["auto", "bell", "osc9", "osc777", "notify-send", "command", "off"],
                                     "How a notice gets attention: auto is the command when set, else the terminal's own notification (OSC 9 or 777) where known, else notify-send on a desktop, else the bell; off leaves the status-bar line only.")

    // [platform]
    let timeScale = ConfigKey.positive("platform.time_scale", example: "10.0", environment: "HERALD_SANDBOX_TIME_SCALE",
                                       "How much faster the embedded platform's simulated carrier runs.")
    let platformURL = ConfigKey.string("platform.url", example: "https://herald.example:8443", environment: "HERALD_PLATFORM_URL",
                                       "A Herald server to use instead of the embedded platform.")
    let platformKey = ConfigKey.string("platform.api_key", example: "hk_…", environment: "HERALD_PLATFORM_KEY",
                                       "The server key (keep this file chmod 600), or api_key_file.")
    let platformKeyFile = ConfigKey.string("platform.api_key_file", example: "~/.config/herald/server.key",
                                           "A file holding the server key alone.")
    let platformCAFile = ConfigKey.string("platform.ca_file", example: "~/.config/herald/team-ca.pem", environment: "HERALD_PLATFORM_CA_FILE",
                                          "CA certificates (PEM) trusted for the server's certificate besides the system's.")
    let platformKind = ConfigKey.choice("platform.kind", ["embedded", "infobip"], note: " (a Herald server is set by platform.url)",
                                        environment: "HERALD_PLATFORM", "The platform: the embedded one, or Infobip's SMS API.")

    // [infobip]
    let infobipBaseURL = ConfigKey.string("infobip.base_url", example: "https://xxxxx.api.infobip.com", environment: "HERALD_INFOBIP_BASE_URL",
                                          "Your Infobip account's API base URL (the portal's home page shows it).")
    let infobipKey = ConfigKey.string("infobip.api_key", example: "…", environment: "HERALD_INFOBIP_API_KEY",
                                      "The Infobip API key (keep this file chmod 600), or api_key_file.")
    let infobipKeyFile = ConfigKey.string("infobip.api_key_file", example: "~/.config/herald/infobip.key",
                                          "A file holding the Infobip API key alone.")
    let infobipMobileBaseURL = ConfigKey.string("infobip.mobile_base_url", example: "https://mobile.infobip.com",
                                                environment: "HERALD_INFOBIP_MOBILE_BASE_URL", "Mobile Messaging's base URL (the inbox).")
    let infobipApplicationCode = ConfigKey.string("infobip.application_code", example: "…", environment: "HERALD_INFOBIP_APP_CODE",
                                                  "The Mobile Messaging application (for the inbox).")
    let infobipLink = ConfigKey.string("infobip.link", example: "https://example.com/join", environment: "HERALD_INFOBIP_LINK",
                                       "The page invitations point to.")
    let infobipLookupGrace = ConfigKey.number("infobip.lookup_grace", InfobipLimits.lookupGrace, unit: "seconds", example: "600",
                                              environment: "HERALD_INFOBIP_LOOKUP_GRACE",
                                              "How long a message that may have been accepted is looked up.")
    let infobipHandOverLease = ConfigKey.number("infobip.hand_over_lease", InfobipLimits.handOverLease, unit: "seconds", example: "120",
                                                environment: "HERALD_INFOBIP_HANDOVER_LEASE", "How long claimed messages stay with their process.")
    let infobipReportDeadline = ConfigKey.number("infobip.report_deadline", InfobipLimits.reportDeadline, unit: "seconds", example: "900",
                                                 environment: "HERALD_INFOBIP_REPORT_DEADLINE",
                                                 "How long before the logs are read for a missing report.")
    let infobipLogsPerMinute = ConfigKey.number("infobip.logs_per_minute",
                                                Double(InfobipLimits.logsPerMinute.lowerBound)...Double(InfobipLimits.logsPerMinute.upperBound),
                                                unit: "requests", example: "120", environment: "HERALD_INFOBIP_LOGS_PER_MINUTE",
                                                "Log reads a minute, at most Infobip's 120.")

    // [inbox]
    let inboxJWTKeyId = ConfigKey.string("inbox.jwt_key_id", example: "key-1", environment: "HERALD_INBOX_JWT_KEY_ID",
                                         "The key id of the JWTs inbox reads are signed with.")
    let inboxJWTSecret = ConfigKey.string("inbox.jwt_secret", example: "…64 hex digits…", environment: "HERALD_INBOX_JWT_SECRET",
                                          "The secret (hex) of those JWTs.")

    // [share]
    let emailFrom = ConfigKey.string("share.email_from", example: "Ana Horvat <ana@example.com>",
                                     "Turns email invitations on: their From.")
    let emailCommand = ConfigKey.string("share.email_command", example: "msmtp -t", "The mail program (default: sendmail -t -i).")
    let clipboardCommand = ConfigKey.string("share.clipboard_command", example: "wl-copy",
                                            "What copies go through (else tmux's buffer, wl-copy, xclip, xsel, or OSC 52).")

    // [invite]
    let inviteNumbers = ConfigKey.choice("invite.numbers", ["one-per-person", "all-mobiles"],
                                         "A person gets one SMS (the number chosen, else the first mobile), or one on each mobile.")

    // [send]
    let holdSeconds = ConfigKey.number("send.hold_seconds", 0...3600, unit: "seconds", example: "10", environment: "HERALD_HOLD_SECONDS",
                                       "The undo window before anything leaves (0: at once).")
    let stopWords = ConfigKey.list("send.stop_words", like: "[\"ODJAVA\", \"STOPP\"]", expectation: "words of letters",
                                   valid: { !$0.isEmpty && $0.count <= 32 && $0.allSatisfy(\.isLetter) }, map: { $0.uppercased() },
                                   "Replies that opt a number out, besides STOP, STOPALL, UNSUBSCRIBE, CANCEL, END and QUIT.")
    let quietHours = ConfigKey.quietHours("send.quiet_hours", example: "21:00-08:00",
                                          "No invitation reaches anyone in these hours of their own local time.")
    let maxPerDay = ConfigKey.integer("send.max_per_day", 1...10_000_000, what: "a whole number of invitations", example: "500",
                                      "Invitations a day under one sender ID; each send says how many remain.")
    let confirmAbove = ConfigKey.positive("send.confirm_above", example: "5",
                                          "A send estimated above this (in the prices' currency) asks again in the Composer; `herald send` refuses it without --yes.")

    // [smtp]: a Herald server's mail server
    let smtpHost = ConfigKey.string("smtp.host", example: "smtp.example.com", "The mail server (required when [smtp] is there).")
    let smtpPort = ConfigKey.integer("smtp.port", 1...65535, what: "a port number", example: "587", "Its port (default 587).")
    let smtpUsername = ConfigKey.string("smtp.username", example: "herald@example.com", "The login (AUTH PLAIN).")
    let smtpPasswordFile = ConfigKey.string("smtp.password_file", example: "/etc/herald/smtp.password",
                                            "A file holding the password alone.")
    let smtpStartTLS = ConfigKey.flag("smtp.starttls", example: true, "STARTTLS before the login (default true).")
    let smtpCAFile = ConfigKey.string("smtp.ca_file", example: "/etc/herald/mail-ca.pem",
                                      "CA certificates (PEM) trusted for the mail server instead of the system's.")
    let smtpFrom = ConfigKey.string("smtp.from", example: "Team <invite@example.com>", "The address every email leaves from (required).")
    let smtpClientDisplayNames = ConfigKey.flag("smtp.client_display_names", example: true,
                                                "Whether a client's own name may stand before that address (default true).")
    let smtpReplyToDomains = ConfigKey.list("smtp.reply_to_domains", like: "[\"example.com\"]", expectation: "domains ([] for none)",
                                            valid: { !$0.isEmpty && $0.count <= 253 && !$0.contains("@") && $0.allSatisfy { $0.isASCII && !$0.isWhitespace } },
                                            map: { $0.lowercased() },
                                            "Domains whose addresses a client may give as Reply-To (default: the domain of from).")

    /// The tables read by parsers of their own: `[keys]`, `[[books]]`, `[infobip.send]`.
    static let tables: Set<String> = ["keys", "books", "infobip.send", "prices"]

    static let shared = ConfigKeys()

    /// Every declared key, in the order above (for the parser and the reference).
    static let all: [any ConfigKeyDescription] = Mirror(reflecting: shared).children.compactMap { $0.value as? any ConfigKeyDescription }
}
