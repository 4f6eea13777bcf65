//! R1: `pii_mask::mask` never panics, returns UTF-8, is idempotent, leaves nothing detectable in
//! its output, and grows the text only by placeholder overhead.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// The longest placeholder: the most a single span can add to the text.
const MAX_PLACEHOLDER: usize = "[BANK_ACCOUNT]".len();

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let once = pii_mask::mask(text);
    // `String` guarantees UTF-8 only through safe constructors; re-check the bytes anyway, since
    // the masker splices byte ranges.
    assert!(std::str::from_utf8(once.text.as_bytes()).is_ok());
    assert!(once.text.len() <= text.len() + once.spans.len() * MAX_PLACEHOLDER);
    let mut previous_end = 0;
    for span in &once.spans {
        assert!(span.start < span.end && span.end <= text.len());
        assert!(span.start >= previous_end, "spans are sorted and disjoint");
        assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        previous_end = span.end;
    }
    let twice = pii_mask::mask(&once.text);
    assert!(twice.spans.is_empty(), "masking the output finds nothing");
    assert_eq!(twice.text, once.text, "masking is idempotent");
});
