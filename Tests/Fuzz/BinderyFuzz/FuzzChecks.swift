/// Every check, run on one input: part 0 is a body and a path, part 1 a second body and a
/// header value, part 2 a patch and a header value, part 3 a header value and a path.
enum FuzzChecks {
    static func run(_ bytes: [UInt8]) {
        let input = FuzzInput(bytes)
        let old = JSONChecks.check(input.parts[0])
        let new = JSONChecks.check(input.parts[1])
        let operations = input.parts[2].isEmpty ? nil : JSONChecks.check(input.parts[2])
        if let old, let new {
            PatchChecks.check(old: old, new: new, operations: operations)
        }
        for index in [0, 3] {
            PathChecks.check(input.text(index))
            StaticFileChecks.check(input.text(index))
        }
        for index in 1...3 {
            HeaderChecks.check(input.text(index))
        }
    }
}
