//! Which network evaluates a variant: the one loaded with `EvalFile`, or
//! else the first network built into the binary that knows every piece of
//! the variant and fits its board; none when `Use NNUE` is off or no
//! network fits (the classical evaluation then).

use std::sync::{Arc, OnceLock};

use crate::fourplayer::variant::{Mode, Variant4};
use crate::geometry::Shape;
use crate::nnue::accumulator::Evaluator;
use crate::nnue::features::FeatureMap;
use crate::nnue::net::Network;
use crate::variant::spec::PieceSpec;

/// The networks built into the binary, with their names (provenance and
/// the SPRT that adopted each: nets/README.md).
const EMBEDDED: &[(&str, &[u8])] = &[
    ("teams-b", include_bytes!("../../nets/teams-b.nnue")),
    ("omega-a", include_bytes!("../../nets/omega-a.nnue")),
    ("ffa-b", include_bytes!("../../nets/ffa-b.nnue")),
    ("cwda-f5", include_bytes!("../../nets/cwda-f5.nnue")),
];

fn embedded() -> &'static [(&'static str, Arc<Network>)] {
    static NETS: OnceLock<Vec<(&'static str, Arc<Network>)>> = OnceLock::new();
    NETS.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(name, bytes)| {
                let net = Network::from_bytes(bytes).expect("an embedded network is valid");
                (*name, Arc::new(net))
            })
            .collect()
    })
}

/// The names of the built-in networks.
pub fn embedded_names() -> Vec<&'static str> {
    embedded().iter().map(|(n, _)| *n).collect()
}

/// The `Use NNUE` and `EvalFile` options.
#[derive(Clone, Debug)]
pub struct NetChoice {
    pub use_nnue: bool,
    /// a network loaded from a file, with the file's name
    pub file: Option<(String, Arc<Network>)>,
}

impl Default for NetChoice {
    fn default() -> Self {
        NetChoice {
            use_nnue: true,
            file: None,
        }
    }
}

impl PartialEq for NetChoice {
    fn eq(&self, o: &Self) -> bool {
        self.use_nnue == o.use_nnue
            && match (&self.file, &o.file) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(&a.1, &b.1),
                _ => false,
            }
    }
}

impl NetChoice {
    /// Loads a network file for `EvalFile`; `<empty>`, `none` or an empty
    /// name go back to the built-in networks.
    pub fn load(&mut self, path: &str) -> Result<(), String> {
        let path = path.trim();
        if path.is_empty() || path == "<empty>" || path.eq_ignore_ascii_case("none") {
            self.file = None;
            return Ok(());
        }
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read '{path}': {e}"))?;
        let net = Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        self.file = Some((path.to_string(), Arc::new(net)));
        Ok(())
    }

    /// A choice from a command-line word: `off` (classical), `on` (the
    /// built-in networks) or a network file.
    pub fn from_arg(s: &str) -> Result<NetChoice, String> {
        let mut c = NetChoice::default();
        match s {
            "off" | "classical" => c.use_nnue = false,
            "on" | "nnue" => {}
            path => c.load(path)?,
        }
        Ok(c)
    }

    /// The evaluator of a variant (its pieces on its board), if a network
    /// evaluates it.
    pub fn evaluator(&self, pieces: &[PieceSpec], shape: &Shape) -> Option<Evaluator> {
        self.verdict(pieces, shape).ev
    }

    /// Which evaluation a variant gets, and why.
    pub fn verdict(&self, pieces: &[PieceSpec], shape: &Shape) -> Verdict {
        self.verdict_by(shape.num_squares(), |net| {
            FeatureMap::new(pieces, shape, net)
        })
    }

    /// The evaluator of a four-player game, if a network evaluates it.
    pub fn evaluator4(&self, v: &Variant4) -> Option<Evaluator> {
        self.verdict4(v).ev
    }

    /// Which evaluation a four-player game gets, and why: a network
    /// trained on the game's mode (Teams or Free-For-All; their scores
    /// mean different things on the same board).
    pub fn verdict4(&self, v: &Variant4) -> Verdict {
        let built_in = embedded()
            .iter()
            .any(|(_, net)| fits_mode(net, v.mode).is_ok());
        if self.use_nnue && self.file.is_none() && !built_in {
            let game = match v.mode {
                Mode::Teams => "Teams",
                Mode::Ffa => "Free-For-All",
            };
            return Verdict {
                ev: None,
                line: format!("classical evaluation (no network for four-player {game})"),
                fell_back: false,
            };
        }
        self.verdict_by(v.n, |net| {
            fits_mode(net, v.mode)?;
            FeatureMap::four_player(v, net)
        })
    }

    /// The verdict for a board of `squares` squares, `map` fitting a
    /// network to the game.
    fn verdict_by(
        &self,
        squares: usize,
        map: impl Fn(&Network) -> Result<FeatureMap, String>,
    ) -> Verdict {
        let classical = |line: String, fell_back: bool| Verdict {
            ev: None,
            line,
            fell_back,
        };
        if !self.use_nnue {
            return classical("classical evaluation (Use NNUE is off)".into(), false);
        }
        let fit =
            |net: &Arc<Network>| map(net).map(|map| Evaluator::new(net.clone(), Arc::new(map)));
        if let Some((path, net)) = &self.file {
            return match fit(net) {
                Ok(ev) => Verdict {
                    ev: Some(ev),
                    line: format!("NNUE evaluation from {path}"),
                    fell_back: false,
                },
                Err(e) => classical(format!("classical evaluation: {path}: {e}"), true),
            };
        }
        let mut why = Vec::new();
        let mut same_board = false;
        for (name, net) in embedded() {
            match fit(net) {
                Ok(ev) => {
                    return Verdict {
                        ev: Some(ev),
                        line: format!("NNUE evaluation (network {name}, built in)"),
                        fell_back: false,
                    };
                }
                Err(e) => {
                    same_board |= net.squares == squares;
                    why.push(format!("network {name}: {e}"));
                }
            }
        }
        if same_board {
            classical(format!("classical evaluation ({})", why.join("; ")), true)
        } else {
            classical(
                "classical evaluation (no network for this board)".into(),
                false,
            )
        }
    }
}

/// Whether a four-player network is for `mode`: a Free-For-All network
/// names `fourplayer-ffa` among its families and corrects the classical
/// evaluation (which holds the points); a Teams network is any other.
fn fits_mode(net: &Network, mode: Mode) -> Result<(), String> {
    let ffa = names_free_for_all(&net.families);
    match mode {
        Mode::Ffa if !ffa => Err("the network is not trained on Free-For-All".into()),
        Mode::Ffa if !net.residual => {
            Err("a Free-For-All network must correct the classical evaluation (residual)".into())
        }
        Mode::Teams if ffa => Err("the network is trained on Free-For-All, not Teams".into()),
        _ => Ok(()),
    }
}

/// Whether a network's families text (comma-separated) names
/// four-player Free-For-All.
pub fn names_free_for_all(families: &str) -> bool {
    families
        .split(',')
        .any(|f| Mode::from_name(f.trim()) == Some(Mode::Ffa))
}

/// Which evaluation a variant gets.
pub struct Verdict {
    pub ev: Option<Evaluator>,
    /// what to tell the user
    pub line: String,
    /// a network was meant to evaluate this variant and cannot (a piece it
    /// does not know, a file for another board): worth telling unasked
    pub fell_back: bool,
}
