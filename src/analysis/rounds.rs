//! A metric's values as the analysis reads them from a dataset's columns,
//! a range of runs at a time: each command's in execution order
//! ([`metric_values`]), and every command's in complete rounds
//! ([`complete_rounds`]), the blocks of one run of each command that
//! interleaved and random orders make.

use crate::data::metric::Source;
use crate::data::{Attribute, CommandRuns, Dataset, Metric};

/// Per command, the values of `metric` in round order, when the rounds
/// are complete: every command comes from one experiment (one source, one
/// group of it), has the same number of runs, every run has its sequence
/// number, and the runs in execution order fall into blocks of one run of
/// each command (interleaved or random order; never sequential order, nor
/// files or groups measured separately, whose sequence numbers each start
/// at 1 and would make rounds of runs made apart). `None` otherwise.
pub fn complete_rounds(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<f64>>> {
    let k = dataset.commands.len();
    let first = dataset.commands.first()?;
    let r = first.len();
    if k < 2 || r == 0 || dataset.commands.iter().any(|c| c.len() != r) {
        return None;
    }
    let experiment = |c: &CommandRuns| (c.source, c.group);
    if (dataset.commands.iter()).any(|c| experiment(c) != experiment(first)) {
        return None;
    }
    match rounds_in_sequence(dataset, metric) {
        Some(rounds) => rounds,
        None => rounds_by_sorting(dataset, metric),
    }
}

/// [`complete_rounds`] by its definition: every run sorted by (sequence,
/// command), then cut into blocks of one run per command.
fn rounds_by_sorting(dataset: &Dataset, metric: Metric) -> Option<Vec<Vec<f64>>> {
    let (k, r) = (dataset.commands.len(), dataset.commands[0].len());
    let mut runs: Vec<(u64, usize, f64)> = Vec::with_capacity(k * r);
    for (i, c) in dataset.commands.iter().enumerate() {
        for run in 0..c.len() {
            let value = c.value(run, metric)?.as_f64();
            runs.push((c.sequence(run)?, i, value));
        }
    }
    runs.sort_by_key(|&(sequence, i, _)| (sequence, i));
    let mut rounds = vec![Vec::with_capacity(r); k];
    let mut seen = vec![usize::MAX; k];
    for (block, chunk) in runs.chunks(k).enumerate() {
        for &(_, i, value) in chunk {
            if seen[i] == block {
                return None;
            }
            seen[i] = block;
            rounds[i].push(value);
        }
    }
    Some(rounds)
}

/// [`complete_rounds`] without sorting every run, for the usual case:
/// each command's sequence numbers strictly increase in file order. The
/// runs of all commands sorted by (sequence, command) then fall into
/// blocks of one run each exactly when every command's run `b` precedes
/// every command's run `b + 1` (all pairs differ, so the order is total),
/// and block `b` holds the runs `b`. `None` when the case does not apply
/// (the general path decides), `Some(result)` otherwise.
///
/// The sequence numbers are read as integers a range of runs at a time,
/// every command in step, never all at once. A run without an integer
/// sequence number means no rounds, as the general path would find.
fn rounds_in_sequence(dataset: &Dataset, metric: Metric) -> Option<Option<Vec<Vec<f64>>>> {
    let commands = &dataset.commands;
    let r = commands[0].len();
    let mut rows: Vec<Vec<i64>> = vec![Vec::with_capacity(STEP.min(r)); commands.len()];
    // Each command's previous sequence number, and the largest (number,
    // command) of the previous round.
    let mut previous = vec![0u64; commands.len()];
    let mut last_of_round = (0u64, 0usize);
    let mut interleaved = true;
    for start in (0..r).step_by(STEP) {
        let range = start..(start + STEP).min(r);
        for (row, c) in rows.iter_mut().zip(commands) {
            row.clear();
            if !c.attribute_ints(Attribute::Sequence, range.clone(), row) {
                return Some(None);
            }
        }
        for b in range {
            let at = |i: usize| rows[i][b - start] as u64;
            if b > 0 && (0..commands.len()).any(|i| previous[i] >= at(i)) {
                return None; // not strictly increasing: the general path decides
            }
            if interleaved {
                let first = (0..commands.len()).map(|i| (at(i), i)).min();
                interleaved = b == 0 || first > Some(last_of_round);
                last_of_round = (0..commands.len()).map(|i| (at(i), i)).max()?;
            }
            for (i, p) in previous.iter_mut().enumerate() {
                *p = at(i);
            }
        }
    }
    if !interleaved {
        return Some(None);
    }
    let mut rounds = Vec::with_capacity(commands.len());
    for c in commands {
        let values = metric_values(c, metric);
        if values.len() != c.len() {
            // A run without the metric: no rounds (as the general path).
            return Some(None);
        }
        rounds.push(values);
    }
    Some(Some(rounds))
}

/// Runs read at a time from the columns.
const STEP: usize = 1 << 14;

/// [`CommandRuns::metric`]: the values of `metric` that are present, in
/// execution order. A derived sum (total CPU time, context switches)
/// whose every run is present as integers is read as integers a range of
/// runs at a time (`ints_range`, the same checked sums) and converted as
/// [`crate::data::Value::as_f64`] does, the same values without an
/// `Option<Value>` per run; anything else is `CommandRuns::metric`'s.
pub(super) fn metric_values(c: &CommandRuns, metric: Metric) -> Vec<f64> {
    if !matches!(metric.builtin().map(|d| d.source), Some(Source::Sum(..))) {
        return c.metric(metric);
    }
    let n = c.len();
    let mut out = Vec::with_capacity(n);
    let mut ints = Vec::with_capacity(STEP.min(n));
    for start in (0..n).step_by(STEP) {
        ints.clear();
        if !c.ints_range(metric, start..(start + STEP).min(n), &mut ints) {
            return c.metric(metric);
        }
        out.extend(ints.iter().map(|&v| v as f64));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::RunRecord;

    #[test]
    fn rounds_are_complete_only_when_every_block_holds_each_command_once() {
        let mk = |order: &[(usize, i64)]| {
            let records = order.iter().enumerate().map(|(s, &(c, t))| {
                RunRecord {
                    command: format!("c{c}"),
                    batch: c as u64 + 1,
                    sequence: Some(s as u64 + 1),
                    ..RunRecord::default()
                }
                .with(Metric::USER, t)
                .with(Metric::SYSTEM, 0)
            });
            Dataset::from_records(records.collect::<Vec<_>>())
        };
        // Random order: rounds (0,1), (1,0), (0,1).
        let d = mk(&[(0, 10), (1, 20), (1, 21), (0, 11), (0, 12), (1, 22)]);
        assert_eq!(
            complete_rounds(&d, Metric::TOTAL),
            Some(vec![vec![10.0, 11.0, 12.0], vec![20.0, 21.0, 22.0]])
        );
        // Sequential order: no rounds.
        let d = mk(&[(0, 10), (0, 11), (0, 12), (1, 20), (1, 21), (1, 22)]);
        assert_eq!(complete_rounds(&d, Metric::TOTAL), None);
    }

    /// Runs of `commands` commands in `order` (command of each run, in
    /// execution order), run r of command c taking `10_000·c + r % 97`
    /// µs of user time; `holes` lists (command, run) without a sequence
    /// number, `missing` those without system time.
    fn ordered(order: &[usize], holes: &[(usize, usize)], missing: &[(usize, usize)]) -> Dataset {
        let mut seen = vec![0; 1 + order.iter().max().copied().unwrap_or(0)];
        let records: Vec<RunRecord> = order
            .iter()
            .enumerate()
            .map(|(s, &c)| {
                let r = seen[c];
                seen[c] += 1;
                let mut record = RunRecord {
                    command: format!("c{c}"),
                    batch: c as u64 + 1,
                    sequence: (!holes.contains(&(c, r))).then_some(s as u64 + 1),
                    ..RunRecord::default()
                }
                .with(Metric::USER, 10_000 * c as i64 + (r % 97) as i64);
                if !missing.contains(&(c, r)) {
                    record = record.with(Metric::SYSTEM, (r % 13) as i64);
                }
                record
            })
            .collect();
        Dataset::from_records(records)
    }

    #[test]
    fn rounds_read_in_steps_are_the_rounds_by_definition() {
        // Past a few steps of runs, with the order broken at and around
        // a step's edge, runs without sequence numbers or without the
        // ranked metric, and the sequential order.
        let r = 2 * STEP + 5;
        let interleaved: Vec<usize> = (0..2 * r).map(|s| s % 2).collect();
        let mut random = interleaved.clone();
        let mut rng = crate::stats::SplitMix64::new(3);
        for pair in random.chunks_mut(2) {
            if rng.below(2) == 1 {
                pair.swap(0, 1);
            }
        }
        let mut broken = interleaved.clone();
        broken.swap(2 * STEP - 1, 2 * STEP); // rounds STEP − 1 and STEP mix
        let mut three: Vec<usize> = (0..3 * r).map(|s| s % 3).collect();
        three.swap(3 * STEP + 2, 3 * STEP + 3);
        let sequential: Vec<usize> = (0..2 * r).map(|s| s / r).collect();
        let cases = [
            (interleaved.clone(), vec![], vec![]),
            (random.clone(), vec![], vec![]),
            (broken, vec![], vec![]),
            (three, vec![], vec![]),
            (sequential, vec![], vec![]),
            (random.clone(), vec![(1, STEP + 3)], vec![]),
            (interleaved, vec![], vec![(0, 2 * STEP)]),
        ];
        for (i, (order, holes, missing)) in cases.into_iter().enumerate() {
            let d = ordered(&order, &holes, &missing);
            for metric in [Metric::USER, Metric::TOTAL] {
                let expected = rounds_by_sorting(&d, metric);
                assert_eq!(complete_rounds(&d, metric), expected, "case {i}");
                // The last case lacks system time, not user time.
                let complete = i < 2 || (i == 6 && metric == Metric::USER);
                assert_eq!(expected.is_some(), complete, "case {i}");
            }
        }
        // Files listing runs against the sequence (here: backwards): the
        // sorting path finds the rounds.
        let d = ordered(&random, &[], &[]);
        let backwards: Vec<RunRecord> = (0..2)
            .flat_map(|c| {
                let runs = &d.commands[c];
                let catalogue = &d.catalogue;
                (0..runs.len())
                    .rev()
                    .map(move |i| runs.record(i, catalogue))
            })
            .collect();
        let d = Dataset::from_records(backwards);
        assert_eq!(rounds_in_sequence(&d, Metric::TOTAL), None);
        let rounds = complete_rounds(&d, Metric::TOTAL).expect("rounds");
        assert_eq!(Some(&rounds), rounds_by_sorting(&d, Metric::TOTAL).as_ref());
        assert_eq!(rounds[0].len(), r);
    }

    #[test]
    fn derived_metrics_read_in_steps_are_the_columns_values() {
        let order: Vec<usize> = (0..2 * STEP + 9).map(|_| 0).collect();
        for missing in [vec![], vec![(0, 3)], vec![(0, STEP + 1)]] {
            let d = ordered(&order, &[], &missing);
            let c = &d.commands[0];
            for metric in [Metric::TOTAL, Metric::USER, Metric::SYSTEM] {
                let got = metric_values(c, metric);
                assert_eq!(got, c.metric(metric), "{metric:?} {missing:?}");
                assert_eq!(
                    got.len(),
                    c.len() - missing.len() * usize::from(metric != Metric::USER)
                );
            }
        }
        // Real values: the general path, the same sums.
        let records: Vec<RunRecord> = (0..5)
            .map(|i| {
                let mut r = RunRecord::default().with(Metric::USER, i);
                r.metrics
                    .set(Metric::SYSTEM, Some(crate::data::Value::Real(0.5)));
                r
            })
            .collect();
        let d = Dataset::from_records(records);
        let c = &d.commands[0];
        assert_eq!(metric_values(c, Metric::TOTAL), [0.5, 1.5, 2.5, 3.5, 4.5]);
    }
}
