import Testing
import HeraldViewModels

/// The rules of selecting in Contacts, without a workspace: what `u` brings back, inverting, ranges.
@Suite struct ContactSelectionTests {
    @Test func noneThenUBringsTheSelectionBackAndUAgainUndoesTheUndo() {
        var picks = ContactSelection()
        picks.toggle(1); picks.toggle(2); picks.toggle(2)
        #expect(picks.ids == [1])
        picks.add([3, 4])                                   // select all: not undone by u
        picks.clear()
        #expect(picks.isEmpty && picks.previous == [1, 3, 4])
        picks.restore()
        #expect(picks.ids == [1, 3, 4] && picks.previous == [])
        picks.restore()
        #expect(picks.isEmpty)
        var none = ContactSelection()
        none.clear()                                        // nothing selected: nothing for u to bring back
        #expect(none.previous == nil)
    }

    @Test func invertSwapsWhatIsShownAndKeepsWhatIsNotShown() {
        var picks = ContactSelection()
        picks.add([1, 2, 9])                                // 9 is selected but not shown (a search hides it)
        picks.invert(shown: [1, 2, 3, 4])
        #expect(picks.ids == [3, 4, 9] && picks.previous == [1, 2, 9])
    }

    @Test func aRangeRunsFromWhereItStartedToTheCursorEitherWayAndEndsOnce() {
        var picks = ContactSelection()
        #expect(picks.endRange(at: 3) == nil && !picks.cancelRange())
        picks.beginRange(at: 7)
        #expect(picks.isInRange(5, cursor: 4) && picks.isInRange(7, cursor: 4) && !picks.isInRange(8, cursor: 4))
        #expect(picks.endRange(at: 4) == 4...7)
        #expect(picks.rangeAnchor == nil && picks.endRange(at: 4) == nil)
        picks.beginRange(at: 2)
        #expect(picks.cancelRange() && picks.rangeAnchor == nil)
    }
}
