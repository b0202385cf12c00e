//! Property tests of the statistics engine: invariants that hold for every
//! input, checked on random samples (proptest), including heavy ties and
//! values spanning the whole accepted range.

use bestguess::analysis::RankingSettings;
use bestguess::stats::{
    compare, hodges_lehmann, holm_adjust, kth_pairwise_difference, mann_whitney,
    pairwise_difference_count, quantile, rank, Alpha, Sample, Summary, Verdict,
};
use proptest::prelude::*;

fn sample(v: &[f64]) -> Sample {
    Sample::from_slice(v).unwrap()
}

fn ints(v: &[i32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

/// Integer-valued samples: arithmetic on them is exact, so shifts can be
/// compared exactly. Small ranges produce many ties.
fn int_sample(range: std::ops::Range<i32>, max_len: usize) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(range, 1..max_len).prop_map(|v| ints(&v))
}

/// Any finite value Sample accepts, from tiny to ±1e100.
fn any_value() -> impl Strategy<Value = f64> {
    prop_oneof![
        -1e100..1e100f64,
        -1e6..1e6f64,
        (0i32..20).prop_map(f64::from),
        -1e-300..1e-300f64,
    ]
}

fn brute_differences(best: &[f64], other: &[f64]) -> Vec<f64> {
    let mut d: Vec<f64> = best
        .iter()
        .flat_map(|&b| other.iter().map(move |&o| o - b))
        .collect();
    d.sort_unstable_by(f64::total_cmp);
    d
}

proptest! {
    #[test]
    fn u_of_both_orders_adds_up_to_all_pairs(
        x in int_sample(0..10, 40), y in int_sample(0..10, 40)
    ) {
        let (a, b) = (sample(&x), sample(&y));
        let total = mann_whitney(&a, &b).u + mann_whitney(&b, &a).u;
        prop_assert_eq!(total, (x.len() * y.len()) as f64);
        // And W is U plus the smallest possible rank sum.
        let mw = mann_whitney(&a, &b);
        let n1 = x.len() as f64;
        prop_assert_eq!(mw.w, mw.u + n1 * (n1 + 1.0) / 2.0);
        prop_assert!((0.0..=1.0).contains(&mw.p_value));
    }

    #[test]
    fn shifting_other_shifts_the_estimate_by_the_same_amount(
        x in int_sample(-1000..1000, 60), y in int_sample(-1000..1000, 60), c in -10_000i32..10_000
    ) {
        let shifted: Vec<f64> = y.iter().map(|v| v + f64::from(c)).collect();
        let (best, other) = (sample(&x), sample(&y));
        let moved = sample(&shifted);
        prop_assert_eq!(
            hodges_lehmann(&best, &moved),
            hodges_lehmann(&best, &other) + f64::from(c)
        );
        // Shifting best instead moves it the other way.
        let best_moved: Vec<f64> = x.iter().map(|v| v + f64::from(c)).collect();
        prop_assert_eq!(
            hodges_lehmann(&sample(&best_moved), &other),
            hodges_lehmann(&best, &other) - f64::from(c)
        );
    }

    #[test]
    fn confidence_interval_contains_the_estimate(
        x in int_sample(0..50, 70), y in int_sample(0..60, 70), alpha in 0.001..0.5f64
    ) {
        let c = compare(&sample(&x), &sample(&y), Alpha::new(alpha).unwrap());
        let ci = c.interval;
        prop_assert!(ci.low <= c.shift && c.shift <= ci.high, "{:?}", c);
        prop_assert!(ci.low_rank <= ci.high_rank);
        // Symmetric ranks without ties; with ties each end has its own,
        // but the interval always spans the middle difference(s).
        let m = (x.len() * y.len()) as u128;
        prop_assert!(ci.low_rank >= 1 && ci.low_rank <= m.div_ceil(2));
        prop_assert!(ci.high_rank > m / 2 && ci.high_rank <= m);
        prop_assert!((0.0..=1.0).contains(&ci.achieved_confidence));
        prop_assert!((0.0..=1.0).contains(&c.superiority));
    }

    #[test]
    fn quantiles_are_monotone_and_within_the_range(
        v in prop::collection::vec(any_value(), 1..300),
        mut ps in prop::collection::vec(0.0..=1.0f64, 1..20)
    ) {
        let s = sample(&v);
        let q = Summary::of(&s).quantiles;
        let chain = [
            Some(q.min), Some(q.q1), Some(q.median), Some(q.q3), q.p95, q.p99, Some(q.max),
        ];
        let present: Vec<f64> = chain.iter().flatten().copied().collect();
        prop_assert!(present.windows(2).all(|w| w[0] <= w[1]), "{:?}", q);
        ps.sort_unstable_by(f64::total_cmp);
        let values: Vec<f64> = ps.iter().map(|&p| quantile(&s, p).unwrap()).collect();
        prop_assert!(values.windows(2).all(|w| w[0] <= w[1]), "{:?} at {:?}", values, ps);
        prop_assert!(values.iter().all(|&x| s.min() <= x && x <= s.max()));
    }

    #[test]
    fn results_do_not_depend_on_the_order_of_the_values(
        (x, shuffled) in int_sample(0..30, 60).prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle())),
        y in int_sample(0..30, 60)
    ) {
        let (a, b) = (sample(&x), sample(&shuffled));
        prop_assert_eq!(Summary::of(&a), Summary::of(&b));
        let alpha = Alpha::new(0.05).unwrap();
        let other = sample(&y);
        prop_assert_eq!(compare(&a, &other, alpha), compare(&b, &other, alpha));
    }

    #[test]
    fn selection_equals_brute_force_with_many_ties(
        x in int_sample(0..6, 30), y in int_sample(0..6, 30)
    ) {
        let (best, other) = (sample(&x), sample(&y));
        let d = brute_differences(best.sorted(), other.sorted());
        prop_assert_eq!(pairwise_difference_count(&best, &other), d.len() as u128);
        for (k, expected) in d.iter().enumerate() {
            prop_assert_eq!(kth_pairwise_difference(&best, &other, k as u128 + 1), Some(*expected));
        }
        let m = d.len();
        let median = if m % 2 == 1 { d[m / 2] } else { (d[m / 2 - 1] + d[m / 2]) / 2.0 };
        prop_assert_eq!(hodges_lehmann(&best, &other), median);
    }

    #[test]
    fn selection_equals_brute_force_on_continuous_data(
        x in prop::collection::vec(-1e3..1e3f64, 1..40),
        y in prop::collection::vec(-1e3..1e3f64, 1..40),
        k_fraction in 0.0..1.0f64
    ) {
        let (best, other) = (sample(&x), sample(&y));
        let d = brute_differences(best.sorted(), other.sorted());
        let k = ((k_fraction * d.len() as f64) as usize).min(d.len() - 1);
        prop_assert_eq!(kth_pairwise_difference(&best, &other, k as u128 + 1), Some(d[k]));
    }

    #[test]
    fn every_statistic_is_finite_for_any_valid_sample(
        x in prop::collection::vec(any_value(), 1..80),
        y in prop::collection::vec(any_value(), 1..80)
    ) {
        let (a, b) = (sample(&x), sample(&y));
        let s = Summary::of(&a);
        let q = s.quantiles;
        let mut all = vec![q.min, q.q1, q.median, q.q3, q.max, s.mode, s.mean];
        all.extend(s.sd);
        all.extend(s.skewness.ok());
        all.extend(s.excess_kurtosis.ok());
        if let Ok(ad) = s.normality {
            all.extend([ad.a2, ad.a2_star, ad.p_value]);
        }
        let c = compare(&a, &b, Alpha::new(0.05).unwrap());
        all.extend([
            c.mann_whitney.u, c.mann_whitney.w, c.mann_whitney.p_value, c.shift,
            c.interval.low, c.interval.high, c.interval.achieved_confidence, c.superiority,
        ]);
        prop_assert!(all.iter().all(|v| v.is_finite()), "{:?}", all);
    }

    #[test]
    fn holm_is_monotone_never_below_raw_and_at_most_one(
        p in prop::collection::vec(0.0..=1.0f64, 0..25)
    ) {
        let adjusted = holm_adjust(&p);
        prop_assert_eq!(adjusted.len(), p.len());
        for (a, raw) in adjusted.iter().zip(&p) {
            prop_assert!(*raw <= *a && *a <= 1.0);
        }
        let mut pairs: Vec<(f64, f64)> = p.iter().copied().zip(adjusted.iter().copied()).collect();
        pairs.sort_by(|l, r| l.0.total_cmp(&r.0));
        prop_assert!(pairs.windows(2).all(|w| w[0].1 <= w[1].1));
    }

    #[test]
    fn ranking_never_shows_a_command_faster_than_the_best_and_never_panics(
        commands in prop::collection::vec(int_sample(1..20_000, 30), 0..6)
    ) {
        let samples: Vec<Sample> = commands.iter().map(|v| sample(v)).collect();
        let r = rank(&samples, &RankingSettings::default().rule()).unwrap();
        let mut order = r.order();
        order.sort_unstable();
        prop_assert_eq!(order, (0..samples.len()).collect::<Vec<_>>());
        prop_assert!(r.winners() <= samples.len());
        prop_assert_eq!(r.winners() >= 1, !samples.is_empty());
        let mut last = 0.0;
        for e in r.entries.iter().skip(1) {
            let compared = r.inference && e.n >= 5;
            prop_assert_eq!(e.comparison.is_some(), compared);
            prop_assert_eq!(matches!(e.verdict, Verdict::NotCompared { .. }), !compared);
            if let Some(c) = e.comparison {
                // Under the best: never faster, never a ratio below 1 (the
                // deciding scale), and the order follows the ratio.
                // (Unless the pairwise estimates are intransitive, which
                // the ranking says, and then nothing is shown slower.)
                let ratio = c.ratio.unwrap().estimate;
                if r.ambiguous_best {
                    prop_assert!(e.verdict != Verdict::Slower || ratio > 1.0);
                } else {
                    // The ratio decides; Δ below 0 only where it disagrees
                    // with a ratio above 1.
                    prop_assert!(ratio >= 1.0 && (c.shift >= 0.0 || ratio > 1.0), "{:?}", c);
                }
                prop_assert!(ratio >= last);
                last = ratio;
                prop_assert!(e.verdict != Verdict::Faster);
                let i = c.interval;
                prop_assert!(i.low <= c.shift && c.shift <= i.high);
            }
        }
    }
}
