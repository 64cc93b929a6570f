//! `chimera train`: a network from `chimera datagen` data, on the CPU.
//!
//! The float network is the quantized one without rounding: accumulators
//! clipped to [0, 1], the output times `SCALE` in centipawns. Loss: the
//! squared distance, in win-probability space, between `sigmoid(cp / K)`
//! and `lambda * sigmoid(score / K) + (1 - lambda) * result`, both from the
//! side to move's view, where `cp` is the network's centipawns (plus the
//! classical evaluation's for a residual network) and `K` the scale at
//! which the engine's own scores predict its games' results (`wdl_scale`:
//! fitted on the data, about 200 for chess/CwDA at 1000-3000 nodes). A
//! `K` off that scale makes the results pull every evaluation wider or
//! narrower, and the search's margins are tuned to the engine's scale. Adam, mini-batches split over threads
//! (rayon), feature weights kept within what the integers hold. A
//! validation set (games chosen by number, never trained on) is measured
//! after every epoch.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;

use crate::fourplayer::{Mode, Variant4};
use crate::geometry::Shape;
use crate::nnue::data::{GameRecord, Sample};
use crate::nnue::features::{FeatureMap, four_player_kinds, kind_key};
use crate::nnue::net::{HIDDEN, Network, QA, QB, SCALE};
use crate::variant::VariantSpec;
use crate::variant::spec::PieceSpec;

mod classical;

const H: usize = HIDDEN;
/// The largest feature weight: `FT_CLIP * QA` summed over every piece of
/// a crowded board stays inside an i16.
const FT_CLIP: f32 = 1.98;

#[derive(Clone, Debug)]
pub struct Config {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// weight of the search score against the result
    pub lambda: f32,
    /// centipawns to win probability: `sigmoid(cp / wdl_scale)`
    pub wdl_scale: f32,
    /// share of the games kept for validation
    pub validation: f64,
    pub seed: u64,
    pub families: String,
    /// train a correction of the classical evaluation (added to it)
    /// instead of a replacement
    pub residual: bool,
    /// decoupled weight decay of the feature weights, per step (times the
    /// learning rate)
    pub weight_decay: f32,
    /// the squared clipped activation (SCReLU) instead of the clipped one
    pub screlu: bool,
    /// a network to start from instead of random weights (more data for a
    /// network already made); its flags must be the ones asked for
    pub init: Option<Network>,
}

/// The training set: per position its features as the output sees them
/// (the side to move's perspective, then the other one: the other side,
/// or the next seat) and the target.
pub struct Dataset {
    feats: Vec<u32>,
    /// per position: start in `feats`, the first perspective's count, the
    /// second's
    index: Vec<(u32, u8, u8)>,
    target: Vec<f32>,
    /// per position: the game's result for the side to move (1, 0.5, 0)
    result: Vec<f32>,
    /// per position: what the output is added to (the classical
    /// evaluation / K for a residual network, else 0)
    offset: Vec<f32>,
    /// the output's units (centipawns / SCALE) to the sigmoid's (SCALE / K)
    gain: f32,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.index.len()
    }
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
    fn features(&self, i: usize) -> [&[u32]; 2] {
        let (s, w, b) = self.index[i];
        let s = s as usize;
        let (w, b) = (w as usize, b as usize);
        [&self.feats[s..s + w], &self.feats[s + w..s + w + b]]
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What a variant's positions are made of.
enum Layout {
    /// two players: the pieces (armies of the built-in set) and the board
    Two(Vec<PieceSpec>, Shape),
    /// four-player Teams
    Four(Arc<Variant4>),
}

/// The layout of a variant, by name.
fn variant_layout(name: &str) -> Result<Layout, String> {
    match Mode::from_name(name) {
        Some(mode) => Ok(Layout::Four(Arc::new(Variant4::new(mode)))),
        None => {
            let spec = VariantSpec::by_name(name, &[])?;
            Ok(Layout::Two(spec.pieces.clone(), spec.shape.clone()))
        }
    }
}

/// The inputs of a network: its piece kinds, board squares and how many
/// relations a piece's owner has to a perspective (2, or 5 for four
/// players).
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    pub kinds: Vec<String>,
    pub squares: usize,
    pub relations: usize,
}

