//! The option table: one entry per option, and nothing else knows the
//! options' names.
//!
//! Each [`Flag`] carries its names (short, long and aliases), the names of
//! the values it takes, its help line, which program accepts it, a hint for
//! shell completions, and how it applies itself to the low-level [`Args`]
//! (its `update`). Parsing ([`super::args`]), `--help`
//! ([`super::help`]), the man page and the shell completions
//! ([`super::generate`]) are all generated from [`all`]; there is no second
//! `match` on option names anywhere (ripgrep's `Flag` trait, as data).
//!
//! Export options come from [`Format::ALL`](crate::export::Format::ALL) and hook options from
//! [`HookKind::ALL`](crate::experiment::HookKind::ALL), so a new export format or hook kind is a new option
//! without touching this file.
//!
//! How to add an option: add one entry to its group in [`table`] (names,
//! value names, scope, help, and the closure that stores the value in a new
//! field of [`Args`]),
//! then turn that field into its typed value in [`super::config`]. The tests
//! check that every entry parses, and appears in `--help` and the man page.
//!
//! A default a help line states is taken from the constant or `Default`
//! the owning stage uses (the table is built once, so `format!` costs
//! nothing); the test module `stated_defaults` checks each default a help line states
//! against what the code does without the flag.

use std::borrow::Cow;
use std::sync::OnceLock;

use super::lowargs::Args;
use super::UsageError;

/// Which executable accepts a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Only `bestguess` (running an experiment).
    Run,
    /// Both executables (reports, exports, settings).
    Both,
}

/// What shell completions offer for an option's value.
#[derive(Clone, Copy, Debug)]
pub enum Hint {
    /// Free text: nothing to offer.
    Text,
    /// A file name.
    File,
    /// A command line (completed as a command name).
    Command,
    /// One of these words.
    Choices(&'static [&'static str]),
    /// These words, though others are accepted too (`--metric`'s names;
    /// `-c`'s `NAME=`, after which the value is typed).
    Suggest(fn() -> Vec<String>),
}

type Update = Box<dyn Fn(&mut Args, Vec<String>) -> Result<(), UsageError> + Send + Sync>;

/// One option.
pub struct Flag {
    pub short: Option<char>,
    pub long: &'static str,
    /// Other short letters accepted for this option (`-x` for `-c`).
    pub short_aliases: Vec<char>,
    /// Other long names accepted for this option (`--command-name`).
    pub long_aliases: Vec<&'static str>,
    /// The names of the values it takes, in order (empty for a switch).
    pub values: Vec<&'static str>,
    pub hint: Hint,
    pub scope: Scope,
    pub help: Cow<'static, str>,
    /// The value may be left out (`--history` or `--history=STORE`).
    pub optional: bool,
    update: Update,
}

impl std::fmt::Debug for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Flag").field("long", &self.long).finish()
    }
}

impl Flag {
    /// An option without a value.
    fn switch(
        long: &'static str,
        scope: Scope,
        help: impl Into<Cow<'static, str>>,
        set: impl Fn(&mut Args) + Send + Sync + 'static,
    ) -> Flag {
        Flag::with_values(long, &[], scope, help, move |a, _| {
            set(a);
            Ok(())
        })
    }

    /// An option with one value, stored as given (checked later, in
    /// [`super::config`]).
    fn value(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: impl Into<Cow<'static, str>>,
        set: impl Fn(&mut Args, String) + Send + Sync + 'static,
    ) -> Flag {
        Flag::checked(long, name, scope, help, move |a, v| {
            set(a, v);
            Ok(())
        })
    }

    /// An option with one value whose form is checked as it is read
    /// (`-n` needs a command before it).
    fn checked(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: impl Into<Cow<'static, str>>,
        set: impl Fn(&mut Args, String) -> Result<(), UsageError> + Send + Sync + 'static,
    ) -> Flag {
        Flag::with_values(long, &[name], scope, help, move |a, mut v| {
            set(a, v.pop().unwrap_or_default())
        })
    }

