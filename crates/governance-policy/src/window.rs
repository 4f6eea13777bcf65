//! The candidate window of recall: which of a member's visible versions are ranked.
//!
//! The default, `latest(300)`, ranks the 300 most recent versions valid at `asOf` that pass the
//! filters and the context set — the contract's rule. A host whose members keep more notes can
//! widen it to `latest(n)` (up to the quota, 5,000) or to `all`, every version the member may see.

use std::fmt;
use std::str::FromStr;

use crate::limits::{QUOTA_VERSIONS, RECALL_CANDIDATES_MAX};

/// How many of the most recent matching versions recall ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CandidateWindow {
    /// The `n` most recent (1 ≤ `n` ≤ 5,000).
    Latest(usize),
    /// Every version the member may see at `asOf`.
    All,
}

impl Default for CandidateWindow {
    /// `latest(300)`.
    fn default() -> Self {
        CandidateWindow::Latest(RECALL_CANDIDATES_MAX)
    }
}

/// Why a window was refused: `n` outside 1–5,000, or neither a number nor `all`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidWindow;

impl fmt::Display for InvalidWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a candidate window is `all` or a number of versions from 1 to {QUOTA_VERSIONS}"
        )
    }
}

impl std::error::Error for InvalidWindow {}

impl CandidateWindow {
    /// `latest(n)`, when `n` is 1–5,000.
    pub fn latest(n: usize) -> Result<Self, InvalidWindow> {
        if (1..=QUOTA_VERSIONS as usize).contains(&n) {
            Ok(CandidateWindow::Latest(n))
        } else {
            Err(InvalidWindow)
        }
    }

    /// True for a window wider than the default: recall then reads the member's whole history
    /// through the backend's recall index (`Backend::history`) instead of scanning the most
    /// recent versions.
    pub fn reads_history(self) -> bool {
        self.max() > RECALL_CANDIDATES_MAX
    }

    /// The most candidates ranked (`usize::MAX` for `all`).
    pub fn max(self) -> usize {
        match self {
            CandidateWindow::Latest(n) => n,
            CandidateWindow::All => usize::MAX,
        }
    }
}

impl FromStr for CandidateWindow {
    type Err = InvalidWindow;

    /// `all`, or a number of versions from 1 to 5,000.
    fn from_str(s: &str) -> Result<Self, InvalidWindow> {
        match s.trim() {
            "all" => Ok(CandidateWindow::All),
            n => CandidateWindow::latest(n.parse().map_err(|_| InvalidWindow)?),
        }
    }
}

impl fmt::Display for CandidateWindow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CandidateWindow::Latest(n) => write!(f, "{n}"),
            CandidateWindow::All => f.write_str("all"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_parse_and_print_round_trip() {
        for text in ["1", "300", "5000", "all"] {
            let window: CandidateWindow = text.parse().unwrap();
            assert_eq!(window.to_string(), text);
        }
        assert_eq!(CandidateWindow::default(), CandidateWindow::Latest(300));
        for bad in ["0", "5001", "-1", "ALL", "", "3.5", "latest"] {
            assert_eq!(bad.parse::<CandidateWindow>(), Err(InvalidWindow), "{bad}");
        }
        assert_eq!(CandidateWindow::All.max(), usize::MAX);
    }
}
