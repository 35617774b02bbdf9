/// The business rules of the form (seed 000 Demo 2), kept apart from the view model's wiring.
public enum FormRules {
    /// The phone field's initial and reset value.
    public static let initialPhone = "186"
    /// The password field's initial and reset value.
    public static let initialPassword = ""
    /// The shortest valid password.
    public static let minimumPasswordLength = 8

    /// Whether `phone` matches `^1(3[0-9]|5[0-35-9]|8[0-25-9])\d{8}$` (ASCII digits only).
    public static func isValidPhone(_ phone: String) -> Bool {
        phone.wholeMatch(of: /1(3[0-9]|5[0-35-9]|8[0-25-9])[0-9]{8}/) != nil
    }

    /// Whether `password` has at least ``minimumPasswordLength`` characters.
    public static func isValidPassword(_ password: String) -> Bool {
        password.count >= minimumPasswordLength
    }

    /// The text colour of a field: "black" when valid, "red" when not.
    public static func color(valid: Bool) -> String {
        valid ? "black" : "red"
    }
}