    /// An option with a fixed number of values (`-P VAR MIN MAX`).
    fn with_values(
        long: &'static str,
        names: &[&'static str],
        scope: Scope,
        help: impl Into<Cow<'static, str>>,
        update: impl Fn(&mut Args, Vec<String>) -> Result<(), UsageError> + Send + Sync + 'static,
    ) -> Flag {
        Flag {
            short: None,
            long,
            short_aliases: Vec::new(),
            long_aliases: Vec::new(),
            values: names.to_vec(),
            hint: Hint::Text,
            scope,
            help: help.into(),
            optional: false,
            update: Box::new(update),
        }
    }

    /// An option whose one value may be left out: given only as
    /// `--long=VALUE`, or with a space where the value's form says it is
    /// one (see [`super::config`]). `name` is shown in brackets.
    fn optional(
        long: &'static str,
        name: &'static str,
        scope: Scope,
        help: impl Into<Cow<'static, str>>,
        set: impl Fn(&mut Args, Option<String>) + Send + Sync + 'static,
    ) -> Flag {
        let mut f = Flag::with_values(long, &[name], scope, help, move |a, mut v| {
            set(a, v.pop());
            Ok(())
        });
        f.optional = true;
        f
    }

    fn short(mut self, c: char) -> Flag {
        self.short = Some(c);
        self
    }

    fn alias(mut self, c: char) -> Flag {
        self.short_aliases.push(c);
        self
    }

    fn long_alias(mut self, name: &'static str) -> Flag {
        self.long_aliases.push(name);
        self
    }

    fn hint(mut self, hint: Hint) -> Flag {
        self.hint = hint;
        self
    }

    /// Apply the option with its values (exactly `self.values.len()` of
    /// them) to `args`.
    pub fn update(&self, args: &mut Args, values: Vec<String>) -> Result<(), UsageError> {
        debug_assert!(values.len() == self.values.len() || self.optional && values.is_empty());
        (self.update)(args, values)
    }

    /// Whether `program` (running or not) accepts this option.
    pub fn applies(&self, running: bool) -> bool {
        running || self.scope == Scope::Both
    }

    /// Every short letter that selects this option.
    pub fn shorts(&self) -> impl Iterator<Item = char> + '_ {
        self.short
            .into_iter()
            .chain(self.short_aliases.iter().copied())
    }

    /// Every long name that selects this option.
    pub fn longs(&self) -> impl Iterator<Item = &'static str> + '_ {
        std::iter::once(self.long).chain(self.long_aliases.iter().copied())
    }

    /// How help shows it: `-r, --runs N`.
    pub fn usage(&self) -> String {
        let mut s = match self.short {
            Some(c) => format!("-{c}, --{}", self.long),
            None => format!("    --{}", self.long),
        };
        for v in &self.values {
            s.push(' ');
            s.push_str(v);
        }
        s
    }

    /// The help line with its aliases: `… (also -x)`.
    pub fn full_help(&self) -> String {
        let aliases: Vec<String> = self
            .short_aliases
            .iter()
            .map(|c| format!("-{c}"))
            .chain(self.long_aliases.iter().map(|l| format!("--{l}")))
            .collect();
        if aliases.is_empty() {
            self.help.to_string()
        } else {
            format!("{} (also {})", self.help, aliases.join(", "))
        }
    }
}

mod table;

use table::build;

/// Every option, in help order.
pub fn all() -> &'static [Flag] {
    static FLAGS: OnceLock<Vec<Flag>> = OnceLock::new();
    FLAGS.get_or_init(build)
}

/// Find a flag by one of its short letters.
pub fn by_short(c: char) -> Option<&'static Flag> {
    all().iter().find(|f| f.shorts().any(|s| s == c))
}

/// Find a flag by one of its long names (exact match; no abbreviations).
pub fn by_long(name: &str) -> Option<&'static Flag> {
    all().iter().find(|f| f.longs().any(|l| l == name))
}

#[cfg(test)]
mod stated_defaults;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::HookKind;
    use crate::export::Format;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique() {
        let mut shorts = HashSet::new();
        let mut longs = HashSet::new();
        for f in all() {
            for c in f.shorts() {
                assert!(shorts.insert(c), "-{c} is used twice");
            }
            for l in f.longs() {
                assert!(longs.insert(l), "--{l} is used twice");
                assert!(
                    l.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                    "--{l}"
                );
            }
        }
    }

    #[test]
    fn every_format_and_hook_kind_is_an_option() {
        for f in Format::ALL {
            assert!(by_long(f.option()).is_some(), "{f:?}");
        }
        for k in HookKind::ALL {
            assert!(by_long(k.long()).is_some(), "{k:?}");
        }
    }

    #[test]
    fn aliases_find_their_flag() {
        assert_eq!(by_short('x').unwrap().long, "set");
        assert_eq!(by_short('V').unwrap().long, "version");
        assert_eq!(by_long("command-name").unwrap().long, "name");
        assert!(by_short('z').is_none());
        assert!(by_long("run").is_none(), "no prefix matching");
    }
}
