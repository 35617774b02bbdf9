import BinderyRuntime
import BinderyTesting
import SeedApps
import Testing

extension ViewModelTester where Model == FormViewModel {
    /// Types a valid phone number and password into the empty form, asserting what follows: both
    /// fields valid and black, the output line, `clear` and `signIn` enabled.
    func enterValid(
        phone: String, password: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await write(["phone": .string(phone), "password": .string(password)], sourceLocation: sourceLocation) {
            $0.inputs = ["phone": .string(phone), "password": .string(password)]
            $0.outputs["output"] = .string("手机号:\(phone), 密码:\(password)")
            $0.outputs["phoneValid"] = true
            $0.outputs["phoneColor"] = "black"
            $0.outputs["passwordValid"] = true
            $0.outputs["passwordColor"] = "black"
            $0.commands["clear"]?.enabled = true
            $0.commands["signIn"]?.enabled = true
        }
    }
}
