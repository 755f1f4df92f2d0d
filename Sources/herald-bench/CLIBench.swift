import Foundation

/// `herald contacts list --search Q` as a whole process (start, open, search, print) against
/// `fzf --filter Q` over the same people written one per line (name, organisation, emails, numbers).
func cliBench(_ o: BenchOptions, dir: URL) throws {
    let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.deletingLastPathComponent()
    let herald = binDir.appendingPathComponent("herald")
    guard FileManager.default.isExecutableFile(atPath: herald.path) else {
        print("cli:      skipped: no herald binary next to herald-bench (build it with swift build -c release)")
        return
    }
    let data = dir.appendingPathComponent("data")
    let lines = dir.appendingPathComponent("people.txt")
    let export = try run(herald.path, ["contacts", "export", "--format", "csv", "--data-dir", data.path])
    try export.output.write(to: lines, atomically: true, encoding: .utf8)
    let fzf = ["/usr/bin/fzf", "/usr/local/bin/fzf"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let queries = ["kova", "ana h", "horvat", "gmail", "zz-nothing"]
    var heraldTimes: [Double] = [], fzfTimes: [Double] = []
    for _ in 0..<max(3, o.rounds / 2) {
        for q in queries {
            heraldTimes.append(try run(herald.path, ["contacts", "list", "--search", q, "--data-dir", data.path]).seconds * 1000)
            if let fzf { fzfTimes.append(try run(fzf, ["--filter", q], input: lines).seconds * 1000) }
        }
    }
    print("cli:      herald contacts list --search Q, whole process (\(queries.count) queries): " + summaryWithP99(heraldTimes))
    if fzfTimes.isEmpty {
        print("          fzf not installed: no comparison (make bench installs it)")
    } else {
        let ratio = percentile(heraldTimes.sorted(), 0.5) / percentile(fzfTimes.sorted(), 0.5)
        print("          fzf --filter Q over the same people: " + summaryWithP99(fzfTimes))
        print("          herald / fzf (medians): \(fmt(ratio))×")
    }
}

/// Runs a program to its end; its stdout, and the wall time it took.
private func run(_ path: String, _ arguments: [String], input: URL? = nil) throws -> (output: String, seconds: Double) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
    let start = DispatchTime.now().uptimeNanoseconds
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    guard process.terminationStatus == 0 || arguments.first == "--filter" else {
        throw BenchError("\(path) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return (String(decoding: data, as: UTF8.self), seconds)
}
