/// Operational transformation of text operations: a port of ShareDB's text0 type (ottypes/json0,
/// `lib/text0.js`), so Bindery's server and the browser client (`binder/textop.js`, the same
/// algorithm) agree on every result. Offsets are Unicode scalars, where text0 counts UTF-16 code
/// units: the client converts at its edge.
extension TextOperation {
    /// Which of two concurrent operations goes first where both insert at one offset: the
    /// server treats the operation it receives as `.left` against what it applied before, and a
    /// client its own pending operation as `.left` against what the server sends.
    package enum Side: Sendable {
        /// This operation's insertion goes before the other's.
        case left
        /// This operation's insertion goes after the other's.
        case right
    }

    /// This operation, made on the same text as `other`, rewritten to apply after `other`:
    /// `other` then the result gives the same text as this then `other.transformed(against:
    /// self, side: opposite)`.
    package func transformed(against other: TextOperation, side: Side) throws(TextOperationError) -> TextOperation {
        if other.isEmpty || isEmpty { return self }
        if components.count == 1, other.components.count == 1 {
            var result = TextOperation()
            try Self.transform(components[0], against: other.components[0], side: side, into: &result)
            return result
        }
        switch side {
        case .left: return try Self.transformX(self, other).left
        case .right: return try Self.transformX(other, self).right
        }
    }

    /// Where a position (a caret) moves when `self` is applied: past an insertion before it (or
    /// at it, with `insertAfter`), back over a deletion before it.
    package func transformPosition(_ position: Int, insertAfter: Bool = false) -> Int {
        components.reduce(position) { position, component in
            Self.transformPosition(position, against: component, insertAfter: insertAfter)
        }
    }

    static func transformPosition(_ position: Int, against component: Component, insertAfter: Bool) -> Int {
        switch component {
        case .insert(let text, let at):
            return at < position || (at == position && insertAfter) ? position + text.unicodeScalars.count : position
        case .delete(let text, let at):
            if position <= at { return position }
            let length = text.unicodeScalars.count
            return position <= at + length ? at : position - length
        }
    }

    /// text0's `transformComponent`: `component` rewritten to apply after `other`, appended to
    /// `result`.
    static func transform(
        _ component: Component, against other: Component, side: Side, into result: inout TextOperation
    ) throws(TextOperationError) {
        switch component {
        case .insert(let text, let at):
            result.append(.insert(text, at: transformPosition(at, against: other, insertAfter: side == .right)))
        case .delete(let text, let at):
            let scalars = Array(text.unicodeScalars)
            switch other {
            case .insert(let inserted, let insertedAt):
                // Delete around the insertion: the part before it, then the rest after it.
                var rest = scalars[...]
                if at < insertedAt {
                    let split = min(insertedAt - at, scalars.count)
                    result.append(.delete(string(scalars[..<split]), at: at))
                    rest = scalars[split...]
                }
                if !rest.isEmpty { result.append(.delete(string(rest), at: at + inserted.unicodeScalars.count)) }
            case .delete(let deleted, let deletedAt):
                let other = Array(deleted.unicodeScalars)
                if at >= deletedAt + other.count {
                    result.append(.delete(text, at: at - other.count))
                } else if at + scalars.count <= deletedAt {
                    result.append(component)
                } else {
                    // Overlapping deletions: delete only what the other did not.
                    let start = max(at, deletedAt)
                    let end = min(at + scalars.count, deletedAt + other.count)
                    guard scalars[(start - at)..<(end - at)].elementsEqual(other[(start - deletedAt)..<(end - deletedAt)]) else {
                        throw .overlappingDeletionsDiffer
                    }
                    var remaining = at < deletedAt ? Array(scalars[..<(deletedAt - at)]) : []
                    if at + scalars.count > deletedAt + other.count {
                        remaining += scalars[(deletedAt + other.count - at)...]
                    }
                    if !remaining.isEmpty {
                        let position = transformPosition(at, against: .delete(deleted, at: deletedAt), insertAfter: false)
                        result.append(.delete(string(remaining[...]), at: position))
                    }
                }
            }
        }
    }

    /// text0's `transformX`: both operations rewritten to apply after each other.
    static func transformX(
        _ left: TextOperation, _ right: TextOperation
    ) throws(TextOperationError) -> (left: TextOperation, right: TextOperation) {
        var leftComponents = left.components
        var newRight = TextOperation()
        for rightComponent in right.components {
            var carried: Component? = rightComponent
            var newLeft = TextOperation()
            var index = 0
            while index < leftComponents.count, let current = carried {
                var nextRight = TextOperation()
                try transform(leftComponents[index], against: current, side: .left, into: &newLeft)
                try transform(current, against: leftComponents[index], side: .right, into: &nextRight)
                index += 1
                switch nextRight.components.count {
                case 1:
                    carried = nextRight.components[0]
                case 0:
                    for component in leftComponents[index...] { newLeft.append(component) }
                    carried = nil
                default:
                    // The right component was split: transform the rest against both parts.
                    let (restLeft, restRight) = try transformX(TextOperation(Array(leftComponents[index...])), nextRight)
                    for component in restLeft.components { newLeft.append(component) }
                    for component in restRight.components { newRight.append(component) }
                    carried = nil
                    index = leftComponents.count
                }
            }
            if let carried { newRight.append(carried) }
            leftComponents = newLeft.components
        }
        return (TextOperation(leftComponents), newRight)
    }
}
