/// Which cells of a frame must be rewritten, given the frame on screen.
nonisolated public enum FrameDiff {
    /// Runs of changed cells per row, as (y, x range). A changed column of a wide cluster takes the
    /// whole cluster with it, so the terminal never keeps a stale half.
    public static func changes(from old: Canvas?, to new: Canvas) -> [(y: Int, x: Range<Int>)] {
        let width = new.width
        guard let old, old.size == new.size else {
            return (0..<new.height).map { ($0, 0..<width) }
        }
        var runs: [(y: Int, x: Range<Int>)] = []
        for y in 0..<new.height {
            var x = 0
            let base = y * width
            while x < width {
                guard old.cells[base + x] != new.cells[base + x] else { x += 1; continue }
                var start = x
                while start > 0 && (new.cells[base + start].isContinuation || old.cells[base + start].isContinuation) { start -= 1 }
                var end = x + 1
                while end < width && (old.cells[base + end] != new.cells[base + end]
                                      || new.cells[base + end].isContinuation || old.cells[base + end].isContinuation) { end += 1 }
                if let last = runs.last, last.y == y, last.x.upperBound >= start {
                    runs[runs.count - 1].x = last.x.lowerBound..<end
                } else {
                    runs.append((y, start..<end))
                }
                x = end
            }
        }
        return runs
    }
}
