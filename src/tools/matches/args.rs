//! The command line of `chimera match`: cutechess-cli's own flags, so that
//! a script can swap `cutechess-cli` for `chimera match`, and engines by
//! name from engines.toml (`-engine conf=NAME`, as cutechess-cli's
//! `conf=` names an engine of its engines.json).

use std::path::{Path, PathBuf};

use super::adjudicate::{DrawRule, ResignRule, Rules};
use super::openings::{Format, Openings, Order, Source};
use crate::game::Family;
use crate::peers::config::{EngineConfig, FourDialect, Proto, Restart, load_engines};
use crate::variant::armies::Army;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    RoundRobin,
    Gauntlet,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PgnOut {
    pub path: PathBuf,
    /// seven tags and the moves only
    pub min: bool,
}

/// A match or tournament, however it was given.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    pub engines: Vec<EngineConfig>,
    /// the variants played, in turn by opening (`-variant a,b`; `cwda-*`
    /// is the 16 pairings of the classic armies)
    pub variants: Vec<String>,
    /// games per encounter
    pub games: usize,
    pub rounds: usize,
    /// games per opening (1: a new opening every game; -repeat: 2)
    pub repeat: usize,
    pub noswap: bool,
    pub concurrency: usize,
    pub openings: Openings,
    pub pgnout: Option<PgnOut>,
    pub sprt: Option<Sprt>,
    pub rules: Rules,
    pub kind: Kind,
    pub recover: bool,
    pub event: String,
    pub site: String,
    pub seed: Option<u64>,
    pub ratinginterval: usize,
    pub wait_ms: u64,
    pub debug: bool,
    /// armies defined by the user (`chimera --armies FILE match ...`)
    pub armies: Vec<Army>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engines: Vec::new(),
            variants: vec!["chess".into()],
            games: 1,
            rounds: 1,
            repeat: 1,
            noswap: false,
            concurrency: 1,
            openings: Openings::default(),
            pgnout: None,
            sprt: None,
            rules: Rules::default(),
            kind: Kind::RoundRobin,
            recover: true,
            event: "?".into(),
            site: "?".into(),
            seed: None,
            ratinginterval: 10,
            wait_ms: 0,
            debug: false,
            armies: Vec::new(),
        }
    }
}

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Run(Box<MatchConfig>),
    /// `-engines`: list engines.toml and exit
    List(PathBuf),
    Help,
    /// `-make-openings`: write a balanced opening set
    MakeOpenings(super::openings::MakeSettings),
}

pub const HELP: &str = "\
usage: chimera match -engine OPTIONS -engine OPTIONS ... [options]

Plays games between engines (UCI or XBoard), refereed by Chimera's rules;
flags and output follow cutechess-cli. Engines come from engines.toml by
name (-engine conf=NAME) or are given inline (-engine cmd=... proto=...).

engine options (-engine and -each):
  conf=NAME             the engine NAME of engines.toml (see -config)
  cmd=COMMAND arg=ARG   command (arguments may follow in COMMAND) and more arguments
  name=NAME dir=DIR     name in results; working directory
  proto=uci|xboard      protocol
  tc=[MOVES/]TIME[+INC] clock, TIME in seconds or m:ss (tc=inf: none)
  st=SECONDS            time per move;  depth=N  nodes=N  (with or without tc)
  timemargin=MS         how far an engine may go over its time
  option.NAME=VALUE     engine option;  initstr=TEXT  lines sent at start (\\n)
  restart=auto|on|off   restart between games (always after a fault)
  whitepov              the engine's scores are White's view
  stderr=FILE           where the engine's standard error goes
  setup=true            XBoard: send setup/piece lines after variant
  hang=SECONDS          without a clock: a move this slow counts as hung (60)
  fourplayer=chimera|4pchess   four-player UCI spelling (default chimera)

