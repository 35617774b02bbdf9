import BinderyRuntime
import Observation

/// The login form of seed 000 Demo 2 (`Demo2ViewModel`): a phone number and a password,
/// validated as the user types, with a `clear` command enabled only while both are valid.
@Observable
public final class FormViewModel: ViewModel {
    /// The phone number the client typed (two-way); starts as the seed's "186".
    public var phone = FormRules.initialPhone
    /// The password the client typed (two-way); starts empty.
    public var password = FormRules.initialPassword

    /// Resets both fields; enabled only while both are valid.
    @ObservationIgnored public private(set) lazy var clear = Command(
        "clear",
        enabled: { [unowned self] in phoneValid && passwordValid },
        immediate: { [unowned self] in
            phone = FormRules.initialPhone
            password = FormRules.initialPassword
            return .none
        }
    )

    /// Creates the form with the seed's initial values.
    public init() {}

    /// The seed's echo line: `手机号:<phone>, 密码:<password>`.
    public var output: String { "手机号:\(phone), 密码:\(password)" }
    /// Whether the phone number is a mainland mobile number the seed accepts.
    public var phoneValid: Bool { FormRules.isValidPhone(phone) }
    /// Whether the password has at least eight characters.
    public var passwordValid: Bool { FormRules.isValidPassword(password) }
    /// The phone field's text colour: red while invalid, black once valid.
    public var phoneColor: String { FormRules.color(valid: phoneValid) }
    /// The password field's text colour: red while invalid, black once valid.
    public var passwordColor: String { FormRules.color(valid: passwordValid) }

    /// `phone` and `password`.
    public var inputs: [Input] {
        [.string("phone", of: self, \.phone, maxLength: 64), .string("password", of: self, \.password, maxLength: 256)]
    }

    /// The echo line, both validity flags and both colours.
    public var outputs: [String: JSONValue] {
        [
            "output": .string(output),
            "phoneValid": .bool(phoneValid),
            "passwordValid": .bool(passwordValid),
            "phoneColor": .string(phoneColor),
            "passwordColor": .string(passwordColor),
        ]
    }

    /// `clear`.
    public var commands: [Command] { [clear] }
}
