// The `/browse` script of the e2e fake backend: the WebBrowser tool navigating to a page on this machine (allowed by
// a rule naming the host) and taking a screenshot, whose small preview the row shows as a picture.
import type { RenderHints, ToolDetail } from '../generated/protocol';
import type { ScriptHost } from './fakeEditTurn';

const URL = 'http://127.0.0.1:8000/form';
const TITLE = 'Greeter';

/** A drawing of the page, standing in for the engine's JPEG preview. */
const PREVIEW = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="300"><rect width="480" height="300" fill="#ffffff"/>' +
    '<text x="24" y="52" font-family="sans-serif" font-size="28" fill="#111">Hello form</text>' +
    '<rect x="24" y="80" width="240" height="32" fill="none" stroke="#888"/>' +
    '<rect x="276" y="80" width="60" height="32" fill="#2f81f7"/></svg>',
)}`;

async function browserCall(host: ScriptHost, base: string, input: Record<string, unknown>, hints: RenderHints, content: string, detail: ToolDetail): Promise<void> {
  const id = host.toolId(base);
  host.emit({ type: 'tool_call_started', tool_use_id: id, name: 'WebBrowser' });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name: 'WebBrowser', input, hints });
  host.emit({
    type: 'tool_call_decision',
    tool_use_id: id,
    decision: { decision: 'allow', reason: 'fetching 127.0.0.1 is allowed by a rule', rule: 'WebBrowser(domain:127.0.0.1)', source: '.claude/settings.json', decided_by: null },
  });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' });
  await host.sleep(host.tick * 6);
  host.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'success', content, detail });
}

/** Navigates to the form, then takes a screenshot of it. */
export async function playBrowseTurn(host: ScriptHost): Promise<void> {
  await host.stream('text_delta', 'Let me open the page in the browser.');
  await browserCall(
    host,
    'toolu_browse_nav',
    { action: 'navigate', url: URL },
    { kind: 'fetch', title: `Browse ${URL}`, collapsible: false },
    `URL: ${URL}\nTitle: ${TITLE}\n\nHello form\nGo`,
    { type: 'web_browser', action: 'navigate', url: URL, title: TITLE },
  );
  await browserCall(
    host,
    'toolu_browse_shot',
    { action: 'screenshot' },
    { kind: 'fetch', title: 'Screenshot of the page', collapsible: false },
    `Screenshot of ${URL} (${TITLE})\n[image]`,
    { type: 'web_browser', action: 'screenshot', url: URL, title: TITLE, preview: PREVIEW },
  );
  await host.stream('text_delta', 'The page shows a greeting form with one field and a Go button.');
}
