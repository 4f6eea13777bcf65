//! The stdio transport of the MCP server (`agent-memory mcp` serves [`McpServer`](crate::McpServer)
//! over it): newline-delimited JSON-RPC like rmcp's own, except that every line a client sends
//! gets an answer.
//!
//! rmcp's `AsyncRwTransport` drops a line that is not JSON without a word (its issue #938: it
//! matches the other official SDKs and avoids error storms with a peer that echoes errors), so a
//! client whose request was truncated, or held invalid UTF-8, waits for an answer forever; and a
//! `tools/call` whose `params` do not fit falls through to rmcp's custom-request route, which
//! answers `-32601 Method not found`. rmcp lets a server bring its own [`Transport`], so this one
//! reads the lines itself and hands rmcp only what rmcp can route:
//!
//! - a line that is not JSON (or not UTF-8) → `-32700 Parse error` with `id: null`;
//! - a request of a standard MCP method whose `params` rmcp cannot read (a `tools/call` without a
//!   string `name`, or with `arguments` that are not an object) → `-32602 Invalid params`, with
//!   the request's id;
//! - other JSON that is no JSON-RPC message (an array, an object without `method`, a request
//!   with a malformed id) → `-32600 Invalid Request`, with the id when it is one;
//! - a line longer than [`MAX_LINE`] → `-32600 Invalid Request` with `id: null` (it is dropped
//!   unread, as rmcp drops it).
//!
//! A notification (no `id`) gets no answer even when it is malformed: JSON-RPC never answers
//! one. The one writer task owns stdout, so answers written here and rmcp's responses never
//! interleave within a line.
//!
//! Output is bounded: while [`MAX_UNWRITTEN`] lines wait for stdout, or [`MAX_IN_FLIGHT`]
//! requests wait for their answer, the transport reads no further line. A client that stops
//! reading its stdout therefore stops the server reading requests (its writes to our stdin
//! block once the pipe is full), and the server's memory stays bounded.

use std::future::Future;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use rmcp::RoleServer;
use rmcp::model::{ClientNotification, ClientRequest, JsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Notify;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// The longest line read (rmcp's own default): a longer one is dropped and answered.
pub const MAX_LINE: usize = 16 * 1024 * 1024;

/// Lines queued for stdout at most before the transport stops reading.
pub const MAX_UNWRITTEN: usize = 64;
/// Requests read and not answered yet at most before the transport stops reading.
pub const MAX_IN_FLIGHT: usize = 64;

/// What the reader waits on: lines not written yet, requests not answered yet.
#[derive(Default)]
pub struct Backlog {
    unwritten: AtomicUsize,
    in_flight: AtomicUsize,
    /// Woken whenever either count drops.
    dropped: Notify,
}

impl Backlog {
    fn full(&self) -> bool {
        self.unwritten.load(Ordering::Acquire) >= MAX_UNWRITTEN
            || self.in_flight.load(Ordering::Acquire) >= MAX_IN_FLIGHT
    }

    fn decrement(counter: &AtomicUsize) {
        let _ = counter.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    }

    /// Waits until there is room (cancel safe: it changes nothing).
    async fn room(&self) {
        loop {
            let dropped = self.dropped.notified();
            tokio::pin!(dropped);
            dropped.as_mut().enable();
            if !self.full() {
                return;
            }
            dropped.await;
        }
    }
}

/// JSON-RPC's error codes for messages that cannot be served.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// Lines from `R`, answers and responses to the writer task.
pub struct LineTransport<R> {
    read: BufReader<R>,
    /// The line being read; kept across calls because rmcp polls `receive` in a `select!` and
    /// may drop a read half-way (the next call resumes it).
    line: Vec<u8>,
    /// Skipping the rest of a line longer than [`MAX_LINE`].
    discarding: bool,
    out: Option<UnboundedSender<Vec<u8>>>,
    backlog: Arc<Backlog>,
}

/// A transport over `read`, and the task that writes every outgoing line to `write` (and gives
/// it back); await the task after the service stopped so that the last answers reach the client.
pub fn line_transport<R, W>(
    read: R,
    write: W,
) -> (LineTransport<R>, impl Future<Output = io::Result<W>>)
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out, lines) = unbounded_channel();
    let backlog = Arc::new(Backlog::default());
    let transport = LineTransport {
        read: BufReader::new(read),
        line: Vec::new(),
        discarding: false,
        out: Some(out),
        backlog: backlog.clone(),
    };
    (transport, write_lines(write, lines, backlog))
}

/// Writes each queued line whole, flushing whenever the queue is empty; ends when every sender
/// is gone.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut write: W,
    mut lines: UnboundedReceiver<Vec<u8>>,
    backlog: Arc<Backlog>,
) -> io::Result<W> {
    while let Some(line) = lines.recv().await {
        write.write_all(&line).await?;
        if lines.is_empty() {
            write.flush().await?;
        }
        Backlog::decrement(&backlog.unwritten);
        backlog.dropped.notify_waiters();
    }
    write.flush().await?;
    Ok(write)
}

