//! Resolving the entities a recall query mentions: the host may plug its own resolver; the
//! default matches the names and aliases of entities known from the candidates' cited passages.

use citation_verify::Entity;

/// Turns a (masked) query into entity ids, given the entities known from the candidates'
/// passages.
pub trait EntityResolver: Send + Sync {
    /// The ids of the entities `query` mentions.
    fn resolve(&self, query: &str, known: &[Entity]) -> Vec<String>;
}

/// Matches an entity when its name or one of its aliases occurs in the query as whole tokens,
/// case-insensitively (tokens as the ranking tokenizer makes them, so "Acme" matches "acme's
/// plan" but not "acmeville").
#[derive(Debug, Clone, Copy, Default)]
pub struct DefaultEntityResolver;

impl EntityResolver for DefaultEntityResolver {
    fn resolve(&self, query: &str, known: &[Entity]) -> Vec<String> {
        let query_tokens = fusion_rank::tokenize(query);
        let mut ids: Vec<String> = Vec::new();
        for entity in known {
            if ids.contains(&entity.id) {
                continue;
            }
            let mentioned = std::iter::once(&entity.name)
                .chain(&entity.aliases)
                .any(|name| {
                    let needle = fusion_rank::tokenize(name);
                    !needle.is_empty()
                        && query_tokens
                            .windows(needle.len())
                            .any(|w| w == needle.as_slice())
                });
            if mentioned {
                ids.push(entity.id.clone());
            }
        }
        ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acme() -> Entity {
        Entity::new("e1", "Acme Corp").with_aliases(["ACME"])
    }

    #[test]
    fn names_and_aliases_match_as_whole_tokens_in_any_case() {
        let r = DefaultEntityResolver;
        assert_eq!(r.resolve("what did acme corp decide?", &[acme()]), ["e1"]);
        assert_eq!(r.resolve("news from Acme today", &[acme()]), ["e1"]);
        assert!(r.resolve("acmeville weather", &[acme()]).is_empty());
        assert!(
            r.resolve("corp acme", &[Entity::new("e1", "Acme Corp")])
                .is_empty()
        );
    }
}
