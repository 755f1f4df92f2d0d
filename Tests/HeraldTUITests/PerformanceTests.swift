import Foundation
import HeraldTUI
import Testing

@Suite struct PerformanceTests {
    /// Renders a 100×30 frame of a 100,000-row list many times and reports the time per frame.
    @Test func listFrameFromAHundredThousandRowsIsCheap() {
        let names = (0..<100_000).map { "Person \($0) • 李小龍 • +44 7700 \(String(format: "%06d", $0))" }
        var canvas = Canvas(size: Size(width: 100, height: 30))
        var state = ListState(count: names.count)
        var previous = canvas
        let frames = 200
        let start = DispatchTime.now().uptimeNanoseconds
        for i in 0..<frames {
            state.select((i * 997) % names.count)
            canvas.clear()
            let inside = canvas.box(canvas.bounds, title: "Contacts")
            ListView.render(into: &canvas, rect: inside, state: &state) { names[$0] }
            _ = FrameDiff.changes(from: previous, to: canvas)
            previous = canvas
        }
        let perFrame = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(frames) / 1_000_000
        print("list frame 100×30 from 100,000 rows: \(String(format: "%.3f", perFrame)) ms (render + diff)")
        #expect(perFrame < 50)
        #expect(canvas.snapshot().contains("Person"))
    }
}
