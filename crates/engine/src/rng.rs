//! The engine's only source of randomness: one PCG-64 (XSL RR 128/64)
//! generator seeded from the caller's seed. Every id, handle secret and
//! realism-knob draw comes from here, so a seed and a list of calls always
//! give the same bytes.

use rand_core::{Rng as _, SeedableRng};
use rand_pcg::Pcg64;

pub struct Rng(Pcg64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(Pcg64::seed_from_u64(seed))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    pub fn bytes16(&mut self) -> [u8; 16] {
        let mut out = [0u8; 16];
        out[..8].copy_from_slice(&self.next_u64().to_le_bytes());
        out[8..].copy_from_slice(&self.next_u64().to_le_bytes());
        out
    }

    /// A uniform draw in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// True with probability `p` (never draws when `p` is 0, so knobs that
    /// are off leave the stream untouched).
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// A uniform integer in `1..=n` (n >= 1).
    pub fn one_to(&mut self, n: usize) -> usize {
        1 + (self.next_u64() % n as u64) as usize
    }
}

/// SplitMix64's finaliser: a cheap, well-mixed keyed hash for handle tags and
/// request ids. Not cryptographic; it only has to make forged handles fail.
pub(crate) fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
