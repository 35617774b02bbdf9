extension JSONValue {
    /// A three-way merge by top-level member: starting from `remote`, every member `local`
    /// changed from `base` (set, changed or removed) takes `local`'s value. A `local` or `remote`
    /// that is not an object is not merged: `local` is returned whole.
    ///
    /// A command's end that another node's write overtook is applied again with it: the members
    /// the command changed win, the others keep the other node's values.
    package static func merge(base: JSONValue?, local: JSONValue, remote: JSONValue) -> JSONValue {
        guard case .object(let mine) = local, case .object(var merged) = remote else { return local }
        let before = base?.objectValue ?? [:]
        for (member, value) in mine where before[member] != value { merged[member] = value }
        for member in before.keys where mine[member] == nil { merged[member] = nil }
        return .object(merged)
    }
}
