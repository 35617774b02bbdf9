import BinderyTesting
import SeedApps
import Testing

@MainActor
@Suite struct InspectorCopiedTests {
    /// Copied from the inspector: the form, 3 steps.
    /// Only what this page sent is replayed; versions from elsewhere (other clients, the
    /// server's own work) are not.
    /// Sensitive input (`password`): the secret is replaced by a same-length stand-in
    /// made of "•", in the writes and in the expected values alike.
    @Test func formAsRecorded() async throws {
        let form = ViewModelTester(FormViewModel())
        try await form.write(["phone": "18612345678"]) {
            $0.inputs["phone"] = "18612345678"
            $0.outputs["output"] = "手机号:18612345678, 密码:"
            $0.outputs["phoneColor"] = "black"
            $0.outputs["phoneValid"] = true
        }
        try await form.write(["password": "••••••••"]) {
            $0.inputs["password"] = "••••••••"
            $0.outputs["output"] = "手机号:18612345678, 密码:••••••••"
            $0.outputs["passwordColor"] = "black"
            $0.outputs["passwordValid"] = true
            $0.commands["clear"]?.enabled = true
            $0.commands["signIn"]?.enabled = true
        }
        try form.execute("clear") {
            $0.inputs["password"] = ""
            $0.inputs["phone"] = "186"
            $0.outputs["output"] = "手机号:186, 密码:"
            $0.outputs["passwordColor"] = "red"
            $0.outputs["passwordValid"] = false
            $0.outputs["phoneColor"] = "red"
            $0.outputs["phoneValid"] = false
            $0.commands["clear"]?.enabled = false
            $0.commands["signIn"]?.enabled = false
        }
        form.finish()
    }
}