match options:
  -variant NAME         chess (standard), omega, cwda-<white>-<black>;
                        fourplayer-teams (two engines share the seats by
                        team) or fourplayer-ffa (two engines on alternate
                        seats, or four), played alone, games in PGN4
  -games N  -rounds N   games per encounter; rounds (total = games x rounds)
  -repeat [N]           play each opening N times (default 2), colours swapped
  -noswap               do not swap colours
  -concurrency N        games at once
  -openings file=F format=epd|pgn order=sequential|random plies=N start=N
                        default: the balanced set shipped for the variant
                        (-openings order=random: that set in random order);
                        four-player: the 4PC start, plies=N random plies,
                        or file=F of FEN4 positions (one a line)
  -noopenings           start every game from the start position
  -pgnout FILE [min]    append the games to FILE
  -sprt elo0=E elo1=E alpha=A beta=B   stop when H0 or H1 is accepted
  -draw movenumber=N movecount=N score=CP
  -resign movecount=N score=CP [twosided=true]
  -maxmoves N           draw after N full moves
  -tournament round-robin|gauntlet
  -recover              accepted; engines are always restarted after a fault
  -event E -site S -srand N -ratinginterval N -wait MS -debug
  -config FILE          engines.toml to read (default ./engines.toml)
  -engines              list the engines of engines.toml
  -make-openings VARIANT [count=N plies=N depth=D margin=CP seed=S]
                        write a balanced opening set (EPD) to stdout
";

fn num<T: std::str::FromStr>(k: &str, v: &str) -> Result<T, String> {
    v.parse::<T>()
        .map_err(|_| format!("{k}: '{v}' is not a valid number"))
}

/// `key=value` pairs following a flag, up to the next flag.
fn pairs(args: &[String], i: &mut usize) -> Vec<String> {
    let mut out = Vec::new();
    while *i < args.len() && !args[*i].starts_with('-') {
        out.push(args[*i].clone());
        *i += 1;
    }
    out
}

fn kv(s: &str) -> (&str, Option<&str>) {
    match s.split_once('=') {
        Some((k, v)) => (k, Some(v)),
        None => (s, None),
    }
}

/// Applies one engine option (`cmd=...`, `tc=...`, `whitepov`, ...).
fn engine_option(e: &mut EngineConfig, opt: &str, has_cmd: &mut bool) -> Result<(), String> {
    let (k, v) = kv(opt);
    let need = || v.ok_or_else(|| format!("engine option '{k}' needs a value ({k}=...)"));
    match k {
        "cmd" => {
            let args = std::mem::take(&mut e.launch.args);
            e.set_command(need()?, None)?;
            e.launch.args.extend(args);
            *has_cmd = true;
        }
        "arg" => e.launch.args.push(need()?.to_string()),
        "name" => e.name = Some(need()?.to_string()),
        "dir" => e.launch.dir = Some(PathBuf::from(need()?)),
        "proto" => e.proto = Proto::parse(need()?)?,
        "tc" => e.tc.set_tc(need()?)?,
        "st" => e.tc.set_st(need()?)?,
        "depth" => e.tc.depth = Some(num("depth", need()?)?),
        "nodes" => e.tc.nodes = Some(num("nodes", need()?)?),
        "timemargin" => e.tc.margin_ms = num("timemargin", need()?)?,
        "hang" => {
            let s: f64 = num("hang", need()?)?;
            e.tc.hang_ms = (s.max(0.001) * 1000.0) as u64;
        }
        "initstr" => e
            .init
            .extend(need()?.replace("\\n", "\n").lines().map(str::to_string)),
        "stderr" => e.launch.stderr = Some(PathBuf::from(need()?)),
        "restart" => {
            e.restart = match need()? {
                "auto" => Restart::Auto,
                "on" => Restart::On,
                "off" => Restart::Off,
                o => return Err(format!("restart: '{o}' is not auto, on or off")),
            }
        }
        "whitepov" => e.whitepov = true,
        "fourplayer" => e.fourplayer = FourDialect::parse(need()?)?,
        "setup" => e.setup = !matches!(v, Some("false") | Some("0")),
        "trust" | "ponder" | "debug" => log::info!("engine option '{k}' is ignored"),
        "tscale" => {
            num::<f64>("tscale", need()?)?;
        }
        "book" | "bookdepth" => {
            return Err(format!(
                "engine option '{k}': opening books are not supported (use -openings)"
            ));
        }
        _ => {
            if let Some(name) = k.strip_prefix("option.") {
                let value = need()?.to_string();
                e.options.retain(|(n, _)| n != name);
                e.options.push((name.to_string(), value));
            } else {
                return Err(format!("unknown engine option '{opt}'"));
            }
        }
    }
    Ok(())
}

