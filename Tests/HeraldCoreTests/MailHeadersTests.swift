import Foundation
import HeraldCore
import Testing

/// The header of a mail as `contacts add-email` reads it: folded fields, encoded words, quoted and grouped addresses.
@Suite struct MailHeadersTests {
    @Test func foldedFieldsAndEncodedWordsAreReadAndTheBodyIsNot() {
        let mail = MailHeaders("""
            Received: from x
            From: =?UTF-8?B?QW5hIEtvdmHEjQ==?=
             <ana@acme.hr>
            To: "Babić, Ivo" <ivo@y.hr>, maja@z.hr (Maja =?ISO-8859-2?Q?Hor=E1k?=), team: a@t.hr, b@t.hr;
            Cc: =?utf-8?q?=C5=A0ime?= =?utf-8?q?_Ani=C4=87?= <sime@w.hr>, not an address
            Subject: hi

            From: body@nope.example
            """)
        #expect(mail.addresses(["from"]) == [MailAddress(name: "Ana Kovač", address: "ana@acme.hr")])
        #expect(mail.addresses(["to"]) == [MailAddress(name: "Babić, Ivo", address: "ivo@y.hr"),
                                           MailAddress(name: "Maja Horák", address: "maja@z.hr"),
                                           MailAddress(name: "", address: "a@t.hr"), MailAddress(name: "", address: "b@t.hr")])
        #expect(mail.addresses(["cc"]) == [MailAddress(name: "Šime Anić", address: "sime@w.hr")])
        #expect(mail.addresses(["from", "to", "from"]).count == 5)
    }

    @Test func aWordThatCannotBeDecodedIsKeptAsWritten() {
        #expect(MailAddress.decodeWords("=?x-unknown?B?QQ==?= Ana") == "=?x-unknown?B?QQ==?= Ana")
        #expect(MailAddress.decodeWords("plain") == "plain")
    }
}
