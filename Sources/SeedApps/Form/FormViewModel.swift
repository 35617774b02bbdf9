import Bindery
import Observation

/// The login form of seed 000 Demo 2 (`Demo2ViewModel`): a phone number and a password,
/// validated as the user types, with a `clear` command enabled only while both are valid, and
/// `signIn`, which signs the session in for real (the accounts service of the upstream checks
/// them).
@Observable
public final class FormViewModel: ViewModel {
    /// The phone number the client typed (two-way); starts as the seed's "186".
    public var phone = FormRules.initialPhone
    /// The password the client typed (two-way); starts empty. Sensitive: never stored.
    public var password = FormRules.initialPassword
    /// The live state of `clear` and `signIn`.
    public let commandStates = CommandStates()
    /// Who the session is.
    @ObservationIgnored public let viewer: Viewer

    /// Creates the form with the seed's initial values, for `viewer`'s session.
    public init(viewer: Viewer = Viewer()) {
        self.viewer = viewer
    }

    /// The name of the user the session is signed in as, or nil.
    public var signedInAs: String? { viewer.user?.name }

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

    /// Resets both fields to their initial values (the seed's `clearCommand`).
    public func clear() {
        phone = FormRules.initialPhone
        password = FormRules.initialPassword
    }

    /// Inputs `phone` and `password`; the echo line, validity flags and colours, who is signed in;
    /// `clear` and `signIn`; writes pushed to watchers within 25 ms (p99).
    public static let declaration = ViewModelDeclaration<FormViewModel>(
        "Form",
        summary: "The login form (seed 000 Demo 2): a phone number and a password, validated as you type, that signs you in.",
        inputs: [
            .string("phone", \.phone, maxLength: 64),
            .string("password", \.password, maxLength: 256).sensitive(),
        ],
        outputs: [
            .string("output") { $0.output },
            .boolean("phoneValid") { $0.phoneValid },
            .boolean("passwordValid") { $0.passwordValid },
            .enumeration("phoneColor", FormRules.colors) { $0.phoneColor },
            .enumeration("passwordColor", FormRules.colors) { $0.passwordColor },
            .optionalString("signedInAs") { $0.signedInAs },
        ],
        commands: [
            .immediate(
                "clear", summary: "Resets both fields; enabled only while both are valid.",
                enabled: { $0.phoneValid && $0.passwordValid },
                run: { model, _ in
                    model.clear()
                    return .none
                }
            ),
            .signIn(
                "signIn", summary: "Signs the session in with the phone number and password; enabled while both are valid.",
                enabled: { $0.phoneValid && $0.passwordValid }, refusal: "Wrong phone number or password.",
                credentials: { Credentials(username: $0.phone, password: $0.password) },
                // The password has done its job: it does not stay in the form.
                signedIn: { model, _ in model.password = FormRules.initialPassword }
            ),
        ]
    )
    .latencyBudget(.writeToPush(.milliseconds(25)))
}
