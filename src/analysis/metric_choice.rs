//! `--metric NAME`: which metric the ranking and the reports are about.
//!
//! The names users give: `cpu` (total CPU time, user + system: the
//! default), `wall`, `user`, `system`, `rss` (peak memory), `ctxsw`
//! (context switches), and every further metric the data hold — the
//! catalogue's own names (`minflt`, `majflt`, `vcsw`, `icsw`, counters,
//! a command's custom metrics), their JSON keys or raw CSV column headers,
//! without regard to case ([`Catalogue::find`]). A custom metric exists
//! only once data are read or an experiment is set up, so a name is
//! resolved against the catalogue of the data at hand.

use crate::data::{Catalogue, Metric};

/// The short names of the fixed metrics, as `--metric`'s help promises
/// them, beside the catalogue's own (`total`, `maxrss`, `csw`).
const ALIASES: [(&str, Metric); 4] = [
    ("cpu", Metric::TOTAL),
    ("rss", Metric::MAXRSS),
    ("memory", Metric::MAXRSS),
    ("ctxsw", Metric::TOTAL_CSW),
];

/// The short names `--metric` lists first, in that order: the ones a user
/// reaches for (the time metrics, peak memory, context switches).
pub const SHORT_NAMES: [(&str, Metric); 6] = [
    ("cpu", Metric::TOTAL),
    ("wall", Metric::WALL),
    ("user", Metric::USER),
    ("system", Metric::SYSTEM),
    ("rss", Metric::MAXRSS),
    ("ctxsw", Metric::TOTAL_CSW),
];

/// The metric `name` means in `catalogue`, or an error that lists the names
/// there are.
pub fn resolve_metric(name: &str, catalogue: &Catalogue) -> Result<Metric, UnknownMetric> {
    let wanted = name.trim();
    ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(wanted))
        .map(|(_, m)| *m)
        .or_else(|| catalogue.find(wanted))
        .ok_or_else(|| UnknownMetric {
            name: wanted.to_owned(),
            known: known_names(catalogue),
        })
}

/// Every name `--metric` accepts for `catalogue`, the short ones first.
pub fn known_names(catalogue: &Catalogue) -> Vec<String> {
    let mut names: Vec<String> = SHORT_NAMES
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    for (metric, def) in catalogue.iter() {
        let covered = ALIASES.iter().any(|(_, m)| *m == metric)
            || names.iter().any(|n| n == def.name.as_ref());
        if !covered {
            names.push(def.name.to_string());
        }
    }
    names
}

/// A `--metric` name that the data do not have.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--metric {name}: no such metric in the data; choose one of {}", known.join(", "))]
pub struct UnknownMetric {
    pub name: String,
    pub known: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_and_catalogue_names_resolve() {
        let c = Catalogue::new();
        assert_eq!(resolve_metric("cpu", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric("CPU", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric("total", &c), Ok(Metric::TOTAL));
        assert_eq!(resolve_metric(" wall ", &c), Ok(Metric::WALL));
        assert_eq!(resolve_metric("user", &c), Ok(Metric::USER));
        assert_eq!(resolve_metric("system", &c), Ok(Metric::SYSTEM));
        assert_eq!(resolve_metric("rss", &c), Ok(Metric::MAXRSS));
        assert_eq!(resolve_metric("ctxsw", &c), Ok(Metric::TOTAL_CSW));
        assert_eq!(resolve_metric("majflt", &c), Ok(Metric::MAJOR_FAULTS));
        assert_eq!(resolve_metric("Wall clock (us)", &c), Ok(Metric::WALL));
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let e = resolve_metric("cycles", &Catalogue::new()).unwrap_err();
        assert_eq!(e.name, "cycles");
        assert_eq!(
            &e.known[..6],
            ["cpu", "wall", "user", "system", "rss", "ctxsw"]
        );
        assert!(e.known.contains(&"majflt".to_owned()));
        assert!(!e.known.contains(&"total".to_owned()), "{:?}", e.known);
        assert!(e.to_string().starts_with("--metric cycles: no such metric"));
    }

    #[test]
    fn registered_metrics_are_found_by_name() {
        use crate::data::{MetricDef, Unit};
        let mut c = Catalogue::new();
        let m = c
            .register(MetricDef::appended("score", Unit::Number))
            .unwrap();
        assert_eq!(resolve_metric("score", &c), Ok(m));
        assert!(known_names(&c).contains(&"score".to_owned()));
    }
}