impl Inputs {
    /// The inputs of a network.
    pub fn of(net: &Network) -> Inputs {
        Inputs {
            kinds: net.kinds.clone(),
            squares: net.squares,
            relations: net.relations,
        }
    }

    fn features(&self) -> usize {
        self.kinds.len() * self.relations * self.squares
    }
}

/// The inputs of a network for the variants of `games`: every piece those
/// variants have, and on the CwDA board every piece of every built-in army
/// (one network serves every pairing), sorted; four-player chess's six
/// pieces in its own order.
pub fn network_layout(games: &[GameRecord]) -> Result<Inputs, String> {
    let mut kinds = Vec::new();
    let mut board: Option<(usize, usize, &str)> = None;
    let mut seen = std::collections::HashSet::new();
    for g in games {
        if !seen.insert(g.variant.as_str()) {
            continue;
        }
        let (n, relations) = match variant_layout(&g.variant)? {
            Layout::Two(pieces, shape) => {
                kinds.extend(pieces.iter().map(kind_key));
                if g.variant == "chess" || g.variant.starts_with("cwda-") {
                    for a in crate::variant::armies::builtin() {
                        let spec = VariantSpec::cwda(&a, &a)?;
                        kinds.extend(spec.pieces.iter().map(kind_key));
                    }
                }
                (shape.num_squares(), 2)
            }
            Layout::Four(v) => {
                kinds.extend(four_player_kinds());
                (v.shape.num_squares(), 5)
            }
        };
        let (n0, r0, first) = *board.get_or_insert((n, relations, &g.variant));
        let mode = |v: &str| Mode::from_name(v).map(Mode::name);
        if (n0, r0, mode(first)) != (n, relations, mode(&g.variant)) {
            return Err(format!(
                "the data mixes {first} and {}: train one network per board and number of players",
                g.variant
            ));
        }
    }
    let (squares, relations, _) = board.ok_or("no positions in the data")?;
    if relations == 2 {
        kinds.sort();
    }
    let mut unique = Vec::new();
    for k in kinds {
        if !unique.contains(&k) {
            unique.push(k);
        }
    }
    Ok(Inputs {
        kinds: unique,
        squares,
        relations,
    })
}

/// A network of these inputs with no weights yet (for feature maps).
fn skeleton(inputs: &Inputs) -> Network {
    Network {
        squares: inputs.squares,
        relations: inputs.relations,
        kinds: inputs.kinds.clone(),
        families: String::new(),
        residual: false,
        screlu: false,
        ft_w: Vec::new(),
        ft_b: Vec::new(),
        out_w: Vec::new(),
        out_b: 0,
    }
}

/// Feature maps of the variants of `games` for a network's kinds.
fn maps(games: &[GameRecord], net: &Network) -> Result<HashMap<String, Arc<FeatureMap>>, String> {
    let mut out = HashMap::new();
    for g in games {
        if !out.contains_key(&g.variant) {
            let m = match variant_layout(&g.variant)? {
                Layout::Two(pieces, shape) => FeatureMap::new(&pieces, &shape, net),
                Layout::Four(v) => FeatureMap::four_player(&v, net),
            }
            .map_err(|e| format!("{}: {e}", g.variant))?;
            out.insert(g.variant.clone(), Arc::new(m));
        }
    }
    Ok(out)
}

/// The features of a sample's pieces seen by `persp`.
fn sample_features<'a>(
    m: &'a FeatureMap,
    s: &'a Sample,
    persp: usize,
) -> impl Iterator<Item = u32> + 'a {
    s.pieces
        .iter()
        .map(move |&(sq, owner, t)| m.index(persp, owner as usize, t as usize, sq as usize) as u32)
}

/// The features of a sample as the output sees them: the side to move's
/// perspective, then the other one.
fn output_features(m: &FeatureMap, s: &Sample) -> [Vec<u32>; 2] {
    let (us, them) = m.views(s.side as usize);
    [us, them].map(|p| sample_features(m, s, p).collect())
}

