//! The input generator of `classroom-examples/lcg.h`, so that the baselines sort, sieve and
//! multiply exactly the values the Fork programs build.

fn lcg_step(x: u32) -> u32 {
    x.wrapping_mul(1_103_515_245).wrapping_add(12_345)
}

/// `rnd(i, seed, m)` of lcg.h: the i-th value of stream `seed`, in 0..m-1.
pub fn rnd(i: i32, seed: i32, m: i32) -> i32 {
    let x = lcg_step(
        (i as u32)
            .wrapping_mul(2_654_435_761)
            .wrapping_add(seed as u32),
    );
    let x = lcg_step(x ^ (x >> 15));
    ((x >> 16) % m as u32) as i32
}

#[cfg(test)]
mod tests {
    use super::rnd;

    #[test]
    fn values_stay_in_range_and_streams_differ() {
        assert!((0..1000).all(|i| (0..10).contains(&rnd(i, 5, 10))));
        assert_ne!(
            (0..20).map(|i| rnd(i, 5, 10)).collect::<Vec<_>>(),
            (0..20).map(|i| rnd(i, 6, 10)).collect::<Vec<_>>()
        );
    }
}
