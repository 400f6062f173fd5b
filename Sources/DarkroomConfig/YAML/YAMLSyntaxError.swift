/// A document libyaml could not parse, or a YAML feature the config does not accept.
struct YAMLSyntaxError: Error, Sendable {
    var mark: SourceMark
    var message: String
}
