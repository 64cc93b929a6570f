//! The trained evaluation (NNUE): the training data's format, the
//! network's file format and its evaluation with accumulators updated as
//! moves are made, and the trainer.

pub mod accumulator;
mod bytes;
pub mod choice;
pub mod data;
pub mod features;
pub mod net;

pub use accumulator::{Evaluator, Nnue};
pub use choice::NetChoice;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests4;
pub mod train;
