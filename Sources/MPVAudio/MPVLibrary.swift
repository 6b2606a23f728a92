// The functions at the end keep the C API's snake_case names, on purpose (see MPVLibrary).
// swift-format-ignore-file: AlwaysUseLowerCamelCase

import BluePlayback
import CMPV
import CRuntimeLibrary

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The libmpv functions ``MPVEngine`` calls, looked up with `dlopen` and `dlsym` once, when
/// the first engine is made. libmpv brings FFmpeg, X11, Wayland, PulseAudio and some 240
/// libraries in all: linked, every start mapped and bound them, `-c quit` and `--version`
/// included (67% of `-c quit` was the dynamic loader's symbol look-ups). Loaded here, a run
/// that plays nothing never maps it, and a machine without it starts, browses and imports;
/// `play` there says what to install.
///
/// The header (Debian libmpv-dev) still gives the types; the module map links nothing. The
/// functions at the end of this file have the C API's names and signatures: in this module
/// they shadow the header's declarations (never linked), so ``MPVEngine`` reads as libmpv's
/// documentation does. A libmpv function the engine starts to call joins the table and the
/// list below; until it does, the link fails naming it.
struct MPVLibrary: Sendable {
  let create: @Sendable @convention(c) () -> OpaquePointer?
  let initialize: @Sendable @convention(c) (OpaquePointer?) -> Int32
  let terminateDestroy: @Sendable @convention(c) (OpaquePointer?) -> Void
  let setOptionString: @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
  let command: @Sendable @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> Int32
  let setProperty:
    @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, mpv_format, UnsafeMutableRawPointer?) -> Int32
  let getProperty:
    @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, mpv_format, UnsafeMutableRawPointer?) -> Int32
  let waitEvent: @Sendable @convention(c) (OpaquePointer?, Double) -> UnsafeMutablePointer<mpv_event>?
  let errorString: @Sendable @convention(c) (Int32) -> UnsafePointer<CChar>?
  let free: @Sendable @convention(c) (UnsafeMutableRawPointer?) -> Void
  let observeProperty: @Sendable @convention(c) (OpaquePointer?, UInt64, UnsafePointer<CChar>?, mpv_format) -> Int32
  let hookAdd: @Sendable @convention(c) (OpaquePointer?, UInt64, UnsafePointer<CChar>?, Int32) -> Int32
  let hookContinue: @Sendable @convention(c) (OpaquePointer?, UInt64) -> Int32
  let setPropertyString:
    @Sendable @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32

  /// The names tried, in order: the runtime package's (Debian libmpv2), then the
  /// development link (libmpv-dev), for a build of libmpv with another version.
  static let names = ["libmpv.so.2", "libmpv.so"]

  /// What to install, said when libmpv cannot be loaded.
  static let installHint = "to play music, install libmpv (Debian: apt install libmpv2)"

  /// libmpv, loaded at the first use (Swift runs a static's initializer once, whatever the
  /// thread), or why it cannot be.
  private static let loaded = Result { () throws(PlaybackError) in try MPVLibrary() }

  /// Loads libmpv unless it is loaded; throws a one-line error naming what to install.
  static func load() throws(PlaybackError) {
    _ = try loaded.get()
  }

  /// The functions; only after ``load()`` succeeded (an ``MPVEngine`` exists).
  static var functions: MPVLibrary {
    guard case .success(let library) = loaded else {
      preconditionFailure("libmpv is called before MPVEngine loaded it")
    }
    return library
  }

  /// The functions bluelib calls, in the order of the table's fields.
  private static let symbols = [
    "mpv_create", "mpv_initialize", "mpv_terminate_destroy", "mpv_set_option_string", "mpv_command",
    "mpv_set_property", "mpv_get_property", "mpv_wait_event", "mpv_error_string", "mpv_free", "mpv_observe_property",
    "mpv_hook_add", "mpv_hook_continue", "mpv_set_property_string",
  ]

  /// The major version of libmpv's client API this engine is written against (the header's
  /// `MPV_CLIENT_API_VERSION`, 2.x in libmpv.so.2): another major one changed what the
  /// functions mean, and is refused rather than called.
  static let clientAPIMajor: UInt = 2

  private init() throws(PlaybackError) {
    // As every library is loaded (CRuntimeLibrary): from the system's library folders (and
    // LD_LIBRARY_PATH's), never beside the program, checked before it is mapped, every
    // function looked up, its client API's version asked.
    var handle: UnsafeMutableRawPointer?
    var why = [CChar](repeating: 0, count: 1024)
    var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: Self.symbols.count)
    let libraries = Self.names.map { strdup($0) }
    let functions = Self.symbols.map { strdup($0) }
    defer { for string in libraries + functions { Glibc.free(string) } }
    let handshake: rl_handshake = { handle, path, why, size in
      let version = dlsym(handle, "mpv_client_api_version").map {
        unsafeBitCast($0, to: (@convention(c) () -> UInt).self)()
      }
      if let version, version >> 16 == MPVLibrary.clientAPIMajor { return Int32(RL_LOADED) }
      let found = version.map { "\($0 >> 16).\($0 & 0xFFFF)" } ?? "unknown"
      let text =
        "the libmpv at \(path.map { String(cString: $0) } ?? "?") speaks client API \(found); "
        + "bluelib needs \(MPVLibrary.clientAPIMajor).x"
      if let why, size > 0 {
        text.withCString { _ = strncpy(why, $0, size - 1) }
        why[size - 1] = 0
      }
      return Int32(RL_UNUSABLE)
    }
    let result = addresses.withUnsafeMutableBufferPointer { slots in
      var table = functions.indices.map { rl_symbol(name: functions[$0], address: slots.baseAddress! + $0) }
      return libraries.map { UnsafePointer($0) }.withUnsafeBufferPointer { names in
        rl_load(
          "libmpv", names.baseAddress, names.count, &table, table.count, handshake, &handle, &why, why.count, nil, 0)
      }
    }
    guard result == RL_LOADED else {
      let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      throw PlaybackError("cannot load libmpv (\(reason)); \(Self.installHint)")
    }
    func function<Function>(_ index: Int, as type: Function.Type) -> Function {
      unsafeBitCast(addresses[index]!, to: type)
    }
    create = function(0, as: type(of: create))
    initialize = function(1, as: type(of: initialize))
    terminateDestroy = function(2, as: type(of: terminateDestroy))
    setOptionString = function(3, as: type(of: setOptionString))
    command = function(4, as: type(of: command))
    setProperty = function(5, as: type(of: setProperty))
    getProperty = function(6, as: type(of: getProperty))
    waitEvent = function(7, as: type(of: waitEvent))
    errorString = function(8, as: type(of: errorString))
    free = function(9, as: type(of: free))
    observeProperty = function(10, as: type(of: observeProperty))
    hookAdd = function(11, as: type(of: hookAdd))
    hookContinue = function(12, as: type(of: hookContinue))
    setPropertyString = function(13, as: type(of: setPropertyString))
  }
}

