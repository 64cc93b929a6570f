//! Engines as configured: from `engines.toml` (by name) or from
//! cutechess-cli's `-engine` options.
//!
//! engines.toml: one table per engine; the table's key is the name used
//! with `conf=NAME`.
//!
//! ```toml
//! [sjaakii-cwda]
//! command = "/usr/games/sjaakii ../shared/refdata/sjaak-cwda.txt"
//! protocol = "xboard"            # or "uci"
//! variants = ["cwda"]            # what it plays ("cwda": every pairing)
//! dir = "."                      # working directory (default: the file's folder)
//! name = "Sjaak II"              # shown in results (default: the key)
//! options = { Hash = 64 }        # setoption / option NAME=VALUE
//! init = ["..."]                 # lines sent after the handshake
//! setup = false                  # XBoard: send setup/piece lines after variant
//! stderr = "sjaak.log"           # where its standard error goes
//! fourplayer = "chimera"         # four-player UCI spelling: chimera or 4pchess
//! ```
//!
//! A relative command with a `/` and a relative `dir` are taken from the
//! file's folder, and the engine runs there unless `dir` says otherwise.

use std::path::{Path, PathBuf};

use super::process::{Launch, split_command};
use super::tc::TimeControl;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proto {
    Uci,
    Xboard,
}

impl Proto {
    pub fn parse(s: &str) -> Result<Proto, String> {
        match s {
            "uci" => Ok(Proto::Uci),
            "xboard" | "cecp" | "winboard" => Ok(Proto::Xboard),
            _ => Err(format!("unknown protocol '{s}' (uci or xboard)")),
        }
    }
}

/// How an engine spells the four-player UCI dialect.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FourDialect {
    /// PROTOCOLS.md: `UCI_Variant`, `position startpos 4PC` / `fen4`, `go`
    /// with the four clocks
    #[default]
    Chimera,
    /// 4pchess: no `UCI_Variant`, `position startpos` (4PC) / `fen`, only
    /// `go movetime` and `go depth`; `score N` after the PV
    FourPChess,
}

impl FourDialect {
    pub fn parse(s: &str) -> Result<FourDialect, String> {
        match s {
            "chimera" => Ok(FourDialect::Chimera),
            "4pchess" => Ok(FourDialect::FourPChess),
            _ => Err(format!("fourplayer: '{s}' is not chimera or 4pchess")),
        }
    }
}

/// When an engine process is restarted between games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Restart {
    /// only after it misbehaved
    #[default]
    Auto,
    On,
    Off,
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// the name in results; None: the engine's own (`id name`, `myname`)
    pub name: Option<String>,
    pub launch: Launch,
    pub proto: Proto,
    pub options: Vec<(String, String)>,
    pub init: Vec<String>,
    /// the variants it plays (None: not said)
    pub variants: Option<Vec<String>>,
    pub tc: TimeControl,
    /// XBoard: send `setup` and `piece` lines after `variant`
    pub setup: bool,
    pub restart: Restart,
    /// scores are from White's point of view
    pub whitepov: bool,
    /// the four-player dialect it speaks
    pub fourplayer: FourDialect,
}

impl EngineConfig {
    pub fn new(proto: Proto) -> EngineConfig {
        EngineConfig {
            name: None,
            launch: Launch::default(),
            proto,
            options: Vec::new(),
            init: Vec::new(),
            variants: None,
            tc: TimeControl::default(),
            setup: false,
            restart: Restart::Auto,
            whitepov: false,
            fourplayer: FourDialect::Chimera,
        }
    }

    /// Sets the command line (program and arguments); a relative program
    /// path with a `/` is resolved against `base`.
    pub fn set_command(&mut self, cmd: &str, base: Option<&Path>) -> Result<(), String> {
        let mut words = split_command(cmd)?;
        if words.is_empty() {
            return Err("empty engine command".into());
        }
        let program = words.remove(0);
        self.launch.program = resolve(&program, base);
        self.launch.args = words;
        Ok(())
    }

    /// Whether it plays `variant` by its list (`cwda` covers every
    /// `cwda-...` pairing; `normal` and `chess` are the same).
    pub fn plays(&self, variant: &str) -> bool {
        let Some(list) = &self.variants else {
            return true;
        };
        let norm = |v: &str| {
            if v == "normal" {
                "chess".to_string()
            } else {
                v.to_string()
            }
        };
        let v = norm(variant);
        list.iter().any(|x| {
            let x = norm(x);
            x == v || (x == "cwda" && v.starts_with("cwda-"))
        })
    }
}

