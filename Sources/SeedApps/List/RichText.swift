import Bindery

/// Attributed text as plain data (seed 000's `NSAttributedString`): the whole text and the runs
/// it is drawn in, each with its own colour and, where it differs from the default, font size.
public struct RichText: Sendable, Hashable {
    /// One stretch of text drawn with the same attributes.
    public struct Run: Sendable, Hashable {
        /// The characters of the run.
        public var text: String
        /// The run's colour name (`"blue"`).
        public var color: String
        /// The run's font size in points; nil for the cell's default size.
        public var fontSize: Int?

        /// Creates a run.
        public init(text: String, color: String, fontSize: Int? = nil) {
            self.text = text
            self.color = color
            self.fontSize = fontSize
        }

        /// `{"text", "color"}` plus `"fontSize"` when set.
        public var json: JSONValue {
            var members: [String: JSONValue] = ["text": .string(text), "color": .string(color)]
            if let fontSize { members["fontSize"] = .int(fontSize) }
            return .object(members)
        }
    }

    /// The runs, in order; their texts joined give ``text``.
    public var runs: [Run]

    /// Creates rich text from its runs (empty runs are dropped).
    public init(runs: [Run]) {
        self.runs = runs.filter { !$0.text.isEmpty }
    }

    /// The whole text.
    public var text: String { runs.map(\.text).joined() }

    /// The shape of ``json``.
    public static let schema = Schema.named(
        "RichText",
        .object([
            "text": .text,
            "runs": .array(
                .named(
                    "RichTextRun",
                    .object(["text": .text, "color": .text, "fontSize": .int], required: ["color", "text"])
                )),
        ])
    )

    /// `{"text": "128.50", "runs": [...]}`.
    public var json: JSONValue {
        .object(["text": .string(text), "runs": .array(runs.map(\.json))])
    }
}