/// What one input line asks for.
#[derive(Debug)]
enum Incoming {
    /// A message for rmcp.
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    /// Nothing to do (a blank line, a malformed notification).
    Skip,
    /// An error response to send.
    Answer(Value),
}

/// An error response; `id` is `null` when the request's id could not be read.
fn error_response(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The standard MCP request methods: a request of one that rmcp read as a custom request had
/// `params` it could not read.
fn is_standard_request(method: &str) -> bool {
    matches!(
        method,
        "initialize"
            | "ping"
            | "server/discover"
            | "prompts/get"
            | "prompts/list"
            | "resources/list"
            | "resources/read"
            | "resources/subscribe"
            | "resources/unsubscribe"
            | "resources/templates/list"
            | "subscriptions/listen"
            | "tools/call"
            | "tools/list"
            | "completion/complete"
            | "logging/setLevel"
            | "tasks/get"
            | "tasks/update"
            | "tasks/cancel"
    )
}

/// A request id as JSON-RPC allows it (a string or an integer), else `null`.
fn request_id(value: &Value) -> Value {
    match value.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

fn invalid_params(id: Value, method: &str) -> Incoming {
    let message = if method == "tools/call" {
        "Invalid params: tools/call takes {\"name\": string, \"arguments\"?: object}"
    } else {
        "Invalid params"
    };
    Incoming::Answer(error_response(id, INVALID_PARAMS, message))
}

/// Judges one line (without its line break).
fn classify(line: &[u8]) -> Incoming {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.trim_ascii().is_empty() {
        return Incoming::Skip;
    }
    // Not JSON (a truncated request, invalid UTF-8 — serde_json checks it): no id to answer to.
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(_) => return Incoming::Answer(error_response(Value::Null, PARSE_ERROR, "Parse error")),
    };
    let method = value.get("method").and_then(Value::as_str);
    let is_request = value.get("id").is_some();
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
        Ok(JsonRpcMessage::Request(request))
            if matches!(&request.request, ClientRequest::CustomRequest(custom)
                if is_standard_request(&custom.method)) =>
        {
            invalid_params(request_id(&value), method.unwrap_or_default())
        }
        Ok(message) => Incoming::Message(Box::new(message)),
        // JSON-RPC answers no notification, not even a malformed one.
        Err(_) if method.is_some() && !is_request => Incoming::Skip,
        Err(_) => match method {
            Some(method) if is_standard_request(method) && !request_id(&value).is_null() => {
                invalid_params(request_id(&value), method)
            }
            _ => Incoming::Answer(error_response(
                request_id(&value),
                INVALID_REQUEST,
                "Invalid Request",
            )),
        },
    }
}

/// One step of reading a line.
enum Read {
    /// A whole line is in `line`.
    Line,
    /// A line longer than [`MAX_LINE`] was dropped.
    TooLong,
    /// End of input (a last line without a line break is in `line`).
    Eof,
}

impl<R: AsyncRead + Unpin + Send> LineTransport<R> {
    /// Reads up to the next line break without holding more than [`MAX_LINE`] bytes. Cancel
    /// safe: `fill_buf` consumes nothing when dropped, and copying and consuming happen with no
    /// await between them.
    async fn read_line(&mut self) -> io::Result<Read> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(Read::Eof);
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let step = if self.discarding {
                if newline.is_some() {
                    self.discarding = false;
                }
                None
            } else if self.line.len() + take > MAX_LINE + 1 {
                self.line.clear();
                self.discarding = newline.is_none();
                Some(Read::TooLong)
            } else {
                self.line.extend_from_slice(&available[..take]);
                newline.map(|_| Read::Line)
            };
            self.read.consume(take);
            if let Some(step) = step {
                return Ok(step);
            }
        }
    }

    /// Queues an answer for the writer task (no await: nothing is lost when rmcp drops the
    /// `receive` future).
    fn answer(&self, answer: &Value) {
        if let Some(out) = &self.out {
            let mut bytes = answer.to_string().into_bytes();
            bytes.push(b'\n');
            self.backlog.unwritten.fetch_add(1, Ordering::AcqRel);
            // The writer is gone only when stdout failed; rmcp then stops on its next send.
            if out.send(bytes).is_err() {
                Backlog::decrement(&self.backlog.unwritten);
            }
        }
    }
}

