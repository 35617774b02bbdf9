import BinderyRuntime

extension JSONValue {
    /// An object's member, for editing nested outputs in a step: `$0.outputs["photo"]?[member: "loading"] = true`.
    ///
    /// Reads nil from anything but an object; setting it on anything but an object does nothing.
    public subscript(member name: String) -> JSONValue? {
        get { objectValue?[name] }
        set {
            guard var object = objectValue else { return }
            object[name] = newValue
            self = .object(object)
        }
    }
}
