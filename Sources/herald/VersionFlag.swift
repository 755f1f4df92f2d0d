import HeraldAPI

extension HeraldBuild {
    /// This executable: the release, and the commit and date BuildInfoPlugin read from .git when it was built.
    static let current = HeraldBuild(commit: BuildInfo.commit, date: BuildInfo.date)
}

/// `herald --version` and `herald --version --json`, answered before the arguments are parsed: ArgumentParser's own
/// `--version` (which `--help` lists) takes no other flag.
enum VersionFlag {
    /// Prints and answers true when the arguments are `--version`, with `--json` or not (and the root's own options,
    /// which it ignores, as ArgumentParser's `--version` does).
    static func handle(_ arguments: [String]) throws -> Bool {
        var rest: [String] = []
        var skipValue = false
        for argument in arguments {
            if skipValue { skipValue = false; continue }
            if ["--data-dir", "--theme"].contains(argument) { skipValue = true; continue }
            if argument == "--demo" || argument.hasPrefix("--data-dir=") || argument.hasPrefix("--theme=") { continue }
            rest.append(argument)
        }
        guard rest.contains("--version"), Set(rest).isSubset(of: ["--version", "--json"]) else { return false }
        if arguments.contains("--json") {
            try Output.printJSON(HeraldBuild.current)
        } else {
            print(HeraldBuild.current.line)
        }
        return true
    }
}
