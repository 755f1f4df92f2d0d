import HeraldStore

/// The soak's and the fuzz tests' seeded generator: the store's own SplitMix64, so a run can be repeated exactly
/// (same numbers, same subsets, same kill delays; only the operating system's scheduling differs).
public typealias SeededGenerator = SeededRandom
