//! `-c name=value[,name=value…]` settings (BestGuess's `-x`/`-c`).

use std::fmt;

use super::UsageError;

/// An amount in microseconds, or a percentage of the best command's median.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Amount {
    Micros(f64),
    Percent(f64),
}

impl fmt::Display for Amount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Amount::Micros(us) => write!(f, "{us} μs"),
            Amount::Percent(p) => write!(f, "{p}%"),
        }
    }
}

/// The tunable settings, with the C reference's defaults.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Width of the box plot (`-B`), 40..=1024 columns.
    pub width: usize,
    /// Significance level for p-values and 1 − confidence of intervals.
    pub alpha: f64,
    /// A confidence interval end this close to zero counts as zero.
    pub epsilon: Amount,
    /// The smallest Hodges–Lehmann shift that counts as a real difference.
    pub effect: Amount,
    /// The largest probability of superiority for a "slower" verdict.
    pub superiority: f64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            width: 80,
            alpha: 0.05,
            epsilon: Amount::Micros(250.0),
            effect: Amount::Micros(500.0),
            superiority: 0.333,
        }
    }
}

impl Settings {
    /// Apply one `-c` argument: a comma-separated list of `name=value`.
    pub fn apply(&mut self, arg: &str) -> Result<(), UsageError> {
        for item in arg.split(',') {
            let item = item.trim();
            let Some((name, value)) = item.split_once('=') else {
                return Err(UsageError(format!(
                    "setting '{item}' has no value: write name=value (names: width, alpha, epsilon, effect, super)"
                )));
            };
            let (name, value) = (name.trim(), unquote(value.trim()));
            if value.is_empty() {
                return Err(UsageError(format!("setting '{name}' has an empty value")));
            }
            match name {
                "width" => {
                    let w: usize = value
                        .parse()
                        .map_err(|_| bad(name, value, "a whole number of columns from 40 to 1024"))?;
                    if !(40..=1024).contains(&w) {
                        return Err(bad(name, value, "a whole number of columns from 40 to 1024"));
                    }
                    self.width = w;
                }
                "alpha" => self.alpha = fraction(name, value, false)?,
                "super" => self.superiority = fraction(name, value, true)?,
                "epsilon" => self.epsilon = amount(name, value)?,
                "effect" => self.effect = amount(name, value)?,
                _ => {
                    return Err(UsageError(format!(
                        "unknown setting '{name}': the settings are width, alpha, epsilon, effect, super"
                    )))
                }
            }
        }
        Ok(())
    }

    /// The `--config` listing.
    pub fn describe(&self) -> String {
        format!(
            "  width = {}\n  alpha = {}\n effect = {}\nepsilon = {}\n  super = {}\n",
            self.width, self.alpha, self.effect, self.epsilon, self.superiority
        )
    }
}

fn unquote(v: &str) -> &str {
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return &v[1..v.len() - 1];
        }
    }
    v
}

fn bad(name: &str, value: &str, expected: &str) -> UsageError {
    UsageError(format!(
        "setting {name}={value} is invalid: expected {expected}"
    ))
}

fn number(name: &str, value: &str, expected: &str) -> Result<f64, UsageError> {
    value
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| bad(name, value, expected))
}

fn fraction(name: &str, value: &str, closed: bool) -> Result<f64, UsageError> {
    let expected = if closed {
        "a number from 0 to 1"
    } else {
        "a number between 0 and 1 (exclusive)"
    };
    let v = number(name, value, expected)?;
    let ok = if closed {
        (0.0..=1.0).contains(&v)
    } else {
        v > 0.0 && v < 1.0
    };
    if ok {
        Ok(v)
    } else {
        Err(bad(name, value, expected))
    }
}

fn amount(name: &str, value: &str) -> Result<Amount, UsageError> {
    let expected =
        "microseconds (e.g. 500) or a percentage of the best median (e.g. 2%), not negative";
    let (digits, percent) = match value.strip_suffix('%') {
        Some(d) => (d.trim(), true),
        None => (
            value
                .strip_suffix("us")
                .or(value.strip_suffix("μs"))
                .unwrap_or(value)
                .trim(),
            false,
        ),
    };
    let v = number(name, digits, expected)?;
    if v < 0.0 {
        return Err(bad(name, value, expected));
    }
    Ok(if percent {
        Amount::Percent(v)
    } else {
        Amount::Micros(v)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_references() {
        let s = Settings::default();
        assert_eq!(
            s.describe(),
            "  width = 80\n  alpha = 0.05\n effect = 500 μs\nepsilon = 250 μs\n  super = 0.333\n"
        );
    }

    #[test]
    fn lists_quotes_and_percentages() {
        let mut s = Settings::default();
        s.apply("width=100,alpha=\".01\"").unwrap();
        s.apply("effect=2%, epsilon=100us").unwrap();
        s.apply("super=1").unwrap();
        assert_eq!(s.width, 100);
        assert_eq!(s.alpha, 0.01);
        assert_eq!(s.effect, Amount::Percent(2.0));
        assert_eq!(s.epsilon, Amount::Micros(100.0));
        assert_eq!(s.superiority, 1.0);
    }

    #[test]
    fn ranges_and_names_are_checked() {
        let mut s = Settings::default();
        for bad in [
            "width=30",
            "width=2000",
            "width=80.5",
            "alpha=0",
            "alpha=1",
            "alpha=x",
            "super=1.5",
            "effect=-1",
            "epsilon=nan",
            "bogus=1",
            "alpha",
            "alpha=",
            "effect=inf",
        ] {
            assert!(s.apply(bad).is_err(), "{bad} should be rejected");
        }
        assert_eq!(s, Settings::default(), "a rejected setting changes nothing");
        assert!(s.apply("width=30").unwrap_err().0.contains("40 to 1024"));
    }
}
