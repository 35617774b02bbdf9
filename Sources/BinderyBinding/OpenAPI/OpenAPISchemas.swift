import BinderyRuntime

/// The schemas of the fixed routes (`components/schemas`): problems, sessions, health and the
/// screen catalogue. View models' schemas come from their declarations.
enum OpenAPISchemas {
    /// Every fixed schema, by name.
    static var all: [String: JSONValue] {
        [
            "Problem": problem,
            "SessionCreated": object([
                "token": [
                    "type": "string", "pattern": "^[0-9a-f]{32}$", "description": "128-bit secret, hex.",
                ]
            ]),
            "Health": object(["status": ["type": "string", "const": "ok"]]),
            "ScreenCatalog": object(["views": ["type": "array", "items": OpenAPI.schema("Screen")]]),
            "Screen": screen,
            "ChildRoute": childRoute,
        ]
    }

    /// An RFC 9457 problem with Bindery's extension members.
    private static var problem: JSONValue {
        var schema =
            object(
                [
                    "type": ["type": "string", "description": "Always `about:blank`: the status and title say it all."],
                    "title": OpenAPI.string,
                    "status": ["type": "integer", "minimum": 100, "maximum": 599],
                    "detail": ["type": "string", "description": "What was wrong, in words."],
                    "field": [
                        "type": "string",
                        "description": .string(
                            "The offending input (view models) or the dotted path of the offending setting "
                                + "(`endpoints.travel.failureRate`; empty when the whole document is wrong)."
                        ),
                    ],
                    "fields": [
                        "type": "array", "items": ["type": "string"],
                        "description": "A refused conditional write (412): the inputs it writes that changed since the version `If-Match` names.",
                    ],
                    "command": ["type": "string", "description": "The command the problem is about."],
                    "code": [
                        "type": "string",
                        "description": "The upstream's error code, as a string (`\"500\"`), when a command's work failed upstream.",
                    ],
                ],
                required: ["type", "title", "status"]
            ).objectValue ?? [:]
        schema["description"] = "An RFC 9457 problem. `field`, `command` and `code` appear only where they apply."
        return .object(schema)
    }

    /// One screen of the catalogue.
    private static var screen: JSONValue {
        object([
            "name": ["type": "string", "description": "The screen's name (`form`)."],
            "path": ["type": "string", "description": "The root view model's path (`form`)."],
            "title": OpenAPI.string,
            "url": ["type": "string", "description": "The thin client's page (`/form`)."],
            "api": ["type": "string", "description": "The snapshot's URL (`/api/views/form`)."],
            "viewModel": ["type": "string", "description": "The root view model's type (`Form`)."],
            "sensitiveInputs": sensitiveInputs,
            "latencyBudgets": latencyBudgets,
            "children": ["type": "array", "items": OpenAPI.schema("ChildRoute")],
            "readAccess": access("Who may read the screen (its snapshot, events, versions) and everything below it."),
            "writeAccess": access("Who may write the screen's inputs and run its commands."),
        ])
    }

    /// An access rule as the catalogue shows it.
    private static func access(_ description: String) -> JSONValue {
        var schema =
            object([
                "signIn": ["type": "boolean", "description": "Whether a signed-in user is needed."],
                "roles": [
                    "type": "array", "items": ["type": "string"],
                    "description": "The roles accepted (any one); empty: any signed-in user, if `signIn`.",
                ],
                "conditional": ["type": "boolean", "description": "Whether the rule also depends on the view model itself."],
            ]).objectValue ?? [:]
        schema["description"] = .string(description)
        return .object(schema)
    }

    /// The names of a view model's secret inputs, which tools mask.
    private static let sensitiveInputs: JSONValue = [
        "type": "array", "items": ["type": "string"],
        "description": "The inputs declared sensitive (a password): tools such as the inspector mask their values.",
    ]

    /// A view model's declared latency budgets.
    private static let latencyBudgets: JSONValue = [
        "type": "array",
        "items": object([
            "measure": ["type": "string", "enum": ["write_to_commit", "write_to_push"]],
            "limitMs": ["type": "number", "minimum": 0, "description": "The longest a write may take, in milliseconds."],
            "percentile": [
                "type": "number", "minimum": 0, "maximum": 100,
                "description": "The share of writes that must keep the limit, in percent (99: p99).",
            ],
        ]),
        "description": "Writes slower than a budget's limit are breaches, counted per screen in `/metrics`.",
    ]

    /// One child route of the catalogue, e.g. `list/items/{id}`.
    private static var childRoute: JSONValue {
        object(
            [
                "name": ["type": "string", "description": "The route's name, which also names its page template (`item`)."],
                "title": OpenAPI.string,
                "titleMember": ["type": "string", "description": "The output whose value titles the child's page."],
                "pattern": ["type": "string", "description": "The full pattern (`list/items/{id}`)."],
                "url": ["type": "string", "description": "The pages' URL pattern (`/list/items/{id}`)."],
                "api": ["type": "string", "description": "The snapshots' URL pattern (`/api/views/list/items/{id}`)."],
                "viewModel": ["type": "string", "description": "The child view model's type (`ItemCell`)."],
                "sensitiveInputs": sensitiveInputs,
                "latencyBudgets": latencyBudgets,
                "parameters": [
                    "type": "object", "additionalProperties": ["type": "object"],
                    "description": "The JSON Schema of each parameter of the pattern.",
                ],
                "readAccess": access("Who may read the child view model: its own rule and its parents'."),
                "writeAccess": access("Who may write the child view model's inputs and run its commands."),
            ],
            required: [
                "name", "title", "pattern", "url", "api", "viewModel", "sensitiveInputs", "latencyBudgets", "parameters",
                "readAccess", "writeAccess",
            ]
        )
    }

    /// A closed object schema; every member is required unless `required` says otherwise.
    static func object(_ properties: [String: JSONValue], required: [String]? = nil) -> JSONValue {
        OpenAPI.object(properties, required: required)
    }
}
