import Foundation
import HeraldCore

/// Every `print` in this module: the text made terminal-safe (`Output.terminalSafe`) before it reaches stdout.
///
/// It shadows `Swift.print` for the whole executable on purpose. Fields are cleaned where they are formatted
/// (`Output.safe`), but one forgotten call — a server's reason, a card printed whole, a currency — used to be enough
/// for a hostile peer to retitle the terminal or write its clipboard. Here a forgotten call costs nothing: what a
/// command prints for people cannot carry a control character, whoever wrote the command. Raw bytes go only to a
/// file the user named (`-o FILE`).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { String(describing: $0) }.joined(separator: separator) + terminator
    Swift.print(Output.terminalSafe(text), terminator: "")
}

extension Output {
    /// `text` with every control character and escape sequence dropped, its layout kept: line breaks (`\n`, and
    /// `\r\n` as a vCard or CSV writes them) and tabs (the columns of `contacts query`) stay, since a terminal only
    /// moves the cursor for them. A lone carriage return, which could overwrite what a line showed, becomes a space.
    static func terminalSafe(_ text: String) -> String {
        if TerminalSafeText.isAlreadySafe(text, singleLine: false) { return text }
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { scalars -> String in
            var line = String(scalars)
            let crlf = line.unicodeScalars.last == "\r"
            if crlf { line.unicodeScalars.removeLast() }
            let cells = line.unicodeScalars.split(separator: "\t", omittingEmptySubsequences: false)
                .map { TerminalSafeText.sanitize(String($0)) }
            return cells.joined(separator: "\t") + (crlf ? "\r" : "")
        }
        return lines.joined(separator: "\n")
    }

    /// Writes `text` to stdout at once (unbuffered, for a reader on a pipe), terminal-safe as `print` is.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(terminalSafe(text).utf8))
    }
}
