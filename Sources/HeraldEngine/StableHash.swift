/// A hash that is the same on every run and machine (FNV-1a 64 then a SplitMix64 finaliser),
/// unlike Swift's `Hasher`, which is seeded per process.
enum StableHash {
    static func hash(_ text: String, seed: UInt64) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01b3
        }
        return mix(h)
    }

    static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A fraction in 0..<1 from the `index`-th draw of a hash.
    static func unit(_ h: UInt64, _ index: UInt64) -> Double {
        Double(mix(h &+ index &* 0x9e37_79b9_7f4a_7c15) >> 11) / Double(UInt64(1) << 53)
    }
}
