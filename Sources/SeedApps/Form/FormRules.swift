/// The business rules of the form (seed 000 Demo 2), kept apart from the view model's wiring.
public enum FormRules {
    /// The phone field's initial and reset value.
    public static let initialPhone = "186"
    /// The password field's initial and reset value.
    public static let initialPassword = ""
    /// The shortest valid password.
    public static let minimumPasswordLength = 8

    /// Whether `phone` matches `^1(3[0-9]|5[0-35-9]|8[0-25-9])\d{8}$` (ASCII digits only).
    ///
    /// Written out by hand: it runs on every render of the form, and a `Regex` cost ~1000× more.
    public static func isValidPhone(_ phone: String) -> Bool {
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

    /// Whether `password` has at least ``minimumPasswordLength`` characters.
    public static func isValidPassword(_ password: String) -> Bool {
        password.count >= minimumPasswordLength
    }

    /// Every colour a field's text may have.
    public static let colors = ["red", "black"]

    /// The text colour of a field: "black" when valid, "red" when not.
    public static func color(valid: Bool) -> String {
        valid ? "black" : "red"
    }
}
