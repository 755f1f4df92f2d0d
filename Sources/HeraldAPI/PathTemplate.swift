import Foundation

/// A path with `{name}` parameters ("/1/social-invite/application/{applicationKey}/message/{messageId}").
/// Fills parameters with percent-encoding and matches incoming paths, so client and server share one template.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let template: String
    private let segments: [Substring]

    public init(_ template: String) {
        self.template = template
        self.segments = template.split(separator: "/", omittingEmptySubsequences: true)
    }

    public init(stringLiteral value: String) { self.init(value) }

    public var description: String { template }

    /// Characters left as they are inside a path segment (RFC 3986 unreserved).
    public static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return set
    }()

    /// Percent-encodes one path segment: everything but unreserved characters, including "/", "?", "%" and spaces.
    public static func encodeSegment(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// The path with every parameter filled and encoded.
    public func path(_ parameters: [String: String]) throws(APIError) -> String {
        var out: [String] = []
        for segment in segments {
            if let name = Self.parameterName(segment) {
                guard let value = parameters[name], !value.isEmpty else {
                    throw APIError.invalidRequest("missing path parameter \(name) for \(template)")
                }
                out.append(Self.encodeSegment(value))
            } else {
                out.append(String(segment))
            }
        }
        return "/" + out.joined(separator: "/")
    }

    /// The decoded parameters when `path` matches this template, else nil.
    public func match(_ path: String) -> [String: String]? {
        guard let parts = Self.decodedSegments(of: path), parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (pattern, value) in zip(segments, parts) {
            if let name = Self.parameterName(pattern) {
                guard !value.isEmpty else { return nil }
                parameters[name] = value
            } else if pattern != value {
                return nil
            }
        }
        return parameters
    }

    /// Splits an encoded path into decoded segments; nil when a segment's encoding is broken.
    public static func decodedSegments(of path: String) -> [String]? {
        var raw = path
        if let q = raw.firstIndex(of: "?") { raw = String(raw[..<q]) }
        var result: [String] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = String(part).removingPercentEncoding else { return nil }
            result.append(decoded)
        }
        return result
    }

    private static func parameterName(_ segment: Substring) -> String? {
        guard segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2 else { return nil }
        return String(segment.dropFirst().dropLast())
    }
}
