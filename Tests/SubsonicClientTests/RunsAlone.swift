import Testing

/// The suites that run one test at a time, after the rest has run in parallel (`.ci/run`
/// filters by this name): those that measure wall time, deadlines or memory (on two busy
/// cores they would measure the load), and those whose work runs on Swift's cooperative pool
/// in this process (the parallel run's tests hold its threads while they wait for a child
/// process). A new suite of either kind is declared inside it: `extension RunsAlone { … }`.
@Suite(.serialized) enum RunsAlone {}
