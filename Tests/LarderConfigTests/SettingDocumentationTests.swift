import LarderConfig
import Testing

@Suite("The settings table: the documented defaults are the code's")
struct SettingDocumentationTests {
    /// Given as a flag, each documented default resolves to what no flag at all gives.
    @Test(arguments: Setting.allCases.filter { $0.documentation.defaultValue != nil })
    func documentedDefaultIsTheDefault(setting: Setting) throws {
        let defaultValue = try #require(setting.documentation.defaultValue)
        let given = try Configuration.resolve(flags: [setting: defaultValue], environment: [:])
        #expect(given == Configuration(), "\(setting.flag) \(defaultValue) is not the default")
    }

    /// A setting documented as unset is nil in the default configuration.
    @Test func unsetSettingsAreUnset() {
        let unset = Setting.allCases.filter { $0.documentation.defaultValue == nil }
        #expect(unset == [.ratesURL, .documentsURL, .adminToken, .ratesProvider, .allowedHosts])
        let configuration = Configuration()
        #expect(configuration.rates == nil && configuration.documents == nil && configuration.adminToken == nil)
        #expect(configuration.allowedHosts == nil, "unset: decided by the bind address")
        #expect(configuration.ratesProvider == nil, "unset: the feed format's key")
    }

    @Test func tableHasOneRowPerSetting() {
        let table = Setting.markdownTable()
        let rows = table.split(separator: "\n").dropFirst(2)
        #expect(rows.count == Setting.allCases.count)
        #expect(rows.first == "| `--host` | `LARDER_HOST` | `127.0.0.1` | address to bind (a literal or a resolvable name; the container uses `0.0.0.0`) |")
        #expect(Setting.markdownTable([.ratesURL]).contains("| `--rates-url` | `LARDER_RATES_URL` | unset |"))
    }

    @Test func listenAddressResolvesAsServeDoes() throws {
        let address = try Configuration.resolveListenAddress(flags: [.port: "9090"], environment: ["LARDER_HOST": "::1", "LARDER_PORT": "1"])
        #expect(address.host == "::1" && address.port == 9090)
        #expect(throws: ConfigurationError.self) {
            try Configuration.resolveListenAddress(flags: [:], environment: ["LARDER_PORT": "70000"])
        }
    }
}