/// Parses the command line (the arguments after `match`).
pub fn parse(args: &[String]) -> Result<Command, String> {
    parse_with(args, &[])
}

/// Parses the command line, with armies defined by the user.
pub fn parse_with(args: &[String], armies: &[Army]) -> Result<Command, String> {
    let mut cfg = MatchConfig {
        armies: armies.to_vec(),
        ..Default::default()
    };
    let mut engine_opts: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut config_path: Option<PathBuf> = None;
    let mut list = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].clone();
        i += 1;
        let flag_name = flag.trim_start_matches('-');
        let mut value = |what: &str| -> Result<String, String> {
            let v = args
                .get(i)
                .filter(|v| !v.starts_with('-') || v.parse::<f64>().is_ok())
                .cloned()
                .ok_or_else(|| format!("{flag} needs {what}"))?;
            i += 1;
            Ok(v)
        };
        match flag_name {
            "help" | "h" => return Ok(Command::Help),
            "engine" => {
                let p = pairs(args, &mut i);
                if p.is_empty() {
                    return Err("-engine needs options (conf=NAME or cmd=... proto=...)".into());
                }
                engine_opts.push(p);
            }
            "each" => each.extend(pairs(args, &mut i)),
            "variant" => cfg.variants = variant_list(&value("a variant name")?, armies)?,
            "games" => cfg.games = num("-games", &value("a number")?)?,
            "rounds" => cfg.rounds = num("-rounds", &value("a number")?)?,
            "repeat" => {
                cfg.repeat = match args.get(i).and_then(|v| v.parse::<usize>().ok()) {
                    Some(n) => {
                        i += 1;
                        n
                    }
                    None => 2,
                };
            }
            "noswap" => cfg.noswap = true,
            "concurrency" => cfg.concurrency = num("-concurrency", &value("a number")?)?,
            "openings" => read_openings(&pairs(args, &mut i), &mut cfg.openings)?,
            "noopenings" => cfg.openings.source = Source::None,
            "pgnout" => {
                let path = PathBuf::from(value("a file")?);
                let mut min = false;
                for p in pairs(args, &mut i) {
                    match p.as_str() {
                        "min" => min = true,
                        "fi" => {}
                        o => return Err(format!("-pgnout: unknown argument '{o}'")),
                    }
                }
                cfg.pgnout = Some(PgnOut { path, min });
            }
            "sprt" => cfg.sprt = Some(read_sprt(&pairs(args, &mut i))?),
            "draw" => cfg.rules.draw = Some(read_draw(&pairs(args, &mut i))?),
            "resign" => cfg.rules.resign = Some(read_resign(&pairs(args, &mut i))?),
            "maxmoves" => cfg.rules.maxmoves = num("-maxmoves", &value("a number")?)?,
            "tournament" => {
                cfg.kind = match value("a type")?.as_str() {
                    "round-robin" => Kind::RoundRobin,
                    "gauntlet" => Kind::Gauntlet,
                    o => return Err(format!("-tournament '{o}': round-robin or gauntlet")),
                }
            }
            "recover" => cfg.recover = true,
            "event" => cfg.event = value("a name")?,
            "site" => cfg.site = value("a name")?,
            "srand" => cfg.seed = Some(num("-srand", &value("a number")?)?),
            "ratinginterval" => cfg.ratinginterval = num("-ratinginterval", &value("a number")?)?,
            "outcomeinterval" => {
                num::<usize>("-outcomeinterval", &value("a number")?)?;
            }
            "wait" => cfg.wait_ms = num("-wait", &value("a number")?)?,
            "debug" => cfg.debug = true,
            "config" => config_path = Some(PathBuf::from(value("a file")?)),
            "engines" => list = true,
            "make-openings" => return make_openings(&value("a variant")?, &pairs(args, &mut i)),
            _ => return Err(format!("unknown option '{flag}' (try -help)")),
        }
    }
    let config_path = config_path.unwrap_or_else(|| PathBuf::from("engines.toml"));
    if list {
        return Ok(Command::List(config_path));
    }
    cfg.engines = build_engines(&engine_opts, &each, &config_path)?;
    validate(&cfg)?;
    Ok(Command::Run(Box::new(cfg)))
}

