#!/usr/bin/env python3
"""A small ACP agent for the tests of Tandem as an ACP client (crates/cli/tests/suite/hosted.rs): over stdin and
stdout it answers initialize and session/new, and runs one scripted turn that uses everything a client serves —
permission requests (an edit, a read of .env, a command), fs/write_text_file (allowed, then denied),
fs/read_text_file, and a terminal (create, wait_for_exit, output, release) — reporting each answer as a tool call
update, then ends its answer with one line `RESULTS <json>` holding every answer it got (and the names of the MCP
servers session/new gave it, and the prompt's content blocks)."""
import json
import os
import sys

next_id = 0


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def update(session, body):
    send({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": session, "update": body}})


def request(method, params):
    """Sends a request to the client and waits for its answer (the client sends nothing else meanwhile)."""
    global next_id
    next_id += 1
    mine = f"agent-{next_id}"
    send({"jsonrpc": "2.0", "id": mine, "method": method, "params": params})
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("id") == mine and "method" not in message:
            return message
    sys.exit("the client went away")


def text(session, words):
    update(session, {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": words}})


def turn(session, cwd, mcp, prompt):
    results = {"mcp": sorted(server["name"] for server in mcp), "prompt": prompt}
    notes = os.path.join(cwd, "notes.txt")
    text(session, "Writing the notes. ")
    update(session, {"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Write notes.txt", "kind": "edit",
                     "status": "pending", "locations": [{"path": notes}],
                     "rawInput": {"path": notes, "content": "hello\n"}})
    options = [{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
               {"optionId": "no", "name": "Reject", "kind": "reject_once"}]
    answer = request("session/request_permission", {"sessionId": session, "options": options, "toolCall": {
        "toolCallId": "c1", "title": "Write notes.txt", "kind": "edit", "locations": [{"path": notes}]}})
    results["edit"] = answer["result"]["outcome"].get("optionId")
    written = request("fs/write_text_file", {"sessionId": session, "path": notes, "content": "hello\n"})
    results["write"] = "ok" if "result" in written else written["error"]
    update(session, {"sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "completed",
                     "content": [{"type": "diff", "path": notes, "newText": "hello\n"}]})
    locked = request("fs/write_text_file", {"sessionId": session, "path": os.path.join(cwd, "locked.txt"),
                                            "content": "no\n"})
    results["locked"] = "ok" if "result" in locked else locked["error"]
    env = os.path.join(cwd, ".env")
    # Asked about before it is announced: the request alone names it.
    answer = request("session/request_permission", {"sessionId": session, "options": options, "toolCall": {
        "toolCallId": "c2", "title": "Read .env", "kind": "read", "locations": [{"path": env}]}})
    results["env"] = answer["result"]["outcome"].get("optionId")
    update(session, {"sessionUpdate": "tool_call_update", "toolCallId": "c2", "status": "failed"})
    read = request("fs/read_text_file", {"sessionId": session, "path": notes})
    results["read"] = read.get("result", {}).get("content")
    update(session, {"sessionUpdate": "tool_call", "toolCallId": "c3", "title": "echo 'hi there'",
                     "kind": "execute", "status": "in_progress", "rawInput": {"command": "echo 'hi there'"}})
    created = request("terminal/create", {"sessionId": session, "command": "echo", "args": ["hi there"]})
    terminal = created["result"]["terminalId"]
    exited = request("terminal/wait_for_exit", {"sessionId": session, "terminalId": terminal})
    results["exit"] = exited["result"].get("exitCode")
    output = request("terminal/output", {"sessionId": session, "terminalId": terminal})
    results["output"] = output["result"]["output"]
    request("terminal/release", {"sessionId": session, "terminalId": terminal})
    update(session, {"sessionUpdate": "tool_call_update", "toolCallId": "c3", "status": "completed",
                     "content": [{"type": "terminal", "terminalId": terminal}]})
    text(session, "RESULTS " + json.dumps(results, sort_keys=True))


def main():
    cwd, mcp = None, []
    for line in sys.stdin:
        message = json.loads(line)
        method, ident = message.get("method"), message.get("id")
        params = message.get("params", {})
        if method == "initialize":
            caps = params.get("clientCapabilities", {})
            assert caps.get("fs", {}).get("writeTextFile") and caps.get("terminal"), caps
            send({"jsonrpc": "2.0", "id": ident, "result": {"protocolVersion": 1, "agentCapabilities": {},
                                                            "authMethods": []}})
        elif method == "session/new":
            cwd, mcp = params["cwd"], params.get("mcpServers", [])
            send({"jsonrpc": "2.0", "id": ident, "result": {"sessionId": "scripted-1"}})
        elif method == "session/prompt":
            turn(params["sessionId"], cwd, mcp, params.get("prompt", []))
            send({"jsonrpc": "2.0", "id": ident, "result": {"stopReason": "end_turn"}})
        elif ident is not None:
            send({"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}})


main()
