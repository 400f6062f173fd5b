extension String {
    /// The NUL-terminated message a C shim wrote into `buffer`.
    init(cMessage buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
