//! The sequential Rust baselines: the algorithms of the Fork programs, on the same input (the
//! same LCG), printing what the Fork program prints. `int` arithmetic wraps at 32 bits as it
//! does on every forkcc backend, so checksums that overflow still match.
//!
//! Where a program prints its processor count, the text holds the placeholder `{P}`
//! ([`Expected::for_procs`]); the algorithm does not depend on P.

use crate::lcg::rnd;

/// What a Fork program must print for the same input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected(String);

impl Expected {
    pub const PROCS: &'static str = "{P}";

    pub fn new(text: String) -> Expected {
        Expected(text)
    }

    /// The expected output of a run on `procs` processors.
    pub fn for_procs(&self, procs: u64) -> String {
        self.0.replace(Self::PROCS, &procs.to_string())
    }
}

fn yes_no(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "no"
    }
}

/// sieve.fork: cross out multiples of every k with k*k <= n; count, sum and largest prime.
pub fn sieve(n: i32) -> Expected {
    let len = n as usize + 1;
    let mut composite = vec![false; len];
    let mut k = 2usize;
    while k * k < len {
        if !composite[k] {
            (k * k..len).step_by(k).for_each(|j| composite[j] = true);
        }
        k += 1;
    }
    let (mut count, mut sum, mut largest) = (0i32, 0i32, 0i32);
    for j in (2..len).filter(|&j| !composite[j]) {
        count += 1;
        sum = sum.wrapping_add(j as i32);
        largest = j as i32;
    }
    Expected(format!(
        "primes up to {n}: {count}, sum {sum}, largest {largest}\n"
    ))
}

/// How the quicksort baseline sorts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// quicksort.fork's algorithm on one processor, its `seq_quicksort`: a three-way
    /// partition around the middle element (Dijkstra's), then the smaller and the larger keys
    /// recursively.
    Quicksort,
    /// The standard library's `sort_unstable` (pattern-defeating quicksort).
    StdUnstable,
}

fn three_way_quicksort(x: &mut [i32]) {
    let n = x.len();
    if n < 2 {
        return;
    }
    let pivot = x[n / 2];
    let (mut lt, mut i, mut gt) = (0, 0, n);
    while i < gt {
        if x[i] < pivot {
            x.swap(lt, i);
            lt += 1;
            i += 1;
        } else if x[i] > pivot {
            gt -= 1;
            x.swap(i, gt);
        } else {
            i += 1;
        }
    }
    let (smaller, rest) = x.split_at_mut(lt);
    three_way_quicksort(smaller);
    three_way_quicksort(&mut rest[gt - lt..]);
}

/// quicksort.fork: sorts `rnd(i, 4, 10000)` and prints the check lines.
pub fn quicksort(n: i32, sort: Sort) -> Expected {
    let mut a: Vec<i32> = (0..n).map(|i| rnd(i, 4, 10000)).collect();
    match sort {
        Sort::Quicksort => {
            three_way_quicksort(&mut a);
        }
        Sort::StdUnstable => a.sort_unstable(),
    }
    let sorted = a.windows(2).all(|w| w[0] <= w[1]);
    let sum = a.iter().fold(0i32, |s, &v| s.wrapping_add(v));
    let (h, last) = (n as usize / 2, n as usize - 1);
    Expected(format!(
        "N = {n}, P = {{P}}, sorted: {}\na[0] = {}, a[{h}] = {}, a[{last}] = {}, sum = {sum}\n",
        yes_no(sorted),
        a[0],
        a[h],
        a[last]
    ))
}

/// matmul.fork: C = A B with the naive triple loop in i-k-j order.
pub fn matmul(n: i32) -> Expected {
    let m = n as usize;
    let a: Vec<i32> = (0..n * n).map(|e| rnd(e, 5, 10)).collect();
    let b: Vec<i32> = (0..n * n).map(|e| rnd(e, 6, 10)).collect();
    let mut c = vec![0i32; m * m];
    for i in 0..m {
        let row = &mut c[i * m..(i + 1) * m];
        for k in 0..m {
            let aik = a[i * m + k];
            let brow = &b[k * m..(k + 1) * m];
            row.iter_mut()
                .zip(brow)
                .for_each(|(cij, &bkj)| *cij = cij.wrapping_add(aik.wrapping_mul(bkj)));
        }
    }
    matmul_answer(n, &c)
}

/// What matmul.fork prints for the n x n product `c` (row-major).
pub fn matmul_answer(n: i32, c: &[i32]) -> Expected {
    let m = n as usize;
    let (mut trace, mut checksum) = (0i64, 0i64);
    for i in 0..m {
        trace = trace.wrapping_add(c[i * m + i] as i64);
        for j in 0..m {
            let weight = (i as i32).wrapping_add(2 * j as i32).wrapping_add(1) as i64;
            checksum = checksum.wrapping_add((c[i * m + j] as i64).wrapping_mul(weight));
        }
    }
    Expected(format!(
        "N = {n}, P = {{P}}\nC[0][0] = {}, C[{l}][{l}] = {}\ntrace = {trace}, checksum = {checksum}\n",
        c[0],
        c[m * m - 1],
        l = n - 1
    ))
}

/// prefix_hillis_steele.fork: inclusive prefix sums of `rnd(i, 1, 100)`.
pub fn prefix_inclusive(n: i32) -> Expected {
    let input: Vec<i32> = (0..n).map(|i| rnd(i, 1, 100)).collect();
    let mut x = input.clone();
    for i in 1..x.len() {
        x[i] = x[i].wrapping_add(x[i - 1]);
    }
    prefix_inclusive_answer(n, &input, &x)
}

