//! Parameter scans and lists (Hyperfine's `-P` and `-L`): the values of
//! each parameter, their cross product, and `{NAME}` substitution.
//!
//! A scan's values are computed in exact decimal arithmetic (`-P d 0.3 0.7
//! --parameter-step-size 0.2` gives `0.3`, `0.5`, `0.7`, never
//! `0.49999999999999994`), written with as many decimals as the most precise
//! of MIN, MAX and the step. Combinations follow Hyperfine's order: the
//! first parameter varies fastest. Substitution is one pass over the text,
//! so a value that itself contains `{other}` is never substituted again
//! (as Hyperfine does).

use std::fmt;

/// One parameter: its name and values, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parameter {
    pub name: String,
    pub values: Vec<String>,
}

/// One combination of parameter values: `(name, value)` in parameter order.
pub type Binding = Vec<(String, String)>;

/// Why a scan cannot be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error("'{0}' is not a decimal number (such as 5, -2 or 0.25)")]
    NotDecimal(String),
    #[error(
        "'{0}' has more than 18 digits; a scan's numbers have at most 18 (from \
         -999999999999999999 to 999999999999999999, or as many decimals as the digits allow)"
    )]
    TooManyDigits(String),
    #[error("MIN {min} is greater than MAX {max}")]
    Reversed { min: String, max: String },
    #[error("the step {0} must be greater than 0")]
    Step(String),
    #[error("{count} values; at most {max} are allowed (use a larger --parameter-step-size)")]
    TooMany { count: u128, max: usize },
}

/// The most values one scan, or the whole cross product, may have: beyond
/// this a scan is a typo, and every value is a command to measure.
pub const MAX_VALUES: usize = 100_000;

/// A decimal number as an integer and a count of decimals: 0.25 = (25, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decimal {
    units: i128,
    scale: u32,
}

impl Decimal {
    fn parse(text: &str) -> Result<Decimal, ScanError> {
        let bad = || ScanError::NotDecimal(text.to_string());
        let t = text.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() && frac.is_empty()
            || !whole
                .chars()
                .chain(frac.chars())
                .all(|c| c.is_ascii_digit())
        {
            return Err(bad());
        }
        if whole.len() + frac.len() > 18 {
            return Err(ScanError::TooManyDigits(text.trim().to_string()));
        }
        let units: i128 = format!("{whole}{frac}").parse().map_err(|_| bad())?;
        Ok(Decimal {
            units: if negative { -units } else { units },
            scale: frac.len() as u32,
        })
    }

    fn rescale(self, scale: u32) -> i128 {
        self.units * 10i128.pow(scale - self.scale)
    }
}

/// `units` at `scale` decimals, as text: (5, 1) = "0.5", (-15, 1) = "-1.5".
struct Fixed(i128, u32);

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Fixed(units, scale) = *self;
        if scale == 0 {
            return write!(f, "{units}");
        }
        let p = 10i128.pow(scale);
        let sign = if units < 0 { "-" } else { "" };
        let a = units.unsigned_abs();
        let p = p as u128;
        write!(
            f,
            "{sign}{}.{:0width$}",
            a / p,
            a % p,
            width = scale as usize
        )
    }
}

/// The step of a `-P` scan without `--parameter-step-size`.
pub const DEFAULT_STEP: &str = "1";

impl Parameter {
    /// `-P NAME MIN MAX` with an optional step (default [`DEFAULT_STEP`]):
    /// MIN, MIN+step, … up to and including MAX when a step lands on it.
    pub fn scan(
        name: &str,
        min: &str,
        max: &str,
        step: Option<&str>,
    ) -> Result<Parameter, ScanError> {
        let (lo, hi) = (Decimal::parse(min)?, Decimal::parse(max)?);
        let st = Decimal::parse(step.unwrap_or(DEFAULT_STEP))?;
        let scale = lo.scale.max(hi.scale).max(st.scale);
        let (lo_u, hi_u, st_u) = (lo.rescale(scale), hi.rescale(scale), st.rescale(scale));
        if st_u <= 0 {
            return Err(ScanError::Step(
                step.unwrap_or(DEFAULT_STEP).trim().to_string(),
            ));
        }
        if lo_u > hi_u {
            return Err(ScanError::Reversed {
                min: min.trim().to_string(),
                max: max.trim().to_string(),
            });
        }
        let count = ((hi_u - lo_u) / st_u) as u128 + 1;
        if count > MAX_VALUES as u128 {
            return Err(ScanError::TooMany {
                count,
                max: MAX_VALUES,
            });
        }
        let values = (0..count as i128)
            .map(|k| Fixed(lo_u + k * st_u, scale).to_string())
            .collect();
        Ok(Parameter {
            name: name.to_string(),
            values,
        })
    }

    /// `-L NAME V1,V2,…`: the values as written, empty ones included.
    pub fn list(name: &str, values: &str) -> Parameter {
        Parameter {
            name: name.to_string(),
            values: values.split(',').map(str::to_string).collect(),
        }
    }
}

/// Every combination of the parameters' values, the first parameter
/// varying fastest (Hyperfine's order). No parameters: one empty binding.
pub fn combinations(params: &[Parameter]) -> Vec<Binding> {
    let mut out: Vec<Binding> = vec![Vec::new()];
    for p in params {
        // Each new parameter varies slower than all before it.
        out = p
            .values
            .iter()
            .flat_map(|v| {
                out.iter().map(move |b| {
                    let mut b = b.clone();
                    b.push((p.name.clone(), v.clone()));
                    b
                })
            })
            .collect();
    }
    out
}