fn resolve(program: &str, base: Option<&Path>) -> String {
    match base {
        Some(b) if program.contains('/') && Path::new(program).is_relative() => {
            b.join(program).to_string_lossy().into_owned()
        }
        _ => program.to_string(),
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

fn value_string(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The engines of an engines.toml, by name, in the file's order.
pub fn parse_engines(text: &str, path: &Path) -> Result<Vec<(String, EngineConfig)>, String> {
    let file = path.display();
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e.span().map(|s| line_of(text, s.start));
        let msg = e.message().lines().next().unwrap_or("").trim().to_string();
        match line {
            Some(l) => format!("{file}:{l}: {msg}"),
            None => format!("{file}: {msg}"),
        }
    })?;
    let base = path.parent().map(|p| {
        if p.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            p.to_path_buf()
        }
    });
    let mut out = Vec::new();
    // the file's order: find each key's table header
    let mut keys: Vec<&String> = table.keys().collect();
    keys.sort_by_key(|k| {
        text.find(&format!("[{k}]"))
            .or_else(|| text.find(&format!("[\"{k}\"]")))
            .unwrap_or(usize::MAX)
    });
    for key in keys {
        let err = |m: String| format!("{file}: engine '{key}': {m}");
        let toml::Value::Table(t) = &table[key] else {
            return Err(err(
                "expected a table ([name] with command, protocol, ...)".into()
            ));
        };
        let proto = match t.get("protocol") {
            None => return Err(err("needs protocol = \"uci\" or \"xboard\"".into())),
            Some(toml::Value::String(s)) => Proto::parse(s).map_err(err)?,
            Some(_) => return Err(err("protocol must be a string".into())),
        };
        let mut e = EngineConfig::new(proto);
        let string = |k: &str| -> Result<Option<String>, String> {
            match t.get(k) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(err(format!("{k} must be a string"))),
            }
        };
        let dir = string("dir")?.map(|d| match &base {
            Some(b) if Path::new(&d).is_relative() => b.join(d),
            _ => PathBuf::from(d),
        });
        let command = string("command")?.ok_or_else(|| err("needs command = \"...\"".into()))?;
        e.set_command(&command, dir.as_deref().or(base.as_deref()))
            .map_err(err)?;
        e.launch.dir = dir.or_else(|| base.clone());
        e.name = Some(string("name")?.unwrap_or_else(|| key.clone()));
        if let Some(s) = string("stderr")? {
            e.launch.stderr = Some(PathBuf::from(s));
        }
        if let Some(v) = t.get("variants") {
            let list = v
                .as_array()
                .and_then(|a| a.iter().map(|x| x.as_str().map(str::to_string)).collect())
                .ok_or_else(|| err("variants must be a list of names".into()))?;
            e.variants = Some(list);
        }
        if let Some(v) = t.get("options") {
            let o = v
                .as_table()
                .ok_or_else(|| err("options must be a table { Name = value }".into()))?;
            for (k, v) in o {
                let v = value_string(v).ok_or_else(|| err(format!("option '{k}': bad value")))?;
                e.options.push((k.clone(), v));
            }
        }
        if let Some(v) = t.get("init") {
            let list: Option<Vec<String>> = match v {
                toml::Value::String(s) => Some(s.lines().map(str::to_string).collect()),
                toml::Value::Array(a) => a.iter().map(|x| x.as_str().map(str::to_string)).collect(),
                _ => None,
            };
            e.init = list.ok_or_else(|| err("init must be a list of lines".into()))?;
        }
        match t.get("setup") {
            None => {}
            Some(toml::Value::Boolean(b)) => e.setup = *b,
            Some(_) => return Err(err("setup must be true or false".into())),
        }
        if let Some(d) = string("fourplayer")? {
            e.fourplayer = FourDialect::parse(&d).map_err(err)?;
        }
        for k in t.keys() {
            if ![
                "command",
                "protocol",
                "variants",
                "dir",
                "name",
                "options",
                "init",
                "setup",
                "stderr",
                "fourplayer",
            ]
            .contains(&k.as_str())
            {
                return Err(err(format!("unknown key '{k}'")));
            }
        }
        out.push((key.clone(), e));
    }
    Ok(out)
}

/// Reads an engines.toml.
pub fn load_engines(path: &Path) -> Result<Vec<(String, EngineConfig)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    parse_engines(&text, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_file() {
        let text = r#"
[b]
command = "/usr/games/sjaakii x.txt"
protocol = "xboard"
variants = ["cwda"]
options = { Hash = 64, Ponder = false }
init = ["memory 16"]

[a]
command = "bin/engine"
protocol = "uci"
fourplayer = "4pchess"
"#;
        let e = parse_engines(text, Path::new("/tmp/cfg/engines.toml")).unwrap();
        assert_eq!(e[0].0, "b");
        let b = &e[0].1;
        assert_eq!(b.launch.program, "/usr/games/sjaakii");
        assert_eq!(b.launch.args, vec!["x.txt"]);
        assert_eq!(b.launch.dir.as_deref(), Some(Path::new("/tmp/cfg")));
        assert!(b.plays("cwda-nutty-fide") && !b.plays("omega"));
        assert_eq!(
            b.options,
            vec![
                ("Hash".into(), "64".into()),
                ("Ponder".into(), "false".into())
            ]
        );
        assert_eq!(b.init, vec!["memory 16"]);
        assert_eq!(e[1].1.launch.program, "/tmp/cfg/bin/engine");
        assert_eq!(e[1].1.proto, Proto::Uci);
        assert_eq!(e[1].1.name.as_deref(), Some("a"));
        assert_eq!(e[1].1.fourplayer, FourDialect::FourPChess);
        assert_eq!(b.fourplayer, FourDialect::Chimera);
        let bad = "[x]\ncommand = \"e\"\nprotocol = \"uci\"\nfourplayer = \"x\"\n";
        let err = parse_engines(bad, Path::new("e.toml")).unwrap_err();
        assert!(err.contains("not chimera or 4pchess"), "{err}");
        let bad = "[x]\ncommand = \"e\"\nprotocol = \"uci\"\nhash = 3\n";
        let err = parse_engines(bad, Path::new("e.toml")).unwrap_err();
        assert!(err.contains("unknown key 'hash'"), "{err}");
        let err = parse_engines("[x]\ncommand = \n", Path::new("e.toml")).unwrap_err();
        assert!(err.starts_with("e.toml:2:"), "{err}");
        assert!(!err.contains('\n'));
        let err = parse_engines("[x]\ncommand = \"e\"\n", Path::new("e.toml")).unwrap_err();
        assert!(err.contains("needs protocol"), "{err}");
    }
}
