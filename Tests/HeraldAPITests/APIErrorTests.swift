import Foundation
import Testing
@testable import HeraldAPI

@Suite struct APIErrorTests {
    func response(_ status: Int, _ body: String, headers: [String: String] = [:]) -> APIResponse {
        APIResponse(status: status, headers: headers, body: Data(body.utf8))
    }

    func envelope(_ id: String, _ text: String, _ errors: String = "") -> String {
        #"{"requestError": {"serviceException": {"messageId": "\#(id)", "text": "\#(text)"\#(errors)}}}"#
    }

    @Test func unauthorizedAndAccessTokenMissing() {
        #expect(APIError(response: response(401, envelope("UNAUTHORIZED", "Invalid login details"))) == .unauthorized)
        #expect(APIError(response: response(401, envelope("ACCESS_TOKEN_MISSING", "x"))) == .accessTokenMissing)
        #expect(APIError(response: response(401, "")) == .unauthorized)
    }

    @Test func notFoundKeepsTheText() {
        let e = APIError(response: response(404, envelope("NOT_FOUND", "Message not found for specified request ID")))
        #expect(e == .notFound("Message not found for specified request ID"))
    }

    @Test func badRequestKeepsValidationErrors() {
        let body = envelope("BAD_REQUEST", "Too many", #", "validationErrors": {"destinations": ["at most 1000"]}"#)
        let e = APIError(response: response(400, body))
        #expect(e == .badRequest("Too many", validationErrors: ["destinations": ["at most 1000"]]))
        #expect(e.description.contains("at most 1000"))
    }

    @Test func policyExceptionIsRead() {
        let body = #"{"requestError": {"policyException": {"messageId": "BAD_REQUEST", "text": "Policy says no"}}}"#
        #expect(APIError(response: response(400, body)) == .badRequest("Policy says no", validationErrors: [:]))
    }

    @Test func tooManyRequestsReadsRetryAfterCaseInsensitively() {
        let e = APIError(response: response(429, envelope("TOO_MANY_REQUESTS", "slow"), headers: ["retry-after": "7"]))
        #expect(e == .tooManyRequests(retryAfter: 7))
        #expect(APIError(response: response(429, "")) == .tooManyRequests(retryAfter: nil))
        #expect(APIError(response: response(429, "", headers: ["Retry-After": "soon"])) == .tooManyRequests(retryAfter: nil))
    }

    @Test func serverAndTimeout() {
        #expect(APIError(response: response(500, envelope("GENERAL_ERROR", "boom"))) == .server(status: 500, text: "boom"))
        #expect(APIError(response: response(503, "<html>")) == .server(status: 503, text: "Service unavailable"))
        #expect(APIError(response: response(504, "")) == .timeout)
        #expect(APIError(response: response(408, "")) == .timeout)
    }

    @Test func everyErrorSurvivesItsOwnResponse() {
        let errors: [APIError] = [
            .unauthorized, .accessTokenMissing, .forbidden("no editing"), .notFound("gone"),
            .badRequest("bad", validationErrors: ["f": ["x"]]), .tooManyRequests(retryAfter: 3),
            .server(status: 502, text: "down"), .timeout,
        ]
        for e in errors { #expect(APIError(response: e.response) == e) }
    }

    @Test func retryableErrors() {
        #expect(APIError.timeout.isRetryable)
        #expect(APIError.tooManyRequests(retryAfter: nil).isRetryable)
        #expect(!APIError.unauthorized.isRetryable)
        #expect(!APIError.badRequest("x", validationErrors: [:]).isRetryable)
    }
}
