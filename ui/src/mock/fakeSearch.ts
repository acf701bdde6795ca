// The fake backend's `search_sessions`: every word of the query (case-insensitive) must be in one text of a session
// — a prompt, an answer (its deltas joined), a tool call's input or result — and hits rank by how often the words
// occur, at most three per session, each with its snippet's matches marked. `delays` makes a query answer late (by
// query text, in ms), so a test can make an older query answer after a newer one.
import type { SearchSnippetPart, SessionEvent, SessionSearchHit } from '../generated/protocol';

export type Searchable = { sessionId: string; folder: string; title: string; updatedAt: number; events: readonly SessionEvent[] };

type Text = { seq: number; kind: string; body: string };

function texts(events: readonly SessionEvent[]): Text[] {
  const out: Text[] = [];
  let answer: Text | null = null;
  events.forEach((event, seq) => {
    if (event.type === 'text_delta') {
      if (!answer) {
        answer = { seq, kind: 'answer', body: '' };
        out.push(answer);
      }
      answer.body += event.text;
      return;
    }
    answer = null;
    if (event.type === 'turn_started') out.push({ seq, kind: 'prompt', body: event.prompt });
    else if (event.type === 'tool_call_input') out.push({ seq, kind: 'tool_input', body: `${event.name} ${JSON.stringify(event.input)}` });
    else if (event.type === 'tool_call_result') out.push({ seq, kind: 'tool_result', body: event.content });
  });
  return out;
}

function snippet(body: string, words: readonly string[]): SearchSnippetPart[] {
  const lower = body.toLowerCase();
  const first = Math.min(...words.map((word) => lower.indexOf(word)).filter((at) => at >= 0));
  const start = Math.max(0, first - 40);
  const end = Math.min(body.length, first + 120);
  const shown = (start > 0 ? '…' : '') + body.slice(start, end) + (end < body.length ? '…' : '');
  const pattern = new RegExp(`(${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'gi');
  return shown
    .split(pattern)
    .filter((text) => text !== '')
    .map((text) => ({ text, matched: words.includes(text.toLowerCase()) }));
}

export function fakeSearch(sessions: readonly Searchable[], query: string): SessionSearchHit[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw { code: 'store', message: 'the query has no words' };
  const hits: (SessionSearchHit & { score: number })[] = [];
  for (const session of sessions) {
    const found = texts(session.events)
      .filter((text) => words.every((word) => text.body.toLowerCase().includes(word)))
      .map((text) => ({
        session_id: session.sessionId,
        folder: session.folder,
        title: session.title,
        updated_at_ms: session.updatedAt,
        seq: text.seq,
        kind: text.kind,
        snippet: snippet(text.body, words),
        score: words.reduce((sum, word) => sum + text.body.toLowerCase().split(word).length - 1, 0),
      }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 3);
    hits.push(...found);
  }
  return hits.sort((a, b) => b.score - a.score || b.updated_at_ms - a.updated_at_ms).map(({ score: _score, ...hit }) => hit);
}
