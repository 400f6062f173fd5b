extension Image {
    /// Creates an image whose every pixel `initialize` writes into the uninitialised buffer:
    /// the one place large pixel buffers are allocated, so that no stage pays for zero-filling
    /// memory it is about to overwrite.
    ///
    /// (No transparent-huge-page advice: it cuts page faults, but the kernel then compacts
    /// memory synchronously to find huge pages, which makes a render's time erratic.)
    package init(width: Int, height: Int, initializingWith initialize: (UnsafeMutableBufferPointer<Pixel>) -> Void) {
        let count = width * height
        let pixels = [Pixel](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialize(buffer)
            initialized = count
        }
        self.init(width: width, height: height, pixels: pixels)
    }
}
