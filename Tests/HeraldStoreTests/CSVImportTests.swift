import Foundation
import HeraldTestKit
import Testing
import HeraldCore
@testable import HeraldStore

@Suite struct CSVImportTests {
    @Test func googleOldHeadersWithMultiValues() throws {
        let s = try TempStore()
        let csv = """
        Name,Given Name,Additional Name,Family Name,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Phone 2 - Type,Phone 2 - Value,Organization 1 - Type,Organization 1 - Name
        Ana Horvat,Ana,,Horvat,* myContacts,* Home,ana@example.com ::: ana.h@example.com,Mobile,+385 98 123 4567 ::: 091 765 4321,Work,+1 415 555 0132,,Acme

        """
        let report = try s.importText("google.csv", csv)
        #expect(report.imported == 1)
        let p = try #require(try s.all().first)
        #expect(p.firstName == "Ana")
        #expect(p.lastName == "Horvat")
        #expect(p.organization == "Acme")
        #expect(p.emails.map(\.address) == ["ana@example.com", "ana.h@example.com"])
        #expect(p.emails.first?.label == "home")
        #expect(p.phones.map(\.number.e164) == ["+385981234567", "+385917654321", "+14155550132"])
        #expect(p.phones.map(\.label) == ["mobile", "mobile", "work"])
    }

    @Test func googleNewHeaders() throws {
        let s = try TempStore()
        let csv = """
        First Name,Middle Name,Last Name,Organization Name,E-mail 1 - Label,E-mail 1 - Value,Phone 1 - Label,Phone 1 - Value
        Marko,,Marić,,Work,marko@acme.hr,Mobile,098 765 4321

        """
        _ = try s.importText("contacts.csv", csv)
        let p = try #require(try s.all().first)
        #expect(p.formattedName == "Marko Marić")
        #expect(p.phones.first?.number.e164 == "+385987654321")
        #expect(p.emails.first?.label == "work")
    }

    @Test func outlookExport() throws {
        let s = try TempStore()
        let csv = """
        "First Name","Middle Name","Last Name","Company","E-mail Address","E-mail 2 Address","Mobile Phone","Business Phone","Home Phone"
        "Ivo","","Ivić","Globex","ivo@globex.de","ivo@gmail.com","+49 151 12345678","+385 1 4567 890",""

        """
        _ = try s.importText("outlook.csv", csv)
        let p = try #require(try s.all().first)
        #expect(p.organization == "Globex")
        #expect(p.emails.map(\.address) == ["ivo@globex.de", "ivo@gmail.com"])
        #expect(p.phones.map(\.label) == ["mobile", "work"])
        #expect(p.phones.first?.number.e164 == "+4915112345678")
    }

    @Test func plainCSVWithRFC4180Quoting() throws {
        let s = try TempStore()
        let csv = "NAME,Phone,EMAIL,Organization\r\n"
            + "\"Horvat, Ana\",+385981234567,ana@example.com,\"Acme \"\"Best\"\" d.o.o.\"\r\n"
            + "\"Multi\nLine Name\",091 765 4321,,\r\n"
            + ",,,\r\n"
            + "Bad Row\r\n"
        let url = try s.write("plain.csv", csv)
        let report = try s.importer().importContacts(from: url)
        #expect(report.imported == 3)
        let people = try s.all()
        #expect(people.contains { $0.organization == "Acme \"Best\" d.o.o." && $0.formattedName == "Horvat, Ana" })
        #expect(people.contains { $0.formattedName == "Multi\nLine Name" && $0.phones.first?.number.e164 == "+385917654321" })
        // The empty row is reported on its real line (after the embedded newline).
        #expect(report.errors.map(\.line) == [5])
        #expect(report.errors.first?.file == url.path)
    }

    @Test func semicolonSeparatedAndUnknownHeaders() throws {
        let s = try TempStore()
        _ = try s.importText("semi.csv", "first;last;mobile\nAna;Horvat;098 123 4567\n")
        #expect(try s.all().first?.phones.first?.number.e164 == "+385981234567")
        let report = try s.importText("junk.csv", "foo,bar\n1,2\n")
        #expect(report.errors.first?.message.contains("header") == true)
        #expect(report.imported == 0)
    }

    @Test func unclosedQuoteIsReportedNotCrashing() throws {
        let s = try TempStore()
        let report = try s.importText("q.csv", "name,phone\nAna,+385981234567\n\"Bob,+1415\n")
        #expect(report.imported == 1)
        #expect(report.errors.map(\.line) == [3])
    }
}