/// The positions of `games` as training examples.
pub fn dataset(
    games: &[&GameRecord],
    maps: &HashMap<String, Arc<FeatureMap>>,
    lambda: f32,
    wdl_scale: f32,
    residual: bool,
) -> Result<Dataset, String> {
    let offset = if residual {
        classical::evaluations(games)?
            .into_iter()
            .map(|cp| cp as f32 / wdl_scale)
            .collect()
    } else {
        vec![0.0; games.iter().map(|g| g.samples.len()).sum()]
    };
    let mut d = Dataset {
        feats: Vec::new(),
        index: Vec::new(),
        target: Vec::new(),
        result: Vec::new(),
        offset,
        gain: SCALE as f32 / wdl_scale,
    };
    for g in games {
        let m = &maps[&g.variant];
        for s in &g.samples {
            let start = d.feats.len() as u32;
            let (us, them) = m.views(s.side as usize);
            d.feats.extend(sample_features(m, s, us));
            d.feats.extend(sample_features(m, s, them));
            let k = u8::try_from(s.pieces.len()).map_err(|_| "a position of over 255 pieces")?;
            d.index.push((start, k, k));
            let result = g.result_of(s.side as usize) as f32 / 2.0;
            let score = sigmoid(s.score as f32 / wdl_scale);
            d.target.push(lambda * score + (1.0 - lambda) * result);
            d.result.push(result);
        }
    }
    Ok(d)
}

/// The float network. Each feature's weights are trained as the sum of
/// its own and those of its piece kind and side on any square (a
/// factoriser: what a piece is worth anywhere is learned from every square
/// at once); `quantize` folds the two into one row.
#[derive(Clone)]
pub struct FloatNet {
    squares: usize,
    /// the squared clipped activation
    pub screlu: bool,
    pub ft_w: Vec<f32>,
    /// [kind * 2 + theirs][H]
    pub fac_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    pub out_w: Vec<f32>,
    pub out_b: f32,
}

impl FloatNet {
    fn new(features: usize, squares: usize, seed: u64) -> FloatNet {
        let mut rng = crate::rng::SplitMix64(seed);
        let mut uniform =
            |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
        FloatNet {
            squares,
            screlu: false,
            ft_w: (0..features * H).map(|_| uniform(0.01)).collect(),
            fac_w: (0..features / squares * H).map(|_| uniform(0.1)).collect(),
            ft_b: (0..H).map(|_| uniform(0.1) + 0.2).collect(),
            out_w: (0..2 * H).map(|_| uniform(0.1)).collect(),
            out_b: 0.0,
        }
    }

    fn accumulate(&self, feats: &[u32]) -> [f32; H] {
        let mut a: [f32; H] = self.ft_b[..].try_into().expect("H biases");
        for &f in feats {
            let f = f as usize;
            let row = &self.ft_w[f * H..f * H + H];
            let k = f / self.squares;
            let fac = &self.fac_w[k * H..k * H + H];
            for i in 0..H {
                a[i] += row[i] + fac[i];
            }
        }
        a
    }

    /// The output (centipawns / SCALE) of a position's features as the
    /// output sees them (the side to move's perspective first), and both
    /// accumulators.
    fn forward(&self, f: [&[u32]; 2]) -> (f32, [[f32; H]; 2]) {
        let acc = [self.accumulate(f[0]), self.accumulate(f[1])];
        let mut y = self.out_b;
        for (a, w) in acc.iter().zip(self.out_w.chunks_exact(H)) {
            for (x, w) in a.iter().zip(w) {
                y += self.act(*x) * w;
            }
        }
        (y, acc)
    }

    /// The activation of an accumulator entry.
    #[inline(always)]
    fn act(&self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        if self.screlu { c * c } else { c }
    }

    /// The activation's slope at `x`.
    #[inline(always)]
    fn slope(&self, x: f32) -> f32 {
        match (x > 0.0 && x < 1.0, self.screlu) {
            (false, _) => 0.0,
            (true, true) => 2.0 * x,
            (true, false) => 1.0,
        }
    }

    /// The float evaluation in centipawns.
    pub fn eval_cp(&self, f: [&[u32]; 2]) -> f32 {
        self.forward(f).0 * SCALE as f32
    }

