//! The temporal evaluation: questions that name a time ("what did I note about the dentist last
//! week?"), each asked of a member who kept several notes on that topic at other times and notes
//! on other topics. Recall@1 is measured with the `time` ranker and without it (its weight 0),
//! in English, Japanese and Hebrew, with the hashing embedder and (ignored without its files)
//! all-MiniLM-L6-v2; `cargo test -p govmem-agent-memory --test it temporal -- --nocapture`
//! prints the table.

use std::sync::Arc;

use agent_memory::{
    CandidateWindow, Embedder, HashingEmbedder, InMemoryPassageSource, ManualClock, MemoryService,
    RecallRequest, RememberRequest, SettingsPatch, Timestamp, Weights,
};
use memory_core::SeededIdGenerator;
use store_kv::InMemoryBackend;

use crate::{agent, enabled, owner};

/// The evaluation's "now": Wednesday 2026-12-02, 15:30 UTC.
const NOW: &str = "2026-12-02T15:30:00Z";

/// A topic: the words a question uses for it, and notes about it in other words.
struct Topic {
    asked: &'static str,
    notes: [&'static str; 5],
}

/// A language's topics, fillers and the question's shape (`{topic}` and `{time}`).
struct Language {
    name: &'static str,
    question: &'static str,
    topics: &'static [Topic],
    fillers: &'static [&'static str],
    /// Expressions with an instant inside the period each names and instants outside it.
    times: &'static [(&'static str, &'static str, &'static [&'static str])],
}

const EN_TOPICS: &[Topic] = &[
    Topic {
        asked: "the dentist",
        notes: [
            "Dentist: the cleaning went fine, next checkup in six months",
            "The dentist wants to replace the old filling on the left side",
            "Booked the dentist for the cracked molar",
            "Dentist said to floss more and use the softer brush",
            "Paid the dentist invoice for the x-rays",
        ],
    },
    Topic {
        asked: "the car",
        notes: [
            "Car service: new brake pads and an oil change",
            "The car's tyre pressure light came on again",
            "Renewed the car insurance with the same company",
            "Took the car in because of the rattling noise",
            "Car passed its inspection without remarks",
        ],
    },
    Topic {
        asked: "the budget",
        notes: [
            "Budget review: travel spending is over by ten percent",
            "The team budget for the offsite was approved",
            "Budget meeting moved the hiring plan to next quarter",
            "Cut the software budget by dropping two licences",
            "Budget numbers for the grant proposal are final",
        ],
    },
    Topic {
        asked: "the garden",
        notes: [
            "Garden: planted tomatoes along the fence",
            "The garden hose leaks at the connector",
            "Pruned the roses in the garden",
            "Garden soil needs more compost before spring",
            "Bought seeds for the herb garden",
        ],
    },
    // A weekday in the topic's name is no time ("the Monday standup last week").
    Topic {
        asked: "the Monday standup",
        notes: [
            "Standup: we agreed to keep updates under two minutes",
            "The standup moved to the small meeting room",
            "Standup notes say the release is blocked on review",
            "Skipped the standup to finish the migration",
            "Standup facilitator rotates between the four of us",
        ],
    },
];

const EN_FILLERS: &[&str] = &[
    "Prefers short answers with bullet points",
    "The quarterly report is due to finance",
    "Call the plumber about the kitchen sink",
    "Reading a novel about a lighthouse keeper",
    "Gym schedule is Tuesdays and Thursdays",
    "Wants reminders in the morning, not at night",
    "Project Atlas demo went well",
    "Likes green tea with no sugar",
];

/// English expressions: an instant inside the named period, then instants outside it.
const EN_TIMES: &[(&str, &str, &[&str])] = &[
    (
        "the week of November 9",
        "2026-11-11T10:00:00Z",
        &[
            "2026-11-04T10:00:00Z",
            "2026-11-17T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-06-09T10:00:00Z",
        ],
    ),
    (
        "the first week of November",
        "2026-11-04T10:00:00Z",
        &[
            "2026-11-12T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-11-25T10:00:00Z",
            "2026-06-03T10:00:00Z",
        ],
    ),
    (
        "on the 14th",
        "2026-11-14T10:00:00Z",
        &[
            "2026-11-13T10:00:00Z",
            "2026-10-14T10:00:00Z",
            "2026-11-15T10:00:00Z",
            "2026-09-14T10:00:00Z",
        ],
    ),
    (
        "in early March",
        "2026-03-06T10:00:00Z",
        &[
            "2026-03-24T10:00:00Z",
            "2026-02-25T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "mid-October",
        "2026-10-15T10:00:00Z",
        &[
            "2026-10-03T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-06-12T10:00:00Z",
            "2026-12-01T10:00:00Z",
        ],
    ),
    (
        "the summer of 2026",
        "2026-08-02T10:00:00Z",
        &[
            "2026-09-15T10:00:00Z",
            "2026-05-20T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "in the past 3 months",
        "2026-10-20T10:00:00Z",
        &[
            "2026-08-15T10:00:00Z",
            "2026-05-20T10:00:00Z",
            "2026-02-12T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "the week before last",
        "2026-11-18T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "last summer",
        "2026-07-15T10:00:00Z",
        &[
            "2026-11-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "since Monday",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2026-05-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "between March and May",
        "2026-04-10T10:00:00Z",
        &[
            "2026-07-15T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "yesterday",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-24T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "last week",
        "2026-11-25T09:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-11-10T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "two days ago",
        "2026-11-30T11:00:00Z",
        &[
            "2026-12-02T09:00:00Z",
            "2026-11-20T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "this morning",
        "2026-12-02T08:15:00Z",
        &[
            "2026-12-01T08:15:00Z",
            "2026-11-18T10:00:00Z",
            "2026-04-05T10:00:00Z",
            "2025-12-22T10:00:00Z",
        ],
    ),
    (
        "last month",
        "2026-11-12T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-12T10:00:00Z",
        ],
    ),
    (
        "in March",
        "2026-03-17T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-05-12T10:00:00Z",
            "2026-02-05T10:00:00Z",
            "2025-12-15T10:00:00Z",
        ],
    ),
    (
        "on 2026-11-03",
        "2026-11-03T14:00:00Z",
        &[
            "2026-11-04T10:00:00Z",
            "2026-11-28T10:00:00Z",
            "2026-08-05T10:00:00Z",
            "2025-12-03T10:00:00Z",
        ],
    ),
    (
        "in 2025",
        "2025-12-20T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-01-12T10:00:00Z",
            "2026-02-05T10:00:00Z",
            "2026-07-01T10:00:00Z",
        ],
    ),
    (
        "on Monday",
        "2026-11-30T16:00:00Z",
        &[
            "2026-11-23T16:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-09-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "three weeks ago",
        "2026-11-12T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "last weekend",
        "2026-11-28T12:00:00Z",
        &[
            "2026-11-21T12:00:00Z",
            "2026-11-30T10:00:00Z",
            "2026-05-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "last year",
        "2025-12-18T10:00:00Z",
        &[
            "2026-01-05T10:00:00Z",
            "2026-11-30T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2026-03-10T10:00:00Z",
        ],
    ),
    (
        "the last week of March",
        "2026-03-27T10:00:00Z",
        &[
            "2026-03-18T10:00:00Z",
            "2026-04-02T10:00:00Z",
            "2026-11-24T10:00:00Z",
            "2025-03-28T10:00:00Z",
        ],
    ),
    (
        "Monday last week",
        "2026-11-23T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-11-24T10:00:00Z",
            "2026-11-16T10:00:00Z",
            "2026-06-08T10:00:00Z",
        ],
    ),
    (
        "in Q1 2026",
        "2026-02-10T10:00:00Z",
        &[
            "2026-05-12T10:00:00Z",
            "2025-12-16T10:00:00Z",
            "2026-04-02T10:00:00Z",
            "2026-11-10T10:00:00Z",
        ],
    ),
    (
        "last December",
        "2025-12-15T10:00:00Z",
        &[
            "2026-12-01T09:00:00Z",
            "2025-11-20T10:00:00Z",
            "2026-01-12T10:00:00Z",
            "2026-06-15T10:00:00Z",
        ],
    ),
    (
        "a fortnight ago",
        "2026-11-18T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-11-11T10:00:00Z",
            "2026-10-14T10:00:00Z",
            "2026-05-20T10:00:00Z",
        ],
    ),
    (
        "three days ago",
        "2026-11-29T10:00:00Z",
        &[
            "2026-11-28T10:00:00Z",
            "2026-11-30T10:00:00Z",
            "2026-11-15T10:00:00Z",
            "2026-07-29T10:00:00Z",
        ],
    ),
    // Opened on one side: only the answer lies before April, after last week, in the first
    // half of the year; "April", "last week" and "the year" alone would name the distractors.
    (
        "before April",
        "2026-03-20T10:00:00Z",
        &[
            "2026-04-03T10:00:00Z",
            "2026-06-10T10:00:00Z",
            "2026-09-15T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "after last week",
        "2026-12-01T09:00:00Z",
        &[
            "2026-11-27T10:00:00Z",
            "2026-11-24T10:00:00Z",
            "2026-10-15T10:00:00Z",
            "2026-07-01T10:00:00Z",
        ],
    ),
    // The days up to now, not last calendar month: the answer is in December, a distractor
    // on November 1.
    (
        "in the last month",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-01T10:00:00Z",
            "2026-10-20T10:00:00Z",
            "2026-09-10T10:00:00Z",
            "2026-06-01T10:00:00Z",
        ],
    ),
    (
        "since Oct",
        "2026-11-15T10:00:00Z",
        &[
            "2026-09-20T10:00:00Z",
            "2026-08-10T10:00:00Z",
            "2026-05-05T10:00:00Z",
            "2026-02-01T10:00:00Z",
        ],
    ),
    // The date, not last Thursday.
    (
        "on Thursday, November 12",
        "2026-11-12T10:00:00Z",
        &[
            "2026-11-26T10:00:00Z",
            "2026-11-13T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-06-12T10:00:00Z",
        ],
    ),
    (
        "before the summer",
        "2026-05-20T10:00:00Z",
        &[
            "2026-06-10T10:00:00Z",
            "2026-08-01T10:00:00Z",
            "2026-10-01T10:00:00Z",
            "2026-11-25T10:00:00Z",
        ],
    ),
    // Last month's last third, not the whole of it; the days around last Christmas.
    (
        "at the end of last month",
        "2026-11-25T10:00:00Z",
        &[
            "2026-11-05T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-08-01T10:00:00Z",
        ],
    ),
    (
        "over Christmas",
        "2025-12-25T10:00:00Z",
        &[
            "2025-12-10T10:00:00Z",
            "2026-01-10T10:00:00Z",
            "2026-06-01T10:00:00Z",
            "2026-11-25T10:00:00Z",
        ],
    ),
    (
        "in the first half of the year",
        "2026-05-15T10:00:00Z",
        &[
            "2026-07-02T10:00:00Z",
            "2026-09-10T10:00:00Z",
            "2026-11-20T10:00:00Z",
            "2025-12-15T10:00:00Z",
        ],
    ),
    // A vague count spans weeks 2 to 5 back: the answer four weeks back, a distractor last
    // week and one seven weeks back.
    (
        "a few weeks ago",
        "2026-11-04T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-10-14T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-06-01T10:00:00Z",
        ],
    ),
    (
        "in the previous month",
        "2026-11-10T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-09-05T10:00:00Z",
            "2026-05-20T10:00:00Z",
        ],
    ),
    (
        "in the first quarter",
        "2026-02-10T10:00:00Z",
        &[
            "2026-04-15T10:00:00Z",
            "2025-12-15T10:00:00Z",
            "2026-07-01T10:00:00Z",
            "2026-10-20T10:00:00Z",
        ],
    ),
    // Holidays that move and a span between two holidays.
    (
        "over Thanksgiving",
        "2026-11-27T10:00:00Z",
        &[
            "2026-11-20T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-03T10:00:00Z",
            "2026-07-04T10:00:00Z",
        ],
    ),
    (
        "over Easter",
        "2026-04-04T10:00:00Z",
        &[
            "2026-03-28T10:00:00Z",
            "2026-04-12T10:00:00Z",
            "2026-02-01T10:00:00Z",
            "2026-08-01T10:00:00Z",
        ],
    ),
    (
        "between Christmas and New Year",
        "2025-12-29T10:00:00Z",
        &[
            "2025-12-20T10:00:00Z",
            "2026-01-05T10:00:00Z",
            "2026-03-01T10:00:00Z",
            "2026-11-25T10:00:00Z",
        ],
    ),
    // A third of last week, the weeks around this day a year back, the latest Christmas.
    (
        "late last week",
        "2026-11-27T10:00:00Z",
        &[
            "2026-11-24T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-19T10:00:00Z",
            "2026-10-01T10:00:00Z",
        ],
    ),
    (
        "around this time last year",
        "2025-12-10T10:00:00Z",
        &[
            "2025-12-20T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2026-11-25T10:00:00Z",
            "2026-06-01T10:00:00Z",
        ],
    ),
    (
        "from Memorial Day to Labor Day",
        "2026-07-15T10:00:00Z",
        &[
            "2026-05-10T10:00:00Z",
            "2026-09-20T10:00:00Z",
            "2026-11-20T10:00:00Z",
            "2026-02-01T10:00:00Z",
        ],
    ),
    // Two months listed together, a dashed range, the last days of a month, the end third of
    // a month, the latest summer.
    (
        "in January and February",
        "2026-02-10T10:00:00Z",
        &[
            "2026-03-10T10:00:00Z",
            "2025-12-20T10:00:00Z",
            "2026-05-01T10:00:00Z",
            "2026-11-01T10:00:00Z",
        ],
    ),
    // The year after the list names both months (the notes stay within a year of `NOW`: a
    // home keeps them 365 days at most).
    (
        "in November and December 2025",
        "2025-12-10T10:00:00Z",
        &[
            "2026-11-10T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2026-02-10T10:00:00Z",
        ],
    ),
    (
        "on Monday or Tuesday last week",
        "2026-11-24T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-27T10:00:00Z",
            "2026-11-17T10:00:00Z",
        ],
    ),
    (
        "March 14-20",
        "2026-03-17T10:00:00Z",
        &[
            "2026-03-10T10:00:00Z",
            "2026-03-24T10:00:00Z",
            "2026-04-17T10:00:00Z",
            "2026-02-17T10:00:00Z",
        ],
    ),
    (
        "January – March",
        "2026-03-20T10:00:00Z",
        &[
            "2026-04-05T10:00:00Z",
            "2025-12-15T10:00:00Z",
            "2026-07-01T10:00:00Z",
            "2026-11-10T10:00:00Z",
        ],
    ),
    (
        "the last few days of March",
        "2026-03-28T10:00:00Z",
        &[
            "2026-03-10T10:00:00Z",
            "2026-04-03T10:00:00Z",
            "2026-11-29T10:00:00Z",
            "2026-02-27T10:00:00Z",
        ],
    ),
    (
        "late in October",
        "2026-10-25T10:00:00Z",
        &[
            "2026-10-05T10:00:00Z",
            "2026-11-05T10:00:00Z",
            "2026-09-28T10:00:00Z",
            "2026-12-01T10:00:00Z",
        ],
    ),
    (
        "this past summer",
        "2026-07-20T10:00:00Z",
        &[
            "2025-07-20T10:00:00Z",
            "2026-05-20T10:00:00Z",
            "2026-09-15T10:00:00Z",
            "2026-11-30T10:00:00Z",
        ],
    ),
    (
        "last Christmas",
        "2025-12-25T10:00:00Z",
        &[
            "2025-12-10T10:00:00Z",
            "2026-01-10T10:00:00Z",
            "2026-07-01T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "during the last two weeks of October",
        "2026-10-22T10:00:00Z",
        &[
            "2026-10-10T10:00:00Z",
            "2026-11-05T10:00:00Z",
            "2026-09-25T10:00:00Z",
            "2026-06-25T10:00:00Z",
        ],
    ),
    (
        "on 11/3",
        "2026-11-03T10:00:00Z",
        &[
            "2026-11-10T10:00:00Z",
            "2026-03-11T10:00:00Z",
            "2026-10-03T10:00:00Z",
            "2026-11-24T10:00:00Z",
        ],
    ),
    (
        "on Halloween",
        "2026-10-31T10:00:00Z",
        &[
            "2026-10-20T10:00:00Z",
            "2026-11-08T10:00:00Z",
            "2026-09-30T10:00:00Z",
            "2026-12-01T10:00:00Z",
        ],
    ),
    (
        "last summer and fall",
        "2026-08-10T10:00:00Z",
        &[
            "2026-03-10T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2026-05-15T10:00:00Z",
        ],
    ),
    (
        "in March and May",
        "2026-05-12T10:00:00Z",
        &[
            "2026-04-10T10:00:00Z",
            "2026-06-15T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "end of October",
        "2026-10-27T10:00:00Z",
        &[
            "2026-10-05T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2026-09-28T10:00:00Z",
            "2026-07-01T10:00:00Z",
        ],
    ),
    (
        "on Sept. 3rd",
        "2026-09-03T10:00:00Z",
        &[
            "2026-09-13T10:00:00Z",
            "2026-08-03T10:00:00Z",
            "2026-10-03T10:00:00Z",
            "2026-03-09T10:00:00Z",
        ],
    ),
    (
        "on 2026/06/18",
        "2026-06-18T10:00:00Z",
        &[
            "2026-06-08T10:00:00Z",
            "2026-07-18T10:00:00Z",
            "2026-05-18T10:00:00Z",
            "2026-11-02T10:00:00Z",
        ],
    ),
    (
        "between the 10th and the 20th of October",
        "2026-10-15T10:00:00Z",
        &[
            "2026-10-05T10:00:00Z",
            "2026-10-25T10:00:00Z",
            "2026-09-15T10:00:00Z",
            "2026-11-15T10:00:00Z",
        ],
    ),
    (
        "from Monday to Friday",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-27T10:00:00Z",
            "2026-11-20T10:00:00Z",
            "2026-10-30T10:00:00Z",
            "2026-09-01T10:00:00Z",
        ],
    ),
    (
        "in the last quarter of the year",
        "2026-11-05T10:00:00Z",
        &[
            "2026-09-20T10:00:00Z",
            "2026-07-15T10:00:00Z",
            "2026-04-10T10:00:00Z",
            "2026-01-20T10:00:00Z",
        ],
    ),
    (
        "in early spring",
        "2026-03-12T10:00:00Z",
        &[
            "2026-04-20T10:00:00Z",
            "2026-05-20T10:00:00Z",
            "2026-02-10T10:00:00Z",
            "2026-09-10T10:00:00Z",
        ],
    ),
    (
        "in late summer",
        "2026-08-18T10:00:00Z",
        &[
            "2026-06-18T10:00:00Z",
            "2026-07-18T10:00:00Z",
            "2026-09-18T10:00:00Z",
            "2026-03-18T10:00:00Z",
        ],
    ),
    (
        "at the end of the winter",
        "2026-02-16T10:00:00Z",
        &[
            "2025-12-16T10:00:00Z",
            "2026-01-16T10:00:00Z",
            "2026-03-16T10:00:00Z",
            "2026-11-16T10:00:00Z",
        ],
    ),
    (
        "September-November",
        "2026-10-07T10:00:00Z",
        &[
            "2026-08-07T10:00:00Z",
            "2026-06-07T10:00:00Z",
            "2026-03-07T10:00:00Z",
            "2025-12-17T10:00:00Z",
        ],
    ),
    (
        "in Sep-Nov",
        "2026-09-22T10:00:00Z",
        &[
            "2026-08-22T10:00:00Z",
            "2026-07-22T10:00:00Z",
            "2026-04-22T10:00:00Z",
            "2026-01-22T10:00:00Z",
        ],
    ),
    (
        "in H1",
        "2026-04-02T10:00:00Z",
        &[
            "2026-08-02T10:00:00Z",
            "2026-10-02T10:00:00Z",
            "2025-12-22T10:00:00Z",
            "2026-11-22T10:00:00Z",
        ],
    ),
    (
        "the twentieth of October",
        "2026-10-20T10:00:00Z",
        &[
            "2026-10-21T10:00:00Z",
            "2026-10-19T10:00:00Z",
            "2026-09-20T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "the week of the 9th",
        "2026-11-12T10:00:00Z",
        &[
            "2026-11-05T10:00:00Z",
            "2026-11-19T10:00:00Z",
            "2026-10-09T10:00:00Z",
            "2026-12-01T10:00:00Z",
        ],
    ),
    (
        "over the weekend of the 14th",
        "2026-11-15T10:00:00Z",
        &[
            "2026-11-12T10:00:00Z",
            "2026-11-21T10:00:00Z",
            "2026-11-08T10:00:00Z",
            "2026-10-14T10:00:00Z",
        ],
    ),
    (
        "last year in December",
        "2025-12-15T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-11-15T10:00:00Z",
            "2026-01-15T10:00:00Z",
            "2026-06-10T10:00:00Z",
        ],
    ),
    (
        "in the first week of December last year",
        "2025-12-04T10:00:00Z",
        &[
            "2025-12-12T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-05T10:00:00Z",
            "2026-01-05T10:00:00Z",
        ],
    ),
];

const JA_TOPICS: &[Topic] = &[
    Topic {
        asked: "歯医者",
        notes: [
            "歯医者で歯のクリーニングをした",
            "歯医者に古い詰め物を替えると言われた",
            "歯医者の予約を取った",
            "歯医者でレントゲンを撮った",
            "歯医者の支払いを済ませた",
        ],
    },
    Topic {
        asked: "車",
        notes: [
            "車のオイル交換をした",
            "車のタイヤの空気圧を確認した",
            "車の保険を更新した",
            "車の異音で修理に出した",
            "車の車検が終わった",
        ],
    },
];

const JA_FILLERS: &[&str] = &[
    "短い返事が好き",
    "会議の資料を準備する",
    "緑茶を毎朝飲む",
    "ジムは火曜日と木曜日",
];

const JA_TIMES: &[(&str, &str, &[&str])] = &[
    (
        "去年のクリスマス",
        "2025-12-25T10:00:00Z",
        &[
            "2025-12-18T10:00:00Z",
            "2026-01-05T10:00:00Z",
            "2026-11-25T10:00:00Z",
            "2026-06-25T10:00:00Z",
        ],
    ),
    (
        "10月10日〜20日",
        "2026-10-15T10:00:00Z",
        &[
            "2026-10-05T10:00:00Z",
            "2026-10-25T10:00:00Z",
            "2026-09-15T10:00:00Z",
            "2026-11-15T10:00:00Z",
        ],
    ),
    (
        "昨年度",
        "2026-01-20T10:00:00Z",
        &[
            "2026-04-20T10:00:00Z",
            "2026-07-20T10:00:00Z",
            "2026-10-20T10:00:00Z",
            "2026-05-20T10:00:00Z",
        ],
    ),
    (
        "初夏",
        "2026-06-14T10:00:00Z",
        &[
            "2026-07-14T10:00:00Z",
            "2026-08-14T10:00:00Z",
            "2026-05-14T10:00:00Z",
            "2026-09-14T10:00:00Z",
        ],
    ),
    (
        "10月下旬",
        "2026-10-25T10:00:00Z",
        &[
            "2026-10-12T10:00:00Z",
            "2026-11-03T10:00:00Z",
            "2026-10-05T10:00:00Z",
            "2026-09-27T10:00:00Z",
        ],
    ),
    (
        "今年の春",
        "2026-04-20T10:00:00Z",
        &[
            "2026-07-15T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "昨日",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-24T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "先週",
        "2026-11-25T09:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-11-10T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "先月",
        "2026-11-12T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-12T10:00:00Z",
        ],
    ),
    (
        "3月",
        "2026-03-17T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-05-12T10:00:00Z",
            "2026-02-05T10:00:00Z",
            "2025-12-15T10:00:00Z",
        ],
    ),
    (
        "2日前",
        "2026-11-30T11:00:00Z",
        &[
            "2026-12-02T09:00:00Z",
            "2026-11-20T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "今朝",
        "2026-12-02T08:15:00Z",
        &[
            "2026-12-01T08:15:00Z",
            "2026-11-18T10:00:00Z",
            "2026-04-05T10:00:00Z",
            "2025-12-22T10:00:00Z",
        ],
    ),
    // 数日前 is the days 2 to 5 back: the distractors lie yesterday and earlier.
    (
        "数日前",
        "2026-11-29T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-11-12T10:00:00Z",
            "2026-05-29T10:00:00Z",
        ],
    ),
    (
        "去年の年末",
        "2025-12-20T10:00:00Z",
        &[
            "2026-11-20T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2026-02-20T10:00:00Z",
            "2026-06-20T10:00:00Z",
        ],
    ),
    (
        "過去1週間",
        "2026-11-30T10:00:00Z",
        &[
            "2026-11-20T10:00:00Z",
            "2026-11-10T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-05-01T10:00:00Z",
        ],
    ),
    (
        "3月より前",
        "2026-02-10T10:00:00Z",
        &[
            "2026-03-05T10:00:00Z",
            "2026-06-10T10:00:00Z",
            "2026-10-01T10:00:00Z",
            "2026-11-30T10:00:00Z",
        ],
    ),
    (
        "先月末",
        "2026-11-26T10:00:00Z",
        &[
            "2026-11-05T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2026-08-01T10:00:00Z",
        ],
    ),
    (
        "ゴールデンウィーク",
        "2026-05-02T10:00:00Z",
        &[
            "2026-04-15T10:00:00Z",
            "2026-05-20T10:00:00Z",
            "2026-08-14T10:00:00Z",
            "2026-11-10T10:00:00Z",
        ],
    ),
    (
        "この3か月",
        "2026-10-15T10:00:00Z",
        &[
            "2026-08-15T10:00:00Z",
            "2026-06-01T10:00:00Z",
            "2026-03-01T10:00:00Z",
            "2026-01-10T10:00:00Z",
        ],
    ),
    (
        "春ごろ",
        "2026-04-12T10:00:00Z",
        &[
            "2026-06-20T10:00:00Z",
            "2026-02-10T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "7〜9月",
        "2026-08-05T10:00:00Z",
        &[
            "2026-06-20T10:00:00Z",
            "2026-10-10T10:00:00Z",
            "2026-04-01T10:00:00Z",
            "2026-01-15T10:00:00Z",
        ],
    ),
    (
        "10月の第2週",
        "2026-10-10T10:00:00Z",
        &[
            "2026-10-03T10:00:00Z",
            "2026-10-17T10:00:00Z",
            "2026-09-10T10:00:00Z",
            "2026-11-10T10:00:00Z",
        ],
    ),
    (
        "去年の初冬",
        "2025-12-20T10:00:00Z",
        &[
            "2026-11-20T10:00:00Z",
            "2026-01-20T10:00:00Z",
            "2026-06-20T10:00:00Z",
            "2026-12-01T10:00:00Z",
        ],
    ),
];

const HE_TOPICS: &[Topic] = &[
    Topic {
        asked: "רופא השיניים",
        notes: [
            "רופא השיניים אמר שהניקוי עבר טוב",
            "רופא השיניים רוצה להחליף סתימה ישנה",
            "קבעתי תור אצל רופא השיניים",
            "רופא השיניים צילם צילום רנטגן",
            "שילמתי לרופא השיניים את החשבון",
        ],
    },
    Topic {
        asked: "הרכב",
        notes: [
            "הרכב עבר טיפול והחלפת שמן",
            "נורת לחץ האוויר של הרכב נדלקה",
            "חידשתי את ביטוח הרכב",
            "לקחתי את הרכב למוסך בגלל רעש",
            "הרכב עבר טסט בלי הערות",
        ],
    },
];

const HE_FILLERS: &[&str] = &[
    "מעדיף תשובות קצרות",
    "להכין את המצגת לישיבה",
    "שותה תה ירוק בבוקר",
    "חדר כושר בימי שלישי וחמישי",
];

const HE_TIMES: &[(&str, &str, &[&str])] = &[
    (
        "בפסח",
        "2026-04-05T10:00:00Z",
        &[
            "2026-03-20T10:00:00Z",
            "2026-04-20T10:00:00Z",
            "2026-09-13T10:00:00Z",
            "2025-12-17T10:00:00Z",
        ],
    ),
    (
        "בחנוכה",
        "2025-12-17T10:00:00Z",
        &[
            "2025-12-30T10:00:00Z",
            "2026-04-05T10:00:00Z",
            "2026-09-27T10:00:00Z",
            "2026-11-30T10:00:00Z",
        ],
    ),
    (
        "בתחילת נובמבר",
        "2026-11-04T10:00:00Z",
        &[
            "2026-11-15T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-11-25T10:00:00Z",
            "2026-06-02T10:00:00Z",
        ],
    ),
    (
        "בקיץ שעבר",
        "2026-07-15T10:00:00Z",
        &[
            "2026-11-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2026-12-01T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "אתמול",
        "2026-12-01T10:00:00Z",
        &[
            "2026-11-24T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "בשבוע שעבר",
        "2026-11-25T09:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-11-10T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "בחודש שעבר",
        "2026-11-12T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-10-12T10:00:00Z",
            "2026-03-05T10:00:00Z",
            "2025-12-12T10:00:00Z",
        ],
    ),
    (
        "במרץ",
        "2026-03-17T10:00:00Z",
        &[
            "2026-11-30T10:00:00Z",
            "2026-05-12T10:00:00Z",
            "2026-02-05T10:00:00Z",
            "2025-12-15T10:00:00Z",
        ],
    ),
    (
        "לפני יומיים",
        "2026-11-30T11:00:00Z",
        &[
            "2026-12-02T09:00:00Z",
            "2026-11-20T10:00:00Z",
            "2026-06-05T10:00:00Z",
            "2025-12-10T10:00:00Z",
        ],
    ),
    (
        "הבוקר",
        "2026-12-02T08:15:00Z",
        &[
            "2026-12-01T08:15:00Z",
            "2026-11-18T10:00:00Z",
            "2026-04-05T10:00:00Z",
            "2025-12-22T10:00:00Z",
        ],
    ),
    (
        "לפני כשבוע",
        "2026-11-25T10:00:00Z",
        &[
            "2026-12-01T10:00:00Z",
            "2026-11-18T10:00:00Z",
            "2026-10-28T10:00:00Z",
            "2026-04-22T10:00:00Z",
        ],
    ),
    (
        "בין מרץ למאי",
        "2026-04-15T10:00:00Z",
        &[
            "2026-02-15T10:00:00Z",
            "2026-06-15T10:00:00Z",
            "2025-04-15T10:00:00Z",
            "2026-10-15T10:00:00Z",
        ],
    ),
    (
        "ממרץ עד מאי",
        "2026-04-10T10:00:00Z",
        &[
            "2026-02-10T10:00:00Z",
            "2026-07-10T10:00:00Z",
            "2026-10-10T10:00:00Z",
            "2026-11-20T10:00:00Z",
        ],
    ),
    (
        "לפני מרץ",
        "2026-02-10T10:00:00Z",
        &[
            "2026-03-10T10:00:00Z",
            "2026-05-05T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-11-25T10:00:00Z",
        ],
    ),
    // כמה ("a few") spans weeks 2 to 5 back.
    (
        "לפני כמה שבועות",
        "2026-11-04T10:00:00Z",
        &[
            "2026-11-25T10:00:00Z",
            "2026-10-14T10:00:00Z",
            "2026-09-01T10:00:00Z",
            "2026-06-01T10:00:00Z",
        ],
    ),
    (
        "בשבועיים האחרונים",
        "2026-11-25T10:00:00Z",
        &[
            "2026-11-10T10:00:00Z",
            "2026-10-20T10:00:00Z",
            "2026-08-01T10:00:00Z",
            "2026-04-01T10:00:00Z",
        ],
    ),
    (
        "בחודשיים האחרונים",
        "2026-10-20T10:00:00Z",
        &[
            "2026-09-20T10:00:00Z",
            "2026-07-01T10:00:00Z",
            "2026-04-01T10:00:00Z",
            "2026-01-15T10:00:00Z",
        ],
    ),
    (
        "בתחילת השנה",
        "2026-02-15T10:00:00Z",
        &[
            "2026-06-10T10:00:00Z",
            "2026-09-20T10:00:00Z",
            "2026-11-25T10:00:00Z",
            "2025-12-20T10:00:00Z",
        ],
    ),
    (
        "ברבעון השלישי",
        "2026-08-20T10:00:00Z",
        &[
            "2026-06-20T10:00:00Z",
            "2026-10-10T10:00:00Z",
            "2026-03-01T10:00:00Z",
            "2026-11-28T10:00:00Z",
        ],
    ),
];

const LANGUAGES: &[Language] = &[
    Language {
        name: "English",
        question: "what did I note about {topic} {time}?",
        topics: EN_TOPICS,
        fillers: EN_FILLERS,
        times: EN_TIMES,
    },
    Language {
        name: "Japanese",
        question: "{time}の{topic}のメモは？",
        topics: JA_TOPICS,
        fillers: JA_FILLERS,
        times: JA_TIMES,
    },
    Language {
        name: "Hebrew",
        question: "מה רשמתי על {topic} {time}?",
        topics: HE_TOPICS,
        fillers: HE_FILLERS,
        times: HE_TIMES,
    },
];

fn at(iso: &str) -> Timestamp {
    Timestamp::parse(iso).unwrap()
}

/// One question: a member whose notes on the topic lie at the period's instant (the answer,
/// the `answer`-th paraphrase) and at the instants outside it (the others), with the fillers
/// spread over the same months. True when the answer is recalled first.
fn first_is_the_answer(
    language: &Language,
    topic: &Topic,
    (expression, inside, outside): (&str, &str, &[&str]),
    answer: usize,
    (weights, embedder): (Weights, &Arc<dyn Embedder>),
) -> bool {
    let clock = Arc::new(ManualClock::new(at("2024-01-01T00:00:00Z")));
    let service = enabled(
        MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .clock(clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(11)))
        .rate_limited(false)
        .candidate_window(CandidateWindow::All)
        .embedder(Arc::clone(embedder))
        .weights(weights),
    );
    // A year of notes: the longest retention.
    service
        .settings_put(&owner(), &SettingsPatch::default().retention_days(365))
        .unwrap();
    // Every note in time order: the topic's, and the fillers on the days around them.
    let mut writes: Vec<(Timestamp, String)> = Vec::new();
    writes.push((at(inside), topic.notes[answer].to_owned()));
    for (i, instant) in outside.iter().enumerate() {
        let other = topic.notes[(answer + 1 + i) % topic.notes.len()];
        writes.push((at(instant), other.to_owned()));
    }
    let instants: Vec<Timestamp> = writes.iter().map(|(t, _)| *t).collect();
    for (i, filler) in language.fillers.iter().enumerate() {
        let near = instants[i % instants.len()];
        writes.push((
            Timestamp::from_millis(near.as_millis() - 3_600_000 * (i as i64 + 1)).unwrap(),
            (*filler).to_owned(),
        ));
    }
    writes.sort();
    let caller = agent("alice", "cred_a");
    for (instant, text) in &writes {
        clock.set(*instant);
        service
            .remember(&caller, &RememberRequest::new("notes", text.clone()))
            .unwrap();
    }
    clock.set(at(NOW));
    let question = language
        .question
        .replace("{topic}", topic.asked)
        .replace("{time}", expression);
    let found = service
        .recall(&caller, &RecallRequest::new(question).limit(1))
        .unwrap();
    found
        .memories
        .first()
        .is_some_and(|m| m.view.text == topic.notes[answer])
}

/// Recall@1 over every question of every language, with `weights` and `embedder`: (hits,
/// questions) per language.
fn evaluate(weights: Weights, embedder: &Arc<dyn Embedder>) -> Vec<(&'static str, usize, usize)> {
    LANGUAGES
        .iter()
        .map(|language| {
            let mut hits = 0;
            let mut questions = 0;
            for topic in language.topics {
                for (k, time) in language.times.iter().enumerate() {
                    // The answer's paraphrase turns with the question, so no one wording wins.
                    let answer = k % topic.notes.len();
                    questions += 1;
                    if first_is_the_answer(language, topic, *time, answer, (weights, embedder)) {
                        hits += 1;
                    }
                }
            }
            (language.name, hits, questions)
        })
        .collect()
}

#[test]
fn the_time_ranker_finds_the_note_of_the_named_period() {
    let hashing: Arc<dyn Embedder> = Arc::new(HashingEmbedder::new());
    with_and_without_time("hashing", Weights::HASHING, &hashing, &[]);
}

#[cfg(feature = "candle")]
#[test]
#[ignore = "needs the all-MiniLM-L6-v2 files: AGENT_MEMORY_TEST_MODEL_DIR naming their directory (.ci/run fetches them)"]
fn with_the_model_the_time_ranker_finds_the_note_of_the_named_period() {
    let dir = embed_candle::test_model_dir("the temporal evaluation with the model");
    let model: Arc<dyn Embedder> =
        Arc::new(agent_memory::CandleEmbedder::load(&dir).expect("the model directory loads"));
    // An English model: for the Japanese questions its cosine ranks a note on another topic
    // created in the period ("短い返事が好き") above the answer, and BM25, whose best match
    // covers two of the question's seven character pairs, counts little under the model's
    // weights (`bm25_by_coverage`). 16 of the 20 are found with the ranker, 3 without it.
    with_and_without_time(
        "all-MiniLM-L6-v2",
        Weights::LANGUAGE_MODEL,
        &model,
        &[("Japanese", 0.7)],
    );
}

/// Prints recall@1 per language with `weights` and with the `time` ranker weighed 0, and checks
/// that the ranker finds more answers than recall finds without it, and at least nine in ten
/// (the share `lower` names instead for a language).
fn with_and_without_time(
    embedder_name: &str,
    weights: Weights,
    embedder: &Arc<dyn Embedder>,
    lower: &[(&str, f64)],
) {
    let with = evaluate(weights, embedder);
    let without = evaluate(
        Weights {
            time: 0.0,
            ..weights
        },
        embedder,
    );
    println!("embedder: {embedder_name}");
    println!("| language | questions | recall@1 without `time` | recall@1 with `time` |");
    println!("|---|---|---|---|");
    let mut totals = (0, 0, 0);
    for ((name, hits, questions), (_, base, _)) in with.iter().zip(&without) {
        println!(
            "| {name} | {questions} | {:.2} | {:.2} |",
            *base as f64 / *questions as f64,
            *hits as f64 / *questions as f64
        );
        totals.0 += hits;
        totals.1 += base;
        totals.2 += questions;
    }
    println!(
        "| all | {} | {:.2} | {:.2} |",
        totals.2,
        totals.1 as f64 / totals.2 as f64,
        totals.0 as f64 / totals.2 as f64
    );
    for ((name, hits, questions), (_, base, _)) in with.iter().zip(&without) {
        let least = lower
            .iter()
            .find(|(language, _)| language == name)
            .map_or(0.9, |(_, share)| *share);
        assert!(
            *hits as f64 >= least * *questions as f64,
            "{name}: {hits} of {questions} with the time ranker"
        );
        assert!(
            hits > base,
            "{name}: the time ranker adds nothing ({base} → {hits})"
        );
    }
}

/// A service over `notes` (written an hour apart) with `weights`, and its member.
fn member_with(notes: &[String], weights: Weights) -> MemoryService {
    let clock = Arc::new(ManualClock::new(at("2026-11-01T00:00:00Z")));
    let service = enabled(
        MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .clock(clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(5)))
        .rate_limited(false)
        .weights(weights),
    );
    for text in notes {
        service
            .remember(
                &agent("alice", "cred_a"),
                &RememberRequest::new("notes", text.clone()),
            )
            .unwrap();
        clock.advance_seconds(3600);
    }
    service
}

/// Words of notes and questions that name no time.
const WORDS: &[&str] = &[
    "dentist",
    "car",
    "budget",
    "garden",
    "tomatoes",
    "brakes",
    "review",
    "plan",
    "call",
    "the",
    "about",
    "what",
    "note",
    "filling",
    "insurance",
    "roses",
    "team",
    "offsite",
    "歯医者",
    "רכב",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// A query that names no time is answered exactly as without the time ranker: same order,
    /// same scores and ranks, no `time` rank and no `period` in the JSON.
    #[test]
    fn a_query_naming_no_time_is_answered_as_before_the_time_ranker(
        notes in proptest::collection::vec(proptest::collection::vec(proptest::sample::select(WORDS), 1..8), 1..30),
        query in proptest::collection::vec(proptest::sample::select(WORDS), 1..5),
    ) {
        let notes: Vec<String> = notes.iter().map(|n| n.join(" ")).collect();
        let query = query.join(" ");
        let with = member_with(&notes, Weights::HASHING);
        let without = member_with(&notes, Weights { time: 0.0, ..Weights::HASHING });
        let caller = agent("alice", "cred_a");
        let a = with.recall(&caller, &RecallRequest::new(query.clone())).unwrap();
        let b = without.recall(&caller, &RecallRequest::new(query)).unwrap();
        let a = serde_json::to_value(&a).unwrap();
        proptest::prop_assert_eq!(&a, &serde_json::to_value(&b).unwrap());
        proptest::prop_assert!(a.get("period").is_none());
        for m in a["memories"].as_array().unwrap() {
            proptest::prop_assert!(m["ranks"].get("time").is_none());
        }
    }
}

/// A query naming a time shows the resolved period and each listed note's `time` rank, and
/// `asOf` moves the period with it.
#[test]
fn the_answer_shows_the_period_it_ranked_by() {
    let notes: Vec<String> = (0..30).map(|i| format!("garden note {i}")).collect();
    let service = member_with(&notes, Weights::HASHING);
    let caller = agent("alice", "cred_a");
    // The notes were written hourly from 2026-11-01T00:00Z; "yesterday" at 2026-11-02T12:00Z is
    // November 1st: the first 24 notes.
    let request = RecallRequest::new("garden yesterday")
        .as_of(at("2026-11-02T12:00:00Z"))
        .limit(50);
    let found = service.recall(&caller, &request).unwrap();
    let period = found.period.expect("yesterday is a period");
    assert_eq!(period.from, at("2026-11-01T00:00:00Z"));
    assert_eq!(period.to, at("2026-11-02T00:00:00Z"));
    let timed: Vec<u32> = found.memories.iter().filter_map(|m| m.ranks.time).collect();
    assert_eq!(timed.len(), 24, "one time rank per note of November 1st");
    let first = found
        .memories
        .iter()
        .find(|m| m.ranks.time == Some(1))
        .unwrap();
    assert_eq!(
        first.view.text, "garden note 23",
        "the time ranker lists the newest first"
    );
    assert!(
        found.memories[0].ranks.time.is_some(),
        "a note of that day leads"
    );
}

const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
];