/// `-openings file= format= order= plies= start= policy=`.
fn read_openings(opts: &[String], o: &mut Openings) -> Result<(), String> {
    let mut path = None;
    let mut format = Format::Pgn;
    let mut plies = None;
    for p in opts {
        match kv(p) {
            ("file", Some(f)) => path = Some(f.to_string()),
            ("format", Some("epd")) => format = Format::Epd,
            ("format", Some("pgn")) => format = Format::Pgn,
            // four-player files are FEN4 lines whatever the format
            ("format", Some("fen4")) => format = Format::Epd,
            ("order", Some("random")) => o.order = Order::Random,
            ("order", Some("sequential")) => o.order = Order::Sequential,
            ("plies", Some(n)) => plies = Some(num("plies", n)?),
            ("start", Some(n)) => o.start = num("start", n)?,
            ("policy", Some(_)) => {}
            _ => return Err(format!("-openings: bad option '{p}'")),
        }
    }
    // without file=: the shipped set, in the order given; four-player:
    // random plies from the start
    match (path, plies) {
        (Some(path), _) => {
            o.source = Source::File {
                path,
                format,
                plies,
            }
        }
        (None, Some(plies)) => o.source = Source::Random { plies },
        (None, None) => {}
    }
    Ok(())
}

/// `-sprt elo0= elo1= alpha= beta=`.
fn read_sprt(opts: &[String]) -> Result<Sprt, String> {
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 0.0,
        alpha: 0.05,
        beta: 0.05,
    };
    for p in opts {
        match kv(p) {
            ("elo0", Some(v)) => s.elo0 = num("elo0", v)?,
            ("elo1", Some(v)) => s.elo1 = num("elo1", v)?,
            ("alpha", Some(v)) => s.alpha = num("alpha", v)?,
            ("beta", Some(v)) => s.beta = num("beta", v)?,
            _ => return Err(format!("-sprt: bad option '{p}'")),
        }
    }
    let ok = |x: f64| x > 0.0 && x < 0.5;
    if !(s.elo1 > s.elo0 && ok(s.alpha) && ok(s.beta)) {
        return Err("-sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5".into());
    }
    Ok(s)
}

/// `-draw movenumber= movecount= score=`.
fn read_draw(opts: &[String]) -> Result<DrawRule, String> {
    let mut d = DrawRule::default();
    for p in opts {
        match kv(p) {
            ("movenumber", Some(v)) => d.movenumber = num("movenumber", v)?,
            ("movecount", Some(v)) => d.movecount = num("movecount", v)?,
            ("score", Some(v)) => d.score = num("score", v)?,
            _ => return Err(format!("-draw: bad option '{p}'")),
        }
    }
    Ok(d)
}

/// `-resign movecount= score= twosided=`.
fn read_resign(opts: &[String]) -> Result<ResignRule, String> {
    let mut r = ResignRule::default();
    for p in opts {
        match kv(p) {
            ("movecount", Some(v)) => r.movecount = num("movecount", v)?,
            ("score", Some(v)) => r.score = num("score", v)?,
            ("twosided", Some(v)) => r.twosided = v == "true",
            _ => return Err(format!("-resign: bad option '{p}'")),
        }
    }
    Ok(r)
}

