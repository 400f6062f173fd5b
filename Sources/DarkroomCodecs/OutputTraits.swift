/// What a render's output holds, as far as the encoder's layout is concerned: known from the
/// pipeline before any pixel is computed.
public struct OutputTraits: Sendable, Equatable {
    /// Some pixels may be transparent (PNG keeps an alpha channel; JPEG flattens on white).
    public var alpha: Bool
    /// Every pixel has R = G = B (the file is written with one colour channel).
    public var grey: Bool
    /// The source had 16 bits a sample (the PNG default depth follows it).
    public var sixteenBitSource: Bool
    /// The source was an indexed (palette) PNG: a PNG output is written indexed again when its
    /// colours still fit in 256 entries.
    public var paletteSource: Bool

    public init(alpha: Bool, grey: Bool = false, sixteenBitSource: Bool = false, paletteSource: Bool = false) {
        self.alpha = alpha
        self.grey = grey
        self.sixteenBitSource = sixteenBitSource
        self.paletteSource = paletteSource
    }
}
