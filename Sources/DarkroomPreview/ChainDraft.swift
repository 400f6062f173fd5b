import DarkroomCore

/// A chain as the preview page edits it: steps in order, each switched on or off, each
/// parameter the user set as the text it has in the one-line `process` syntax (`0.8`, `45deg`,
/// `50%`, `#ff000080`, `[1, 2, 1]`, `random`). Parameters left at their defaults are absent.
public struct ChainDraft: Codable, Sendable, Equatable {
    public struct Step: Codable, Sendable, Equatable {
        public var name: String
        /// A step switched off stays on the page but is left out of the chain.
        public var enabled: Bool
        public var parameters: [Parameter]

        public init(name: String, enabled: Bool = true, parameters: [Parameter] = []) {
            self.name = name
            self.enabled = enabled
            self.parameters = parameters
        }
    }

    public struct Parameter: Codable, Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var steps: [Step]

    public init(steps: [Step]) {
        self.steps = steps
    }

    /// Indices into ``steps`` of the steps switched on, in order: chain position → page step.
    public var enabledIndices: [Int] { steps.indices.filter { steps[$0].enabled } }

    /// The one-line chain `darkroom process --chain` takes, steps switched off left out.
    /// `rewrite` may change a value before it is written (file parameters made absolute for a render).
    public func processSyntax(registry: FilterRegistry,
                              rewrite: (_ step: String, _ parameter: ParameterDescriptor, _ value: String) -> String = { $2 }) -> String {
        steps.filter(\.enabled).map { step in
            let descriptor = registry.type(named: step.name)?.descriptor
            return ([step.name] + step.parameters.map { p in
                let value: String
                if let parameter = descriptor?.parameter(named: p.name) {
                    value = ChainText.argument(rewrite(step.name, parameter, p.value), kind: parameter.kind)
                } else {
                    value = ChainText.argument(p.value, kind: .text)
                }
                return "\(p.name)=\(value)"
            }).joined(separator: " ")
        }.joined(separator: " | ")
    }

    /// Each step switched on as config YAML (`sepia: { intensity: 0.8 }`, `invert`), the form a
    /// chain's list items take; a step's values are read by the `process` syntax's parser, so
    /// lists and records come out as YAML lists and mappings. Errors name the step (1-based).
    public func yamlSteps(registry: FilterRegistry) throws(ParameterError) -> [String] {
        var out = [String]()
        for (position, index) in enabledIndices.enumerated() {
            let step = steps[index]
            let text = ChainDraft(steps: [step]).processSyntax(registry: registry)
            let parsed = try ChainSyntax.parseStep(text, index: position, registry: registry)
            out.append(parsed.arguments.isEmpty ? YAMLText.scalar(parsed.name)
                       : YAMLText.scalar(parsed.name) + ": " + YAMLText.flow(.mapping(parsed.arguments.map { RawField($0.name, $0.value) })))
        }
        return out
    }

    /// The draft of steps as a config writes them (``ConfigChainText``): each value as the text
    /// its control shows.
    public init(configSteps: [(name: String, arguments: [(name: String, value: RawValue)])], registry: FilterRegistry) {
        steps = configSteps.map { step in
            let descriptor = registry.type(named: step.name)?.descriptor
            return Step(name: step.name, parameters: step.arguments.map { argument in
                let kind = descriptor?.parameter(named: argument.name)?.kind ?? .text
                return Parameter(name: argument.name, value: ChainText.control(argument.value, kind: kind))
            })
        }
    }
}
