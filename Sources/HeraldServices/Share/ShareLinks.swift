import Foundation

/// Where a link can be shared through a web intent.
public enum SharePlatform: String, Sendable, Hashable, CaseIterable {
    case x
    case facebook
    case whatsApp = "whatsapp"
    case telegram

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .x: return "X"
        case .facebook: return "Facebook"
        case .whatsApp: return "WhatsApp"
        case .telegram: return "Telegram"
        }
    }
}

/// Share URLs for social platforms, built locally (no network).
public enum ShareLinks {
    /// The share URL for `platform` carrying `text` and `link`.
    /// Facebook takes only the link; WhatsApp takes one text, so the link is appended to it.
    public static func url(for platform: SharePlatform, text: String, link: String) -> String {
        let trimmedText = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch platform {
        case .x:
            return "https://twitter.com/intent/tweet?" + query([("text", trimmedText), ("url", link)])
        case .facebook:
            return "https://www.facebook.com/sharer/sharer.php?" + query([("u", link)])
        case .whatsApp:
            let message = trimmedText.isEmpty ? link : trimmedText + " " + link
            return "https://wa.me/?" + query([("text", message)])
        case .telegram:
            return "https://t.me/share/url?" + query([("url", link), ("text", trimmedText)])
        }
    }

    /// Every platform's share URL, in `SharePlatform.allCases` order.
    public static func all(text: String, link: String) -> [(platform: SharePlatform, url: String)] {
        SharePlatform.allCases.map { ($0, url(for: $0, text: text, link: link)) }
    }

    /// Percent-encodes everything but the RFC 3986 unreserved characters
    /// (ALPHA, DIGIT, "-", ".", "_", "~"), byte by byte over UTF-8.
    public static func percentEncode(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out.append(String(format: "%%%02X", byte))
            }
        }
        return out
    }

    private static func query(_ items: [(String, String)]) -> String {
        items.map { "\($0.0)=\(percentEncode($0.1))" }.joined(separator: "&")
    }
}