    pub fn quantize(&self, inputs: &Inputs, families: &str, residual: bool) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            squares: inputs.squares,
            relations: inputs.relations,
            kinds: inputs.kinds.clone(),
            families: families.to_string(),
            residual,
            screlu: self.screlu,
            ft_w: self
                .ft_w
                .iter()
                .enumerate()
                .map(|(i, &w)| q(w + self.fac_w[i / H / self.squares * H + i % H], QA))
                .collect(),
            ft_b: self.ft_b.iter().map(|&w| q(w, QA)).collect(),
            out_w: self.out_w.iter().map(|&w| q(w, QB)).collect(),
            out_b: (self.out_b * (QA * QB) as f32).round() as i32,
        }
    }

    /// The float network of a quantized one, laid out for `kinds` on
    /// `squares` (the training data's layout): each known kind's rows
    /// split into the factor (their mean over the squares) and the rest,
    /// so that `quantize` gives the same integers back; a kind the network
    /// does not know keeps `fresh`'s random weights. Returns the network
    /// and how many weights had to be clipped to the trainer's bounds.
    fn from_network(net: &Network, kinds: &[String], fresh: FloatNet) -> (FloatNet, usize) {
        let s = fresh.squares;
        let mut f = fresh;
        let mut clipped = 0;
        let half = FT_CLIP / 2.0;
        for (k, kind) in kinds.iter().enumerate() {
            let Some(old) = net.kinds.iter().position(|x| x == kind) else {
                continue;
            };
            let r = net.relations;
            for rel in 0..r {
                let (row0, old0) = ((k * r + rel) * s, (old * r + rel) * s);
                for j in 0..H {
                    let w = |sq: usize| net.ft_w[(old0 + sq) * H + j] as f32 / QA as f32;
                    let mean = (0..s).map(w).sum::<f32>() / s as f32;
                    f.fac_w[(k * r + rel) * H + j] = mean;
                    for sq in 0..s {
                        let rest = w(sq) - mean;
                        clipped += (rest.abs() > half) as usize;
                        f.ft_w[(row0 + sq) * H + j] = rest.clamp(-half, half);
                    }
                }
            }
        }
        for (b, &q) in f.ft_b.iter_mut().zip(&net.ft_b) {
            *b = q as f32 / QA as f32;
        }
        for (w, &q) in f.out_w.iter_mut().zip(&net.out_w) {
            *w = q as f32 / QB as f32;
        }
        f.out_b = net.out_b as f32 / (QA * QB) as f32;
        f.screlu = net.screlu;
        (f, clipped)
    }
}

/// Gradients of one thread's share of a batch.
struct Grad {
    ft_w: Vec<f32>,
    fac_w: Vec<f32>,
    ft_b: Vec<f32>,
    out_w: Vec<f32>,
    out_b: f32,
    loss: f64,
}

impl Grad {
    fn zero(features: usize, factors: usize) -> Grad {
        Grad {
            ft_w: vec![0.0; features * H],
            fac_w: vec![0.0; factors * H],
            ft_b: vec![0.0; H],
            out_w: vec![0.0; 2 * H],
            out_b: 0.0,
            loss: 0.0,
        }
    }
    fn add(mut self, o: Grad) -> Grad {
        for (a, b) in self.ft_w.iter_mut().zip(&o.ft_w) {
            *a += b;
        }
        for (a, b) in self.fac_w.iter_mut().zip(&o.fac_w) {
            *a += b;
        }
        for (a, b) in self.ft_b.iter_mut().zip(&o.ft_b) {
            *a += b;
        }
        for (a, b) in self.out_w.iter_mut().zip(&o.out_w) {
            *a += b;
        }
        self.out_b += o.out_b;
        self.loss += o.loss;
        self
    }
}

fn loss_of(net: &FloatNet, d: &Dataset, i: usize) -> (f32, f32, [[f32; H]; 2]) {
    let (y, acc) = net.forward(d.features(i));
    let p = sigmoid(y * d.gain + d.offset[i]);
    let e = p - d.target[i];
    (e * e, 2.0 * e * p * (1.0 - p) * d.gain, acc)
}

fn backward(net: &FloatNet, d: &Dataset, i: usize, g: &mut Grad) {
    let (loss, dy, acc) = loss_of(net, d, i);
    g.loss += loss as f64;
    g.out_b += dy;
    let f = d.features(i);
    for (half, a) in acc.iter().enumerate() {
        let mut da = [0f32; H];
        for j in 0..H {
            let x = a[j];
            g.out_w[half * H + j] += dy * net.act(x);
            da[j] = dy * net.out_w[half * H + j] * net.slope(x);
        }
        for (b, d) in g.ft_b.iter_mut().zip(&da) {
            *b += d;
        }
        for &feat in f[half] {
            let feat = feat as usize;
            let row = &mut g.ft_w[feat * H..feat * H + H];
            for (r, d) in row.iter_mut().zip(&da) {
                *r += d;
            }
            let k = feat / net.squares;
            for (r, d) in g.fac_w[k * H..k * H + H].iter_mut().zip(&da) {
                *r += d;
            }
        }
    }
}

