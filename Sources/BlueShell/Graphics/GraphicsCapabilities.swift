import CoverArt

/// How this run draws covers — a protocol, half blocks or nothing — and what the pixels
/// need to know about the terminal. Decided once per run, on first use.
struct GraphicsCapabilities: Sendable, Equatable {
  /// The way covers are drawn.
  var graphics: TerminalGraphics
  /// The cell size the terminal answered (`ESC [ 16 t`), for when its window size carries
  /// no pixels.
  var answeredCellSize: CellPixelSize?
  /// The sixel colour registers the terminal has (256 when it does not say).
  var colorRegisters: Int

  /// Capabilities of `graphics` with nothing asked.
  init(graphics: TerminalGraphics, answeredCellSize: CellPixelSize? = nil, colorRegisters: Int = 256) {
    self.graphics = graphics
    self.answeredCellSize = answeredCellSize
    self.colorRegisters = colorRegisters
  }

  /// Half blocks.
  static let blocks = GraphicsCapabilities(graphics: .blocks)

  /// The size of a cell now: what the window size says (it follows font changes), else
  /// what the terminal answered, else ``CellPixelSize/assumed``.
  func cellSize(fileDescriptor: Int32 = 1) -> CellPixelSize {
    CellPixelSize.ofTerminal(fileDescriptor) ?? answeredCellSize ?? .assumed
  }

  /// Decides for `setting`. A fixed setting is taken as it is. `auto` asks the terminal
  /// (`ask`, at most once) only when it can answer: standard input and output are both a
  /// terminal (`terminal`), no multiplexer sits between (tmux and screen pass neither
  /// protocol on without configuration) and colour is allowed; otherwise half blocks.
  static func decide(
    setting: GraphicsSetting, environment: [String: String], terminal: Bool, colorMode: ColorMode,
    ask: () -> TerminalReply?
  ) -> GraphicsCapabilities {
    if let fixed = setting.fixed { return GraphicsCapabilities(graphics: fixed) }
    guard terminal, !isMultiplexed(environment), colorMode != .none, let reply = ask() else { return .blocks }
    var cell: CellPixelSize?
    if let answered = reply.cellSize {
      // A terminal that claims cells of thousands of pixels is not believed with pixels:
      // its covers would take gigabytes (`ESC [ 6 ; 65535 ; 65535 t`).
      guard CellPixelSize.isPlausible(width: answered.width, height: answered.height) else { return .blocks }
      cell = CellPixelSize(width: answered.width, height: answered.height)
    }
    return GraphicsCapabilities(
      graphics: choose(reply, environment: environment), answeredCellSize: cell,
      colorRegisters: reply.colorRegisters ?? 256)
  }

  /// The protocol a terminal that answered `reply` gets: kitty when it said OK to the kitty
  /// query; iTerm2's images where the environment names iTerm2 or WezTerm (neither query
  /// reveals them); sixel when its device attributes include 4; else half blocks.
  static func choose(_ reply: TerminalReply, environment: [String: String]) -> TerminalGraphics {
    if reply.kittyGraphics { return .kitty }
    if environment["TERM_PROGRAM"] == "iTerm.app" || environment["TERM_PROGRAM"] == "WezTerm"
      || environment["LC_TERMINAL"] == "iTerm2"
    {
      return .iterm
    }
    if reply.supportsSixel { return .sixel }
    return .blocks
  }

  /// True inside tmux or screen.
  static func isMultiplexed(_ environment: [String: String]) -> Bool {
    if !(environment["TMUX"] ?? "").isEmpty || !(environment["STY"] ?? "").isEmpty { return true }
    let term = environment["TERM"] ?? ""
    return term.hasPrefix("screen") || term.hasPrefix("tmux")
  }
}
