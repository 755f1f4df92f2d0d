import Foundation
import HeraldTUI

extension Canvas {
    /// Rows of the canvas as text.
    var rows: [String] { snapshot().components(separatedBy: "\n") }

    /// Where `text` starts on the canvas (column counted in cells), or nil.
    func find(_ text: String) -> (x: Int, y: Int)? {
        for y in 0..<height {
            var line: [Character] = []
            var columns: [Int] = []
            for x in 0..<width {
                guard let cell = cell(x: x, y: y), !cell.isContinuation else { continue }
                line.append(cell.character); columns.append(x)
            }
            let target = Array(text)
            guard target.count <= line.count else { continue }
            for start in 0...(line.count - target.count) where Array(line[start..<(start + target.count)]) == target {
                return (columns[start], y)
            }
        }
        return nil
    }
}

/// A theme without colours: the panes' drawing does not depend on it.
let plainTheme = Theme(name: "plain", roles: [:])
