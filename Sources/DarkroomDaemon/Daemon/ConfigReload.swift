import DarkroomConfig
import DarkroomCore
import Logging

/// What SIGHUP does first, in the plain daemon and a cluster node alike: tell systemd a reload
/// is under way, read the files the filters name again (``SharedAssets``) and load the config
/// file again, with the registry the program handed the daemon (a program embedding the daemon
/// with filters of its own keeps them across reloads). An invalid file is explained line by line
/// and refused — the running config stays, and systemd hears READY=1 again.
struct ConfigReload {
    let configPath: String?
    let registry: FilterRegistry
    let logger: Logger
    let activity: DaemonActivity
    let notifier: SystemdNotifier

    /// The new config, or nil when there is none to apply (explained in the log).
    func load() -> DaemonConfig? {
        guard let configPath else {
            logger.warning("SIGHUP: started without a config file, nothing to reload")
            return nil
        }
        notifier.send("RELOADING=1\nMONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())")
        do throws(ConfigError) {
            SharedAssets.store.reload()
            let loaded = try ConfigLoader.load(path: configPath, registry: registry, assets: SharedAssets.store)
            // The same warnings `run` logs at start (a bare angle read as radians).
            for warning in loaded.warnings { logger.warning("\(warning)") }
            return loaded
        } catch {
            for diagnostic in error.diagnostics { logger.error("\(diagnostic)") }
            refuse("\(configPath) is not valid")
            return nil
        }
    }

    /// Keeps the running config: `reason` logged, the reload counted as failed.
    func refuse(_ reason: String) {
        logger.error("SIGHUP: \(reason); keeping the running configuration")
        activity.reload(succeeded: false)
        notifier.send("READY=1")
    }
}
