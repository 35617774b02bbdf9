/// A change of a text, as ShareDB's json0 string operations write it: components applied one
/// after the other, each inserting (`{"p": 3, "si": "ab"}`) or deleting (`{"p": 3, "sd": "ab"}`)
/// at an offset counted in Unicode scalars of the text as the components before it left it.
///
/// Several users edit one text at once by operational transformation: an operation made on an
/// older revision is transformed against every operation applied since
/// (``transformed(against:side:)``), so it means what its author meant on the text as it is now.
package struct TextOperation: Hashable, Sendable {
    /// One insertion or deletion.
    package enum Component: Hashable, Sendable {
        /// Inserts `text` at scalar offset `at`.
        case insert(String, at: Int)
        /// Deletes `text`, which starts at scalar offset `at`.
        case delete(String, at: Int)

        /// The component's offset.
        package var offset: Int {
            switch self {
            case .insert(_, let at), .delete(_, let at): at
            }
        }

        /// The text it inserts or deletes.
        package var text: String {
            switch self {
            case .insert(let text, _), .delete(let text, _): text
            }
        }
    }

    /// The components, applied in order.
    package var components: [Component]

    /// An operation of `components`; empty ones (inserting or deleting "") are dropped and
    /// neighbours that continue each other are joined.
    package init(_ components: [Component] = []) {
        self.components = []
        for component in components { append(component) }
    }

    /// Whether the operation changes nothing.
    package var isEmpty: Bool { components.isEmpty }

    /// The text with the operation applied; throws when an offset is outside the text or a
    /// deletion names text that is not there.
    package func apply(to text: String) throws(TextOperationError) -> String {
        var scalars = Array(text.unicodeScalars)
        for (index, component) in components.enumerated() {
            switch component {
            case .insert(let inserted, let at):
                guard at >= 0, at <= scalars.count else { throw .offsetOutOfRange(component: index, length: scalars.count) }
                scalars.insert(contentsOf: inserted.unicodeScalars, at: at)
            case .delete(let deleted, let at):
                let removed = Array(deleted.unicodeScalars)
                guard at >= 0, at + removed.count <= scalars.count else {
                    throw .offsetOutOfRange(component: index, length: scalars.count)
                }
                guard scalars[at..<at + removed.count].elementsEqual(removed) else { throw .deletedTextDiffers(component: index) }
                scalars.removeSubrange(at..<at + removed.count)
            }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// The smallest operation that turns `old` into `new`: one deletion and one insertion between
    /// their common prefix and suffix (how a whole-value write is ordered like an edit).
    package static func difference(from old: String, to new: String) -> TextOperation {
        let before = Array(old.unicodeScalars)
        let after = Array(new.unicodeScalars)
        var prefix = 0
        while prefix < before.count, prefix < after.count, before[prefix] == after[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < before.count - prefix, suffix < after.count - prefix,
            before[before.count - 1 - suffix] == after[after.count - 1 - suffix]
        {
            suffix += 1
        }
        let deleted = string(before[prefix..<before.count - suffix])
        let inserted = string(after[prefix..<after.count - suffix])
        return TextOperation([.delete(deleted, at: prefix), .insert(inserted, at: prefix)])
    }

    /// Adds `component` at the end, joining it to the last one when it continues it (text0's
    /// `append`): an insertion inside the last insertion, a deletion around the last deletion.
    mutating func append(_ component: Component) {
        guard !component.text.isEmpty else { return }
        guard let last = components.last else {
            components.append(component)
            return
        }
        switch (last, component) {
        case (.insert(let lastText, let lastAt), .insert(let text, let at))
        where lastAt <= at && at <= lastAt + lastText.unicodeScalars.count:
            components[components.count - 1] = .insert(Self.inject(text, into: lastText, at: at - lastAt), at: lastAt)
        case (.delete(let lastText, let lastAt), .delete(let text, let at))
        where at <= lastAt && lastAt <= at + text.unicodeScalars.count:
            components[components.count - 1] = .delete(Self.inject(lastText, into: text, at: lastAt - at), at: at)
        default:
            components.append(component)
        }
    }

    /// `text` with `inserted` placed at scalar offset `offset`.
    static func inject(_ inserted: String, into text: String, at offset: Int) -> String {
        var scalars = Array(text.unicodeScalars)
        scalars.insert(contentsOf: inserted.unicodeScalars, at: offset)
        return string(scalars[...])
    }

    /// A string of `scalars`.
    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}

/// Why a ``TextOperation`` cannot be applied to a text.
package enum TextOperationError: Error, Hashable, Sendable {
    /// Component `component` reaches outside the text, which was `length` scalars long there.
    case offsetOutOfRange(component: Int, length: Int)
    /// Component `component` deletes text that is not what the text holds there.
    case deletedTextDiffers(component: Int)
    /// Two deletions of one region delete different text: the operations were not made on the
    /// same text.
    case overlappingDeletionsDiffer
}
