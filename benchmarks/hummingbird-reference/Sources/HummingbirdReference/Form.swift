import Foundation

/// One session's form, as Bindery's `FormViewModel` holds it: the two inputs and a version.
struct Form: Sendable {
    var phone = "186"
    var password = ""
    var version = 1

    /// The snapshot Bindery serves at `GET /api/views/form`, derived here on every call.
    var snapshot: FormSnapshot {
        let phoneValid = Self.isValidPhone(phone)
        let passwordValid = password.count >= 8
        return FormSnapshot(
            active: false,
            commands: ["clear": .init(enabled: phoneValid && passwordValid, error: nil, executing: false, policy: "serial")],
            inputs: .init(password: password, phone: phone),
            outputs: .init(
                output: "手机号:\(phone), 密码:\(password)",
                passwordColor: passwordValid ? "black" : "red",
                passwordValid: passwordValid,
                phoneColor: phoneValid ? "black" : "red",
                phoneValid: phoneValid
            ),
            path: "form",
            version: version
        )
    }

    /// `^1(3[0-9]|5[0-35-9]|8[0-25-9])\d{8}$`, written out as Bindery's `FormRules` does.
    static func isValidPhone(_ phone: String) -> Bool {
        let digits = Array(phone.utf8)
        guard digits.count == 11, digits.allSatisfy({ (48...57).contains($0) }), digits[0] == 49 else { return false }
        let second = digits[1] - 48, third = digits[2] - 48
        switch second {
        case 3: return true
        case 5: return third != 4
        case 8: return third != 3 && third != 4
        default: return false
        }
    }
}

/// The JSON of the form's snapshot; encoded with sorted keys it is byte for byte Bindery's.
struct FormSnapshot: Encodable, Sendable {
    struct CommandState: Encodable, Sendable {
        var enabled: Bool
        var error: String?
        var executing: Bool
        var policy: String

        enum CodingKeys: String, CodingKey { case enabled, error, executing, policy }

        /// Writes `"error": null` as Bindery does (synthesised Codable would leave it out).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(enabled, forKey: .enabled)
            try container.encode(error, forKey: .error)
            try container.encode(executing, forKey: .executing)
            try container.encode(policy, forKey: .policy)
        }
    }

    struct Inputs: Codable, Sendable {
        var password: String
        var phone: String
    }

    struct Outputs: Encodable, Sendable {
        var output: String
        var passwordColor: String
        var passwordValid: Bool
        var phoneColor: String
        var phoneValid: Bool
    }

    var active: Bool
    var commands: [String: CommandState]
    var inputs: Inputs
    var outputs: Outputs
    var path: String
    var version: Int
}

/// A JSON merge patch of the form's inputs: a member present replaces the input.
struct FormPatch: Decodable, Sendable {
    var phone: String?
    var password: String?
}