/// What prefix_hillis_steele.fork prints for input `input` and computed sums `x`, checking
/// them as the program does.
pub fn prefix_inclusive_answer(n: i32, input: &[i32], x: &[i32]) -> Expected {
    let mut sum = 0i32;
    let ok = input.iter().zip(x).all(|(&v, &xi)| {
        sum = sum.wrapping_add(v);
        xi == sum
    });
    let h = n as usize / 2;
    let last = n as usize - 1;
    Expected(format!(
        "N = {n}, P = {{P}}\nx[0] = {}, x[{h}] = {}, x[{last}] = {}\nprefix sums correct: {}\n",
        x[0],
        x[h],
        x[last],
        yes_no(ok)
    ))
}

/// prefix_blelloch.fork: exclusive prefix sums of `rnd(i, 2, 100)` (n a power of two).
pub fn prefix_exclusive(n: i32) -> Expected {
    let input: Vec<i32> = (0..n).map(|i| rnd(i, 2, 100)).collect();
    let mut x = vec![0i32; input.len()];
    for i in 1..x.len() {
        x[i] = x[i - 1].wrapping_add(input[i - 1]);
    }
    let h = n as usize / 2;
    let last = n as usize - 1;
    Expected(format!(
        "N = {n}, P = {{P}}\nx[0] = {}, x[{h}] = {}, x[{last}] = {}, total = {}\n\
         exclusive prefix sums correct: yes\n",
        x[0],
        x[h],
        x[last],
        x[last].wrapping_add(input[last])
    ))
}

/// list_ranking.fork: the list visits `(5 + k*7919) mod n`; ranks by one walk from the head
/// (the sequential algorithm), printed as the program prints them.
pub fn list_ranking(n: i32) -> Expected {
    const S: i32 = 7919;
    let node = |k: i32| (5i32.wrapping_add(k.wrapping_mul(S)) % n) as usize;
    let m = n as usize;
    let mut next = vec![0usize; m];
    for k in 0..n {
        next[node(k)] = if k < n - 1 { node(k + 1) } else { node(k) };
    }
    let mut rank = vec![0i32; m];
    let mut v = node(0);
    for k in 0..n {
        rank[v] = n - 1 - k;
        v = next[v];
    }
    let ok = (0..n).all(|k| rank[node(k)] == n - 1 - k);
    Expected(format!(
        "N = {n}, P = {{P}}, head {}, tail {}\nrank[0] = {}, rank[1] = {}, rank[{last}] = {}\n\
         ranks correct: {}\n",
        node(0),
        node(n - 1),
        rank[0],
        rank[1],
        rank[m - 1],
        yes_no(ok),
        last = n - 1
    ))
}

#[cfg(test)]
mod tests {
    //! The expected texts are the `//! expect:` blocks of the classroom examples, which
    //! `classroom-examples/expected.py` computes independently.
    use super::*;

    #[test]
    fn sieve_matches_the_recorded_cases() {
        assert_eq!(
            sieve(1000).for_procs(16),
            "primes up to 1000: 168, sum 76127, largest 997\n"
        );
        assert_eq!(
            sieve(100).for_procs(1),
            "primes up to 100: 25, sum 1060, largest 97\n"
        );
    }

    #[test]
    fn both_sorts_match_the_recorded_case() {
        let want = "N = 1000, P = 8, sorted: yes\na[0] = 11, a[500] = 4859, a[999] = 9992, sum = 4829030\n";
        assert_eq!(quicksort(1000, Sort::Quicksort).for_procs(8), want);
        assert_eq!(quicksort(1000, Sort::StdUnstable).for_procs(8), want);
    }

    #[test]
    fn matmul_matches_the_recorded_cases() {
        assert_eq!(
            matmul(30).for_procs(100),
            "N = 30, P = 100\nC[0][0] = 450, C[29][29] = 573\ntrace = 18671, checksum = 24496239\n"
        );
    }

    #[test]
    fn prefix_sums_match_the_recorded_cases() {
        assert_eq!(
            prefix_inclusive(1000).for_procs(16),
            "N = 1000, P = 16\nx[0] = 0, x[500] = 23552, x[999] = 48950\nprefix sums correct: yes\n"
        );
        assert_eq!(
            prefix_exclusive(1024).for_procs(32),
            "N = 1024, P = 32\nx[0] = 0, x[512] = 25512, x[1023] = 52446, total = 52472\n\
             exclusive prefix sums correct: yes\n"
        );
    }

    #[test]
    fn list_ranking_matches_the_recorded_cases() {
        assert_eq!(
            list_ranking(37).for_procs(5),
            "N = 37, P = 5, head 5, tail 4\nrank[0] = 4, rank[1] = 3, rank[36] = 5\nranks correct: yes\n"
        );
        assert_eq!(
            list_ranking(1000).for_procs(64),
            "N = 1000, P = 64, head 5, tail 86\nrank[0] = 394, rank[1] = 715, rank[999] = 73\n\
             ranks correct: yes\n"
        );
    }

    #[test]
    fn a_wrong_device_result_prints_a_failed_check() {
        let input = [3, 1, 4, 1];
        let wrong = [3, 4, 8, 10];
        assert!(prefix_inclusive_answer(4, &input, &wrong)
            .for_procs(2)
            .ends_with("prefix sums correct: no\n"));
        let mut product: Vec<i32> = vec![0; 4];
        assert_ne!(matmul_answer(2, &product), matmul(2));
        product.copy_from_slice(&[0, 0, 0, 1]);
        assert!(matmul_answer(2, &product)
            .for_procs(1)
            .contains("C[1][1] = 1"));
    }

    #[test]
    fn sums_wrap_at_32_bits_like_the_fork_int() {
        // The sum of the primes up to 10^6 is 37550402023, which wraps to -1104303641.
        assert!(sieve(1_000_000).for_procs(1).contains("sum -1104303641,"));
    }
}
