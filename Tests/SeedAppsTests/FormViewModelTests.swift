import SeedApps
import BinderyRuntime
import BinderyTesting
import Foundation
import Testing

@MainActor
@Suite("Form view model (seed 000 Demo 2)")
struct FormViewModelTests {
    /// The seed's `testVerifyPhone`: the view sends a phone, the view model writes one back,
    /// and a short password is invalid. Every member that changes is asserted.
    @Test func testVerifyPhone() async throws {
        let form = ViewModelTester(FormViewModel())

        try await form.write(["phone": "18612345678"]) {
            $0.inputs["phone"] = "18612345678"
            $0.outputs["output"] = "手机号:18612345678, 密码:"
            $0.outputs["phoneValid"] = true
            $0.outputs["phoneColor"] = "black"
        }
        form.model.phone = "13810001000"
        try await form.write([:]) {
            $0.inputs["phone"] = "13810001000"
            $0.outputs["output"] = "手机号:13810001000, 密码:"
        }
        try await form.write(["password": "1234"]) {
            $0.inputs["password"] = "1234"
            $0.outputs["output"] = "手机号:13810001000, 密码:1234"
        }
        #expect(form.state.outputs["passwordValid"] == false)
        form.finish()
    }

    /// The seed's `testClearCommand`: with both fields valid, clear resets them, and is then
    /// disabled again.
    @Test func testClearCommand() async throws {
        let form = ViewModelTester(FormViewModel())
        try await form.enterValid(phone: "18612345678", password: "passw0rd")

        let result = try form.execute("clear") {
            $0.inputs = ["phone": "186", "password": ""]
            $0.outputs["output"] = "手机号:186, 密码:"
            $0.outputs["phoneValid"] = false
            $0.outputs["phoneColor"] = "red"
            $0.outputs["passwordValid"] = false
            $0.outputs["passwordColor"] = "red"
            $0.commands["clear"]?.enabled = false
            $0.commands["signIn"]?.enabled = false
        }

        #expect(try result?.get() == CommandResult.none)
        form.refuse("clear", with: .commandDisabled(name: "clear"))
        form.finish()
    }

    @Test func initialStateIsTheSeeds() {
        _ = ViewModelTester(FormViewModel()) { state in
            #expect(state.inputs == ["phone": "186", "password": ""])
            #expect(
                state.outputs == [
                    "output": "手机号:186, 密码:",
                    "phoneValid": false,
                    "passwordValid": false,
                    "phoneColor": "red",
                    "passwordColor": "red",
                    "signedInAs": nil,
                ])
            #expect(
                state.commands == [
                    "clear": .init(enabled: false, executing: false, error: nil, policy: "serial"),
                    "signIn": .init(enabled: false, executing: false, error: nil, policy: "serial"),
                ])
        }
    }

    @Test func badWritesAreRefusedByTheDeclarationAndChangeNothing() async {
        let form = ViewModelTester(FormViewModel())
        await form.refuseWrite(["phone": 42], with: .invalidInput(name: "phone", reason: "expected a string, got number"))
        await form.refuseWrite(
            ["phone": .string(String(repeating: "1", count: 65))],
            with: .invalidInput(name: "phone", reason: "longer than 64 characters")
        )
        await form.refuseWrite(["password": "x", "nope": 1], with: .unknownInput(name: "nope"))
        await form.refuseWrite(["password"], with: .patchNotAnObject)
        form.refuse("clear", ["x": 1], with: .invalidArgument(command: "clear", reason: "this command takes no argument"))
        form.finish()
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
        #expect(!model.isEnabled("clear"))
        await #expect(throws: ViewModelError.commandDisabled(name: "clear")) { try await model.execute("clear") }
        #expect(model.phone == "18612345678")
        model.password = "12345678"
        #expect(model.passwordColor == "black")
        #expect(model.isEnabled("clear"))
        #expect(model.output == "手机号:18612345678, 密码:12345678")
    }
}