/// The number of combinations, or `None` if it overflows.
pub fn count(params: &[Parameter]) -> Option<usize> {
    params
        .iter()
        .try_fold(1usize, |n, p| n.checked_mul(p.values.len()))
}

/// `text` with every `{NAME}` of `binding` replaced by its value, in one
/// pass (a substituted value is not substituted again).
pub fn substitute(text: &str, binding: &[(String, String)]) -> String {
    if binding.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    'outer: while let Some(c) = rest.chars().next() {
        if c == '{' {
            for (name, value) in binding {
                if let Some(after) = rest[1..]
                    .strip_prefix(name.as_str())
                    .and_then(|r| r.strip_prefix('}'))
                {
                    out.push_str(value);
                    rest = after;
                    continue 'outer;
                }
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The experiment's commands in order: every command for the first
/// combination, then every command for the next (Hyperfine's order, the
/// command varying fastest), as (command index, binding).
pub fn expansion(
    commands: usize,
    combos: &[Binding],
) -> impl Iterator<Item = (usize, &Binding)> + '_ {
    combos
        .iter()
        .flat_map(move |b| (0..commands).map(move |i| (i, b)))
}

/// Whether `text` mentions `{name}`.
pub fn mentions(text: &str, name: &str) -> bool {
    text.contains(&format!("{{{name}}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(min: &str, max: &str, step: Option<&str>) -> Result<Vec<String>, ScanError> {
        Parameter::scan("x", min, max, step).map(|p| p.values)
    }

    #[test]
    fn integer_scans_include_both_ends() {
        assert_eq!(scan("1", "4", None).unwrap(), ["1", "2", "3", "4"]);
        assert_eq!(scan("-2", "0", None).unwrap(), ["-2", "-1", "0"]);
        assert_eq!(scan("3", "3", None).unwrap(), ["3"]);
        assert_eq!(scan("0", "10", Some("4")).unwrap(), ["0", "4", "8"]);
    }

    #[test]
    fn decimal_steps_are_exact() {
        assert_eq!(
            scan("0.3", "0.7", Some("0.2")).unwrap(),
            ["0.3", "0.5", "0.7"]
        );
        assert_eq!(
            scan("0", "0.3", Some("0.1")).unwrap(),
            ["0.0", "0.1", "0.2", "0.3"]
        );
        assert_eq!(
            scan("-0.5", "0.5", Some("0.5")).unwrap(),
            ["-0.5", "0.0", "0.5"]
        );
        assert_eq!(scan("1", "2", Some("0.25")).unwrap().len(), 5);
    }

    #[test]
    fn bad_scans_say_why() {
        assert_eq!(
            scan("5", "1", None).unwrap_err(),
            ScanError::Reversed {
                min: "5".into(),
                max: "1".into()
            }
        );
        assert_eq!(
            scan("1", "5", Some("0")).unwrap_err(),
            ScanError::Step("0".into())
        );
        assert_eq!(
            scan("1", "5", Some("-1")).unwrap_err(),
            ScanError::Step("-1".into())
        );
        for bad in ["1e3", "x", "", "1.2.3", "--1", "0x10", "inf", "nan"] {
            assert_eq!(
                scan(bad, "5", None).unwrap_err(),
                ScanError::NotDecimal(bad.into()),
                "{bad}"
            );
        }
        assert!(matches!(
            scan("0", "1000000000000", None).unwrap_err(),
            ScanError::TooMany {
                count: 1_000_000_000_001,
                ..
            }
        ));
        assert!(scan("0", "99999", None).is_ok());
        for long in ["9999999999999999999", "0.0000000000000000001"] {
            let e = scan("0", long, None).unwrap_err();
            assert_eq!(e, ScanError::TooManyDigits(long.into()));
            assert!(e.to_string().contains("at most 18"), "{e}");
        }
        let e = scan("0", "1", Some("0.000000000000000001")).unwrap_err();
        assert!(matches!(e, ScanError::TooManyDigits(_)), "{e}");
    }

    #[test]
    fn lists_keep_every_value_as_written() {
        assert_eq!(Parameter::list("c", "gcc,clang").values, ["gcc", "clang"]);
        assert_eq!(Parameter::list("o", ",-O2").values, ["", "-O2"]);
    }

    #[test]
    fn the_cross_product_varies_the_first_parameter_fastest() {
        let params = [Parameter::list("a", "x,y"), Parameter::list("b", "1,2,3")];
        let combos = combinations(&params);
        let flat: Vec<String> = combos
            .iter()
            .map(|b| {
                b.iter()
                    .map(|(_, v)| v.as_str())
                    .collect::<Vec<_>>()
                    .join("")
            })
            .collect();
        assert_eq!(flat, ["x1", "y1", "x2", "y2", "x3", "y3"]);
        assert_eq!(count(&params), Some(6));
        assert_eq!(combinations(&[]), [Vec::new()]);
    }

    #[test]
    fn substitution_is_one_pass_and_leaves_other_braces() {
        let b: Binding = vec![
            ("foo".into(), "a,{bar}".into()),
            ("bar".into(), "baz".into()),
        ];
        assert_eq!(substitute("echo {foo} {bar}", &b), "echo a,{bar} baz");
        assert_eq!(
            substitute("awk '{print}' {bar}{bar}", &b),
            "awk '{print}' bazbaz"
        );
        assert_eq!(substitute("{ba}{barr}{", &b), "{ba}{barr}{");
        assert_eq!(substitute("é{bar}ü", &b), "ébazü");
        assert!(mentions("make -j {threads}", "threads"));
        assert!(!mentions("make -j {thread}", "threads"));
    }
}
