import CQRencode
import Foundation

/// How much of a QR code may be damaged and still read.
public enum QRErrorCorrection: Sendable, Hashable, CaseIterable {
    case low, medium, quartile, high

    var cValue: QRecLevel {
        switch self {
        case .low: return QR_ECLEVEL_L
        case .medium: return QR_ECLEVEL_M
        case .quartile: return QR_ECLEVEL_Q
        case .high: return QR_ECLEVEL_H
        }
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Sendable, Equatable, UserFacingError {
    case emptyText
    case containsNul
    case tooLong(byteCount: Int)
    case encodingFailed(errno: Int32)

    public var userMessage: String {
        switch self {
        case .emptyText: return "nothing to put in the QR code: the link is empty"
        case .containsNul: return "the text for the QR code contains a NUL character"
        case .tooLong(let n): return "the text is too long for a QR code (\(n) bytes); use a shorter link"
        case .encodingFailed(let code): return "libqrencode could not make the QR code (errno \(code))"
        }
    }
}

/// A QR code as a square matrix of modules (true = dark), made with libqrencode.
public struct QRCode: Sendable, Hashable {
    /// Modules per side.
    public let size: Int
    /// Row-major, `size * size` modules; true is dark.
    public let modules: [Bool]
    /// The QR version (1...40) libqrencode chose.
    public let version: Int

    /// Encodes `text` (as UTF-8, 8-bit mode) at the given error correction level.
    public init(encoding text: String, errorCorrection: QRErrorCorrection = .medium) throws {
        guard !text.isEmpty else { throw QRCodeError.emptyText }
        guard !text.utf8.contains(0) else { throw QRCodeError.containsNul }
        let pointer = text.withCString { QRcode_encodeString($0, 0, errorCorrection.cValue, QR_MODE_8, 1) }
        guard let code = pointer else {
            let err = errno
            if err == ERANGE { throw QRCodeError.tooLong(byteCount: text.utf8.count) }
            throw QRCodeError.encodingFailed(errno: err)
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        guard width > 0, let data = code.pointee.data else { throw QRCodeError.encodingFailed(errno: 0) }
        var modules = [Bool](repeating: false, count: width * width)
        for i in 0..<(width * width) {
            // Bit 0 of each byte is the module's colour; the other bits describe its role.
            modules[i] = data[i] & 1 == 1
        }
        self.size = width
        self.modules = modules
        self.version = Int(code.pointee.version)
    }

    /// Whether the module at (row, column) is dark; outside the code it is light.
    public func isDark(row: Int, column: Int) -> Bool {
        guard row >= 0, row < size, column >= 0, column < size else { return false }
        return modules[row * size + column]
    }

    /// The code as rows of Bool.
    public var matrix: [[Bool]] {
        (0..<size).map { r in Array(modules[(r * size)..<((r + 1) * size)]) }
    }

    /// Text lines drawing the code with half blocks (▀ ▄ █ and space), two module rows per line,
    /// inside a light quiet zone of `quietZone` modules.
    ///
    /// By default the glyphs draw the *light* modules, which suits the usual terminal with light
    /// text on a dark background: the terminal's background shows as the dark modules.
    /// `inverted: true` draws the dark modules instead, for dark text on a light background.
    public func textLines(quietZone: Int = 2, inverted: Bool = false) -> [String] {
        let margin = max(0, quietZone)
        let total = size + 2 * margin
        func drawn(_ row: Int, _ column: Int) -> Bool {
            // Rows past the bottom edge (an odd total) are never drawn.
            guard row < total else { return false }
            let dark = isDark(row: row - margin, column: column - margin)
            return inverted ? dark : !dark
        }
        var lines: [String] = []
        lines.reserveCapacity((total + 1) / 2)
        var row = 0
        while row < total {
            var line = ""
            line.reserveCapacity(total)
            for column in 0..<total {
                switch (drawn(row, column), drawn(row + 1, column)) {
                case (true, true): line.append("█")
                case (true, false): line.append("▀")
                case (false, true): line.append("▄")
                case (false, false): line.append(" ")
                }
            }
            lines.append(line)
            row += 2
        }
        return lines
    }
}
