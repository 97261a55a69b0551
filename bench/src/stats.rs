//! Summary statistics of repeated timings.

use serde::Serialize;

/// Median, minimum and maximum of a set of runs, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    pub runs: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Summary {
    /// None for no samples. The median of an even count is the mean of the two middle values.
    pub fn of(samples: &[f64]) -> Option<Summary> {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = match n {
            0 => return None,
            _ if n % 2 == 1 => sorted[n / 2],
            _ => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
        };
        Some(Summary {
            runs: n,
            median,
            min: sorted[0],
            max: sorted[n - 1],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Summary;

    #[test]
    fn odd_count_takes_the_middle_value() {
        let s = Summary::of(&[5.0, 1.0, 3.0, 9.0, 2.0]).expect("samples");
        assert_eq!((s.runs, s.median, s.min, s.max), (5, 3.0, 1.0, 9.0));
    }

    #[test]
    fn even_count_averages_the_two_middle_values() {
        let s = Summary::of(&[4.0, 1.0, 2.0, 8.0]).expect("samples");
        assert_eq!((s.median, s.min, s.max), (3.0, 1.0, 8.0));
    }

    #[test]
    fn one_sample_and_none() {
        let s = Summary::of(&[0.25]).expect("sample");
        assert_eq!((s.median, s.min, s.max), (0.25, 0.25, 0.25));
        assert!(Summary::of(&[]).is_none());
    }
}