/// A service from 2026-01-01T08:00Z with `window`, not rate-limited, whose workspace keeps
/// notes a year; and its clock.
fn year_long_member(seed: u64, window: CandidateWindow) -> (MemoryService, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(at("2026-01-01T08:00:00Z")));
    let service = enabled(
        MemoryService::builder(
            Arc::new(InMemoryBackend::new()),
            Arc::new(InMemoryPassageSource::new()),
        )
        .clock(clock.clone())
        .ids(Arc::new(SeededIdGenerator::new(seed)))
        .rate_limited(false)
        .candidate_window(window),
    );
    service
        .settings_put(&owner(), &SettingsPatch::default().retention_days(365))
        .unwrap();
    (service, clock)
}

/// Two fillers a day from January to October 2026 and one dentist note in the middle of each
/// month (the same words every time, so that only the time can tell them apart), on `window`.
fn months_of_notes(window: CandidateWindow) -> (MemoryService, Vec<String>) {
    let (service, clock) = year_long_member(17, window);
    let caller = agent("alice", "cred_a");
    let mut dentist = Vec::new();
    for day in 0..304 {
        for (i, filler) in ["watered the tomatoes", "budget review with the team"]
            .iter()
            .enumerate()
        {
            clock.set(
                Timestamp::from_millis(
                    at("2026-01-01T08:00:00Z").as_millis() + (day * 24 + i as i64 * 6) * 3_600_000,
                )
                .unwrap(),
            );
            service
                .remember(
                    &caller,
                    &RememberRequest::new("notes", format!("{filler} {day}")),
                )
                .unwrap();
        }
        if day % 30 == 14 && dentist.len() < MONTHS.len() {
            let text = format!("dentist visit, filling number {}", dentist.len() + 1);
            service
                .remember(&caller, &RememberRequest::new("notes", text.clone()))
                .unwrap();
            dentist.push(text);
        }
    }
    clock.set(at("2026-11-20T12:00:00Z"));
    (service, dentist)
}

