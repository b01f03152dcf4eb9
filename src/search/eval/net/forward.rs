//! The network's arithmetic on two lists of active inputs: a plain twin
//! that every build compiles and tests, and an AVX2 path chosen at run
//! time where the processor has it.
//!
//! Sums wrap (i16 accumulators, i32 output) in both, exactly as the AVX2
//! adds do, so the two agree to the bit on any weights; the trainer keeps
//! its weights small enough that a real net never wraps.

use super::{Net, QA};
use std::ops::Range;

/// `QA · QB` times the logit of the position whose side to move has the
/// active inputs `ours` and the other side `theirs`.
pub(super) fn output(net: &Net, ours: &[u16], theirs: &[u16]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, which is all `avx2::output`
        // requires.
        return unsafe { avx2::output(net, ours, theirs) };
    }
    plain(net, ours, theirs)
}

/// The plain twin.
pub(super) fn plain(net: &Net, ours: &[u16], theirs: &[u16]) -> i32 {
    net.b2
        .wrapping_add(plain_units(net, 0..net.hidden, ours, theirs))
}

/// Hidden units the plain twin sums at once: each input's weights for
/// them are one run, which the compiler vectorises where it can.
const CHUNK: usize = 64;

/// What the hidden `units` of both sides add to the output.
fn plain_units(net: &Net, units: Range<usize>, ours: &[u16], theirs: &[u16]) -> i32 {
    let h = net.hidden;
    let mut out = 0i32;
    for start in units.clone().step_by(CHUNK) {
        let end = (start + CHUNK).min(units.end);
        for (half, active) in [(0, ours), (h, theirs)] {
            let mut chunk = [0i16; CHUNK];
            let acc = &mut chunk[..end - start];
            acc.copy_from_slice(&net.b1[start..end]);
            for &i in active {
                let row = i as usize * h;
                for (a, &w) in acc.iter_mut().zip(&net.w1[row + start..row + end]) {
                    *a = a.wrapping_add(w);
                }
            }
            for (&a, &w) in acc.iter().zip(&net.w2[half + start..half + end]) {
                out = out.wrapping_add(i32::from(a).clamp(0, QA) * i32::from(w));
            }
        }
    }
    out
}

#[cfg(target_arch = "x86_64")]
pub(super) mod avx2 {
    //! Sixteen hidden units at a time in 256-bit registers.

    use super::{plain_units, Net, QA};
    use std::arch::x86_64::*;

    /// Hidden units a register holds.
    const LANES: usize = 16;

    /// The sixteen `i16`s at the start of `weights`, which must hold them
    /// (slicing checks it).
    #[inline(always)]
    unsafe fn load(weights: &[i16]) -> __m256i {
        let sixteen = &weights[..LANES];
        _mm256_loadu_si256(sixteen.as_ptr().cast())
    }

    /// Hidden units summed together: four registers a side, so that each
    /// input's weights are read as one run and the four sums do not wait
    /// on each other.
    const BLOCK: usize = 4;

    /// [`super::plain`]'s result: [`BLOCK`] registers of units at a time,
    /// then one register at a time, then the units past the last sixteen
    /// one by one.
    ///
    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(in super::super) unsafe fn output(net: &Net, ours: &[u16], theirs: &[u16]) -> i32 {
        let h = net.hidden;
        let mut sums = _mm256_setzero_si256();
        let blocks = h / (BLOCK * LANES) * (BLOCK * LANES);
        for start in (0..blocks).step_by(BLOCK * LANES) {
            sums = add_units::<BLOCK>(net, start, ours, theirs, sums);
        }
        let whole = h / LANES * LANES;
        for start in (blocks..whole).step_by(LANES) {
            sums = add_units::<1>(net, start, ours, theirs, sums);
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sums);
        let out = lanes.iter().fold(net.b2, |out, &l| out.wrapping_add(l));
        out.wrapping_add(plain_units(net, whole..h, ours, theirs))
    }

    /// `sums` plus what the `N · 16` hidden units from `start` of both
    /// sides add to the output, in eight i32 lanes.
    #[inline(always)]
    unsafe fn add_units<const N: usize>(
        net: &Net,
        start: usize,
        ours: &[u16],
        theirs: &[u16],
        mut sums: __m256i,
    ) -> __m256i {
        let h = net.hidden;
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let width = N * LANES;
        for (half, active) in [(0, ours), (h, theirs)] {
            let biases = &net.b1[start..start + width];
            let mut acc: [__m256i; N] = std::array::from_fn(|k| load(&biases[k * LANES..]));
            for &i in active {
                let row = i as usize * h + start;
                let weights = &net.w1[row..row + width];
                for (k, acc) in acc.iter_mut().enumerate() {
                    *acc = _mm256_add_epi16(*acc, load(&weights[k * LANES..]));
                }
            }
            let w2 = &net.w2[half + start..half + start + width];
            for (k, acc) in acc.iter().enumerate() {
                // Activations are at most QA, so each pair of products fits.
                let activation = _mm256_min_epi16(_mm256_max_epi16(*acc, zero), top);
                let products = _mm256_madd_epi16(activation, load(&w2[k * LANES..]));
                sums = _mm256_add_epi32(sums, products);
            }
        }
        sums
    }
}
