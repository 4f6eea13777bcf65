//! The rankers, and a candidate's rank in each: the one list every other part walks.
//!
//! Everything that handles all rankers alike (the fusion, [`Ranks::weighted_score`], the answer's
//! `ranks` object, a host's display) goes through [`Ranker::ALL`], so a new ranker is added in
//! this crate only: a variant of [`Ranker`], last, and in [`Ranker::ALL`] (with
//! [`Ranker::COUNT`]); then every `match` the compiler flags: its name, its field of [`Ranks`],
//! its list in [`Rankings::with_bm25`](crate::Rankings::with_bm25) and its weight in
//! [`Weights`](crate::Weights). The unit tests check that `ALL` follows the slots and that the
//! JSON keys are the names, in order.

use std::ops::Index;

/// The constant `k` of Reciprocal Rank Fusion: `1 / (k + rank)`.
pub const RRF_K: f64 = 60.0;

/// One of the rankers. [`Ranker::ALL`] lists them in the order the fusion sums them and the
/// answer's `ranks` object lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Ranker {
    /// BM25.
    Bm25,
    /// Embedding cosine.
    Semantic,
    /// Shared entities.
    Entity,
    /// Created in the period the query names ([`resolve_time`](crate::resolve_time)).
    Time,
}

impl Ranker {
    /// How many rankers there are.
    pub const COUNT: usize = 4;

    /// Every ranker, in fusion order.
    pub const ALL: [Ranker; Ranker::COUNT] =
        [Ranker::Bm25, Ranker::Semantic, Ranker::Entity, Ranker::Time];

    /// The ranker's key in the answer's `ranks` object.
    pub const fn name(self) -> &'static str {
        match self {
            Ranker::Bm25 => "bm25",
            Ranker::Semantic => "semantic",
            Ranker::Entity => "entity",
            Ranker::Time => "time",
        }
    }

    /// The ranker's position in [`Ranker::ALL`], for arrays with one slot per ranker.
    pub const fn slot(self) -> usize {
        self as usize
    }
}

/// A candidate's 1-based position in each ranker's list, `None` where that ranker left it out.
///
/// A named field per [`Ranker`], so that its JSON form (an object keyed by [`Ranker::name`], in
/// [`Ranker::ALL`] order, `null` where a ranker left the candidate out — except `time`, whose key
/// is present only with a rank) and its OpenAPI schema are derived; code that treats rankers alike reads it by ranker (`ranks[ranker]`,
/// [`Ranks::iter`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(
    feature = "openapi",
    schema(
        description = "The 1-based positions of a recalled memory in each ranked list (`null` when not ranked there)."
    )
)]
pub struct Ranks {
    /// Position in the BM25 list.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub bm25: Option<u32>,
    /// Position in the semantic list.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub semantic: Option<u32>,
    /// Position in the entity-overlap list.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub entity: Option<u32>,
    /// Position in the list of candidates created in the period the query names. The key is
    /// left out of the JSON when the candidate is not in that list (always, for a query that
    /// names no time), so answers to such queries are what they were before the ranker.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub time: Option<u32>,
}

impl Ranks {
    /// The rank `ranker` gave, `None` where it left the candidate out.
    pub fn get(&self, ranker: Ranker) -> Option<u32> {
        self[ranker]
    }

    /// Sets the rank `ranker` gave.
    pub fn set(&mut self, ranker: Ranker, rank: Option<u32>) {
        *self.slot_mut(ranker) = rank;
    }

    fn slot_mut(&mut self, ranker: Ranker) -> &mut Option<u32> {
        match ranker {
            Ranker::Bm25 => &mut self.bm25,
            Ranker::Semantic => &mut self.semantic,
            Ranker::Entity => &mut self.entity,
            Ranker::Time => &mut self.time,
        }
    }

