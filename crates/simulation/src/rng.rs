//! The simulation's own randomness: a PCG-64 stream of its own, derived
//! from the scenario's seed, apart from the engine's.
//!
//! The engine draws message ids, handle secrets and realism knobs from its
//! PRNG; if workers drew their processing times from that same stream,
//! adding a worker would shift every id the engine hands out after its
//! first draw. Here the state is the seed and the stream (PCG's increment)
//! is a fixed constant, where the engine's `seed_from_u64` derives its
//! increment from the seed: a different sequence for the same seed, and
//! still one seed replays the whole run.

use rand_core::Rng as _;
use rand_pcg::Pcg64;

/// PCG stream selector of the simulation ("queuelab/sim" in ASCII).
const SIMULATION_STREAM: u128 = 0x7175_6575_656c_6162_2f73_696d;

pub(crate) struct SimRng(Pcg64);

impl SimRng {
    pub(crate) fn new(seed: u64) -> Self {
        SimRng(Pcg64::new(u128::from(seed), SIMULATION_STREAM))
    }

    /// A stream of its own for part `part` of a scenario (a Lambda
    /// function's handler), so its draws shift no worker's.
    pub(crate) fn for_part(seed: u64, part: u64) -> Self {
        SimRng(Pcg64::new(
            u128::from(seed),
            SIMULATION_STREAM ^ (u128::from(part) << 64),
        ))
    }

    /// A uniform draw in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
