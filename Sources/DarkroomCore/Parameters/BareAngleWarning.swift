import Foundation

/// A bare number is an angle in radians, so `rotate: {angle: 90}` turns an image by 90 radians
/// (about 5157°), which nobody writing a config means. Beyond a full turn a bare number is
/// almost surely degrees without their `deg`: `darkroom check` and `darkroom process` warn.
extension ParameterDescriptor {
    /// One warning for each angle inside `raw` (in records and sub-chains too) written as a bare
    /// number beyond 2π, located as a ``ParameterError`` is (the config reader follows it to the
    /// line and column). Sub-chain steps are looked up in `registry`.
    package func bareAngleWarnings(_ raw: RawValue, registry: FilterRegistry) -> [ParameterError] {
        switch (kind, raw) {
        case (.angle, .scalar(let text)):
            return Self.bareAngleWarning(text).map { [ParameterError($0)] } ?? []
        case (.records(let fields), .list(let items)):
            return items.enumerated().flatMap { i, item in
                Self.warnings(inRecord: item, fields: fields, registry: registry).map { $0.inside(.index(i)) }
            }
        case (.record(let fields), _):
            return Self.warnings(inRecord: raw, fields: fields, registry: registry)
        case (.chain, .list(let steps)):
            return steps.enumerated().flatMap { i, step -> [ParameterError] in
                guard case .mapping(let only) = step, only.count == 1, case .mapping(let arguments) = only[0].value,
                      let descriptor = registry.type(named: only[0].key)?.descriptor else { return [] }
                return Self.warnings(inRecord: .mapping(arguments), fields: descriptor.parameters, registry: registry)
                    .map { $0.inside(.key(only[0].key)).inside(.index(i)) }
            }
        default:
            return []
        }
    }

    /// "90 is read as radians (5156.6°); write 90deg", or nil when `text` is not a bare number
    /// beyond a full turn.
    static func bareAngleWarning(_ text: String) -> String? {
        let written = text.trimmed
        guard let radians = Double(written), radians.isFinite, abs(radians) > 2 * .pi else { return nil }
        return "\(written) is read as radians (" + String(format: "%.1f", radians * 180 / .pi) + "°); write \(written)deg"
    }

    private static func warnings(inRecord raw: RawValue, fields: [ParameterDescriptor], registry: FilterRegistry) -> [ParameterError] {
        guard case .mapping(let written) = raw else { return [] }
        return written.flatMap { field in
            fields.first { $0.name == field.key }.map {
                $0.bareAngleWarnings(field.value, registry: registry).map { $0.inside(.key(field.key)) }
            } ?? []
        }
    }
}

extension ChainSyntax {
    /// The bare-angle warnings of a `--chain` (see ``ParameterDescriptor/bareAngleWarnings(_:registry:)``),
    /// each as `rotate.angle: 90 is read as radians …`. A chain that does not parse has none.
    package static func bareAngleWarnings(_ text: String, registry: FilterRegistry = .standard) -> [String] {
        guard (try? checkBrackets(text)) != nil else { return [] }
        return splitTopLevel(text, on: "|").enumerated().flatMap { index, part -> [String] in
            guard let (name, arguments) = try? parseStep(part, index: index, registry: registry),
                  let descriptor = registry.type(named: name)?.descriptor else { return [] }
            return arguments.flatMap { argument in
                descriptor.parameter(named: argument.name).map {
                    $0.bareAngleWarnings(argument.value, registry: registry).map { "\(name).\(argument.name)\($0.locationText): \($0.message)" }
                } ?? []
            }
        }
    }
}
