/// The version written into every report and printed by `darkroom --version`.
public enum DarkroomVersion {
    public static let string = "0.1.0"
}
