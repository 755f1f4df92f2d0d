/// Which Herald this is: the release number (the one place it is written), and the wire it speaks.
public enum HeraldVersion {
    /// This release.
    public static let number = "0.9.0"

    /// The version of the wire this release's server speaks, announced at `/health` and `/herald/1/session`
    /// (`"wire"`). It goes up when a server gains routes or fields that terminals come to rely on.
    /// 1: the server tells its version (`/health`, the session); servers before it announce none.
    public static let wire = 1

    /// The oldest wire a terminal of this release works fully against: an older server is used anyway, with a warning.
    public static let wireNeeded = 1

    /// Why a terminal should warn about its server, or nil when the server is recent enough. `announcedWire` is nil
    /// for a server that predates wire versions.
    public static func olderServerWarning(url: String, serverVersion: String?, announcedWire: Int?) -> String? {
        let wire = announcedWire ?? 0
        guard wire < wireNeeded else { return nil }
        let which = serverVersion.map { "runs Herald \($0) (wire \(wire))" } ?? "predates wire versions (wire 0)"
        return "the Herald server at \(url) \(which); this terminal (Herald \(number)) needs wire \(wireNeeded) or later, "
            + "so some things may not work: upgrade the server"
    }
}
