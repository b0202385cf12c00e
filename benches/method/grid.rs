//! The grid's cells, group by group.

use crate::model::{Cell, Dist, Drift, Order};

pub(crate) fn shapes() -> Vec<Cell> {
    let mut cells = Vec::new();
    let shapes: [(&str, Dist, f64); 7] = [
        ("lognormal σ 0.02", Dist::LogNormal(10_000.0, 0.02), 1.0),
        ("lognormal σ 0.05", Dist::LogNormal(10_000.0, 0.05), 1.0),
        ("lognormal σ 0.3", Dist::LogNormal(10_000.0, 0.3), 1.0),
        ("heavy right tail", Dist::Heavy(10_000.0, 0.05), 1.0),
        (
            "10 ms ticks, 20 ms",
            Dist::LogNormal(20_000.0, 0.25),
            10_000.0,
        ),
        ("100 µs ticks, 1 ms", Dist::LogNormal(1_000.0, 0.1), 100.0),
        (
            "100 µs ticks, 10 ms",
            Dist::LogNormal(10_000.0, 0.02),
            100.0,
        ),
    ];
    for (shape, dist, tick) in shapes {
        for n in [7, 10, 30, 100, 1000] {
            for order in [Order::Random, Order::Sequential] {
                cells.push(Cell::two(shape, dist, dist, (n, n), order, tick));
            }
        }
    }
    cells
}

/// Different shapes at equal medians (the others scaled so that the
/// ratio of population medians is exactly the factor): where the median
/// of within-round ratios and the ratio of medians part.
pub(crate) fn different() -> Vec<Cell> {
    let mut cells = Vec::new();
    let pairs: [(&str, Dist, Dist); 3] = [
        (
            "lognormal σ 0.1 v. shifted exp.",
            Dist::LogNormal(10_000.0, 0.1),
            Dist::ShiftedExp(9_000.0, 1_000.0 / std::f64::consts::LN_2),
        ),
        (
            "σ 0.05 v. sometimes slow",
            Dist::LogNormal(10_000.0, 0.05),
            Dist::SometimesSlow(10_000.0, 0.05),
        ),
        (
            "σ 0.02 v. σ 0.3",
            Dist::LogNormal(10_000.0, 0.02),
            Dist::LogNormal(10_000.0, 0.3),
        ),
    ];
    for (shape, first, others) in pairs {
        for n in [10, 30, 100, 1000] {
            for order in [Order::Random, Order::Sequential] {
                cells.push(Cell {
                    matched: true,
                    ..Cell::two(shape, first, others, (n, n), order, 1.0)
                });
            }
        }
    }
    cells
}

/// Five commands, the four others equally slow (lognormal σ 0.3): no
/// command's luck may block another's verdict.
pub(crate) fn slow() -> Vec<Cell> {
    let mut cells = Vec::new();
    let dist = Dist::LogNormal(10_000.0, 0.3);
    for n in [8, 10, 12, 15, 20, 30] {
        for order in [Order::Random, Order::Sequential] {
            cells.push(Cell {
                commands: 5,
                ..Cell::two("lognormal σ 0.3", dist, dist, (n, n), order, 1.0)
            });
        }
    }
    cells
}

/// The first command's median with nothing just below it, the four
/// others' with nothing just above: equal medians, the union bound tight.
pub(crate) fn gap_cross(i: usize) -> Dist {
    if i == 0 {
        Dist::GapBelow(10_000.0, 0.2)
    } else {
        Dist::GapAbove(10_000.0)
    }
}

/// Five commands with nothing just below their equal medians, each the
/// rest deeper (1/3, 1/9, …): the command whose upper bound fails is the
/// data's best.
pub(crate) fn gap_stairs(i: usize) -> Dist {
    Dist::GapBelow(10_000.0, 3f64.powi(-(i as i32 + 1)))
}

pub(crate) fn gaps() -> Vec<Cell> {
    let mut cells = Vec::new();
    for (shape, each) in [
        ("gaps across", gap_cross as fn(usize) -> Dist),
        ("gaps in stairs", gap_stairs),
    ] {
        for n in [8, 12, 30] {
            cells.push(Cell {
                commands: 5,
                each: Some(each),
                ..Cell::two(shape, each(0), each(1), (n, n), Order::Random, 1.0)
            });
        }
    }
    cells
}

pub(crate) fn awkward() -> Vec<Cell> {
    let mut cells = Vec::new();
    let seq = |shape, first, others, runs, tick| {
        Cell::two(shape, first, others, runs, Order::Sequential, tick)
    };
    for n in [7, 10, 30, 100] {
        let (a, b) = (
            Dist::LogNormal(10_000.0, 0.05),
            Dist::LogNormal(10_000.0, 0.15),
        );
        cells.push(seq("spread 1:3", a, b, (n, n), 1.0));
        cells.push(seq("spread 1:3", a, b, (4 * n, n), 1.0));
        let (a, b) = (
            Dist::LogNormal(10_000.0, 0.01),
            Dist::LogNormal(10_000.0, 0.4),
        );
        cells.push(seq("spread 1:40", a, b, (n, n), 1.0));
        cells.push(seq("spread 1:40", a, b, (4 * n, n), 1.0));
    }
    for many in [50, 200, 1000] {
        for few in [7, 8] {
            cells.push(seq(
                "4 values v. spread",
                Dist::FourValues(1.0),
                Dist::LogNormal(1_100.0, 0.05),
                (many, few),
                1.0,
            ));
        }
    }
    for (first, others) in [(7, 50), (50, 7), (30, 30)] {
        cells.push(seq(
            "constant",
            Dist::Constant(1_000.0),
            Dist::Constant(1_000.0),
            (first, others),
            1.0,
        ));
        cells.push(seq(
            "constant v. spread",
            Dist::Constant(1_000.0),
            Dist::LogNormal(1_000.0, 0.05),
            (first, others),
            1.0,
        ));
    }
    // Whole-tick shifts are the ×f rows of the tick shapes in `shapes`;
    // here the other command one tick slower at 1 ms on 100 µs ticks is
    // the margin's neighbour (+10 %), see `tick_shifts`.
    cells
}

pub(crate) fn commands() -> Vec<Cell> {
    let mut cells = Vec::new();
    let dist = Dist::LogNormal(10_000.0, 0.05);
    for k in [2, 5, 10] {
        for n in [8, 10, 30, 100] {
            for order in [Order::Random, Order::Sequential] {
                for drift in [Drift::None, Drift::Linear, Drift::Step] {
                    if k == 2 && drift == Drift::None {
                        continue; // in `shapes`
                    }
                    cells.push(Cell {
                        commands: k,
                        drift,
                        ..Cell::two("lognormal σ 0.05", dist, dist, (n, n), order, 1.0)
                    });
                }
            }
        }
    }
    cells
}
