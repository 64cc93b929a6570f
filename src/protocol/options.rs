//! One options table for both protocols: it prints UCI `option` lines and
//! XBoard `feature option=` lines, and checks values set by either.

use crate::params::Params;
use crate::search::skill;
use crate::variant::armies::Army;
use crate::variant::spec::variant_names;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    /// `open`: values outside the list may be valid too (checked by the
    /// caller), e.g. variant names of armies added later
    Combo {
        default: String,
        values: Vec<String>,
        open: bool,
    },
    /// free text; `file` makes XBoard offer a file chooser
    Text {
        default: String,
        file: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opt {
    pub name: String,
    pub kind: Kind,
    pub uci: bool,
    pub xboard: bool,
}

/// The protocol an option is offered in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Uci,
    Xboard,
}

impl Opt {
    pub fn offered(&self, p: Protocol) -> bool {
        match p {
            Protocol::Uci => self.uci,
            Protocol::Xboard => self.xboard,
        }
    }
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Text(String),
}

fn spin(name: &str, default: i64, min: i64, max: i64) -> Opt {
    Opt {
        name: name.into(),
        kind: Kind::Spin { default, min, max },
        uci: true,
        xboard: true,
    }
}

fn check(name: &str, default: bool) -> Opt {
    Opt {
        name: name.into(),
        kind: Kind::Check { default },
        uci: true,
        xboard: true,
    }
}

fn combo(name: &str, default: &str, values: Vec<String>, open: bool) -> Opt {
    Opt {
        name: name.into(),
        kind: Kind::Combo {
            default: default.into(),
            values,
            open,
        },
        uci: true,
        xboard: true,
    }
}

/// The options, for the armies known (built-in and from the army file);
/// with `tune`, every tunable weight of `Params::LIST` as a spin option.
pub fn table(armies: &[Army], tune: bool) -> Vec<Opt> {
    let tokens: Vec<String> = armies.iter().map(|a| a.token.clone()).collect();
    let mut variants = vec!["chess".to_string(), "omega".to_string(), "cwda".to_string()];
    variants.extend(variant_names(armies).into_iter().skip(2));
    variants.extend(["fourplayer-teams".to_string(), "fourplayer-ffa".to_string()]);
    let mut t = vec![
        spin("Hash", 16, 1, 65536),
        spin("Threads", 1, 1, 256),
        spin("MultiPV", 1, 1, 256),
        spin("Move Overhead", 30, 0, 5000),
        // weaker play: 0 the weakest, 20 full strength (search/skill.rs)
        spin("Skill Level", 20, 0, 20),
        // or a strength on an Elo scale (search/skill.rs, README)
        check("UCI_LimitStrength", false),
        spin(
            "UCI_Elo",
            skill::DEFAULT_ELO as i64,
            skill::LEVEL_ELO[0] as i64,
            skill::LEVEL_ELO[skill::LEVEL_ELO.len() - 1] as i64,
        ),
        check("Ponder", false),
        // XBoard chooses the variant with its `variant` command
        Opt {
            xboard: false,
            ..combo("UCI_Variant", "chess", variants, true)
        },
        combo("White Army", "fide", tokens.clone(), false),
        combo("Black Army", "fide", tokens, false),
        Opt {
            name: "Army File".into(),
            kind: Kind::Text {
                default: String::new(),
                file: true,
            },
            uci: true,
            xboard: true,
        },
        Opt {
            xboard: false,
            ..check("UCI_AnalyseMode", false)
        },
        // the trained evaluation where a network knows the game (nnue/)
        check("Use NNUE", true),
        Opt {
            name: "EvalFile".into(),
            kind: Kind::Text {
                default: String::new(),
                file: true,
            },
            uci: true,
            xboard: true,
        },
        // four-player Free-For-All: the search's view of the opponents
        Opt {
            xboard: false,
            ..combo(
                "FFA Search",
                "paranoid",
                vec!["paranoid".to_string(), "brs".to_string()],
                false,
            )
        },
    ];
    if tune {
        for &(name, default, min, max) in Params::LIST {
            t.push(spin(name, default as i64, min as i64, max as i64));
        }
    }
    t
}

/// The option with this name offered in protocol `p`, ignoring case and
/// surrounding blanks.
pub fn find<'a>(table: &'a [Opt], name: &str, p: Protocol) -> Option<&'a Opt> {
    let name = name.trim();
    table
        .iter()
        .find(|o| o.offered(p) && o.name.eq_ignore_ascii_case(name))
}