/// The engines of the `-engine` options, each with the `-each` options
/// under its own (`conf=NAME` from the engines file at `config_path`).
fn build_engines(
    engine_opts: &[Vec<String>],
    each: &[String],
    config_path: &Path,
) -> Result<Vec<EngineConfig>, String> {
    let mut out = Vec::new();
    let mut known: Option<Vec<(String, EngineConfig)>> = None;
    for opts in engine_opts {
        let mut e = EngineConfig::new(Proto::Uci);
        let mut has_cmd = false;
        let mut proto_set = false;
        for o in opts {
            if let ("conf", Some(name)) = kv(o) {
                if known.is_none() {
                    known = Some(load_engines(config_path)?);
                }
                let list = known.as_ref().expect("loaded");
                e = list
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, c)| c.clone())
                    .ok_or_else(|| {
                        let names: Vec<&str> = list.iter().map(|(n, _)| n.as_str()).collect();
                        format!(
                            "no engine '{name}' in {} (it has: {})",
                            config_path.display(),
                            names.join(", ")
                        )
                    })?;
                has_cmd = true;
                proto_set = true;
            }
        }
        for o in each.iter().chain(opts.iter()) {
            if kv(o).0 == "conf" {
                continue;
            }
            if kv(o).0 == "proto" {
                proto_set = true;
            }
            engine_option(&mut e, o, &mut has_cmd)?;
        }
        if !has_cmd {
            return Err("an engine needs cmd=COMMAND or conf=NAME".into());
        }
        if !proto_set {
            return Err(format!(
                "engine '{}' needs proto=uci or proto=xboard",
                e.launch.program
            ));
        }
        if !e.tc.is_limited() {
            return Err(format!(
                "engine '{}' has no time control (tc=, st=, depth= or nodes=)",
                e.name.as_deref().unwrap_or(&e.launch.program)
            ));
        }
        out.push(e);
    }
    Ok(out)
}