    /// Each ranker with its rank, in [`Ranker::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Ranker, Option<u32>)> + '_ {
        Ranker::ALL.into_iter().map(|ranker| (ranker, self[ranker]))
    }

    /// `Σ 1 / (RRF_K + rank)` over the rankers that list the candidate: the fusion with
    /// [`Weights::EQUAL`](crate::Weights::EQUAL).
    pub fn rrf_score(&self) -> f64 {
        self.weighted_score([1.0; Ranker::COUNT], [None; Ranker::COUNT])
    }

    /// `Σ w_r / (RRF_K + rank_r)` over the rankers that list the candidate within their depth
    /// (weights and depths by [`Ranker::slot`]), always summed in [`Ranker::ALL`] order so that
    /// equal rank combinations give bit-equal scores.
    pub fn weighted_score(
        &self,
        weights: [f64; Ranker::COUNT],
        depths: [Option<u32>; Ranker::COUNT],
    ) -> f64 {
        self.iter()
            .filter_map(|(ranker, rank)| {
                let slot = ranker.slot();
                let rank = rank.filter(|r| depths[slot].is_none_or(|d| *r <= d))?;
                Some(weights[slot] / (RRF_K + f64::from(rank)))
            })
            .sum()
    }
}

impl Index<Ranker> for Ranks {
    type Output = Option<u32>;

    fn index(&self, ranker: Ranker) -> &Option<u32> {
        match ranker {
            Ranker::Bm25 => &self.bm25,
            Ranker::Semantic => &self.semantic,
            Ranker::Entity => &self.entity,
            Ranker::Time => &self.time,
        }
    }
}

impl FromIterator<(Ranker, u32)> for Ranks {
    /// The ranks given; a ranker named twice keeps its last rank.
    fn from_iter<I: IntoIterator<Item = (Ranker, u32)>>(iter: I) -> Self {
        let mut ranks = Ranks::default();
        for (ranker, rank) in iter {
            ranks.set(ranker, Some(rank));
        }
        ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_follow_the_order_of_all() {
        for (i, ranker) in Ranker::ALL.into_iter().enumerate() {
            assert_eq!(ranker.slot(), i);
        }
        let names: Vec<&str> = Ranker::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(names, ["bm25", "semantic", "entity", "time"]);
    }

    #[test]
    fn each_ranker_reads_and_writes_its_own_field() {
        let ranks: Ranks = [(Ranker::Semantic, 2), (Ranker::Entity, 7)]
            .into_iter()
            .collect();
        assert_eq!(
            ranks,
            Ranks {
                bm25: None,
                semantic: Some(2),
                entity: Some(7),
                time: None,
            }
        );
        assert_eq!(
            ranks.iter().collect::<Vec<_>>(),
            [
                (Ranker::Bm25, None),
                (Ranker::Semantic, Some(2)),
                (Ranker::Entity, Some(7)),
                (Ranker::Time, None),
            ]
        );
    }

    /// The JSON object has one key per ranker, named and ordered as [`Ranker::ALL`]; `time`
    /// only when it ranked the candidate.
    #[cfg(feature = "serde")]
    #[test]
    fn the_json_object_is_keyed_by_ranker_names_in_order() {
        let ranks = Ranks {
            bm25: Some(1),
            semantic: None,
            entity: Some(3),
            time: None,
        };
        let expected: String = Ranker::ALL
            .iter()
            .filter(|r| **r != Ranker::Time)
            .map(|r| {
                format!(
                    "\"{}\":{}",
                    r.name(),
                    ranks[*r].map_or("null".into(), |n| n.to_string())
                )
            })
            .collect::<Vec<_>>()
            .join(",");
        let json = serde_json::to_string(&ranks).unwrap();
        assert_eq!(json, format!("{{{expected}}}"));
        assert_eq!(json, r#"{"bm25":1,"semantic":null,"entity":3}"#);
        assert_eq!(serde_json::from_str::<Ranks>(&json).unwrap(), ranks);
        let timed = Ranks {
            time: Some(2),
            ..ranks
        };
        let json = serde_json::to_string(&timed).unwrap();
        assert_eq!(json, r#"{"bm25":1,"semantic":null,"entity":3,"time":2}"#);
        assert_eq!(serde_json::from_str::<Ranks>(&json).unwrap(), timed);
    }
}
