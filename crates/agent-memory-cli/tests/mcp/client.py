"""Drives `agent-memory mcp` with the official MCP Python SDK (the `mcp` package), as a real
client would: it launches the server over stdio, talks to it and checks every answer.

    python client.py <agent-memory binary> <home> <session id>

The home must be initialised (`agent-memory init`) and the session must mount one read-write
store named "Project Notes" (mount `project-notes`). Three connections, each its own server
process:

1. the initialize handshake (`ClientSession.initialize()`, what deployed clients do), with
   `--session` on the command line: tool list, remember, recall (the fence in the text and the
   `structuredContent`), refused calls (`isError` with the code), the memory tool;
2. the SDK's high-level `Client` with its default negotiation (mcp >= 2: `server/discover`, then
   the newest protocol both sides speak), the session from `AGENT_MEMORY_SESSION`: the note and
   the file of connection 1 are there;
3. an unknown credential in `AGENT_MEMORY_CREDENTIAL`: tool calls answer
   `AGENT_CREDENTIAL_INVALID` as tool errors.

Prints `protocol <how>: <version>` for each connection, `tools: <names>` and, last,
`all N checks passed`; any failed check raises (exit status 1, the reason on stderr).
"""

import asyncio
import os
import re
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # mcp >= 2
    from mcp import Client
except ImportError:  # pragma: no cover - older SDKs have the session API only
    Client = None

EXPECTED_TOOLS = ["remember_memory", "recall_memories", "list_memories", "forget_memory", "memory"]
FENCE = re.compile(
    r'<untrusted-memory id="(amem_[0-9a-z]+)" nonce="([0-9a-f]+)"[^>]*>\n(.*?)\n</untrusted-memory nonce="\2">',
    re.S,
)
FILE = "/memories/project-notes/decisions.md"

passed = 0


def check(condition, what):
    global passed
    if not condition:
        raise AssertionError(what)
    passed += 1


def text_of(result):
    check(len(result.content) == 1 and result.content[0].type == "text", "one text content item")
    return result.content[0].text


def refused(result, code):
    """A tool error: isError, the code at the start of the text, the error body as structuredContent."""
    text = text_of(result)
    check(result.is_error is True, f"isError is true for {code}: {text}")
    check(text.startswith(f"{code}: "), f"the text starts with {code}: {text}")
    check(result.structured_content["error"]["code"] == code, f"structuredContent carries {code}")


def server(binary, home, *args, env=None):
    # The SDK passes only a safe subset of the environment; the home is on the command line.
    return StdioServerParameters(command=binary, args=["--home", home, "mcp", *args], env=env or {})


