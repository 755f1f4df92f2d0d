import Foundation
import HeraldCore
import HeraldStore

/// Writes exported recipients as CSV, TSV or JSON, in chunks (a 64 KiB buffer handed to `flush` when full), never
/// holding more than one chunk.
///
/// Columns, in this order: `bulk`, `time` (UTC, ISO 8601), `sent_by`, `number`, `name`, `country`, `state`
/// (invited, pending, failed, cancelled), `status` (the ledger's status: DeliveredToTerminal…), `reason`, `price`,
/// `currency`, `attempts`, `clicks`, `text` (as sent).
///
/// - CSV is RFC 4180 (a header row, CRLF line ends, a field with a comma, a quote or a line end in quotes, quotes
///   doubled); TSV is a header row and one line per recipient, fields separated by a tab.
/// - Safe to open in a spreadsheet: a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a
///   leading `'` (OWASP's guard against formula injection; a number such as `+385…` included, which also keeps its
///   plus); control characters are taken out (a line end or tab in a text becomes a space) in CSV and TSV alike.
/// - JSON is one array, one object a line (`null` for a missing value, `price` a number), valid JSON that `jq` reads;
///   texts are as stored, escaped as JSON needs.
/// - All UTF-8, no byte-order mark.
struct DeliveryExportWriter {
    let format: DeliveryExportFormat
    private var buffer: [UInt8] = []
    private var rows = 0
    private(set) var bytes = 0
    private let flush: ([UInt8]) throws -> Void
    static let chunk = 64 * 1024

    static let columns = ["bulk", "time", "sent_by", "number", "name", "country", "state", "status", "reason", "price",
                          "currency", "attempts", "clicks", "text"]

    init(format: DeliveryExportFormat, flush: @escaping ([UInt8]) throws -> Void) {
        self.format = format
        self.flush = flush
        buffer.reserveCapacity(Self.chunk + 4096)
    }

    mutating func begin() throws {
        switch format {
        case .csv: append(Self.columns.joined(separator: ",") + "\r\n")
        case .tsv: append(Self.columns.joined(separator: "\t") + "\n")
        case .json: append("[")
        }
    }

    mutating func write(_ row: LedgerExportRow) throws {
        let texts: [String?] = [row.bulkId, Self.timestamp(row.sentAt), row.sentBy, row.number, row.name, row.country,
                                row.status.state.word, row.status.rawValue, row.reason]
        let tail: [String?] = [row.currency]
        switch format {
        case .csv, .tsv:
            let separator: UInt8 = format == .csv ? UInt8(ascii: ",") : UInt8(ascii: "\t")
            for (index, value) in texts.enumerated() {
                if index > 0 { buffer.append(separator) }
                appendCell(value)
            }
            buffer.append(separator)
            if let price = row.price { append(Self.number(price)) }
            buffer.append(separator)
            appendCell(tail[0])
            buffer.append(separator)
            append(String(row.attempts))
            buffer.append(separator)
            append(String(row.clicks))
            buffer.append(separator)
            appendCell(row.text)
            append(format == .csv ? "\r\n" : "\n")
        case .json:
            append(rows == 0 ? "\n{" : ",\n{")
            for (index, value) in texts.enumerated() {
                appendJSONField(Self.columns[index], value, first: index == 0)
            }
            append(",\"price\":")
            append(row.price.map(Self.number) ?? "null")
            appendJSONField("currency", row.currency, first: false)
            append(",\"attempts\":\(row.attempts),\"clicks\":\(row.clicks)")
            appendJSONField("text", row.text, first: false)
            append("}")
        }
        rows += 1
        if buffer.count >= Self.chunk { try drain() }
    }

    mutating func finish() throws {
        if format == .json { append(rows == 0 ? "]\n" : "\n]\n") }
        try drain()
    }

    private mutating func drain() throws {
        guard !buffer.isEmpty else { return }
        try flush(buffer)
        bytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
    }

    // MARK: CSV and TSV cells

    /// One text cell: guarded against formulas, control characters out, quoted as RFC 4180 asks (CSV).
    private mutating func appendCell(_ value: String?) {
        guard let value, !value.isEmpty else { return }
        let cell = Self.spreadsheetSafe(value)
        if format == .csv, cell.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: ";") }) {
            buffer.append(UInt8(ascii: "\""))
            for byte in cell.utf8 {
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
                buffer.append(byte)
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            append(cell)
        }
    }

    static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]

    /// `value` as a spreadsheet takes it for text: `'` before a formula start, then control characters out (a line
    /// end or a tab becomes a space, others go). Most cells need nothing: one pass over the bytes says so.
    static func spreadsheetSafe(_ value: String) -> String {
        var clean = true
        for (index, byte) in value.utf8.enumerated() {
            if index == 0, byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "@") {
                clean = false
                break
            }
            // C0 and DEL; a C1 control is U+0080…U+009F, encoded 0xC2 0x80…0x9F.
            if byte < 0x20 || byte == 0x7F || byte == 0xC2 { clean = false; break }
        }
        if clean { return value }
        var scalars = String.UnicodeScalarView()
        if let first = value.unicodeScalars.first, formulaStarts.contains(first) { scalars.append("'") }
        for scalar in value.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                if scalar == "\n" || scalar == "\t" || scalar == "\r" { scalars.append(" ") }
                continue
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    // MARK: JSON

    private mutating func appendJSONField(_ name: String, _ value: String?, first: Bool) {
        if !first { buffer.append(UInt8(ascii: ",")) }
        append("\"\(name)\":")
        guard let value else { append("null"); return }
        buffer.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20, 0x7F:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
    }

    // MARK: values

    /// A price as written: plain decimal ("0.05"), no exponent.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "" }
        let text = String(value)
        guard text.contains("e") else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        var formatted = String(format: "%.10f", value)
        while formatted.hasSuffix("0") { formatted.removeLast() }
        if formatted.hasSuffix(".") { formatted.removeLast() }
        return formatted
    }

    /// `2026-11-20T14:30:05Z`: UTC, to the second (the days from the epoch turned into a civil date by hand: a
    /// formatter per row costs more than the rest of the row).
    static func timestamp(_ date: Date) -> String {
        let seconds = Int64((date.timeIntervalSince1970).rounded(.down))
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        // Howard Hinnant's days_from_civil, inverted.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest % 3600 / 60)):\(two(rest % 60))Z"
    }
}
