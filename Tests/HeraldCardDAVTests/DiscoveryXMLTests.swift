import Foundation
import Testing
@testable import HeraldCardDAV

/// The three PROPFIND answers of discovery (the context path's `current-user-principal`, the principal's
/// `addressbook-home-set`, the home set's collections) read from answers shaped like Radicale's (DAV: as the default
/// namespace, relative hrefs) and Nextcloud's (every namespace prefixed, `card:` for CardDAV) and iCloud's (absolute hrefs).
@Suite struct DiscoveryXMLTests {
    static func parse(_ text: String) throws -> MultiStatus { try MultiStatus.parse(Data(text.utf8)) }

    // Radicale 3.1, as it answers Herald's PROPFIND (recorded).
    static let radicaleRoot = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/"><response><href>/</href>\
        <propstat><prop><resourcetype><collection /></resourcetype><current-user-principal><href>/ana/</href></current-user-principal></prop>\
        <status>HTTP/1.1 200 OK</status></propstat><propstat><prop><displayname /><CR:addressbook-home-set /><CR:addressbook-description />\
        <CS:getctag /><sync-token /></prop><status>HTTP/1.1 404 Not Found</status></propstat></response></multistatus>
        """
    static let radicalePrincipal = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/"><response><href>/ana/</href>\
        <propstat><prop><resourcetype><principal /><collection /></resourcetype><current-user-principal><href>/ana/</href></current-user-principal>\
        <CR:addressbook-home-set><href>/ana/</href></CR:addressbook-home-set></prop><status>HTTP/1.1 200 OK</status></propstat>\
        <propstat><prop><displayname /><CR:addressbook-description /><CS:getctag /><sync-token /></prop><status>HTTP/1.1 404 Not Found</status>\
        </propstat></response></multistatus>
        """
    static let radicaleHome = """
        <?xml version='1.0' encoding='utf-8'?>
        <multistatus xmlns="DAV:" xmlns:CR="urn:ietf:params:xml:ns:carddav" xmlns:CS="http://calendarserver.org/ns/"><response><href>/ana/</href>\
        <propstat><prop><resourcetype><principal /><collection /></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>\
        <response><href>/ana/contacts/</href><propstat><prop><resourcetype><CR:addressbook /><collection /></resourcetype>\
        <displayname>contacts</displayname><CS:getctag>"3e13"</CS:getctag><sync-token>http://radicale.org/ns/sync/e3b0</sync-token></prop>\
        <status>HTTP/1.1 200 OK</status></propstat><propstat><prop><CR:addressbook-home-set /><CR:addressbook-description /></prop>\
        <status>HTTP/1.1 404 Not Found</status></propstat></response>\
        <response><href>/ana/work/</href><propstat><prop><resourcetype><CR:addressbook /><collection /></resourcetype><displayname>Work</displayname>\
        <CR:addressbook-description>Colleagues</CR:addressbook-description><CS:getctag>"d02c"</CS:getctag></prop>\
        <status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    // Nextcloud (sabre/dav): prefixed namespaces, the ctag in a namespace declared on the element itself.
    static let nextcloudRoot = """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:oc="http://owncloud.org/ns">\
        <d:response><d:href>/remote.php/dav/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>\
        <d:current-user-principal><d:href>/remote.php/dav/principals/users/ana/</d:href></d:current-user-principal></d:prop>\
        <d:status>HTTP/1.1 200 OK</d:status></d:propstat><d:propstat><d:prop><d:displayname/><card:addressbook-home-set/></d:prop>\
        <d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response></d:multistatus>
        """
    static let nextcloudPrincipal = """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:card="urn:ietf:params:xml:ns:carddav">\
        <d:response><d:href>/remote.php/dav/principals/users/ana/</d:href><d:propstat><d:prop><d:resourcetype><d:principal/></d:resourcetype>\
        <card:addressbook-home-set><d:href>/remote.php/dav/addressbooks/users/ana/</d:href></card:addressbook-home-set>\
        <d:displayname>Ana</d:displayname></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
        """
    static let nextcloudHome = """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:card="urn:ietf:params:xml:ns:carddav" xmlns:oc="http://owncloud.org/ns">\
        <d:response><d:href>/remote.php/dav/addressbooks/users/ana/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>\
        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
        <d:response><d:href>/remote.php/dav/addressbooks/users/ana/contacts/</d:href><d:propstat><d:prop>\
        <d:resourcetype><d:collection/><card:addressbook/></d:resourcetype><d:displayname>Contacts</d:displayname>\
        <x1:getctag xmlns:x1="http://calendarserver.org/ns/">42</x1:getctag><d:sync-token>http://sabre.io/ns/sync/42</d:sync-token>\
        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat><d:propstat><d:prop><card:addressbook-description/></d:prop>\
        <d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response>\
        <d:response><d:href>/remote.php/dav/addressbooks/users/ana/z-app-generated--contactsinteraction--recent/</d:href><d:propstat><d:prop>\
        <d:resourcetype><d:collection/><card:addressbook/></d:resourcetype><d:displayname>Recently contacted</d:displayname>\
        <card:addressbook-description>Contacts you wrote to</card:addressbook-description></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>\
        <d:response><d:href>/remote.php/dav/addressbooks/users/ana/trash/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype>\
        </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
        """

    // iCloud-like: absolute hrefs on another host (a partition of the service).
    static let absoluteHome = """
        <?xml version="1.0" encoding="UTF-8"?>
        <multistatus xmlns="DAV:"><response><href>https://p42-contacts.example.com/1234/carddav/</href><propstat><prop>\
        <resourcetype xmlns="DAV:"><collection/></resourcetype></prop><status>HTTP/1.1 200 OK</status></propstat></response>\
        <response><href>https://p42-contacts.example.com/1234/carddav/card/</href><propstat><prop>\
        <resourcetype xmlns="DAV:"><collection/><addressbook xmlns="urn:ietf:params:xml:ns:carddav"/></resourcetype>\
        <displayname>card</displayname></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
        """

    @Test func radicalesRootNamesThePrincipalAndHasNoHomeSet() throws {
        let root = try Self.parse(Self.radicaleRoot).responses
        #expect(root.count == 1)
        #expect(root[0].principal == "/ana/" && root[0].homeSets.isEmpty && !root[0].isAddressBook)
        #expect(root[0].resourceTypes == ["{DAV:}collection"])
        #expect(root[0].displayName == nil, "an empty displayname in the 404 propstat is not a name")
    }

    @Test func radicalesPrincipalHasItsHomeSet() throws {
        let principal = try Self.parse(Self.radicalePrincipal).responses
        #expect(principal.map(\.homeSets) == [["/ana/"]])
        #expect(principal[0].resourceTypes == ["{DAV:}principal", "{DAV:}collection"])
    }

    @Test func radicalesHomeSetListsTheAddressBooksWithTheirProperties() throws {
        let books = try Self.parse(Self.radicaleHome).responses.filter(\.isAddressBook)
        #expect(books.map(\.href) == ["/ana/contacts/", "/ana/work/"])
        #expect(books.map(\.displayName) == ["contacts", "Work"])
        #expect(books.map(\.addressBookDescription) == [nil, "Colleagues"])
        #expect(books.map(\.ctag) == ["\"3e13\"", "\"d02c\""])
        #expect(books[0].syncToken == "http://radicale.org/ns/sync/e3b0")
        #expect(try Self.parse(Self.radicaleHome).syncToken == nil, "a collection's sync-token property is not the report's")
    }

    @Test func nextcloudsPrefixedNamespacesReadTheSame() throws {
        #expect(try Self.parse(Self.nextcloudRoot).responses.first?.principal == "/remote.php/dav/principals/users/ana/")
        let principal = try Self.parse(Self.nextcloudPrincipal).responses[0]
        #expect(principal.homeSets == ["/remote.php/dav/addressbooks/users/ana/"] && principal.displayName == "Ana")
        let home = try Self.parse(Self.nextcloudHome).responses
        let books = home.filter(\.isAddressBook)
        #expect(books.map(\.displayName) == ["Contacts", "Recently contacted"], "the home itself and the trash are no address books")
        #expect(books[0].ctag == "42" && books[0].syncToken == "http://sabre.io/ns/sync/42" && books[0].addressBookDescription == nil)
        #expect(books[1].addressBookDescription == "Contacts you wrote to")
    }

    @Test func hrefsRelativeAndAbsoluteResolveAgainstTheURLAsked() throws {
        let base = URL(string: "https://cloud.example.com/remote.php/dav/")!
        #expect(CardDAVDiscovery.resolve("/remote.php/dav/principals/users/ana/", against: base)?.absoluteString
                == "https://cloud.example.com/remote.php/dav/principals/users/ana/")
        #expect(CardDAVDiscovery.resolve("principals/users/ana/", against: base)?.absoluteString
                == "https://cloud.example.com/remote.php/dav/principals/users/ana/")
        #expect(CardDAVDiscovery.resolve("/ana/my book/", against: base)?.absoluteString == "https://cloud.example.com/ana/my%20book/")
        let home = try Self.parse(Self.absoluteHome).responses.filter(\.isAddressBook)
        #expect(home.map(\.href) == ["https://p42-contacts.example.com/1234/carddav/card/"])
        #expect(CardDAVDiscovery.resolve(home[0].href, against: base)?.host == "p42-contacts.example.com")
    }

    @Test func credentialsGoOnlyToTheSameOriginOrAnAllowedHostAndNeverDownToHTTP() {
        let d = CardDAVDiscovery(url: URL(string: "https://cloud.example.com")!, username: "ana", password: "pw")
        let base = URL(string: "https://cloud.example.com/")!
        #expect(d.isAllowed(URL(string: "https://cloud.example.com:443/remote.php/dav/")!, from: base))
        #expect(!d.isAllowed(URL(string: "https://p42-contacts.example.com/1234/")!, from: base))
        #expect(!d.isAllowed(URL(string: "http://cloud.example.com/remote.php/dav/")!, from: base))
        #expect(!d.isAllowed(URL(string: "https://cloud.example.com:8443/")!, from: base), "another port is another origin")
        let allowing = CardDAVDiscovery(url: base, username: "ana", password: "pw", allowedHosts: ["P42-contacts.example.com"])
        #expect(allowing.isAllowed(URL(string: "https://p42-contacts.example.com/1234/")!, from: base))
        #expect(!allowing.isAllowed(URL(string: "http://p42-contacts.example.com/1234/")!, from: base))
    }

    @Test func aBareHostIsHTTPSAndOtherSchemesAreRefused() {
        #expect(CardDAVDiscovery.url(from: "dav.example.com")?.absoluteString == "https://dav.example.com")
        #expect(CardDAVDiscovery.url(from: "dav.example.com:8443/dav/")?.absoluteString == "https://dav.example.com:8443/dav/")
        #expect(CardDAVDiscovery.url(from: "http://127.0.0.1:5232/")?.absoluteString == "http://127.0.0.1:5232/")
        #expect(CardDAVDiscovery.url(from: "ftp://dav.example.com/") == nil)
        #expect(CardDAVDiscovery.url(from: "") == nil)
        #expect(CardDAVDiscovery.url(from: "two words") == nil)
    }
}
