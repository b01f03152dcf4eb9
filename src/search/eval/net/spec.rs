//! The net's contract with its trainer, in one place: everything
//! `tools/net/train.py` must agree on with the engine, taken from the
//! engine's own constants and printed by `featurize --spec` as JSON, so
//! that the trainer reads it rather than typing it again.

use super::inputs::{
    kind_number, ANCHOR_BASE, INPUTS, KINDS, MAX_ACTIVE, PILE_BASE, PILE_CAP, REACH, SPAN,
    TILE_BASE,
};
use super::{HEADER, MAGIC, MAGIC_CORRECTION, MAGIC_RICH_CORRECTION, QA, QB};
use crate::rules::Kind;
use crate::search::score::LOGISTIC_SCALE;
use serde::Serialize;

/// The contract as the trainer reads it (docs/net.md): the inputs'
/// layout, the quantisation scales and the file's header. Field names
/// are the JSON keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Spec {
    /// How many inputs a perspective has ([`INPUTS`]).
    pub inputs: usize,
    /// The most inputs a perspective has active at once ([`MAX_ACTIVE`]).
    pub max_active: usize,
    /// How far from the anchor a tile is seen along each axis ([`REACH`]).
    pub reach: i32,
    /// Squares along each axis of the tile window ([`SPAN`]).
    pub span: usize,
    /// The kinds in the order their numbers give (king 0 … pawn 5).
    pub kinds: Vec<String>,
    /// The relations in the order their numbers give: the perspective's
    /// own tiles and pile, then the other side's.
    pub relations: Vec<String>,
    /// The anchor kinds in the order of their inputs.
    pub anchor_kinds: Vec<String>,
    /// A pile count is seen as at most this many ([`PILE_CAP`]).
    pub pile_cap: u8,
    /// The first tile input: `tile_base + ((relation · kinds + kind) ·
    /// span + dx + reach) · span + dy + reach`.
    pub tile_base: usize,
    /// The first anchor input: `anchor_base + anchor kind`.
    pub anchor_base: usize,
    /// The first pile input: `pile_base + (relation · kinds + kind) ·
    /// (pile_cap + 1) + min(count, pile_cap)`.
    pub pile_base: usize,
    /// The scale of the first layer's weights and activations ([`QA`]).
    pub qa: i32,
    /// The scale of the output layer's weights ([`QB`]).
    pub qb: i32,
    /// Centipawns of a logit of 1: how a correcting net reads the
    /// centipawns of the evaluation it corrects.
    pub logistic_scale: f64,
    /// The magic of a net whose output is the whole logit ([`MAGIC`]).
    pub magic: String,
    /// The magic of a net that corrects the hand-made evaluation
    /// ([`MAGIC_CORRECTION`]).
    pub magic_correction: String,
    /// The magic of a net that corrects the rich evaluation
    /// ([`MAGIC_RICH_CORRECTION`]).
    pub magic_rich_correction: String,
    /// Bytes before the weights: magic, input count, hidden size.
    pub header_bytes: usize,
}

impl Spec {
    /// The engine's contract, from its constants.
    pub fn engine() -> Spec {
        let text = |magic: &[u8; 8]| String::from_utf8_lossy(magic).into_owned();
        // Each kind's name at its number, whatever the order of `Kind`.
        let mut kinds = vec![String::new(); KINDS];
        for kind in Kind::ALL {
            kinds[kind_number(kind)] = format!("{kind:?}").to_lowercase();
        }
        Spec {
            inputs: INPUTS,
            max_active: MAX_ACTIVE,
            reach: REACH,
            span: SPAN,
            kinds,
            relations: vec!["own".into(), "other".into()],
            anchor_kinds: vec!["own king".into(), "other king".into(), "first tile".into()],
            pile_cap: PILE_CAP,
            tile_base: TILE_BASE,
            anchor_base: ANCHOR_BASE,
            pile_base: PILE_BASE,
            qa: QA,
            qb: QB,
            logistic_scale: LOGISTIC_SCALE,
            magic: text(&MAGIC),
            magic_correction: text(&MAGIC_CORRECTION),
            magic_rich_correction: text(&MAGIC_RICH_CORRECTION),
            header_bytes: HEADER,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::eval::net::inputs::{ANCHOR_KINDS, RELATIONS};

    #[test]
    fn the_spec_lists_what_the_layout_counts() {
        let spec = Spec::engine();
        assert_eq!(spec.kinds.len(), KINDS);
        assert_eq!(spec.relations.len(), RELATIONS);
        assert_eq!(spec.anchor_kinds.len(), ANCHOR_KINDS);
        assert_eq!(spec.kinds[0], "king");
        assert_eq!(spec.kinds[5], "pawn");
        assert_eq!(spec.magic, "CHEXNET1");
        assert_eq!(spec.magic_correction, "CHEXNET2");
        assert_eq!(spec.magic_rich_correction, "CHEXNET3");
        assert_eq!(spec.header_bytes, 16);
        let json = serde_json::to_string(&spec).expect("a spec serialises");
        assert!(json.contains(r#""inputs":2811"#), "{json}");
    }
}
