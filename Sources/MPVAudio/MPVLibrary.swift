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

  private init() throws(PlaybackError) {
    // From the system's library folders (and LD_LIBRARY_PATH's), never beside the program,
    // checked before it is mapped (CRuntimeLibrary); a file found that cannot be loaded is
    // what is said, rather than a name not found after it.
    var handle: UnsafeMutableRawPointer?
    var firstError = ""
    var firstResult = Int32(RL_NOT_FOUND)
    for name in Self.names {
      var why = [CChar](repeating: 0, count: 1024)
      let result = rl_open(name, &handle, &why, why.count, nil, 0)
      if handle != nil { break }
      if firstError.isEmpty || (firstResult == RL_NOT_FOUND && result != firstResult) {
        firstError = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        firstResult = result
      }
    }
    guard let handle else { throw PlaybackError("cannot load libmpv (\(firstError)); \(Self.installHint)") }
    func symbol<Function>(_ name: String, as type: Function.Type) throws(PlaybackError) -> Function {
      guard let address = dlsym(handle, name) else {
        throw PlaybackError("the libmpv installed has no \(name) (too old?); \(Self.installHint)")
      }
      return unsafeBitCast(address, to: type)
    }
    create = try symbol("mpv_create", as: type(of: create))
    initialize = try symbol("mpv_initialize", as: type(of: initialize))
    terminateDestroy = try symbol("mpv_terminate_destroy", as: type(of: terminateDestroy))
    setOptionString = try symbol("mpv_set_option_string", as: type(of: setOptionString))
    command = try symbol("mpv_command", as: type(of: command))
    setProperty = try symbol("mpv_set_property", as: type(of: setProperty))
    getProperty = try symbol("mpv_get_property", as: type(of: getProperty))
    waitEvent = try symbol("mpv_wait_event", as: type(of: waitEvent))
    errorString = try symbol("mpv_error_string", as: type(of: errorString))
    free = try symbol("mpv_free", as: type(of: free))
    observeProperty = try symbol("mpv_observe_property", as: type(of: observeProperty))
    hookAdd = try symbol("mpv_hook_add", as: type(of: hookAdd))
    hookContinue = try symbol("mpv_hook_continue", as: type(of: hookContinue))
    setPropertyString = try symbol("mpv_set_property_string", as: type(of: setPropertyString))
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
