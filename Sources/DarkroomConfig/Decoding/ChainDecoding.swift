import Foundation
import DarkroomCore

extension ConfigDecoder {
    /// A list of steps, each a bare filter name (`- invert`) or a one-key mapping
    /// (`- resize: { width: 720, fit: inside }`). Every parameter is checked where it is written;
    /// the whole step is then built once so that contradictions between parameters are found too.
    func decodeChain(_ node: YAMLNode, path: String) -> ChainSpec {
        guard case .sequence(let items) = node.content else {
            error(node.mark, path, "expected a list of filters (- name or - name: { parameter: value }), got \(node.shortDescription)")
            return ChainSpec([], registry: registry, assets: assets)
        }
        return ChainSpec(items.enumerated().compactMap { decodeStep($1, path: "\(path)[\($0)]") }, registry: registry, assets: assets)
    }

    private func decodeStep(_ node: YAMLNode, path: String) -> FilterInvocation? {
        let nameNode: YAMLNode, parameters: YAMLNode?
        switch node.content {
        case .scalar where !node.isNull:
            (nameNode, parameters) = (node, nil)
        case .mapping(let pairs) where pairs.count == 1:
            (nameNode, parameters) = (pairs[0].key, pairs[0].value.isNull ? nil : pairs[0].value)
        default:
            error(node.mark, path, "expected a filter name or one filter with its parameters (- resize: { width: 720 }), got \(node.shortDescription)")
            return nil
        }
        guard let name = nameNode.text else {
            error(nameNode.mark, path, "expected a filter name, got \(nameNode.shortDescription)")
            return nil
        }
        let descriptor: FilterDescriptor
        do { descriptor = try registry.descriptor(named: name) } catch {
            self.error(nameNode.mark, path, error.message)
            return nil
        }
        guard let arguments = decodeArguments(parameters, descriptor: descriptor, path: "\(path) \(name)") else {
            return nil
        }
        do {
            return try FilterInvocation(name: name, rawArguments: arguments, registry: registry, assets: assets)
        } catch {
            // A filter that names a parameter and a place inside it (`shapes`, [2], `points`) is
            // pointed at that node; any other contradiction at the filter's name.
            if case .key(let key)? = error.location.first, case .mapping(let pairs)? = parameters?.content,
               let value = pairs.first(where: { $0.key.text == key })?.value {
                let inside = Array(error.location.dropFirst())
                self.error(value.descendant(at: inside).mark, "\(path) \(name).\(key)" + ParameterError("", at: inside).locationText,
                           error.message)
            } else {
                self.error(nameNode.mark, path, error.message)
            }
            return nil
        }
    }

    /// The parameters as core `RawValue`s, each checked against its descriptor; nil if any is bad.
    private func decodeArguments(_ node: YAMLNode?, descriptor: FilterDescriptor,
                                 path: String) -> [(name: String, value: RawValue)]? {
        guard let node else { return [] }
        let known = descriptor.parameters.map(\.name)
        let before = diagnostics.count
        guard let f = fields(node, path: path, known: known) else { return nil }
        var arguments = [(name: String, value: RawValue)]()
        for key in known {
            guard let value = f.values[key] else { continue }
            guard var raw = rawValue(value, path: f.path(key)) else { continue }
            let parameter = descriptor.parameter(named: key)
            if parameter?.kind == .chain { raw = resolvingFiles(inSubChain: raw) }
            do { _ = try parameter?.parse(raw, in: ChainContext(registry: registry, assets: assets)) } catch {
                // Point at the node the problem is in: the third shape's radius, not the list.
                let inner = value.descendant(at: error.location)
                self.error(inner.mark, f.path(key) + error.locationText,
                           error.message + colourHint(inner, parameter.flatMap { field(of: $0, at: error.location) }))
                continue
            }
            for warning in parameter?.bareAngleWarnings(raw, registry: registry) ?? [] {
                warn(value.descendant(at: warning.location).mark, f.path(key) + warning.locationText, warning.message)
            }
            if let parameter, parameter.kind.isFile, case .scalar(let written) = raw {
                // Relative to the config's folder; loaded now, so a bad file is an error at its line.
                let path = ConfigPath.resolve(written.trimmingCharacters(in: .whitespaces), against: baseDirectory)
                raw = .scalar(path)
                do throws(ParameterError) {
                    switch parameter.kind {
                    case .image: _ = try assets.image(at: path)
                    case .graphic: _ = try assets.graphic(at: path)
                    default: _ = try assets.data(at: path)
                    }
                } catch {
                    self.error(value.mark, f.path(key), error.message)
                    continue
                }
            }
            arguments.append((key, raw))
        }
        // Keep the order written: `transform` applies its operations in that order.
        arguments.sort { f.mark($0.name) < f.mark($1.name) }
        return diagnostics.count == before ? arguments : nil
    }