impl Opt {
    /// `option name Hash type spin default 16 min 1 max 65536`
    pub fn uci_line(&self) -> String {
        let n = &self.name;
        match &self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {n} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {n} type check default {default}"),
            Kind::Combo {
                default, values, ..
            } => {
                let mut s = format!("option name {n} type combo default {default}");
                for v in values {
                    s.push_str(" var ");
                    s.push_str(v);
                }
                s
            }
            Kind::Text { default, .. } => {
                let d = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {n} type string default {d}")
            }
        }
    }

    /// `feature option="Hash -spin 16 1 65536"`
    pub fn xboard_line(&self) -> String {
        let n = &self.name;
        let body = match &self.kind {
            Kind::Spin { default, min, max } => format!("{n} -spin {default} {min} {max}"),
            Kind::Check { default } => format!("{n} -check {}", *default as u8),
            Kind::Combo {
                default, values, ..
            } => {
                let vals: Vec<String> = values
                    .iter()
                    .map(|v| {
                        if v == default {
                            format!("*{v}")
                        } else {
                            v.clone()
                        }
                    })
                    .collect();
                format!("{n} -combo {}", vals.join(" /// "))
            }
            Kind::Text { default, file } => {
                format!("{n} -{} {default}", if *file { "file" } else { "string" })
            }
        };
        format!("feature option=\"{body}\"")
    }

    /// Checks a value given as text (`true`/`false` or `1`/`0` for checks;
    /// `<empty>` is the empty string).
    pub fn parse(&self, raw: &str) -> Result<Value, String> {
        let v = raw.trim();
        let n = &self.name;
        match &self.kind {
            Kind::Spin { min, max, .. } => match v.parse::<i64>() {
                Ok(x) if (*min..=*max).contains(&x) => Ok(Value::Int(x)),
                _ => Err(format!(
                    "{n} must be an integer from {min} to {max}, not '{}'",
                    super::clip(v, 40)
                )),
            },
            Kind::Check { .. } => match v.to_ascii_lowercase().as_str() {
                "true" | "1" | "on" | "yes" => Ok(Value::Bool(true)),
                "false" | "0" | "off" | "no" => Ok(Value::Bool(false)),
                _ => Err(format!(
                    "{n} must be true or false, not '{}'",
                    super::clip(v, 40)
                )),
            },
            Kind::Combo { values, open, .. } => {
                if let Some(x) = values.iter().find(|x| x.eq_ignore_ascii_case(v)) {
                    Ok(Value::Text(x.clone()))
                } else if *open && !v.is_empty() && !v.contains(char::is_whitespace) {
                    Ok(Value::Text(v.to_ascii_lowercase()))
                } else {
                    let shown: Vec<&str> = values.iter().take(12).map(String::as_str).collect();
                    Err(format!(
                        "{n}: unknown value '{}' (one of {}{})",
                        super::clip(v, 40),
                        shown.join(", "),
                        if values.len() > 12 { ", ..." } else { "" }
                    ))
                }
            }
            Kind::Text { .. } => Ok(Value::Text(if v == "<empty>" {
                String::new()
            } else {
                v.to_string()
            })),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::armies::builtin;

    #[test]
    fn lines_and_values() {
        let t = table(&builtin(), false);
        let uci = Protocol::Uci;
        let hash = find(&t, "hash", uci).unwrap();
        assert_eq!(
            hash.uci_line(),
            "option name Hash type spin default 16 min 1 max 65536"
        );
        assert_eq!(
            hash.xboard_line(),
            "feature option=\"Hash -spin 16 1 65536\""
        );
        assert_eq!(hash.parse("64"), Ok(Value::Int(64)));
        assert!(hash.parse("0").is_err());
        assert!(hash.parse("x").is_err());
        let p = find(&t, "Ponder", uci).unwrap();
        assert_eq!(p.parse("1"), Ok(Value::Bool(true)));
        assert_eq!(p.parse("false"), Ok(Value::Bool(false)));
        assert!(p.parse("maybe").is_err());
        let w = find(&t, "White Army", uci).unwrap();
        assert!(w.xboard_line().contains("-combo *fide /// clobberers"));
        assert_eq!(w.parse("Nutty"), Ok(Value::Text("nutty".into())));
        assert!(w.parse("nobody").is_err());
        let v = find(&t, "UCI_Variant", uci).unwrap();
        assert!(v.uci_line().contains("var cwda-nutty-clobberers"));
        assert!(find(&t, "Move Overhead", uci).is_some());
        assert!(
            find(&t, "Army File", uci)
                .unwrap()
                .uci_line()
                .ends_with("<empty>")
        );
        assert!(find(&t, "UCI_AnalyseMode", Protocol::Xboard).is_none());
        assert!(find(&t, "UCI_Variant", Protocol::Xboard).is_none());
        assert!(find(&t, "Hash", Protocol::Xboard).is_some());
        assert!(find(&t, "tempo", uci).is_none());
        assert!(find(&table(&builtin(), true), "tempo", uci).is_some());
    }
}