/// What a match must be to run: engines, counts, the variants each plays.
fn validate(cfg: &MatchConfig) -> Result<(), String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two engines (-engine ... -engine ...)".into());
    }
    if cfg.games == 0 || cfg.rounds == 0 || cfg.concurrency == 0 || cfg.repeat == 0 {
        return Err("-games, -rounds, -concurrency and -repeat must be at least 1".into());
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err("-sprt needs exactly two engines".into());
    }
    four_player_checks(cfg)?;
    for e in &cfg.engines {
        if let Some(v) = cfg.variants.iter().find(|v| !e.plays(v)) {
            return Err(format!(
                "engine '{}' does not play {v} (its variants in engines.toml: {})",
                e.name.as_deref().unwrap_or(&e.launch.program),
                e.variants
                    .as_ref()
                    .map(|v| v.join(", "))
                    .unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// What a four-player match needs (and a two-player one must not be given).
fn four_player_checks(cfg: &MatchConfig) -> Result<(), String> {
    let four = cfg
        .variants
        .iter()
        .filter(|v| Family::of(v).is_four())
        .count();
    if four == 0 {
        return match cfg.openings.source {
            Source::Random { .. } => {
                Err("-openings plies=N without file= is for four-player variants".into())
            }
            _ => Ok(()),
        };
    }
    if cfg.variants.len() > 1 {
        return Err(
            "a four-player variant is played alone (-variant fourplayer-teams or fourplayer-ffa)"
                .into(),
        );
    }
    let name = |e: &EngineConfig| e.name.clone().unwrap_or_else(|| e.launch.program.clone());
    for e in &cfg.engines {
        if e.proto != Proto::Uci {
            return Err(format!(
                "engine '{}': four-player chess is played over UCI (proto=uci)",
                name(e)
            ));
        }
        let tc = &e.tc;
        if e.fourplayer == FourDialect::FourPChess && tc.depth.is_none() && !tc.has_clock() {
            return Err(format!(
                "engine '{}': 4pchess takes only a time per move or a depth (st=, tc= or depth=)",
                name(e)
            ));
        }
    }
    if cfg.variants[0] == "fourplayer-ffa" {
        if ![2, 4].contains(&cfg.engines.len()) {
            return Err("fourplayer-ffa needs two engines (on alternate seats) or four".into());
        }
        if cfg.rules.resign.is_some() {
            return Err("-resign is not offered in fourplayer-ffa".into());
        }
    }
    Ok(())
}

/// The classic armies, whose 16 pairings `cwda-*` names.
const CLASSIC: [&str; 4] = ["fide", "clobberers", "nutty", "rookies"];

/// `-variant`: a name, or several separated by commas; `cwda-*` is every
/// pairing of the classic armies; `standard` and `normal` are chess.
fn variant_list(s: &str, armies: &[Army]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for v in s.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        if let Some(mode) = Family::of(v).four() {
            out.push(mode.name().to_string());
            continue;
        }
        if v == "cwda-*" {
            for w in CLASSIC {
                for b in CLASSIC {
                    out.push(format!("cwda-{w}-{b}"));
                }
            }
            continue;
        }
        let spec = crate::variant::VariantSpec::by_name(v, armies)?;
        out.push(spec.name);
    }
    if out.is_empty() {
        return Err("-variant needs a variant name".into());
    }
    Ok(out)
}

fn make_openings(variant: &str, opts: &[String]) -> Result<Command, String> {
    crate::variant::VariantSpec::by_name(variant, &[])?;
    let mut s = super::openings::MakeSettings {
        variant: variant.to_string(),
        count: 100,
        plies: if variant == "omega" { 10 } else { 8 },
        depth: 8,
        margin: 50,
        seed: 1,
    };
    for o in opts {
        match kv(o) {
            ("count", Some(v)) => s.count = num("count", v)?,
            ("plies", Some(v)) => s.plies = num("plies", v)?,
            ("depth", Some(v)) => s.depth = num("depth", v)?,
            ("margin", Some(v)) => s.margin = num("margin", v)?,
            ("seed", Some(v)) => s.seed = num("seed", v)?,
            _ => return Err(format!("-make-openings: bad option '{o}'")),
        }
    }
    if s.depth < 1 || s.depth > 30 {
        return Err("-make-openings: depth must be 1 to 30".into());
    }
    Ok(Command::MakeOpenings(s))
}

/// Lists the engines of an engines.toml (`-engines`).
pub fn list_engines(path: &Path) -> Result<String, String> {
    let mut s = String::new();
    for (name, e) in load_engines(path)? {
        let proto = match e.proto {
            Proto::Uci => "uci",
            Proto::Xboard => "xboard",
        };
        let variants = e
            .variants
            .map(|v| v.join(","))
            .unwrap_or_else(|| "?".into());
        s.push_str(&format!(
            "{name}\t{proto}\t{variants}\t{}\n",
            e.launch.program
        ));
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn run(s: &str) -> Result<MatchConfig, String> {
        match parse(&args(s))? {
            Command::Run(c) => Ok(*c),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn cutechess_flags() {
        let c = run("-engine cmd=./a name=A proto=uci option.Hash=64 option.Hash=32 \
                     -engine cmd=b arg=x proto=xboard tc=40/60 -each tc=10+0.1 timemargin=20 \
                     -variant omega -games 2 -rounds 3 -repeat -concurrency 2 \
                     -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 -draw movenumber=40 movecount=8 score=10 \
                     -resign movecount=3 score=600 -maxmoves 200 -tournament gauntlet -recover \
                     -pgnout out.pgn min -srand 7 -openings file=o.epd format=epd order=random plies=8")
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        let a = &c.engines[0];
        assert_eq!(a.name.as_deref(), Some("A"));
        assert_eq!(a.launch.program, "./a");
        assert_eq!(a.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(
            (a.tc.base_ms, a.tc.inc_ms, a.tc.margin_ms),
            (10_000, 100, 20)
        );
        let b = &c.engines[1];
        assert_eq!(b.launch.args, vec!["x"]);
        assert_eq!(b.proto, Proto::Xboard);
        // the engine's own tc wins over -each
        assert_eq!((b.tc.moves, b.tc.base_ms), (40, 60_000));
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 3, 2, 2));
        assert_eq!(c.variants, vec!["omega"]);
        let v = run(
            "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -variant standard,cwda-*",
        )
        .unwrap();
        assert_eq!(v.variants.len(), 17);
        assert_eq!(
            (v.variants[0].as_str(), v.variants[16].as_str()),
            ("chess", "cwda-rookies-rookies")
        );
        assert_eq!(c.kind, Kind::Gauntlet);
        assert_eq!(c.sprt.as_ref().unwrap().beta, 0.1);
        assert_eq!(c.rules.draw.as_ref().unwrap().movecount, 8);
        assert_eq!(c.rules.resign.as_ref().unwrap().score, 600);
        assert_eq!(c.rules.maxmoves, 200);
        assert!(c.pgnout.as_ref().unwrap().min);
        assert_eq!(c.seed, Some(7));
        assert_eq!(c.openings.order, Order::Random);
        assert!(matches!(
            c.openings.source,
            Source::File {
                format: Format::Epd,
                plies: Some(8),
                ..
            }
        ));
    }

    #[test]
    fn four_player_flags() {
        let c = run(
            "-engine cmd=a proto=uci fourplayer=4pchess st=1 -engine cmd=b proto=uci tc=5+0.1 \
                     -variant fourplayer-teams -openings plies=4 -resign movecount=3 score=900",
        )
        .unwrap();
        assert_eq!(c.variants, vec!["fourplayer-teams"]);
        assert_eq!(c.engines[0].fourplayer, FourDialect::FourPChess);
        assert_eq!(c.engines[1].fourplayer, FourDialect::Chimera);
        assert_eq!(c.openings.source, Source::Random { plies: 4 });
        let c = run(
            "-engine cmd=a proto=uci -engine cmd=b proto=uci -each depth=3 -variant fourplayer-ffa",
        )
        .unwrap();
        assert_eq!(c.variants, vec!["fourplayer-ffa"]);
        let two = "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1";
        for (line, want) in [
            (
                "-engine cmd=a proto=xboard tc=1 -engine cmd=b proto=uci tc=1 -variant fourplayer-teams"
                    .to_string(),
                "played over UCI",
            ),
            (format!("{two} -variant fourplayer-teams,chess"), "played alone"),
            (format!("{two} -variant fourplayer-solo"), "unknown variant"),
            (
                format!("{two} -engine cmd=c proto=uci tc=1 -variant fourplayer-ffa"),
                "two engines (on alternate seats) or four",
            ),
            (
                format!("{two} -variant fourplayer-ffa -resign movecount=3 score=500"),
                "-resign is not offered",
            ),
            (format!("{two} -openings plies=4"), "for four-player variants"),
            (
                "-engine cmd=a proto=uci nodes=100 fourplayer=4pchess -engine cmd=b proto=uci tc=1 \
                 -variant fourplayer-teams"
                    .to_string(),
                "4pchess takes only a time per move or a depth",
            ),
            (format!("{two} fourplayer=x"), "not chimera or 4pchess"),
        ] {
            let e = parse(&args(&line)).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
            assert!(!e.contains('\n'));
        }
    }

    #[test]
    fn bad_flags() {
        for (line, want) in [
            (
                "-engine cmd=a proto=uci -engine cmd=b proto=uci",
                "no time control",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b tc=1",
                "needs proto",
            ),
            ("-engine cmd=a proto=uci tc=1", "at least two engines"),
            (
                "-engine cmd=a proto=uci tc=x -engine cmd=b proto=uci tc=1",
                "bad time control",
            ),
            ("-engine cmd=a proto=foo tc=1", "unknown protocol"),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -variant xyz",
                "unknown variant",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -games",
                "needs a number",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -games x",
                "not a valid number",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -bogus",
                "unknown option",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine cmd=b proto=uci tc=1 -sprt elo0=5 elo1=0",
                "elo0 < elo1",
            ),
            (
                "-engine cmd=a proto=uci tc=1 -engine foo=1",
                "unknown engine option",
            ),
            (
                "-engine conf=nosuch -engine conf=x -config /nonexistent/engines.toml",
                "cannot read",
            ),
        ] {
            let e = parse(&args(line)).unwrap_err();
            assert!(e.contains(want), "{line}: {e}");
            assert!(!e.contains('\n'));
        }
    }
}
