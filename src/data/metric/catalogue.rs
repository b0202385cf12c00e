//! The metrics of one dataset or experiment: the fixed ones and those
//! registered at run time, found by name, key or column.

use super::{intern, Metric, MetricDef, RawColumn, Source, BUILTINS};

/// The metrics of one experiment or dataset: the fixed ones, then those
/// registered at run time, in that order (report order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Catalogue {
    metrics: Vec<Metric>,
}

impl Default for Catalogue {
    fn default() -> Self {
        Catalogue {
            metrics: (0..BUILTINS.len()).map(|i| Metric(i as u16)).collect(),
        }
    }
}

/// Why a metric could not be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CatalogueError {
    #[error("a metric named '{0}' (or with that column or key) already exists with another meaning; choose another name")]
    Clash(String),
    #[error("too many different metrics (at most {0}); measure fewer counters or custom metrics")]
    Full(usize),
    #[error("a registered metric must be stored, appended and optional ('{0}')")]
    NotAppended(String),
}

impl Catalogue {
    /// A catalogue of the fixed metrics only.
    pub fn new() -> Catalogue {
        Catalogue::default()
    }

    /// Number of metrics (fixed and registered).
    pub fn len(&self) -> usize {
        self.metrics.len()
    }

    /// Never empty: the fixed metrics are always there.
    pub fn is_empty(&self) -> bool {
        self.metrics.is_empty()
    }

    /// Every metric, fixed ones first, in report order.
    pub fn metrics(&self) -> impl ExactSizeIterator<Item = Metric> + Clone + '_ {
        self.metrics.iter().copied()
    }

    /// Every metric with its description.
    pub fn iter(&self) -> impl Iterator<Item = (Metric, &'static MetricDef)> + Clone + '_ {
        self.metrics().map(|m| (m, m.def()))
    }

    /// The description of `metric` (the same as [`Metric::def`]).
    pub fn def(&self, metric: Metric) -> &'static MetricDef {
        metric.def()
    }

    /// Whether this catalogue has `metric`.
    pub fn contains(&self, metric: Metric) -> bool {
        self.metrics.contains(&metric)
    }

    /// One past the largest metric number here (the length a per-metric
    /// table indexed by [`Metric::index`] needs).
    pub fn index_bound(&self) -> usize {
        self.metrics
            .iter()
            .map(|m| m.index() + 1)
            .max()
            .unwrap_or(0)
    }

    /// The metric with this raw CSV column header, if any.
    pub fn by_column(&self, column: &str) -> Option<Metric> {
        self.iter()
            .find(|(_, d)| d.column == column)
            .map(|(m, _)| m)
    }

    /// The metric a user means by `name`: its name, JSON key or column
    /// header, compared without regard to ASCII case.
    pub fn find(&self, name: &str) -> Option<Metric> {
        let name = name.trim();
        self.iter()
            .find(|(_, d)| {
                [&d.name, &d.key, &d.column]
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(name))
            })
            .map(|(m, _)| m)
    }

    /// Adds a metric known only at run time (a counter, a custom metric) and
    /// returns its id; registering the same description again returns the
    /// same id. It must be stored, appended to the raw CSV and optional, and
    /// its name, column and key must be new to this catalogue.
    pub fn register(&mut self, def: MetricDef) -> Result<Metric, CatalogueError> {
        if def.raw != RawColumn::Appended || def.source != Source::Stored || !def.optional {
            return Err(CatalogueError::NotAppended(def.name.into_owned()));
        }
        for (m, existing) in self.iter() {
            let same_name = existing.name == def.name
                || existing.column == def.column
                || existing.key == def.key;
            if same_name {
                return if *existing == def {
                    Ok(m)
                } else {
                    Err(CatalogueError::Clash(def.name.into_owned()))
                };
            }
        }
        let metric = intern(def).ok_or(CatalogueError::Full(usize::from(u16::MAX)))?;
        self.metrics.push(metric);
        Ok(metric)
    }

    /// The registered (appended) metrics, in registration order.
    pub fn appended(&self) -> impl Iterator<Item = (Metric, &'static MetricDef)> + '_ {
        self.iter().skip(BUILTINS.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::metric::Unit;

    fn custom(name: &str) -> MetricDef {
        MetricDef::appended(name, Unit::Number)
    }

    #[test]
    fn find_by_name_key_or_column() {
        let c = Catalogue::new();
        assert_eq!(c.find("wall"), Some(Metric::WALL));
        assert_eq!(c.find("USER_US"), Some(Metric::USER));
        assert_eq!(c.find("Page Reclaims"), Some(Metric::MINOR_FAULTS));
        assert_eq!(c.find("nonsense"), None);
        assert_eq!(c.by_column("Wall clock (us)"), Some(Metric::WALL));
    }

    #[test]
    fn registered_metrics_follow_the_fixed_ones() {
        let mut c = Catalogue::new();
        let a = c.register(custom("tokens")).unwrap();
        let b = c.register(custom("score")).unwrap();
        assert!(a.index() >= BUILTINS.len() && b.index() >= BUILTINS.len() && a != b);
        assert_eq!((a.label(), b.unit()), ("tokens", Unit::Number));
        // The same description elsewhere is the same metric.
        assert_eq!(Catalogue::new().register(custom("score")), Ok(b));
        assert_eq!(
            c.register(custom("tokens")),
            Ok(a),
            "same description, same id"
        );
        let mut clash = custom("tokens");
        clash.unit = Unit::Bytes;
        assert!(matches!(c.register(clash), Err(CatalogueError::Clash(_))));
        let mut builtin_name = custom("x");
        builtin_name.name = "wall".into();
        assert!(c.register(builtin_name).is_err());
        assert!(c.register(BUILTINS[1].clone()).is_err());
        assert_eq!(c.find("score"), Some(b));
        assert_eq!(c.appended().map(|(m, _)| m).collect::<Vec<_>>(), [a, b]);
        assert_eq!(c.len(), BUILTINS.len() + 2);
    }
}
