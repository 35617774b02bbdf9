import Bindery

/// A development recipe (seed 003's `ASHRecipe`): a name, a blurb, the film it develops and its
/// ordered steps, and who made it. Shared by every session through the ``RecipeBook``.
///
/// Its name, blurb and each step's name and agitation note are collaborative texts: several
/// users type into them at once and every keystroke is kept.
public struct Recipe: SharedRecord, Identifiable {
    /// A stable id, also the recipe's path segment (`recipes/<id>`).
    public var id: String
    /// The recipe's name.
    public var name: String
    /// A short description.
    public var blurb: String
    /// The film it develops.
    public var filmType: FilmType
    /// The steps, in the order they run; every one has an id no other step of the recipe has.
    public var steps: [Step] {
        didSet { Self.numberUnnamedSteps(&steps) }
    }
    /// Starts at 1 and grows by 1 with every committed change.
    public var version: Int
    /// The id of the user who made it; nil for the recipes seeded at first start (nobody's).
    public var owner: String?
    /// That user's name, as the list shows it.
    public var ownerName: String?

    /// Creates a recipe; steps without an id get `s1`, `s2`… by position.
    public init(
        id: String, name: String, blurb: String = "", filmType: FilmType = .fallback, steps: [Step] = [], version: Int = 1,
        owner: String? = nil, ownerName: String? = nil
    ) {
        self.id = id
        self.name = name
        self.blurb = blurb
        self.filmType = filmType
        self.steps = steps
        self.version = version
        self.owner = owner
        self.ownerName = ownerName
        Self.numberUnnamedSteps(&self.steps)
    }

    /// Reads a recipe; steps stored without ids get `s1`, `s2`… by position, the same on every read.
    /// A recipe stored before recipes had owners is nobody's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            blurb: try container.decode(String.self, forKey: .blurb),
            filmType: try container.decode(FilmType.self, forKey: .filmType),
            steps: try container.decode([Step].self, forKey: .steps), version: try container.decode(Int.self, forKey: .version),
            owner: try container.decodeIfPresent(String.self, forKey: .owner),
            ownerName: try container.decodeIfPresent(String.self, forKey: .ownerName)
        )
    }

    /// The index of the step `id`, if the recipe has it.
    public func stepIndex(id: String) -> Int? {
        steps.firstIndex { $0.id == id }
    }

    /// `name`, `blurb`, and `steps/<id>/name` and `steps/<id>/agitation` of every step.
    public var collaborativeTexts: [String: String] {
        var texts = ["name": name, "blurb": blurb]
        for step in steps {
            texts["steps/\(step.id)/name"] = step.name
            texts["steps/\(step.id)/agitation"] = step.agitation
        }
        return texts
    }

    /// Sets one of ``collaborativeTexts``.
    public mutating func setCollaborativeText(_ key: String, to value: String) -> Bool {
        switch key {
        case "name": name = value
        case "blurb": blurb = value
        default:
            let parts = key.split(separator: "/")
            guard parts.count == 3, parts[0] == "steps", let index = stepIndex(id: String(parts[1])) else { return false }
            switch parts[2] {
            case "name": steps[index].name = value
            case "agitation": steps[index].agitation = value
            default: return false
            }
        }
        return true
    }

    /// Gives every step without an id (or with one an earlier step has) the first free `s<n>`.
    private static func numberUnnamedSteps(_ steps: inout [Step]) {
        var taken = Set<String>()
        for index in steps.indices {
            guard steps[index].id.isEmpty || taken.contains(steps[index].id) else {
                taken.insert(steps[index].id)
                continue
            }
            var number = index + 1
            while taken.contains("s\(number)") || steps.contains(where: { $0.id == "s\(number)" }) { number += 1 }
            steps[index].id = "s\(number)"
            taken.insert(steps[index].id)
        }
    }
}
