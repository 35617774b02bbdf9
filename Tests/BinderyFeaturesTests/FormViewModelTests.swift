import Foundation
import BinderyFeatures
import BinderyRuntime
import Testing

@MainActor
@Suite("Form view model (seed 000 Demo 2)")
struct FormViewModelTests {
    /// The seed's `testVerifyPhone`: the view sends a phone, the view model writes one back,
    /// and a short password is invalid.
    @Test func testVerifyPhone() throws {
        let model = FormViewModel()
        let phone = try #require(model.inputs.first { $0.name == "phone" })
        try phone.prepare("18612345678")()
        #expect(model.phoneValid)

        model.phone = "13810001000"
        #expect(phone.value == "13810001000")

        model.password = "1234"
        #expect(!model.passwordValid)
    }

    /// The seed's `testClearCommand`: with both fields valid, clear resets them.
    @Test func testClearCommand() async throws {
        let model = FormViewModel()
        model.phone = "18612345678"
        #expect(model.phone == "18612345678")
        model.password = "passw0rd"
        #expect(model.password == "passw0rd")

        let result = try await model.clear.execute()

        #expect(try result.get() == .none)
        #expect(model.phone == "186")
        #expect(model.password == "")
    }

    @Test func initialStateIsTheSeeds() {
        let model = FormViewModel()
        #expect(model.outputs == [
            "output": "手机号:186, 密码:",
            "phoneValid": false,
            "passwordValid": false,
            "phoneColor": "red",
            "passwordColor": "red",
        ])
        #expect(!model.clear.isEnabled)
    }

    @Test(arguments: [
        ("13012345678", true), ("15912345678", true), ("15412345678", false), ("18412345678", false),
        ("18612345678", true), ("1861234567", false), ("186123456789", false), ("28612345678", false),
        ("1861234567a", false), ("186١٢٣٤٥٦٧٨", false), ("", false), ("18312345678", false),
        ("18512345678", true), ("15312345678", true), ("14012345678", false), ("１8612345678", false),
    ])
    func phoneRule(phone: String, valid: Bool) {
        #expect(FormRules.isValidPhone(phone) == valid)
    }

    /// The hand-written check agrees with the seed's regular expression on every 3-digit prefix.
    @Test func phoneRuleMatchesTheSeedsRegex() {
        let seed = /1(3[0-9]|5[0-35-9]|8[0-25-9])[0-9]{8}/
        for prefix in 0..<1000 {
            for phone in [String(format: "%03d12345678", prefix), String(format: "%03d1234567", prefix)] {
                #expect(FormRules.isValidPhone(phone) == (phone.wholeMatch(of: seed) != nil), "\(phone)")
            }
        }
    }

    @Test func coloursAndEnabledFollowValidity() async throws {
        let model = FormViewModel()
        model.phone = "18612345678"
        #expect(model.phoneColor == "black")
        #expect(model.passwordColor == "red")
        #expect(!model.clear.isEnabled)
        await #expect(throws: ViewModelError.commandDisabled(name: "clear")) { try await model.clear.execute() }
        #expect(model.phone == "18612345678")
        model.password = "12345678"
        #expect(model.passwordColor == "black")
        #expect(model.clear.isEnabled)
        #expect(model.output == "手机号:18612345678, 密码:12345678")
    }
}
