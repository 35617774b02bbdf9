/// The recipes a book starts with when its store holds none (first start).
///
/// C-41: Kodak's Flexicolor developer time (3:15 at 37.8 °C) with a blix kit's usual blix, wash
/// and stabiliser times. D-76: Kodak's datasheet time for Tri-X 400 in stock D-76 at 20 °C.
public enum FirstStartRecipes {
    /// The C-41 colour negative process and a black-and-white D-76 process.
    public static let all: [Recipe] = [c41, d76]

    /// C-41 colour negative, blix variant.
    public static let c41 = Recipe(
        id: "c41",
        name: "C-41 colour negative",
        blurb: "The standard colour negative process with a combined bleach-fix (blix).",
        filmType: .colourNegative,
        steps: [
            Step(name: "Developer", durationSeconds: 195, temperatureCelsius: 37.8, agitation: "First 10 s continuous, then 2 inversions every 15 s"),
            Step(name: "Blix", durationSeconds: 390, temperatureCelsius: 37.8, agitation: "First 10 s continuous, then 4 inversions every 30 s"),
            Step(name: "Wash", durationSeconds: 180, temperatureCelsius: 37.8, agitation: "Running water"),
            Step(name: "Stabiliser", durationSeconds: 60, temperatureCelsius: nil, agitation: "Gentle, first 15 s"),
        ]
    )

    /// Kodak Tri-X 400 in D-76 stock.
    public static let d76 = Recipe(
        id: "d76",
        name: "D-76 Tri-X 400",
        blurb: "Kodak Tri-X 400 in D-76 stock solution.",
        filmType: .blackAndWhite,
        steps: [
            Step(name: "Developer", durationSeconds: 405, temperatureCelsius: 20, agitation: "First 30 s continuous, then 5 s every 30 s"),
            Step(name: "Stop bath", durationSeconds: 30, temperatureCelsius: 20, agitation: "Continuous"),
            Step(name: "Fixer", durationSeconds: 300, temperatureCelsius: 20, agitation: "First 30 s continuous, then 5 s every 30 s"),
            Step(name: "Wash", durationSeconds: 600, temperatureCelsius: 20, agitation: "Running water"),
        ]
    )
}
