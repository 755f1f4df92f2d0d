import Foundation
import HeraldTestKit

// The Infobip stand-in as a process, for end-to-end tests of the real binary:
//   infobip-stand-in [--port N] [--api-key K] [--app-code C] [--inbox-user U] [--sent-log PATH] [--lose-send-answers N]
//   [--delay-send-answers SECONDS] [--webhook-repeats N]
// prints "listening on http://127.0.0.1:PORT" on stderr, then serves until killed. With --inbox-user, that
// user's inbox holds a message with no seen flag and a silent one, shaped as Mobile Messaging sends them.
// --sent-log appends a line per destination of every accepted send; --lose-send-answers carries out the first N
// send requests and answers each with a 500, as when Infobip's answer is lost; --delay-send-answers answers every
// send request that long after carrying it out. A message sent with webhooks.delivery.url has its reports pushed there
// (--webhook-repeats times each, as Infobip may call again), the sent log getting "webhook STATUS messageId NAME" per
// call; the others' reports wait in the queue of GET /sms/3/reports.
// A test makes a person answer with POST /stand-in/inbound {"from": "385911234567", "text": "yes, see you"}: the message
// waits for GET /sms/1/inbox/reports (the sent log gets "inbound-taken messageId" when a read takes it) and is pushed to
// the inbound webhooks set by POST /stand-in/inbound-webhooks {"urls": [...], "repeats": N} ("inbound-webhook STATUS
// messageId URL" per call), all before the answer {"messageId": ..., "pushes": [{"url", "answer", "at"}]};
// POST /stand-in/inbound-again {"messageIds": [...]} pushes messages received before once more.

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard flag.hasPrefix("--"), let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("usage: infobip-stand-in [--port N] [--api-key K] [--app-code C] [--inbox-user U] [--sent-log PATH] [--lose-send-answers N] [--delay-send-answers S] [--webhook-repeats N]\n".utf8))
        exit(2)
    }
    options[String(flag.dropFirst(2))] = value
}
let state = StandInState(apiKey: options["api-key"] ?? "stand-in-key", applicationCode: options["app-code"] ?? "stand-in-app-code")
if let path = options["sent-log"] { try await state.setSentLog(path) }
if let delay = options["delay-send-answers"].flatMap(Double.init), delay > 0 { await state.setSendAnswerDelay(delay) }
if let lost = options["lose-send-answers"].flatMap(Int.init), lost > 0 {
    await state.fail("/sms/3/messages", status: 500, body: #"{"errorCode":"E500","description":"Something went wrong."}"#,
                     times: lost, afterProcessing: true)
}
if let repeats = options["webhook-repeats"].flatMap(Int.init) { await state.setWebhookRepeats(repeats) }
if let user = options["inbox-user"] {
    let now = Int64(Date().timeIntervalSince1970 * 1000)
    await state.addInbox(user: user, payloadJSON: """
        {"messageId": "ib-inbox-1", "aps": {"alert": {"title": "Welcome", "body": "Your invitation was accepted."}, "sound": "default"},
         "internalData": {"sendDateTime": \(now - 60_000), "inbox": {"topic": "news"}}, "customPayload": {"k": "v"}}
        """)
    await state.addInbox(user: user, payloadJSON: """
        {"messageId": "ib-inbox-2", "aps": {"content-available": 1},
         "internalData": {"sendDateTime": \(now - 30_000), "inbox": {"topic": "news", "seen": false},
                          "silent": {"title": "Quiet", "body": "A silent message."}}}
        """)
}
do {
    try await InfobipStandIn(state: state).run(port: Int(options["port"] ?? "0") ?? 0) { url in
        FileHandle.standardError.write(Data("listening on \(url)\n".utf8))
    }
} catch {
    FileHandle.standardError.write(Data("infobip-stand-in: \(error)\n".utf8))
    exit(1)
}