async def handshake(binary, home, session_id):
    async with stdio_client(server(binary, home, "--session", session_id)) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            print(f"protocol initialize: {init.protocol_version}")
            check(init.server_info.name == "agent-memory", "serverInfo.name is agent-memory")
            check(init.capabilities.tools is not None, "the tools capability")
            check("/mnt/memory/project-notes/" in (init.instructions or ""), "instructions name the mount")

            tools = (await session.list_tools()).tools
            names = [t.name for t in tools]
            print(f"tools: {', '.join(names)}")
            check(sorted(names) == sorted(EXPECTED_TOOLS), f"the five tools: {names}")
            schemas = {t.name: t.input_schema for t in tools}
            limit = schemas["recall_memories"]["properties"]["limit"]
            check(limit["type"] == "integer" and limit["default"] == 10, "limit: a plain integer with a default")
            check(schemas["memory"]["properties"]["command"]["enum"][0] == "view", "memory: the command enum")

            # remember: personal data is masked; the text fences the note.
            saved = await session.call_tool(
                "remember_memory",
                {"namespace": "prefs", "key": "tone", "text": "Reply tersely; call me on 050-123-4567"},
            )
            text = text_of(saved)
            check(saved.is_error is False, f"remember succeeds: {text}")
            memory = saved.structured_content["memory"]
            check(memory["text"] == "Reply tersely; call me on [PHONE]", f"masked: {memory['text']}")
            check(memory["type"] == "memory" and memory["trust"] == "untrusted", "a memory, untrusted")
            fenced = FENCE.search(text)
            check(fenced is not None and fenced.group(1) == memory["id"], f"the note is fenced: {text}")
            check("050-123-4567" not in text, "the phone number is not in the text")

            # recall: structuredContent is the REST body; the text fences every note, after the notice.
            recalled = await session.call_tool("recall_memories", {"query": "how tersely should I reply?", "limit": 5})
            text = text_of(recalled)
            check(recalled.is_error is False, f"recall succeeds: {text}")
            body = recalled.structured_content
            check(body["memories"][0]["id"] == memory["id"], "recall finds the note")
            check(body["memories"][0]["ranks"]["bm25"] is not None, "each ranker's position")
            check(text.startswith("The following are untrusted notes"), "the text opens with the notice")
            fences = FENCE.findall(text)
            check([f[0] for f in fences] == [m["id"] for m in body["memories"]], "one fence per recalled note")
            check("text: Reply tersely; call me on [PHONE]" in fences[0][2], "the fence holds the masked text")

            listed = await session.call_tool("list_memories", {})
            check(listed.is_error is False and len(listed.structured_content["memories"]) == 1, "list shows the note")

            # Refusals are tool results with the code, not protocol errors.
            refused(await session.call_tool("forget_memory", {"memoryId": "amem_doesnotexist"}), "AGENT_MEMORY_NOT_FOUND")
            refused(await session.call_tool("recall_memories", {"query": "x", "limit": 0}), "AGENT_MEMORY_INVALID_REQUEST")
            refused(
                await session.call_tool("remember_memory", {"namespace": "dana@example.com", "text": "x"}),
                "AGENT_MEMORY_PERSONAL_DATA",
            )

            # The memory tool over the session's mount.
            created = await session.call_tool(
                "memory", {"command": "create", "path": FILE, "file_text": "Use redb.\nNo network code.\n"}
            )
            text = text_of(created)
            check(created.is_error is False, f"create succeeds: {text}")
            check(created.structured_content == {"text": text}, "structuredContent is the tool's answer")
            # insert_line as a numeric string, as some clients send integers: accepted.
            inserted = await session.call_tool(
                "memory", {"command": "insert", "path": FILE, "insert_line": "1", "insert_text": "Keep versions."}
            )
            check(inserted.is_error is False, f"insert succeeds: {text_of(inserted)}")
            viewed = await session.call_tool("memory", {"command": "view", "path": FILE})
            text = text_of(viewed)
            check(viewed.is_error is False, f"view succeeds: {text}")
            check(
                text.endswith("     1\tUse redb.\n     2\tKeep versions.\n     3\tNo network code."),
                f"view numbers the lines: {text!r}",
            )
            listing = text_of(await session.call_tool("memory", {"command": "view", "path": "/memories"}))
            check("/memories/project-notes/decisions.md" in listing, f"view /memories lists the file: {listing}")
            missing = await session.call_tool("memory", {"command": "view", "path": "/memories/project-notes/none.md"})
            text = text_of(missing)
            check(missing.is_error is True, "a missing file is a tool error")
            check(
                text == "The path /memories/project-notes/none.md does not exist. Please provide a valid path.",
                f"the tool's documented text: {text}",
            )
            check(missing.structured_content["error"]["code"] == "MEMORY_TOOL_ERROR", "MEMORY_TOOL_ERROR")
            return memory["id"]


async def default_client(binary, home, session_id, memory_id):
    if Client is None:
        print("protocol Client: skipped (this mcp package has no Client class)")
        return
    async with Client(server(binary, home, env={"AGENT_MEMORY_SESSION": session_id})) as client:
        print(f"protocol Client: {client.protocol_version}")
        check(client.server_info.name == "agent-memory", "serverInfo.name is agent-memory")
        names = [t.name for t in (await client.list_tools()).tools]
        check(sorted(names) == sorted(EXPECTED_TOOLS), f"AGENT_MEMORY_SESSION adds the memory tool: {names}")
        recalled = await client.call_tool("recall_memories", {"query": "reply tersely"})
        check(recalled.is_error is False, "recall succeeds")
        check(recalled.structured_content["memories"][0]["id"] == memory_id, "the note outlived its server")
        viewed = await client.call_tool("memory", {"command": "view", "path": FILE, "view_range": [2, -1]})
        check(text_of(viewed).endswith("     2\tKeep versions.\n     3\tNo network code."), "view_range")


async def unknown_credential(binary, home):
    params = server(binary, home, env={"AGENT_MEMORY_CREDENTIAL": "cred_somebody_else"})
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = [t.name for t in (await session.list_tools()).tools]
            check("memory" not in names, "no memory tool without a session")
            refused(await session.call_tool("recall_memories", {"query": "tone"}), "AGENT_CREDENTIAL_INVALID")
            refused(
                await session.call_tool("remember_memory", {"namespace": "prefs", "text": "x"}),
                "AGENT_CREDENTIAL_INVALID",
            )


async def main(binary, home, session_id):
    memory_id = await handshake(binary, home, session_id)
    await default_client(binary, home, session_id, memory_id)
    await unknown_credential(binary, home)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, home, session_id = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
    asyncio.run(asyncio.wait_for(main(binary, home, session_id), timeout=120))
    print(f"all {passed} checks passed")
