extension RenderStats {
    /// A render that ran no pipeline: the file recoded whole by its encoder (a JPEG transcoded
    /// into JPEG XL), all of its wall time the encoder's.
    public static func encodedWhole(seconds: Double) -> RenderStats {
        RenderStats(nodes: [], peakPixelBytes: 0, decodeSeconds: 0, encodeSeconds: seconds, seconds: seconds)
    }
}
