import Foundation
import HeraldAPI

/// Parses a JSON body into a plain object for literal checks.
public func jsonObject(_ data: Data) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}

/// The error an answer stands for, nil when it is a success.
public func apiError(_ response: APIResponse) -> APIError? {
    response.isSuccess ? nil : APIError(response: response)
}

/// Numbers libphonenumber 8.12 classifies as seen on this machine kind.
public enum Numbers {
    public static let croatianMobile = "385981234567"
    public static let croatianMobile2 = "385911234567"
    public static let dutchMobile = "31612345678"
    public static let usFixedOrMobile = "12015550123"
}
