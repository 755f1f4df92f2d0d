import CNCurses
@testable import HeraldTUI
import Testing

@Suite struct TerminalTests {
    @Test func onlyChangedCellsAreRewritten() {
        var a = Canvas(size: Size(width: 10, height: 3))
        a.put("hello", x: 0, y: 1)
        var b = a
        b.put("J", x: 0, y: 1)
        b.put("!", x: 9, y: 2)
        let runs = FrameDiff.changes(from: a, to: b)
        #expect(runs.map { [$0.y, $0.x.lowerBound, $0.x.upperBound] } == [[1, 0, 1], [2, 9, 10]])
        #expect(FrameDiff.changes(from: b, to: b).isEmpty)
        #expect(FrameDiff.changes(from: nil, to: b).count == 3)
    }

    @Test func aChangedHalfOfAWideCharacterTakesTheOtherHalf() {
        var a = Canvas(size: Size(width: 6, height: 1))
        a.put("ab李", x: 0, y: 0)
        var b = a
        b.put("x", x: 3, y: 0)           // overwrites the right half of 李
        let runs = FrameDiff.changes(from: a, to: b)
        #expect(runs.map { [$0.x.lowerBound, $0.x.upperBound] } == [[2, 4]])
        var c = a
        c.put("y", x: 2, y: 0)           // overwrites the left half
        #expect(FrameDiff.changes(from: a, to: c).map { [$0.x.lowerBound, $0.x.upperBound] } == [[2, 4]])
    }

    @Test func aChangeInsideAThreeColumnClusterRewritesTheWholeCluster() {
        var a = Canvas(size: Size(width: 8, height: 1))
        a.put("aक्षिb", x: 0, y: 0)                 // क्षि takes columns 1–3
        #expect(a.cell(x: 1, y: 0)?.columns == 3)
        var b = a
        b.put("x", x: 2, y: 0)
        #expect(FrameDiff.changes(from: a, to: b).map { [$0.x.lowerBound, $0.x.upperBound] } == [[1, 4]])
        #expect(b.snapshot() == "a x b")
    }

    @Test func aJoinedClusterIsWrittenWholeOverItsStandInWithTheCursorKeptWhereNcursesLeftIt() {
        let style = ResolvedStyle(fg: .indexed(208), bg: .default, attributes: [.bold])
        let bytes = JoinedCluster.bytes([JoinedCluster(y: 2, x: 5, text: "👩‍👩‍👧", style: style)], depth: .palette256)
        #expect(String(decoding: bytes, as: UTF8.self) == "\u{1B}7\u{1B}[3;6H\u{1B}[0;1;38;5;208;49m👩‍👩‍👧\u{1B}8")
        let plain = JoinedCluster.bytes([JoinedCluster(y: 0, x: 0, text: "🏳️‍🌈", style: style)], depth: .none)
        #expect(String(decoding: plain, as: UTF8.self) == "\u{1B}7\u{1B}[1;1H\u{1B}[0;1m🏳️‍🌈\u{1B}8")
    }

    /// ncurses gets a printable stand-in as wide as the whole cluster (a NUL stand-in drew "^@" wherever
    /// ncurses re-sent the cell); clusters not joined by ZWJ go out as their cells.
    @Test func ncursesGetsTheFirstPersonOfAFamilyAndEveryCellOfADevanagariCluster() {
        let family = JoinedCluster.ncursesCells(of: "👩‍👩‍👧")
        #expect(family.joined)
        #expect(family.parts.map(\.text) == ["👩"] && family.parts.map(\.columns) == [2])
        let flag = JoinedCluster.ncursesCells(of: "🏳️‍🌈")
        #expect(flag.joined && flag.parts.map(\.text) == ["🏳\u{FE0F}"] && flag.parts.map(\.columns) == [1])
        // A skin-toned one takes 4 columns: ncurses holds the stand-in and two spaces, so it tracks every cell.
        let coder = JoinedCluster.ncursesCells(of: "👩🏽‍💻")
        #expect(coder.joined && coder.parts.map(\.text) == ["👩", " ", " "] && coder.parts.map(\.columns) == [2, 1, 1])
        let devanagari = JoinedCluster.ncursesCells(of: "मि")
        #expect(!devanagari.joined && devanagari.parts.map(\.text) == ["म", "ि"])
    }

    @Test func styleChangesAreChangesToo() {
        var a = Canvas(size: Size(width: 4, height: 1))
        a.put("ab", x: 0, y: 0)
        var b = a
        b.restyle(Rect(x: 1, y: 0, width: 1, height: 1), style: Style(.selection))
        #expect(FrameDiff.changes(from: a, to: b).map { [$0.x.lowerBound, $0.x.upperBound] } == [[1, 2]])
    }

    @Test func ncursesCodesDecodeToKeys() {
        #expect(NcursesKeys.decode(functionKey: KEY_UP) == .up)
        #expect(NcursesKeys.decode(functionKey: KEY_NPAGE) == .pageDown)
        #expect(NcursesKeys.decode(functionKey: KEY_BTAB) == .backTab)
        #expect(NcursesKeys.decode(functionKey: herald_key_f(5)) == .function(5))
        #expect(NcursesKeys.decode(functionKey: herald_key_resize()) == .resize)
        #expect(NcursesKeys.decode(character: 4) == .ctrl("d"))
        #expect(NcursesKeys.decode(character: 13) == .enter)
        #expect(NcursesKeys.decode(character: 127) == .backspace)
        #expect(NcursesKeys.decode(character: 9) == .tab)
        #expect(NcursesKeys.decode(character: 27) == .escape)
        #expect(NcursesKeys.decode(character: 0x674E) == .char("李"))
        #expect(NcursesKeys.decode(character: 0x9B) == nil)
    }
}

@Suite struct TerminalRepliesTests {
    @Test func onlyAStatusReportEndsTheRepliesThrownAway() {
        var matcher = StatusReportMatcher()
        let before = Array("\u{1B}[24;1R\u{1B}[?1;2c\u{1B}[".utf8)     // an editor's answers, then a cut-off start
        #expect(!before.contains { matcher.feed($0) })
        #expect(Array("\u{1B}[0n".utf8).map { matcher.feed($0) } == [false, false, false, true])
        #expect(!Array("x[0n".utf8).contains { matcher.feed($0) })
    }
}
