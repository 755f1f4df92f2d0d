import Foundation

/// config.toml watched while the screens run: a change (another editor saving it, `mv` over it) is read again within
/// a second, off the UI thread, and handed back whole or with why it cannot be used.
struct ConfigWatch: Sendable {
    let file: URL

    /// What tells one version of the file from another: modification time, size and inode; nil while it is missing.
    struct Stamp: Equatable, Sendable {
        let modified: Int
        let size: Int64
        let inode: UInt64
    }

    func stamp() -> Stamp? {
        var info = stat()
        guard stat(file.path, &info) == 0 else { return nil }
        return Stamp(modified: info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec, size: Int64(info.st_size),
                     inode: UInt64(info.st_ino))
    }

    /// Waits until the file is not `stamp` any more, then reads it: its new stamp and the configuration, or the
    /// problem (a removed file is the empty configuration, as at start). Ends early when its task is cancelled.
    func next(after stamp: Stamp?) async throws -> (Stamp?, Result<HeraldConfig, ConfigError>) {
        while true {
            try await Task.sleep(nanoseconds: 1_000_000_000)
            let now = self.stamp()
            guard now != stamp else { continue }
            do { return (now, .success(try HeraldConfig.load(from: file))) } catch let error as ConfigError {
                return (now, .failure(error))
            } catch {
                return (now, .failure(ConfigError(file: file.path, message: "\(error)")))
            }
        }
    }
}
