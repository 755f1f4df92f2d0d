import Foundation
import Testing
@testable import HeraldCardDAV

/// `password_command` runs through the shell when a sync needs the password: its first line is the password; one that
/// fails or is killed says so, naming the book and what it said on stderr.
@Suite struct PasswordCommandTests {
    func account(_ command: String) -> CardDAVAccount {
        CardDAVAccount(url: URL(string: "http://127.0.0.1:1/ana/contacts/")!, username: "ana", passwordFile: nil, passwordCommand: command)
    }

    @Test func theFirstLineOfItsOutputIsThePasswordAndAFailureNamesTheBook() throws {
        #expect(try account("printf 'pässwörd\\nsecond line\\n'; echo noise >&2").password(book: "dav") == "pässwörd")
        #expect(throws: CardDAVError.password(book: "dav", why: "password_command exited with 3")) {
            try account("echo nope; exit 3").password(book: "dav")
        }
        // What it said on stderr before failing is the reason shown (its last line, control characters dropped).
        #expect(throws: CardDAVError.password(book: "dav", why: "password_command exited with 2: gpg: decryption failed: No secret key")) {
            try account("echo 'gpg: starting' >&2; printf 'gpg: decryption failed: No secret key\\033[2J\\n' >&2; exit 2")
                .password(book: "dav")
        }
        #expect(throws: CardDAVError.password(book: "dav", why: "password_command was stopped (signal 9)")) {
            try account("kill -9 $$").password(book: "dav")
        }
        // A lot on stderr never leaves it hanging on a full pipe.
        #expect(try account("head -c 300000 /dev/zero >&2; echo ok").password(book: "dav") == "ok")
    }
}