/// A question naming a month finds that month's note even when the candidate window (the
/// latest versions) ends months later: the period's own versions join the candidates. A
/// question naming no time is ranked over the window alone, as before.
#[test]
fn a_named_month_reaches_past_the_candidate_window() {
    // 40 and 300 scan the latest versions; 301 and 400 read the history.
    for window in [40, 300, 301, 400] {
        let window = CandidateWindow::latest(window).unwrap();
        let (service, dentist) = months_of_notes(window);
        let caller = agent("alice", "cred_a");
        for (month, expected) in MONTHS.iter().zip(&dentist) {
            let question = format!("what did I note about the dentist in {month}?");
            let found = service
                .recall(&caller, &RecallRequest::new(question).limit(3))
                .unwrap();
            assert_eq!(
                found.memories.first().map(|m| &m.view.text),
                Some(expected),
                "{month}, window {}",
                window.max()
            );
            assert!(found.considered as usize <= 2 * window.max());
        }
        // The period's extra candidates keep the request's own filters.
        let april = at("2026-04-01T00:00:00Z");
        let mut request = RecallRequest::new("the dentist in March").limit(50);
        request.created_before = Some(april);
        let found = service.recall(&caller, &request).unwrap();
        assert_eq!(found.memories[0].view.text, dentist[2]);
        assert!(found.memories.iter().all(|m| m.view.created_at < april));
        let mut request = RecallRequest::new("the dentist in March").limit(50);
        request.created_after = Some(april);
        let found = service.recall(&caller, &request).unwrap();
        assert!(found.memories.iter().all(|m| m.view.created_at > april));
        let plain = service
            .recall(
                &caller,
                &RecallRequest::new("what did I note about the dentist?"),
            )
            .unwrap();
        assert_eq!(
            plain.considered as usize,
            window.max(),
            "no time, no wider window"
        );
        // "last week" lies inside the window: nothing is added.
        let recent = service
            .recall(&caller, &RecallRequest::new("dentist last week"))
            .unwrap();
        assert_eq!(recent.considered as usize, window.max());
    }
}

