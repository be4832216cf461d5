// Questions to the server: POST /api/query/stream read as server-sent events with fetch and a ReadableStream
// (EventSource cannot POST), or POST /api/query where the stream endpoint does not exist (404).
// Does not: render anything; it calls the handlers of the caller with each event's name and parsed data.
import { request as send } from "./api.js";
import { t } from "./i18n.js";

const EVENT_END = /\r\n\r\n|\n\n|\r\r/;

// One "event: NAME\ndata: JSON" block as [name, data], or null for a comment or an unreadable block.
function parseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split(/\r\n|\n|\r/)) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return null;
  try {
    return [name, JSON.parse(data.join("\n"))];
  } catch (err) {
    console.warn("unreadable event", name, err);
    return null;
  }
}

// Read a text/event-stream response to its end, calling onEvent(name, data) for each event as it arrives.
export async function readEvents(response, onEvent) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let match;
    while ((match = EVENT_END.exec(buffer))) {
      const event = parseEvent(buffer.slice(0, match.index));
      buffer = buffer.slice(match.index + match[0].length);
      if (event) onEvent(...event);
    }
    if (done) break;
  }
  const last = parseEvent(buffer);
  if (last) onEvent(...last);
}

async function errorOf(response) {
  try {
    const data = await response.json();
    if (data.error) return data.error;
  } catch (err) { /* not JSON: say the status */ }
  return t("common.server_answered", { status: response.status });
}

// Ask body.question; onEvent gets meta, sources, delta, answer, done and error events in order. A server without
// the stream endpoint answers as one "answer" event. Rejects with an AbortError when signal aborts.
export async function ask(body, onEvent, signal) {
  const request = { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
  let response = await send("/api/query/stream", request);
  if (response.status === 404) {
    response = await send("/api/query", request);
    if (!response.ok) return onEvent("error", { error: await errorOf(response) });
    const data = await response.json();
    onEvent("answer", data);
    return onEvent("done", { id: data.id, timings_ms: data.timings_ms });
  }
  if (!response.ok) return onEvent("error", { error: await errorOf(response) });
  return readEvents(response, onEvent);
}