    private func rawValue(_ node: YAMLNode, path: String) -> RawValue? {
        switch node.content {
        case .scalar(let s): return .scalar(s.isNull ? "" : s.text)
        case .sequence(let items):
            var values = [RawValue]()
            for (i, item) in items.enumerated() {
                guard let v = rawValue(item, path: "\(path)[\(i)]") else { return nil }
                values.append(v)
            }
            return .list(values)
        case .mapping(let pairs):
            var fields = [RawField]()
            for pair in pairs {
                guard let key = pair.key.text else {
                    error(pair.key.mark, path, "expected a key, got \(pair.key.shortDescription)")
                    return nil
                }
                guard let v = rawValue(pair.value, path: ConfigDecoder.join(path, key)) else { return nil }
                fields.append(RawField(key, v))
            }
            return .mapping(fields)
        }
    }

    /// A sub-chain with the files its steps name (an overlay_image's logo inside a group) made
    /// relative to the config's folder, as a chain's own are; steps are checked later.
    private func resolvingFiles(inSubChain raw: RawValue) -> RawValue {
        guard case .list(let steps) = raw else { return raw }
        return .list(steps.map { step in
            guard case .mapping(let only) = step, only.count == 1, case .mapping(let fields) = only[0].value,
                  let descriptor = registry.type(named: only[0].key)?.descriptor else { return step }
            return .mapping([RawField(only[0].key, .mapping(fields.map { field in
                switch (descriptor.parameter(named: field.key)?.kind, field.value) {
                case (let kind?, .scalar(let written)) where kind.isFile:
                    RawField(field.key, .scalar(ConfigPath.resolve(written.trimmingCharacters(in: .whitespaces), against: baseDirectory)))
                case (.chain?, let inner): RawField(field.key, resolvingFiles(inSubChain: inner))
                default: field
                }
            }))])
        })
    }

    /// The parameter or field `location` leads to inside `parameter`'s value, through records
    /// and through a sub-chain's steps (`[1]`, `sepia`, `intensity`) by the registry.
    private func field(of parameter: ParameterDescriptor, at location: [ValuePathStep]) -> ParameterDescriptor? {
        guard parameter.kind == .chain else { return parameter.field(at: location) }
        guard location.count >= 3, case .key(let name) = location[1], case .key(let key) = location[2],
              let inner = registry.type(named: name)?.descriptor.parameter(named: key) else { return nil }
        return field(of: inner, at: Array(location.dropFirst(3)))
    }

    /// An unquoted `#ff0000` is a YAML comment, which leaves the value empty.
    private func colourHint(_ node: YAMLNode, _ parameter: ParameterDescriptor?) -> String {
        node.isNull && parameter?.kind == .color ? " (quote colours: an unquoted # starts a YAML comment)" : ""
    }
}

extension YAMLNode {
    /// The node `location` leads to (an item of a list, the value of a key), as far as it goes.
    func descendant(at location: [ValuePathStep]) -> YAMLNode {
        guard let step = location.first else { return self }
        switch (step, content) {
        case (.index(let i), .sequence(let items)) where items.indices.contains(i):
            return items[i].descendant(at: Array(location.dropFirst()))
        case (.key(let k), .mapping(let pairs)):
            guard let pair = pairs.first(where: { $0.key.text == k }) else { return self }
            return pair.value.descendant(at: Array(location.dropFirst()))
        default:
            return self
        }
    }
}

extension ParameterDescriptor {
    /// The field of a record parameter that `location` leads to (itself when it leads nowhere).
    func field(at location: [ValuePathStep]) -> ParameterDescriptor? {
        guard let step = location.first else { return self }
        guard case .key(let k) = step else { return field(at: Array(location.dropFirst())) }
        return kind.fields?.first { $0.name == k }?.field(at: Array(location.dropFirst()))
    }
}