/// A credential of alice's bound to the context set of collection `c-in`.
fn bound_to_c_in() -> agent_memory::AgentCaller {
    let agent_memory::AgentCaller::Resolved(mut credential) = agent("alice", "cred_bound") else {
        unreachable!("agent() resolves its credential")
    };
    credential.binding =
        memory_core::ContextBinding::Bound(memory_core::ContextSet::new(["c-in"], [""; 0]));
    agent_memory::AgentCaller::Resolved(credential)
}

/// The period's extra candidates pass the same context-set check as the window's: a bound
/// credential finds its own collection's March note past a full window, and never a note of a
/// collection outside its set, however well it matches.
#[test]
fn a_bound_credential_reaches_past_the_window_only_inside_its_set() {
    for window in [20, 301] {
        let (service, clock) = year_long_member(23, CandidateWindow::latest(window).unwrap());
        let writer = agent("alice", "cred_a");
        let note = |text: String, collection: &str| {
            service
                .remember(
                    &writer,
                    &RememberRequest::new("notes", text).collection_id(collection),
                )
                .unwrap();
        };
        for day in 0..300i64 {
            clock.set(
                Timestamp::from_millis(at("2026-01-01T08:00:00Z").as_millis() + day * 86_400_000)
                    .unwrap(),
            );
            note(format!("watered the tomatoes {day}"), "c-in");
            if day % 30 == 14 {
                let month = day / 30 + 1;
                note(format!("dentist visit, filling {month} inside"), "c-in");
                note(format!("dentist visit, filling {month} outside"), "c-out");
            }
        }
        clock.set(at("2026-11-20T12:00:00Z"));
        let bound = bound_to_c_in();
        let found = service
            .recall(
                &bound,
                &RecallRequest::new("the dentist in March").limit(50),
            )
            .unwrap();
        assert_eq!(
            found.memories[0].view.text, "dentist visit, filling 3 inside",
            "window {window}"
        );
        assert!(
            found
                .memories
                .iter()
                .all(|m| m.view.text.ends_with("inside") || m.view.text.starts_with("watered")),
            "window {window}: a note outside the set"
        );
        assert!(found.considered as usize <= 2 * window);
    }
}
