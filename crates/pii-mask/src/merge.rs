//! Merging overlapping detections into disjoint spans, and writing placeholders over them.

use crate::Span;
use crate::detect::Found;

/// Sorts and merges detections: overlapping ones become their union, labelled with the
/// highest-priority category among them; spans that only touch stay separate.
pub(crate) fn merge(found: impl IntoIterator<Item = Span>) -> Vec<Span> {
    let mut all: Vec<Span> = found.into_iter().collect();
    all.sort_by_key(|s| (s.start, s.end));
    let mut merged: Vec<Span> = Vec::with_capacity(all.len());
    for s in all {
        match merged.last_mut() {
            Some(last) if s.start < last.end => {
                last.end = last.end.max(s.end);
                // `Category` orders by priority, highest first.
                last.category = last.category.min(s.category);
            }
            _ => merged.push(s),
        }
    }
    merged
}

/// Spans of detections, before merging.
pub(crate) fn spans(found: &[Found]) -> impl Iterator<Item = Span> + '_ {
    found.iter().map(|f| Span {
        start: f.start,
        end: f.end,
        category: f.category,
    })
}

/// Where one placeholder landed in the masked text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Placed {
    out_start: usize,
    out_end: usize,
    span: Span,
}

/// Replaces each span of `text` by its placeholder. `spans` are sorted and disjoint.
pub(crate) fn render(text: &str, spans: &[Span]) -> (String, Vec<Placed>) {
    let mut out = String::with_capacity(text.len());
    let mut placed = Vec::with_capacity(spans.len());
    let mut at = 0;
    for &span in spans {
        out.push_str(&text[at..span.start]);
        let out_start = out.len();
        out.push_str(span.category.placeholder());
        placed.push(Placed {
            out_start,
            out_end: out.len(),
            span,
        });
        at = span.end;
    }
    out.push_str(&text[at..]);
    (out, placed)
}

/// Maps a span found in the masked text back to the original text: offsets outside
/// placeholders shift back, offsets inside a placeholder widen to the span it replaced.
pub(crate) fn to_original(found: Span, placed: &[Placed]) -> Span {
    let start = {
        let i = placed.partition_point(|p| p.out_start <= found.start);
        match i.checked_sub(1).map(|k| placed[k]) {
            Some(p) if found.start < p.out_end => p.span.start,
            Some(p) => found.start - p.out_end + p.span.end,
            None => found.start,
        }
    };
    let end = {
        let i = placed.partition_point(|p| p.out_start < found.end);
        match i.checked_sub(1).map(|k| placed[k]) {
            Some(p) if found.end <= p.out_end => p.span.end,
            Some(p) => found.end - p.out_end + p.span.end,
            None => found.end,
        }
    };
    Span {
        start,
        end,
        category: found.category,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Category::{self, *};

    fn span(start: usize, end: usize, category: Category) -> Span {
        Span {
            start,
            end,
            category,
        }
    }

    #[test]
    fn overlapping_spans_union_with_the_highest_priority() {
        let merged = merge([span(5, 15, Number), span(0, 10, Phone), span(12, 20, Card)]);
        assert_eq!(merged, [span(0, 20, Card)]);
    }

    #[test]
    fn touching_spans_stay_separate() {
        let merged = merge([span(4, 8, Phone), span(0, 4, Email)]);
        assert_eq!(merged, [span(0, 4, Email), span(4, 8, Phone)]);
    }

    #[test]
    fn render_and_map_back() {
        let text = "a 0501234567 b 1234567890 c";
        let spans = [span(2, 12, Phone), span(15, 25, Number)];
        let (out, placed) = render(text, &spans);
        assert_eq!(out, "a [PHONE] b [NUMBER] c");
        // Inside the gap between placeholders.
        assert_eq!(
            to_original(span(10, 11, Phone), &placed),
            span(13, 14, Phone)
        );
        // From inside one placeholder to inside the next widens to both originals.
        assert_eq!(to_original(span(4, 14, Phone), &placed), span(2, 25, Phone));
        // Touching a placeholder does not take it in.
        assert_eq!(
            to_original(span(9, 11, Phone), &placed),
            span(12, 14, Phone)
        );
        assert_eq!(to_original(span(0, 2, Phone), &placed), span(0, 2, Phone));
    }
}
