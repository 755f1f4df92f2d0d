import Foundation
import HeraldTestKit
import Testing

/// The README and the pages under docs/ never point at nothing: every relative link or image in them names a file of
/// the repository, and an anchor after `#` names a heading of the page it points to (GitHub's heading ids). Links to
/// http(s) and mailto are left alone; links inside code (fenced blocks, backticks) are not links.
@Suite struct DocumentationLinkTests {
    /// The markdown files that are the documentation: README.md and every docs/*.md, as repository paths.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: RepositoryFiles.url("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// Every link and image target of a markdown text: `[text](target)`, `![alt](target "title")`, `<target>` in
    /// parentheses, and reference definitions `[id]: target`. Code spans and fenced blocks are skipped.
    static func linkTargets(in markdown: String) -> [String] {
        var targets: [String] = []
        var fenced = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { fenced.toggle(); continue }
            if fenced { continue }
            let text = withoutCodeSpans(line)
            if let definition = text.firstMatch(of: /^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/) {
                targets.append(String(definition.1))
            }
            for match in text.matches(of: /\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/) {
                var target = String(match.1)
                if target.hasPrefix("<") { target = String(target.dropFirst().dropLast()) }
                targets.append(target)
            }
        }
        return targets
    }

    static func withoutCodeSpans(_ line: String) -> String {
        line.replacing(/`[^`]*`/, with: "``")
    }

    /// A target this test checks: not a web or mail address.
    static func isRelative(_ target: String) -> Bool {
        let lower = target.lowercased()
        return !["http://", "https://", "mailto:"].contains { lower.hasPrefix($0) }
    }

    /// GitHub's id for each heading of a markdown text: lower-cased, punctuation dropped, spaces as `-`, a repeated
    /// id numbered `-1`, `-2`, ….
    static func headingIDs(in markdown: String) -> Set<String> {
        var ids: Set<String> = []
        var counts: [String: Int] = [:]
        var fenced = false
        for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") || line.hasPrefix("~~~") { fenced.toggle(); continue }
            guard !fenced, let heading = line.firstMatch(of: /^#{1,6}\s+(.*?)\s*#*$/) else { continue }
            var id = ""
            for character in heading.1.lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" { id.append(character) }
                else if character == " " { id.append("-") }
            }
            let seen = counts[id, default: 0]
            counts[id] = seen + 1
            ids.insert(seen == 0 ? id : "\(id)-\(seen)")
        }
        return ids
    }

    /// What is wrong with each relative link of the page at `page` (a path under `root`): a missing file, or an
    /// anchor no heading of its page has.
    static func brokenLinks(in page: String, root: URL) throws -> [String] {
        let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
        let folder = root.appendingPathComponent(page).deletingLastPathComponent()
        var broken: [String] = []
        for target in linkTargets(in: text) where isRelative(target) {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let path = parts[0].removingPercentEncoding ?? parts[0]
            let file = path.isEmpty ? root.appendingPathComponent(page) : folder.appendingPathComponent(path).standardizedFileURL
            guard file.path.hasPrefix(root.standardizedFileURL.path + "/") else {
                broken.append("\(page): \(target) leaves the repository")
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
                broken.append("\(page): \(target) names no file")
                continue
            }
            if parts.count == 2, !parts[1].isEmpty, !isDirectory.boolValue, file.pathExtension == "md" {
                let anchor = parts[1].removingPercentEncoding ?? parts[1]
                let headings = headingIDs(in: try String(contentsOf: file, encoding: .utf8))
                if !headings.contains(anchor) { broken.append("\(page): \(target) names no heading of \(file.lastPathComponent)") }
            }
        }
        return broken
    }

    @Test func everyRelativeLinkInTheReadmeAndDocsResolves() throws {
        let pages = try Self.pages()
        #expect(pages.count > 3, "README.md and docs/*.md: \(pages)")
        var links = 0
        for page in pages {
            links += Self.linkTargets(in: RepositoryFiles.read(page) ?? "").filter(Self.isRelative).count
            for problem in try Self.brokenLinks(in: page, root: RepositoryFiles.root) { Issue.record("\(problem)") }
        }
        #expect(links > 10, "the pages link to each other and to the screenshots")
    }

    /// The README is the front page: at most 8 KB, with the two commands, and a link to every page under docs/.
    @Test func theReadmeIsShortAndLinksEveryDocsPage() throws {
        let readme = try #require(RepositoryFiles.read("README.md"))
        #expect(readme.utf8.count <= 8192, "README.md is \(readme.utf8.count) bytes; move the detail to docs/")
        #expect(readme.contains("make run") && readme.contains("make test"))
        let targets = Set(Self.linkTargets(in: readme).map { String($0.split(separator: "#", maxSplits: 1)[0]) })
        for page in try Self.pages() where page != "README.md" {
            #expect(targets.contains(page), "README.md does not link to \(page)")
        }
        #expect(targets.contains { $0.hasPrefix("screenshots/") })
    }

    /// The check itself: in a throwaway tree, a link to a missing file, a missing anchor, a link out of the tree and
    /// a missing image are each named; links in code, to the web, and to existing files and headings are not.
    @Test func aBrokenLinkIsNamed() throws {
        let tempDir = try TempDir("docs")
        let root = tempDir.url
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try "# Other page\n\n## The `[send]` table\n".write(to: root.appendingPathComponent("docs/other.md"), atomically: true, encoding: .utf8)
        try """
            # Page

            Fine: [other](docs/other.md), [its table](docs/other.md#the-send-table), [top](#page), [web](https://example.com/x.md),
            [mail](mailto:a@example.com), `[in code](docs/nowhere.md)`, [dir](docs/).

            ```sh
            [fenced](docs/nowhere.md)
            ```

            Broken: [gone](docs/gone.md), ![shot](screenshots/none.png "a title"), [anchor](docs/other.md#nothing-here),
            [out](../outside.md), [here](#no-such-heading).

            [ref]: docs/missing.md
            """.write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let broken = try Self.brokenLinks(in: "README.md", root: root)
        #expect(broken == [
            "README.md: docs/gone.md names no file",
            "README.md: screenshots/none.png names no file",
            "README.md: docs/other.md#nothing-here names no heading of other.md",
            "README.md: ../outside.md leaves the repository",
            "README.md: #no-such-heading names no heading of README.md",
            "README.md: docs/missing.md names no file",
        ], "\(broken)")
    }
}
