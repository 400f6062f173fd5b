/// The parameters of one filter instance, every value checked and every `random` drawn.
///
/// Keeps the order in which the user wrote them: `transform` applies its operations in that order.
public struct ResolvedParameters: Sendable, Hashable {
    /// Given and defaulted values in order (given first, in the order written; then defaults).
    public private(set) var entries: [(name: String, value: ParameterValue)]
    /// Names whose value was drawn at random, for the report; a record's field reads
    /// `shapes[2].fill`.
    public var randomNames: Set<String> {
        var names = drawn
        for (name, value) in entries {
            switch value {
            case .records(let items):
                for (i, item) in items.enumerated() { names.formUnion(item.randomNames.map { "\(name)[\(i)].\($0)" }) }
            case .record(let fields): names.formUnion(fields.randomNames.map { "\(name).\($0)" })
            case .chain(let steps):
                // `chain[1].sepia.intensity`: the path of the value in the report's parameters.
                for (i, step) in steps.enumerated() {
                    names.formUnion(step.parameters.randomNames.map { "\(name)[\(i)].\(step.name).\($0)" })
                }
            default: break
            }
        }
        return names
    }
    /// This level's names drawn at random.
    private var drawn: Set<String>
    /// The loaded files of image and data-file parameters, by parameter name. Not part of the
    /// value's identity: the path in ``entries`` is.
    public private(set) var images: [String: any ImageAsset] = [:]
    public private(set) var data: [String: DataAsset] = [:]
    /// The job's input, for text parameters' placeholders (``DescribedParameters/text(_:)``).
    /// Not part of the value's identity: the text as written is.
    var facts = InputFacts()

    /// Every file the parameters name, for the report.
    public var assets: [AssetIdentity] {
        images.values.map(\.identity) + data.values.map(\.identity) + entries.flatMap { entry -> [AssetIdentity] in
            if case .chain(let steps) = entry.value { steps.flatMap(\.parameters.assets) } else { [] }
        }
    }

    public init(entries: [(name: String, value: ParameterValue)] = [], randomNames: Set<String> = []) {
        self.entries = entries
        self.drawn = randomNames
    }

    public subscript(name: String) -> ParameterValue? {
        entries.first { $0.name == name }?.value
    }

    /// Whether the parameter has a value: written by the user, drawn at random, or filled in
    /// by its default (so always true for a parameter with a default; `randomNames` tells
    /// which were drawn).
    public func has(_ name: String) -> Bool { self[name] != nil }

    public func number(_ name: String) -> Double? {
        if case .number(let v)? = self[name] { return v }
        return nil
    }
    public func length(_ name: String) -> Length? {
        if case .length(let v)? = self[name] { return v }
        return nil
    }
    public func point(_ name: String) -> (Length, Length)? {
        if case .point(let x, let y)? = self[name] { return (x, y) }
        return nil
    }
    func bool(_ name: String) -> Bool? {
        if case .bool(let v)? = self[name] { return v }
        return nil
    }
    public func color(_ name: String) -> RGBA? {
        if case .color(let v)? = self[name] { return v }
        return nil
    }
    public func choice(_ name: String) -> String? {
        if case .choice(let v)? = self[name] { return v }
        return nil
    }
    public func lengths(_ name: String) -> [Length]? {
        if case .lengths(let v)? = self[name] { return v }
        return nil
    }
    public func records(_ name: String) -> [ResolvedParameters]? {
        if case .records(let v)? = self[name] { return v }
        return nil
    }
    func record(_ name: String) -> ResolvedParameters? {
        if case .record(let v)? = self[name] { return v }
        return nil
    }
    public func text(_ name: String) -> String? {
        if case .text(let v)? = self[name] { return v }
        return nil
    }
    func chain(_ name: String) -> [ResolvedFilter]? {
        if case .chain(let v)? = self[name] { return v }
        return nil
    }
    func numbers(_ name: String) -> [Double]? {
        if case .numbers(let v)? = self[name] { return v }
        return nil
    }

    /// Loads the file a parameter of `kind` names through `assets`.
    mutating func load(_ name: String, kind: ParameterKind, from assets: any AssetResolver) throws(ParameterError) {
        guard case .file(let path)? = self[name] else { return }
        switch kind {
        case .image: images[name] = try assets.image(at: path)
        case .dataFile: data[name] = try assets.data(at: path)
        case .graphic:
            switch try assets.graphic(at: path) {
            case .image(let image): images[name] = image
            case .svg(let document): data[name] = document
            }
        default: break
        }
    }

    mutating func append(_ name: String, _ value: ParameterValue, random: Bool) {
        entries.append((name, value))
        if random { drawn.insert(name) }
    }

    public static func == (l: Self, r: Self) -> Bool {
        l.randomNames == r.randomNames && l.entries.elementsEqual(r.entries) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into h: inout Hasher) {
        for e in entries { h.combine(e.name); h.combine(e.value) }
    }
}
