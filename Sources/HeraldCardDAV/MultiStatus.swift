import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A WebDAV `multistatus` answer (RFC 4918), as PROPFIND, `sync-collection` and `addressbook-multiget` give it: per
/// resource its href, status, etag and card, and the collection's new sync token; for discovery (RFC 6764, 5397,
/// 6352) also its resource types, display name, description, ctag and sync token, and the hrefs of
/// `current-user-principal` and `addressbook-home-set`. Read defensively: a document that is
/// not UTF-8 or has a DOCTYPE (entities, the "billion laughs") is refused before parsing (`XMLPrologGuard`), any
/// declaration or entity the parser still meets stops it, and only the elements above are kept.
struct MultiStatus {
    struct Response: Equatable {
        var href = ""
        /// The response's own status (a removed resource: 404), else its propstat's.
        var status: Int?
        var etag: String?
        var card: String?
        /// The children of `resourcetype` in Clark notation (`{DAV:}collection`, `{urn:ietf:params:xml:ns:carddav}addressbook`);
        /// nil when the answer did not give a resource type.
        var resourceTypes: [String]?
        var displayName: String?
        var addressBookDescription: String?
        var ctag: String?
        var syncToken: String?
        var principal: String?
        var homeSets: [String] = []

        static let addressBookType = "{urn:ietf:params:xml:ns:carddav}addressbook"
        var isAddressBook: Bool { resourceTypes?.contains(Self.addressBookType) ?? false }
    }

    var responses: [Response] = []
    var syncToken: String?

    /// Most resources one answer may list.
    static let maxResponses = 200_000

    enum Problem: Error, Equatable {
        case hostile(String)
        case malformed(String)
    }

    static func parse(_ data: Data) throws(Problem) -> MultiStatus {
        do { try XMLPrologGuard.check(data) } catch {
            switch error {
            case .doctype: throw .hostile("it declares a DOCTYPE (entity definitions are refused)")
            case .notUTF8(let why): throw .hostile("\(why); Herald reads only UTF-8 answers")
            }
        }
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), reader.failure == nil else {
            throw .malformed(reader.failure ?? parser.parserError.map { "\($0.localizedDescription)" } ?? "it is not XML")
        }
        guard reader.sawMultistatus else { throw .malformed("it is not a DAV:multistatus") }
        return reader.result
    }

    /// The status code of `HTTP/1.1 404 Not Found`.
    static func code(_ line: String) -> Int? {
        let parts = line.split(separator: " ")
        return parts.count >= 2 ? Int(parts[1]) : nil
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var result = MultiStatus()
        var sawMultistatus = false
        var failure: String?
        private var path: [String] = []
        private var text = ""
        private var response: Response?
        private var propstatStatus: Int?
        private var propstatEtag: String?
        private var propstatCard: String?
        private var props = Response()

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            path.append(name)
            text = ""
            switch name {
            case "multistatus" where path.count == 1: sawMultistatus = true
            case "response":
                guard result.responses.count < MultiStatus.maxResponses else {
                    failure = "it lists more than \(MultiStatus.maxResponses) resources"
                    parser.abortParsing()
                    return
                }
                response = Response()
            case "propstat":
                propstatStatus = nil
                propstatEtag = nil
                propstatCard = nil
                props = Response()
            case "resourcetype": props.resourceTypes = []
            default:
                if path.count >= 2, path[path.count - 2] == "resourcetype", props.resourceTypes != nil, props.resourceTypes!.count < 32 {
                    props.resourceTypes!.append("{\(namespaceURI ?? "")}\(name)")
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, foundCDATA block: Data) { text += String(decoding: block, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            switch name {
            case "href" where parent == "response": response?.href = value
            case "status" where parent == "response": response?.status = MultiStatus.code(value)
            case "status" where parent == "propstat": propstatStatus = MultiStatus.code(value)
            case "getetag": propstatEtag = value
            case "address-data": propstatCard = text
            case "href" where parent == "current-user-principal": props.principal = value
            case "href" where parent == "addressbook-home-set": if props.homeSets.count < 16 { props.homeSets.append(value) }
            case "displayname" where parent == "prop": props.displayName = value
            case "addressbook-description" where parent == "prop": props.addressBookDescription = value
            case "getctag" where parent == "prop": props.ctag = value
            case "sync-token" where parent == "prop": props.syncToken = value
            case "propstat":
                // Only a propstat that succeeded carries values (a 404 one lists the properties the resource lacks).
                if propstatStatus == nil || propstatStatus == 200 {
                    if let etag = propstatEtag, !etag.isEmpty { response?.etag = etag }
                    if let card = propstatCard { response?.card = card }
                    if let types = props.resourceTypes { response?.resourceTypes = types }
                    if let v = props.displayName { response?.displayName = v }
                    if let v = props.addressBookDescription { response?.addressBookDescription = v }
                    if let v = props.ctag, !v.isEmpty { response?.ctag = v }
                    if let v = props.syncToken, !v.isEmpty { response?.syncToken = v }
                    if let v = props.principal, !v.isEmpty { response?.principal = v }
                    if !props.homeSets.isEmpty { response?.homeSets = props.homeSets }
                    if response?.status == nil { response?.status = propstatStatus ?? 200 }
                } else if response?.status == nil {
                    response?.status = propstatStatus
                }
            case "response":
                if let response { result.responses.append(response) }
                response = nil
            case "sync-token" where parent == "multistatus": result.syncToken = value
            default: break
            }
            path.removeLast()
            text = ""
        }

        // Declarations the parser reports (libxml2 on Linux reports element, attribute, notation and unparsed-entity
        // declarations, and asks for any entity it does not know): none belongs in a DAV answer.
        private func refuseDeclaration(_ parser: XMLParser, _ what: String) {
            if failure == nil { failure = "it declares \(what) (entity definitions are refused)" }
            parser.abortParsing()
        }

        func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
            refuseDeclaration(parser, "an element")
        }

        func parser(_ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
                    type: String?, defaultValue: String?) {
            refuseDeclaration(parser, "an attribute")
        }

        func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
            refuseDeclaration(parser, "a notation")
        }

        func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
            refuseDeclaration(parser, "an entity")
        }

        func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
            refuseDeclaration(parser, "an external entity")
        }

        func parser(_ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
                    notationName: String?) {
            refuseDeclaration(parser, "an unparsed entity")
        }

        func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? {
            refuseDeclaration(parser, "an entity")
            return nil
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if failure == nil { failure = "line \(parser.lineNumber): \(parseError.localizedDescription)" }
        }
    }
}
