import Foundation
import Testing

/// `herald send` with many recipients, and what the next run says after a send the platform never answered.
@Suite(.serialized) struct CLISendRecoveryTests {
    @Test func thousandsOfToOptionsAndAToFileAreAllSent() throws {
        let cli = try PlatformCLI()
        let numbers = (0..<2500).map(mobile)
        var args = ["send"]
        for n in numbers { args += ["--to", n] }
        let sent = try cli.ok(args + ["--json"], timeout: 120).object()
        #expect((sent["recipients"] as? [Any])?.count == 2500)
        #expect((sent["bulkIds"] as? [Any])?.count == 3)

        let file = cli.home.appendingPathComponent("more.txt")
        try (["# one per line", ""] + (2500..<2600).map(mobile)).joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let more = try cli.ok(["send", "--to-file", file.path, "--to", mobile(0), "--json"]).object()
        #expect((more["recipients"] as? [Any])?.count == 100)
        #expect((more["skipped"] as? [[String: Any]])?.first?["address"] as? String == mobile(0))
    }

    @Test func theRunAfterAnUnansweredSendSaysItCompletedTheQueuedInvitations() throws {
        let cli = try PlatformCLI()
        let numbers = (0..<3).map(mobile)
        let lost = try cli.run(["send", "--to"] + numbers, env: ["HERALD_SANDBOX_FAULTS": "send=timeout*10"])
        #expect(lost.status != 0)
        #expect(lost.stderr.contains("3 recipients stay queued"))

        let next = try cli.run(["send", "--to"] + numbers + ["--json"])
        #expect(next.status == 0, "\(next)")
        #expect(next.stderr.contains("completed 3 invitations an interrupted run had queued"))
        #expect(next.stderr.contains("nothing new to send"))
        #expect(!next.stderr.contains("nothing was sent"))
        let json = try next.object()
        #expect((json["reconciled"] as? [String: Any])?["completed"] as? Int == 3)
        #expect((json["skipped"] as? [Any])?.count == 3)
    }

    @Test func aFaultPlanThatCannotBeReadIsRefusedWithItsSyntax() throws {
        let cli = try PlatformCLI()
        let run = try cli.run(["send", "--to", mobile(1)], env: ["HERALD_SANDBOX_FAULTS": "send=418"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("HERALD_SANDBOX_FAULTS: cannot read \"send=418\""))
        #expect(!run.crashed)
    }

    @Test func whileAnotherProcessHoldsTheDatabaseReadsWorkAndASendSaysTheFolderIsBusy() throws {
        let cli = try PlatformCLI()
        try cli.ok(["templates", "list", "--json"])
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [cli.dataDir.appendingPathComponent("herald.sqlite").path]
        let input = Pipe()
        holder.standardInput = input
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
        // A writer that has committed before (as every Herald process has) and now holds a long write.
        input.fileHandleForWriting.write(Data("""
            INSERT INTO setting VALUES ('before', '1');
            BEGIN IMMEDIATE;
            INSERT INTO setting VALUES ('held', '1');
            .shell sleep 60

            """.utf8))
        try input.fileHandleForWriting.close()
        Thread.sleep(forTimeInterval: 0.5)

        let list = try cli.run(["contacts", "list", "--json"], timeout: 10)
        #expect(list.status == 0, "\(list)")
        let send = try cli.run(["send", "--to", mobile(1)], timeout: 60)
        #expect(send.status == 1)
        #expect(send.stderr.contains("the data folder \(cli.dataDir.path) is busy"), "\(send)")
        #expect(send.stderr.contains("stay queued"))
        #expect(!send.stderr.contains("SQLITE"))
        #expect(!send.stderr.contains("database is locked"))

        kill(holder.processIdentifier, SIGKILL)
        while holder.isRunning { usleep(10_000) }
        let again = try cli.run(["send", "--to", mobile(1), "--json"])
        #expect(again.status == 0, "\(again)")
    }
}
