/// Test PDFs drawn by cairo through Debian's python3-cairo (scripts/install-deps.sh).
public enum CairoScript {
    /// Runs `script` (Python that imports cairo) with Debian's python3, the one python3-cairo
    /// installs into, not a pyenv shim on PATH.
    public static func run(_ script: String) throws {
        try TestEnvironment.require(
            (try? ToolProcess.capture("/usr/bin/python3", ["-c", "import cairo"]).status) == 0,
            "/usr/bin/python3 with cairo: install python3-cairo (scripts/install-deps.sh)")
        try ToolProcess.run("/usr/bin/python3", ["-c", script])
    }
}