// MARK: - libmpv's client API, through the table (results may go unused, as in C)

func mpv_create() -> OpaquePointer? { MPVLibrary.functions.create() }

@discardableResult
func mpv_initialize(_ ctx: OpaquePointer!) -> Int32 { MPVLibrary.functions.initialize(ctx) }

func mpv_terminate_destroy(_ ctx: OpaquePointer!) { MPVLibrary.functions.terminateDestroy(ctx) }

@discardableResult
func mpv_set_option_string(_ ctx: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ data: UnsafePointer<CChar>!)
  -> Int32
{
  MPVLibrary.functions.setOptionString(ctx, name, data)
}

@discardableResult
func mpv_command(_ ctx: OpaquePointer!, _ args: UnsafeMutablePointer<UnsafePointer<CChar>?>!) -> Int32 {
  MPVLibrary.functions.command(ctx, args)
}

@discardableResult
func mpv_set_property(
  _ ctx: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ format: mpv_format, _ data: UnsafeMutableRawPointer!
) -> Int32 {
  MPVLibrary.functions.setProperty(ctx, name, format, data)
}

@discardableResult
func mpv_get_property(
  _ ctx: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ format: mpv_format, _ data: UnsafeMutableRawPointer!
) -> Int32 {
  MPVLibrary.functions.getProperty(ctx, name, format, data)
}

func mpv_wait_event(_ ctx: OpaquePointer!, _ timeout: Double) -> UnsafeMutablePointer<mpv_event>! {
  MPVLibrary.functions.waitEvent(ctx, timeout)
}

func mpv_error_string(_ error: Int32) -> UnsafePointer<CChar>! { MPVLibrary.functions.errorString(error) }

func mpv_free(_ data: UnsafeMutableRawPointer!) { MPVLibrary.functions.free(data) }

@discardableResult
func mpv_observe_property(
  _ ctx: OpaquePointer!, _ replyUserdata: UInt64, _ name: UnsafePointer<CChar>!, _ format: mpv_format
) -> Int32 {
  MPVLibrary.functions.observeProperty(ctx, replyUserdata, name, format)
}

@discardableResult
func mpv_hook_add(_ ctx: OpaquePointer!, _ replyUserdata: UInt64, _ name: UnsafePointer<CChar>!, _ priority: Int32)
  -> Int32
{
  MPVLibrary.functions.hookAdd(ctx, replyUserdata, name, priority)
}

@discardableResult
func mpv_hook_continue(_ ctx: OpaquePointer!, _ id: UInt64) -> Int32 { MPVLibrary.functions.hookContinue(ctx, id) }

@discardableResult
func mpv_set_property_string(_ ctx: OpaquePointer!, _ name: UnsafePointer<CChar>!, _ data: UnsafePointer<CChar>!)
  -> Int32
{
  MPVLibrary.functions.setPropertyString(ctx, name, data)
}