/// Adam's moments of one tensor.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32, t: i32, clip: f32, decay: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        let c1 = 1.0 - b1.powi(t);
        let c2 = 1.0 - b2.powi(t);
        for i in 0..w.len() {
            let gi = g[i];
            if gi == 0.0 && self.m[i] == 0.0 {
                continue;
            }
            self.m[i] = b1 * self.m[i] + (1.0 - b1) * gi;
            self.v[i] = b2 * self.v[i] + (1.0 - b2) * gi * gi;
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + eps);
            w[i] = (w[i] * (1.0 - lr * decay) - step).clamp(-clip, clip);
        }
    }
}

/// The mean loss of a data set, and the mean squared error of the
/// predicted result against the games' results alone (comparable across
/// values of lambda).
pub fn mean_loss(net: &FloatNet, d: &Dataset) -> (f64, f64) {
    if d.is_empty() {
        return (0.0, 0.0);
    }
    let (sum, res) = (0..d.len())
        .into_par_iter()
        .map(|i| {
            let y = net.forward(d.features(i)).0;
            let p = sigmoid(y * d.gain + d.offset[i]);
            let (e, r) = (p - d.target[i], p - d.result[i]);
            ((e * e) as f64, (r * r) as f64)
        })
        .reduce(|| (0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (sum / d.len() as f64, res / d.len() as f64)
}

/// The mean squared errors of predictions (sigmoid space) against the
/// targets and against the results.
fn prediction_losses(pred: &[f32], d: &Dataset) -> (f64, f64) {
    let n = pred.len().max(1) as f64;
    let sq = |a: f32, b: f32| ((a - b) * (a - b)) as f64;
    let target = pred
        .iter()
        .zip(&d.target)
        .map(|(&p, &t)| sq(p, t))
        .sum::<f64>();
    let result = pred
        .iter()
        .zip(&d.result)
        .map(|(&p, &r)| sq(p, r))
        .sum::<f64>();
    (target / n, result / n)
}

/// One batch: the gradients over threads, then Adam; returns the batch's
/// summed loss.
fn step(
    net: &mut FloatNet,
    opt: &mut [Adam; 5],
    train_set: &Dataset,
    batch: &[u32],
    lr: f32,
    t: i32,
    wd: f32,
) -> f64 {
    let (features, factors) = (net.ft_w.len() / H, net.fac_w.len() / H);
    let threads = rayon::current_num_threads().max(1);
    let per = batch.len().div_ceil(threads);
    let g = batch
        .par_chunks(per.max(1))
        .map(|part| {
            let mut g = Grad::zero(features, factors);
            for &i in part {
                backward(net, train_set, i as usize, &mut g);
            }
            g
        })
        .reduce_with(Grad::add)
        .expect("a non-empty batch");
    let scale = 1.0 / batch.len() as f32;
    let scaled = |v: &[f32]| v.iter().map(|x| x * scale).collect::<Vec<f32>>();
    // a feature's two parts each keep half of what the integers hold
    opt[0].step(&mut net.ft_w, &scaled(&g.ft_w), lr, t, FT_CLIP / 2.0, wd);
    opt[1].step(&mut net.fac_w, &scaled(&g.fac_w), lr, t, FT_CLIP / 2.0, 0.0);
    opt[2].step(&mut net.ft_b, &scaled(&g.ft_b), lr, t, FT_CLIP, 0.0);
    opt[3].step(&mut net.out_w, &scaled(&g.out_w), lr, t, 100.0, 0.0);
    let mut b = [net.out_b];
    opt[4].step(&mut b, &[g.out_b * scale], lr, t, 100.0, 0.0);
    net.out_b = b[0];
    g.loss
}

/// The families text of the network of `games`: `--families`, and for
/// Free-For-All data `fourplayer-ffa` among them (the engine gives a
/// Free-For-All game only a network that names it). A Free-For-All
/// network must be residual: the players' points, which its evaluation
/// turns on, are the classical evaluation's, not inputs of the network.
fn families_of(games: &[GameRecord], cfg: &Config) -> Result<String, String> {
    let ffa = Mode::Ffa.name();
    if !games
        .iter()
        .any(|g| Mode::from_name(&g.variant) == Some(Mode::Ffa))
    {
        return Ok(cfg.families.clone());
    }
    if !cfg.residual {
        return Err(format!(
            "{ffa}: train with --residual (the points are the classical evaluation's)"
        ));
    }
    if let Some(g) = games
        .iter()
        .find(|g| g.samples.iter().any(|s| s.points.is_none()))
    {
        return Err(format!(
            "{ffa}: game {} has positions without the players' points (data format 3 keeps them; make the data again)",
            g.game
        ));
    }
    let named = crate::nnue::choice::names_free_for_all(&cfg.families);
    Ok(match (named, cfg.families.trim().is_empty()) {
        (true, _) => cfg.families.clone(),
        (false, true) => ffa.to_string(),
        (false, false) => format!("{ffa},{}", cfg.families),
    })
}

/// The result of training.
pub struct Trained {
    pub float: FloatNet,
    pub net: Network,
    /// (epoch, train loss, validation loss, seconds)
    pub epochs: Vec<(usize, f64, f64, f64)>,
    pub train_positions: usize,
    pub validation_positions: usize,
    /// the numbers of the games held out
    pub validation_games: Vec<u32>,
    /// the epoch whose network was kept
    pub best_epoch: usize,
}

/// Trains a network on `games`; `report` gets each epoch's line.
pub fn train(games: &[GameRecord], cfg: &Config, report: &dyn Fn(&str)) -> Result<Trained, String> {
    let inputs = network_layout(games)?;
    let families = families_of(games, cfg)?;
    let (kinds, squares) = (&inputs.kinds, inputs.squares);
    let maps = maps(games, &skeleton(&inputs))?;
    let features = inputs.features();
    // validation: games whose number falls in the share, by a hash
    let held = |g: &GameRecord| {
        let h = crate::nnue::data::fnv1a(&g.game.to_le_bytes()) as f64 / u32::MAX as f64;
        h < cfg.validation
    };
    let (val_games, train_games): (Vec<&GameRecord>, Vec<&GameRecord>) =
        games.iter().partition(|g| held(g));
    let train_set = dataset(&train_games, &maps, cfg.lambda, cfg.wdl_scale, cfg.residual)?;
    let val_set = dataset(&val_games, &maps, cfg.lambda, cfg.wdl_scale, cfg.residual)?;
    // the yardstick: the classical evaluation's loss on the validation set
    let (classical_loss, classical_results) = {
        let evals = classical::evaluations(&val_games)?;
        let pred: Vec<f32> = evals
            .iter()
            .map(|&e| sigmoid(e as f32 / cfg.wdl_scale))
            .collect();
        prediction_losses(&pred, &val_set)
    };
    if train_set.is_empty() {
        return Err("no training positions".into());
    }
    report(&format!(
        "{} kinds, {squares} squares, {features} features x {H}; {} training positions ({} games), {} validation ({} games); the classical evaluation's validation loss {classical_loss:.6} (against the results alone {classical_results:.6})",
        kinds.len(),
        train_set.len(),
        train_games.len(),
        val_set.len(),
        val_games.len()
    ));
    let factors = features / squares;
    let mut net = FloatNet::new(features, squares, cfg.seed);
    net.screlu = cfg.screlu;
    let mut best: Option<(FloatNet, f64, usize)> = None;
    if let Some(init) = &cfg.init {
        net = start_from(init, &inputs, cfg, net, report)?;
        let (val_loss, val_results) = mean_loss(&net, &val_set);
        report(&format!(
            "epoch 0 (the starting network) validation loss {val_loss:.6} (against the results alone {val_results:.6})"
        ));
        best = Some((net.clone(), val_loss, 0));
    } else if cfg.epochs == 0 {
        return Err("0 epochs trains nothing (without a starting network)".into());
    }
    let mut opt = [
        Adam::new(features * H),
        Adam::new(factors * H),
        Adam::new(H),
        Adam::new(2 * H),
        Adam::new(1),
    ];
    let mut order: Vec<u32> = (0..train_set.len() as u32).collect();
    let mut rng = crate::rng::SplitMix64(cfg.seed ^ 0x5EED);
    let mut t = 0;
    let mut epochs = Vec::new();
    let start = Instant::now();
    for epoch in 1..=cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.index(i + 1));
        }
        // the learning rate drops tenfold for the last quarter
        let lr = if epoch * 4 > cfg.epochs * 3 {
            cfg.lr * 0.1
        } else {
            cfg.lr
        };
        let mut sum = 0.0;
        for batch in order.chunks(cfg.batch.max(1)) {
            t += 1;
            sum += step(
                &mut net,
                &mut opt,
                &train_set,
                batch,
                lr,
                t,
                cfg.weight_decay,
            );
        }
        let train_loss = sum / train_set.len() as f64;
        let (val_loss, val_results) = mean_loss(&net, &val_set);
        let secs = start.elapsed().as_secs_f64();
        report(&format!(
            "epoch {epoch} lr {lr:.5} train loss {train_loss:.6} validation loss {val_loss:.6} (against the results alone {val_results:.6}) ({secs:.0} s)"
        ));
        epochs.push((epoch, train_loss, val_loss, secs));
        // the network of the best validation loss is the one kept
        if best
            .as_ref()
            .is_none_or(|b| val_loss < b.1 || val_set.is_empty())
        {
            best = Some((net.clone(), val_loss, epoch));
        }
    }
    let (net, _, best_epoch) = best.expect("at least one epoch");
    report(&format!(
        "kept the network of epoch {best_epoch} (best validation loss)"
    ));
    let mut q = net.quantize(&inputs, &families, cfg.residual);
    if best_epoch > 0 {
        let (diff, n) = correct_bias(&mut q, &net, &train_set);
        report(&format!(
            "quantization: the float network's output is {diff:+.2} cp from the quantized one's on average over {n} training positions; the output bias takes it"
        ));
    }
    Ok(Trained {
        float: net,
        net: q,
        epochs,
        train_positions: train_set.len(),
        validation_positions: val_set.len(),
        validation_games: val_games.iter().map(|g| g.game).collect(),
        best_epoch,
    })
}

