/// The kind of film a recipe develops (seed 003's `ASHRecipeFilmType`).
///
/// JSON names: `colourNegative` (C-41), `colourSlide` (E-6), `blackAndWhite`, `blackAndWhiteSlide`.
/// A `null` written to a recipe's film type falls back to ``colourNegative``, as the seed's
/// `RACChannelTo(self, filmType, @(ASHRecipeFilmTypeColourNegative))` does.
public enum FilmType: String, Sendable, Hashable, CaseIterable, Codable {
    /// Colour negative film (C-41); the default.
    case colourNegative
    /// Colour slide (reversal) film (E-6).
    case colourSlide
    /// Black-and-white negative film.
    case blackAndWhite
    /// Black-and-white slide (reversal) film.
    case blackAndWhiteSlide

    /// What a `null` film type stands for.
    public static let fallback = FilmType.colourNegative
}