impl<R: AsyncRead + Unpin + Send> Transport<RoleServer> for LineTransport<R> {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = self.out.clone();
        let backlog = self.backlog.clone();
        // Counted now, not when rmcp's task gets to run the future: the reader sees it at once.
        backlog.unwritten.fetch_add(1, Ordering::AcqRel);
        if matches!(item, JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_)) {
            Backlog::decrement(&backlog.in_flight);
            backlog.dropped.notify_waiters();
        }
        async move {
            let sent = serde_json::to_vec(&item)
                .map_err(io::Error::other)
                .and_then(|mut bytes| {
                    bytes.push(b'\n');
                    out.ok_or_else(|| {
                        io::Error::new(io::ErrorKind::NotConnected, "transport closed")
                    })?
                    .send(bytes)
                    .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "stdout is closed"))
                });
            if sent.is_err() {
                Backlog::decrement(&backlog.unwritten);
                backlog.dropped.notify_waiters();
            }
            sent
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // Backpressure: no new line while answers wait for a client that does not read.
            self.backlog.room().await;
            let read = match self.read_line().await {
                Ok(read) => read,
                Err(err) => {
                    eprintln!("agent-memory mcp: reading stdin failed: {err}");
                    return None;
                }
            };
            let incoming = match read {
                Read::TooLong => {
                    eprintln!("agent-memory mcp: dropped a line longer than {MAX_LINE} bytes");
                    Incoming::Answer(error_response(
                        Value::Null,
                        INVALID_REQUEST,
                        "Invalid Request: the message is too long",
                    ))
                }
                // A last line without a line break is a message too (a truncated one, usually).
                Read::Eof if self.line.is_empty() => return None,
                Read::Line | Read::Eof => {
                    let line = std::mem::take(&mut self.line);
                    classify(line.strip_suffix(b"\n").unwrap_or(&line))
                }
            };
            match incoming {
                Incoming::Message(message) => {
                    match &*message {
                        JsonRpcMessage::Request(_) => {
                            self.backlog.in_flight.fetch_add(1, Ordering::AcqRel);
                        }
                        // A cancelled request may never be answered: count it as done.
                        JsonRpcMessage::Notification(n)
                            if matches!(
                                n.notification,
                                ClientNotification::CancelledNotification(_)
                            ) =>
                        {
                            Backlog::decrement(&self.backlog.in_flight);
                        }
                        _ => {}
                    }
                    return Some(*message);
                }
                Incoming::Skip => {}
                Incoming::Answer(answer) => {
                    let code = answer["error"]["code"].as_i64().unwrap_or_default();
                    eprintln!("agent-memory mcp: answered an unreadable message with {code}");
                    self.answer(&answer);
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.out = None;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &[u8]) -> Value {
        match classify(line) {
            Incoming::Answer(answer) => answer,
            other => panic!("{} got {other:?}", String::from_utf8_lossy(line)),
        }
    }

    #[test]
    fn lines_that_are_not_json_get_a_parse_error_with_a_null_id() {
        for line in [
            &b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/li"[..],
            b"\xff\xfe{}",
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"x\":\"\xff\"}",
            b"hello",
        ] {
            assert_eq!(
                answer(line),
                json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}})
            );
        }
    }

    #[test]
    fn tools_call_with_unreadable_params_is_invalid_params_with_its_id() {
        for params in [
            json!({"name": "list_memories", "arguments": "x"}),
            json!({"name": "list_memories", "arguments": [1]}),
            json!({"name": 5}),
            json!({}),
            json!("tools"),
        ] {
            let line =
                json!({"jsonrpc": "2.0", "id": "r1", "method": "tools/call", "params": params});
            let got = answer(line.to_string().as_bytes());
            assert_eq!(got["id"], "r1", "{params}");
            assert_eq!(got["error"]["code"], INVALID_PARAMS, "{params}");
        }
    }

    #[test]
    fn well_formed_messages_pass_and_malformed_notifications_are_not_answered() {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "list_memories", "arguments": {"limit": 1}}});
        assert!(matches!(
            classify(call.to_string().as_bytes()),
            Incoming::Message(_)
        ));
        let unknown = json!({"jsonrpc": "2.0", "id": 2, "method": "no/such"});
        assert!(matches!(
            classify(unknown.to_string().as_bytes()),
            Incoming::Message(_)
        ));
        assert!(matches!(classify(b"  \r"), Incoming::Skip));
        let notification = json!({"jsonrpc": "2.0", "method": "tools/call", "params": 3});
        assert!(matches!(
            classify(notification.to_string().as_bytes()),
            Incoming::Skip | Incoming::Message(_)
        ));
    }

    #[test]
    fn json_that_is_no_message_is_an_invalid_request() {
        for (line, id) in [
            (json!([1, 2]), Value::Null),
            (json!({"jsonrpc": "2.0", "id": 4}), json!(4)),
            (json!(17), Value::Null),
        ] {
            let got = answer(line.to_string().as_bytes());
            assert_eq!(got["error"]["code"], INVALID_REQUEST, "{line}");
            assert_eq!(got["id"], id, "{line}");
        }
    }

    #[test]
    fn every_line_is_answered_in_order_and_long_lines_are_dropped() {
        let mut input = b"oops\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n{\"trunc");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let written = runtime.block_on(async {
            let (mut transport, writer) = line_transport(&input[..], Vec::new());
            let message = transport.receive().await.expect("the ping");
            assert!(matches!(message, JsonRpcMessage::Request(_)), "{message:?}");
            assert!(transport.receive().await.is_none(), "then the end");
            transport.close().await.unwrap();
            drop(transport);
            writer.await.unwrap()
        });
        let codes: Vec<Value> = String::from_utf8(written)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["error"]["code"].clone())
            .collect();
        assert_eq!(
            codes,
            [
                json!(PARSE_ERROR),
                json!(INVALID_REQUEST),
                json!(PARSE_ERROR)
            ],
            "not JSON, too long, and the truncated last line"
        );
    }
}
