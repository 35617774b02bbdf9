import BinderyRuntime

/// JSON Patch (what event streams send) and the three-way merge of a command's end, on values
/// the fuzzer made.
enum PatchChecks {
    /// `old` and `new`: two accepted bodies; `operations`: a third one, applied as a patch.
    static func check(old: JSONValue, new: JSONValue, operations: JSONValue?) {
        // A diff applied to the value it starts from gives the other value; no change, no operation.
        let patch = JSONPatch.diff(from: old, to: new)
        expect(patch.isEmpty == (old == new), "diff of \(excerpt(old)) and \(excerpt(new)) is \(excerpt(patch))")
        do {
            let applied = try JSONPatch.apply(patch, to: old)
            expect(applied == new, "diff \(excerpt(patch)) applied to \(excerpt(old)) gives \(excerpt(applied))")
        } catch {
            expect(false, "diff \(excerpt(patch)) does not apply to \(excerpt(old)): \(error.reason)")
        }
        checkVersioned(old: old, new: new)
        checkMerge(base: old, local: new, remote: operations ?? .null)
        // Any patch (a third body) either applies or throws: it never traps.
        if let operations = operations?.arrayValue {
            _ = try? JSONPatch.apply(operations, to: old)
        }
    }

    /// A versioned patch applies to the snapshot at its base version only.
    private static func checkVersioned(old: JSONValue, new: JSONValue) {
        guard var before = old.objectValue, var after = new.objectValue else { return }
        before["version"] = .int(1)
        after["version"] = .int(2)
        let patch = JSONPatch.between(base: 1, .object(before), version: 2, .object(after))
        expect(
            (try? JSONPatch.apply(patch, to: .object(before))) == .object(after),
            "versioned patch \(excerpt(patch)) does not turn \(excerpt(before)) into \(excerpt(after))")
        before["version"] = .int(3)
        expect(
            (try? JSONPatch.apply(patch, to: .object(before))) == nil,
            "versioned patch \(excerpt(patch)) applies to another version")
    }

    /// `merge`: members `local` changed from `base` win, the others are `remote`'s.
    private static func checkMerge(base: JSONValue, local: JSONValue, remote: JSONValue) {
        let merged = JSONValue.merge(base: base, local: local, remote: remote)
        guard let mine = local.objectValue, let theirs = remote.objectValue else {
            expect(merged == local, "merge with a non-object is not local")
            return
        }
        let before = base.objectValue ?? [:]
        let result = merged.objectValue ?? [:]
        for name in Set(mine.keys).union(theirs.keys).union(before.keys) {
            let expected = before[name] != mine[name] ? mine[name] : theirs[name]
            expect(result[name] == expected, "merge of member \(excerpt(name)) gives \(excerpt(result[name] as Any))")
        }
        // Nobody else wrote: the command's own result stands.
        expect(
            JSONValue.merge(base: base, local: local, remote: base) == local,
            "merge over an unchanged remote is not local")
    }
}