/// Moves the quantized network's output bias by the mean difference
/// between the float and the quantized outputs over (at most 20,000 of)
/// `d`'s positions: the rounding errors of the weights that every position
/// shares (the biases, the Kings' rows) add up to an offset of several
/// centipawns, the same in every position. Returns the difference in
/// centipawns and the positions it was measured on.
fn correct_bias(q: &mut Network, float: &FloatNet, d: &Dataset) -> (f64, usize) {
    let n = d.len().min(20_000);
    if n == 0 {
        return (0.0, 0);
    }
    let step = d.len() / n;
    let sum: f64 = (0..n)
        .into_par_iter()
        .map(|k| {
            let i = k * step;
            let f = d.features(i);
            let acc = |half: usize| q.accumulator(f[half].iter().map(|&x| x as usize));
            let quantized = q.output(&acc(0), &acc(1));
            float.eval_cp(f) as f64 - quantized as f64
        })
        .sum();
    let diff = sum / n as f64;
    let shift = (diff * (QA * QB) as f64 / SCALE as f64).round();
    q.out_b = (q.out_b as f64 + shift).clamp(i32::MIN as f64, i32::MAX as f64) as i32;
    (diff, n)
}

/// The float network to go on training from `init`: its board and flags
/// must be the ones asked for.
fn start_from(
    init: &Network,
    inputs: &Inputs,
    cfg: &Config,
    fresh: FloatNet,
    report: &dyn Fn(&str),
) -> Result<FloatNet, String> {
    if (init.squares, init.relations) != (inputs.squares, inputs.relations) {
        return Err(format!(
            "the starting network is for '{}' on boards of {} squares, the data's need '{}' on {}",
            crate::nnue::net::feature_set(init.relations),
            init.squares,
            crate::nnue::net::feature_set(inputs.relations),
            inputs.squares
        ));
    }
    let kinds = &inputs.kinds;
    let flag = |on: bool, name: &str| {
        if on {
            name.to_string()
        } else {
            format!("no {name}")
        }
    };
    if (init.residual, init.screlu) != (cfg.residual, cfg.screlu) {
        return Err(format!(
            "the starting network has {} and {}; this training asks for {} and {}",
            flag(init.residual, "--residual"),
            flag(init.screlu, "--screlu"),
            flag(cfg.residual, "--residual"),
            flag(cfg.screlu, "--screlu")
        ));
    }
    let new: Vec<&String> = kinds.iter().filter(|k| !init.kinds.contains(k)).collect();
    let (net, clipped) = FloatNet::from_network(init, kinds, fresh);
    report(&format!(
        "starting from a network of {} kinds ({} new kinds start random); {clipped} weights clipped to the trainer's bounds",
        init.kinds.len(),
        new.len()
    ));
    Ok(net)
}

