import Launcher

extension RunOptions {
    public var settings: LaunchSettings {
        var settings = LaunchSettings()
        settings.dataDir = data.dataDir
        settings.user = user
        settings.lang = lang
        settings.catalog = catalog.catalog
        settings.faults = faults
        settings.scenario = scenario
        settings.parallel = parallel
        settings.speed = speed
        settings.serve = serve
        settings.backend = backend
        settings.notify = notify
        settings.appleId = appleId
        settings.device = device
        settings.restorePolicy = restorePolicy
        settings.family = family
        settings.storeKit = storeKit
        settings.serverAPI = serverAPI
        return settings
    }
}
