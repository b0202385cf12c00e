//! Property tests of the statistics engine: invariants that hold for every
//! input, checked on random samples (proptest), including heavy ties and
//! values spanning the whole accepted range.

use bestguess::analysis::RankingSettings;
use bestguess::stats::{
    comparable, compare, hodges_lehmann, holm_adjust, kth_pairwise_difference, mann_whitney,
    pairwise_difference_count, quantile, rank_with, Alpha, CompareOptions, Contrast, Design,
    MedianBounds, RankOptions, Sample, Scale, Summary, Verdict,
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

fn options(alpha: f64) -> CompareOptions {
    CompareOptions {
        design: Design::Independent,
        scale: Scale::Difference,
        gamma: alpha,
        alpha: Alpha::new(alpha).unwrap(),
        family: 1,
        classic: true,
    }
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
    fn bounds_contain_the_estimate_and_their_misses_are_levels(
        x in int_sample(0..50, 70), y in int_sample(1..60, 70), gamma in 0.001..0.5f64
    ) {
        let (a, b) = (sample(&x), sample(&y));
        let (ra, rb) = (MedianBounds::of(a.sorted(), gamma), MedianBounds::of(b.sorted(), gamma));
        // A median is bounded exactly when its extreme values reach gamma.
        prop_assert_eq!(ra.is_some(), 0.5f64.powi(x.len() as i32) <= gamma);
        let (Some(ra), Some(rb)) = (ra, rb) else {
            return Ok(());
        };
        for m in [ra, rb] {
            prop_assert!(m.low <= m.median && m.median <= m.high, "{:?}", m);
            prop_assert!(m.miss > 0.0 && m.miss <= gamma);
        }
        for scale in [Scale::Difference, Scale::Ratio] {
            if scale == Scale::Ratio && a.min() <= 0.0 {
                continue;
            }
            let c = Contrast::between(&ra, &rb, scale).unwrap();
            prop_assert!(c.low <= c.estimate && c.estimate <= c.high, "{:?}", c);
            prop_assert_eq!(c.low_miss, ra.miss + rb.miss);
            prop_assert!(c.confidence() < 1.0);
        }
        let k = compare(&a, &b, options(gamma)).unwrap().classic.unwrap();
        prop_assert!(k.shift_low <= k.shift && k.shift <= k.shift_high);
        prop_assert!((0.0..=1.0).contains(&k.superiority));
    }

    #[test]
    fn scaling_both_commands_leaves_the_ratio_alone(
        x in int_sample(1..500, 40), factor in 1u32..1000
    ) {
        let y: Vec<f64> = x.iter().rev().map(|v| v * 3.0).collect();
        let f = f64::from(factor);
        let xs: Vec<f64> = x.iter().map(|v| v * f).collect();
        let ys: Vec<f64> = y.iter().map(|v| v * f).collect();
        let contrast = |r: &[f64], o: &[f64]| {
            let bounds = |v: &[f64]| MedianBounds::of(sample(v).sorted(), 0.4);
            Some(Contrast::between(&bounds(r)?, &bounds(o)?, Scale::Ratio).unwrap())
        };
        if let (Some(before), Some(after)) = (contrast(&x, &y), contrast(&xs, &ys)) {
            prop_assert!((before.estimate - after.estimate).abs() <= 1e-12 * before.estimate);
            prop_assert!((before.low - after.low).abs() <= 1e-12 * before.low);
            prop_assert!((before.high - after.high).abs() <= 1e-12 * before.high);
        }
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
        let other = sample(&y);
        prop_assert_eq!(compare(&a, &other, options(0.05)), compare(&b, &other, options(0.05)));
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
        if let Some(c) = compare(&a, &b, options(0.05)) {
            let k = c.classic.unwrap();
            all.extend([
                k.mann_whitney.u, k.mann_whitney.w, k.mann_whitney.p_value, k.shift,
                k.shift_low, k.shift_high, k.shift_confidence, k.superiority,
                c.contrast.estimate, c.contrast.low, c.contrast.high, c.contrast.confidence(),
            ]);
        }
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
    fn ranking_never_shows_a_slower_command_faster_than_the_best(
        commands in prop::collection::vec(int_sample(1..20_000, 30), 0..6),
        in_rounds in any::<bool>(),
        reference in prop::option::of(0usize..6)
    ) {
        let samples: Vec<Sample> = commands.iter().map(|v| sample(v)).collect();
        let settings = RankingSettings::default().rule();
        let options = RankOptions {
            rounds: in_rounds.then(|| commands.first().map_or(0, Vec::len)),
            reference,
            classic: false,
        };
        let r = rank_with(&samples, options, &settings).unwrap();
        let mut order = r.order();
        order.sort_unstable();
        prop_assert_eq!(order, (0..samples.len()).collect::<Vec<_>>());
        prop_assert_eq!(r.winners() >= 1, !samples.is_empty());
        let counts: Vec<usize> = commands.iter().map(Vec::len).collect();
        let can = comparable(&counts, settings.alpha);
        let best = r.best().map_or(0.0, |b| b.median);
        let mut last = f64::NEG_INFINITY;
        for e in r.entries.iter().skip(1) {
            prop_assert_eq!(e.comparison.is_some(), r.inference && can[e.index]);
            prop_assert_eq!(e.runs_needed.is_some(), !(r.inference && can[e.index]));
            if let Some(c) = e.comparison {
                let b = c.contrast;
                prop_assert!(b.low <= b.estimate && b.estimate <= b.high);
                prop_assert!(b.confidence() < 1.0);
                if e.verdict == Verdict::Slower {
                    // Slower: above the best in what the table shows too.
                    prop_assert!(e.median >= best && b.low > 1.0, "{:?}", e);
                }
                if !r.fixed_reference {
                    prop_assert!(e.verdict != Verdict::Faster);
                    prop_assert!(e.median >= last);
                    last = e.median;
                }
            }
        }
        if let Some(together) = r.simultaneous_confidence {
            prop_assert!((1.0 - settings.alpha..1.0).contains(&together));
        }
        // How the runs were made changes no verdict.
        let other = RankOptions { rounds: None, ..options };
        let verdicts = |r: &bestguess::stats::Ranking| {
            r.entries.iter().map(|e| (e.index, e.verdict)).collect::<Vec<_>>()
        };
        prop_assert_eq!(verdicts(&rank_with(&samples, other, &settings).unwrap()), verdicts(&r));
        // The same data and reference give the same verdicts, fixed or chosen.
        if let (false, Some(b)) = (r.fixed_reference, r.best()) {
            let fixed = rank_with(
                &samples,
                RankOptions { reference: Some(b.index), ..options },
                &settings,
            )
            .unwrap();
            prop_assert_eq!(verdicts(&fixed), verdicts(&r));
        }
    }
}
