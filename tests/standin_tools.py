"""The tool-call wire formats of the three providers, for stand-ins of writers that search for themselves
(writers/research.py): replies that call tools or answer in text, and what a request carries back and offers."""
import json

from standin import claude_message, gemini_response, openai_completion


def tool_calls(provider: str, calls: list[tuple[str, dict | str]], text: str = "") -> dict:
    """A reply that calls tools: (name, arguments) each; a str of arguments is sent as it is (malformed JSON)."""
    if provider == "claude":
        blocks = ([{"type": "text", "text": text}] if text else []) + [
            {"type": "tool_use", "id": f"toolu_{i}", "name": name, "input": args} for i, (name, args) in enumerate(calls)]
        return {**claude_message(blocks=blocks), "stop_reason": "tool_use"}
    if provider == "gemini":
        parts = ([{"text": text}] if text else []) + [{"functionCall": {"name": name, "args": args}}
                                                      for name, args in calls]
        return {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                "modelVersion": "gemini-standin"}
    message = {"role": "assistant", "content": text or None, "tool_calls": [
        {"id": f"call_{i}", "type": "function",
         "function": {"name": name, "arguments": args if isinstance(args, str) else json.dumps(args)}}
        for i, (name, args) in enumerate(calls)]}
    return {"id": "chatcmpl-standin", "object": "chat.completion", "model": "local-standin",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}


def final_text(provider: str, text: str) -> dict:
    """A reply in plain text, after the searches (Gemini too answers in text here, not in its JSON schema)."""
    if provider == "claude":
        return claude_message(text)
    if provider == "gemini":
        return gemini_response(text)
    return openai_completion(text)


def tool_results(provider: str, request: dict) -> list[tuple[dict, bool]]:
    """The tool results a request carries back to the model, oldest first: (the result's JSON, is_error)."""
    found = []
    if provider == "claude":
        for message in request["messages"]:
            for block in message["content"] if isinstance(message["content"], list) else ():
                if block.get("type") == "tool_result":
                    found.append((json.loads(block["content"]), bool(block.get("is_error"))))
    elif provider == "gemini":
        for content in request["contents"]:
            for part in content.get("parts", ()):
                if "functionResponse" in part:
                    response = part["functionResponse"]["response"]
                    found.append((response.get("output", response.get("error")), "error" in response))
    else:
        for message in request["messages"]:
            if message["role"] == "tool":
                result = json.loads(message["content"])
                found.append((result, "error" in result))
    return found


def offered_tools(provider: str, request: dict) -> tuple[list[str], bool]:
    """The tools a request offers the model by name, and whether it may call them."""
    if provider == "claude":
        return [t["name"] for t in request.get("tools", ())], request.get("tool_choice", {}).get("type") != "none"
    if provider == "gemini":
        names = [f["name"] for t in request.get("tools", ()) for f in t.get("functionDeclarations", ())]
        mode = request.get("toolConfig", {}).get("functionCallingConfig", {}).get("mode")
        return names, mode != "NONE"
    return [t["function"]["name"] for t in request.get("tools", ())], request.get("tool_choice") != "none"
