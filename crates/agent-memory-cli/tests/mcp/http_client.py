"""Drives `agent-memory serve`'s `/mcp` with the official MCP Python SDK (the `mcp` package) over
its Streamable HTTP client transport, as a deployed client would:

    python http_client.py <base URL> <agent token>

The server must run on a home whose agent memories are on (`agent-memory init` turns them on).
One connection with `Authorization: Bearer <token>`: the initialize handshake, the tool list,
`remember_memory` (the phone number masked in the answer and absent from its text), and
`recall_memories` finding the note; then a wrong token: `401` with the error body
`AGENT_CREDENTIAL_INVALID` before MCP starts, so the SDK's `initialize` fails.

Prints `protocol initialize: <version>`, `tools: <names>` and, last, `all N checks passed`; any
failed check raises (exit status 1, the reason on stderr).
"""

import asyncio
import sys

import httpx2
from mcp import ClientSession, MCPError
from mcp.client.streamable_http import streamable_http_client

EXPECTED_TOOLS = ["remember_memory", "recall_memories", "list_memories", "forget_memory"]
PHONE = "050-123-4567"

passed = 0


def check(condition, what):
    global passed
    if not condition:
        raise AssertionError(what)
    passed += 1


def text_of(result):
    check(len(result.content) == 1 and result.content[0].type == "text", "one text content item")
    return result.content[0].text


def authorized(token):
    return httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30.0))


async def remember_and_recall(url, token):
    async with authorized(token) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                print(f"protocol initialize: {init.protocol_version}")
                check(init.capabilities.tools is not None, "the tools capability")

                names = [t.name for t in (await session.list_tools()).tools]
                print(f"tools: {', '.join(names)}")
                check(sorted(names) == sorted(EXPECTED_TOOLS), f"the agent-memory tools: {names}")

                saved = await session.call_tool(
                    "remember_memory",
                    {"namespace": "prefs", "key": "tone", "text": f"Reply tersely; call me on {PHONE}"},
                )
                text = text_of(saved)
                check(saved.is_error is False, f"remember succeeds: {text}")
                memory = saved.structured_content["memory"]
                check(memory["text"] == "Reply tersely; call me on [PHONE]", f"masked: {memory['text']}")
                check(saved.structured_content["masked"] == {"phone": 1}, "one phone number masked")
                check(PHONE not in text, "the phone number is not in the text")

                recalled = await session.call_tool("recall_memories", {"query": "how tersely should I reply?"})
                check(recalled.is_error is False, f"recall succeeds: {text_of(recalled)}")
                ids = [m["id"] for m in recalled.structured_content["memories"]]
                check(ids[:1] == [memory["id"]], f"recall finds the note: {ids}")


def leaves(error):
    """The exceptions inside (nested) exception groups, which anyio's task groups raise (read by
    their `exceptions`, so that Python 3.10, which the SDK supports, needs no backport)."""
    inner = getattr(error, "exceptions", None)
    if isinstance(inner, (list, tuple)):
        return [leaf for e in inner for leaf in leaves(e)]
    return [error]


async def wrong_token(url):
    # The HTTP answer: 401 with the error body, before MCP starts.
    async with authorized("not-a-token") as http:
        response = await http.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            headers={"Accept": "application/json, text/event-stream"},
        )
    check(response.status_code == 401, f"401 for a wrong token: {response.status_code}")
    code = response.json()["error"]["code"]
    check(code == "AGENT_CREDENTIAL_INVALID", f"the error body names the code: {code}")

    # So the SDK cannot complete initialize, and says so with an MCP error.
    try:
        async with authorized("not-a-token") as http:
            async with streamable_http_client(url, http_client=http) as (read, write):
                async with ClientSession(read, write) as session:
                    await asyncio.wait_for(session.initialize(), timeout=30)
    except Exception as refused:
        errors = leaves(refused)
        check(any(isinstance(e, MCPError) for e in errors), f"initialize fails with an MCPError: {errors!r}")
        return
    check(False, "initialize with a wrong token is refused")


async def main(base, token):
    url = f"{base.rstrip('/')}/mcp"
    await remember_and_recall(url, token)
    await wrong_token(url)
    print(f"all {passed} checks passed")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python http_client.py <base URL> <agent token>")
    asyncio.run(main(sys.argv[1], sys.argv[2]))