/// Lines `variant|side|sq:owner:type ...|float centipawns` for the first
/// `n` positions of `games` (for the check that the quantized network
/// agrees with the float one).
pub fn check_lines(
    games: &[GameRecord],
    float: &FloatNet,
    inputs: &Inputs,
    n: usize,
) -> Result<String, String> {
    let maps = maps(games, &skeleton(inputs))?;
    let mut out = String::new();
    let samples = games
        .iter()
        .flat_map(|g| g.samples.iter().map(move |s| (g, s)));
    for (g, s) in samples.take(n) {
        let m = &maps[&g.variant];
        let f = output_features(m, s);
        let cp = float.eval_cp([&f[0], &f[1]]);
        let pieces: Vec<String> = s
            .pieces
            .iter()
            .map(|(sq, o, t)| format!("{sq}:{o}:{t}"))
            .collect();
        out.push_str(&format!(
            "{}|{}|{}|{cp:.2}\n",
            g.variant,
            s.side,
            pieces.join(" ")
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three positions of a tiny board (4 squares, 1 kind: 8 features),
    /// scored at a win-probability scale that is not the output's.
    fn tiny_set() -> Dataset {
        Dataset {
            feats: vec![0, 5, 2, 1, 4, 7, 6, 3, 0, 2],
            index: vec![(0, 1, 1), (2, 2, 2), (6, 2, 2)],
            target: vec![0.7, 0.2, 0.55],
            result: vec![1.0, 0.0, 0.5],
            offset: vec![0.3, -0.4, 0.0],
            gain: SCALE as f32 / 200.0,
        }
    }

    fn total_loss(net: &FloatNet, d: &Dataset) -> f64 {
        (0..d.len()).map(|i| loss_of(net, d, i).0 as f64).sum()
    }

    #[test]
    fn the_gradients_are_the_losss_derivatives_at_any_scale() {
        for screlu in [false, true] {
            gradients_match(screlu);
        }
    }

    fn gradients_match(screlu: bool) {
        let d = tiny_set();
        let mut net = FloatNet::new(8, 4, 3);
        net.screlu = screlu;
        // weights large enough that the accumulators are inside (0, 1)
        net.ft_w.iter_mut().for_each(|w| *w *= 20.0);
        let mut g = Grad::zero(8, 2);
        for i in 0..d.len() {
            backward(&net, &d, i, &mut g);
        }
        let numeric = |net: &FloatNet, bump: &dyn Fn(&mut FloatNet, f32)| {
            let h = 1e-3;
            let (mut up, mut down) = (net.clone(), net.clone());
            bump(&mut up, h);
            bump(&mut down, -h);
            (total_loss(&up, &d) - total_loss(&down, &d)) / (2.0 * h as f64)
        };
        let close = |a: f64, b: f32| (a - b as f64).abs() <= 1e-3 + 0.02 * a.abs();
        let n = numeric(&net, &|n, h| n.out_b += h);
        assert!(
            close(n, g.out_b),
            "out_b: numeric {n}, backward {}",
            g.out_b
        );
        for j in [0, 7, H + 3] {
            let n = numeric(&net, &|n, h| n.out_w[j] += h);
            assert!(close(n, g.out_w[j]), "out_w[{j}]: {n} {}", g.out_w[j]);
        }
        for j in [5, 2 * H + 9, 7 * H + 100] {
            let n = numeric(&net, &|n, h| n.ft_w[j] += h);
            assert!(close(n, g.ft_w[j]), "ft_w[{j}]: {n} {}", g.ft_w[j]);
        }
    }
}
