extension String {
    /// The NUL-terminated message a C shim wrote into `buffer`, one line (libraries such as
    /// libxml2 end theirs with a newline).
    init(cMessage buffer: [CChar]) {
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self = text.split(whereSeparator: \.isNewline).map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(separator: " ")
            .trimmingSuffix()
    }
}

private extension String {
    func trimmingSuffix() -> String { String(reversed().drop(while: \.isWhitespace).reversed()) }
}
