// Tests of a WebBrowser call's row in the transcript: the page's title and URL under the call, "Browser closed"
// for a close, and a screenshot's picture on the row (from the detail's small preview).
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, ToolDetail } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { emptyTranscript } from '../../state/transcript';
import { envelopes, hints } from '../../test/events';
import { Transcript } from './Transcript';

/** A one-pixel JPEG-sized stand-in: the row only needs a data URL to show. */
const PREVIEW = 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////2wBDAf//////////////////////////////////////////////////////////////////////////////////////wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAA/9k=';

function browserCall(id: string, input: Record<string, unknown>, title: string, detail: ToolDetail): SessionEvent[] {
  return [
    { type: 'tool_call_started', tool_use_id: id, name: 'WebBrowser' },
    { type: 'tool_call_input', tool_use_id: id, name: 'WebBrowser', input, hints: hints('fetch', title) },
    { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: 'URL: http://127.0.0.1:8000/form', detail },
  ];
}

function renderEvents(events: SessionEvent[]) {
  const state = applyEvents(emptyTranscript(), envelopes(events));
  return render(<Transcript items={state.items} />);
}

describe('WebBrowser row', () => {
  it('shows the page title and URL under a navigate, without a picture', () => {
    renderEvents(
      browserCall('b1', { action: 'navigate', url: 'http://127.0.0.1:8000/form' }, 'Browse http://127.0.0.1:8000/form', {
        type: 'web_browser',
        action: 'navigate',
        url: 'http://127.0.0.1:8000/form',
        title: 'Greeter',
      }),
    );
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('Greeter · http://127.0.0.1:8000/form');
    expect(screen.queryByTestId('tool-screenshot')).toBeNull();
  });

  it('shows a screenshot as a picture on the row', () => {
    renderEvents(
      browserCall('b2', { action: 'screenshot' }, 'Screenshot of the page', {
        type: 'web_browser',
        action: 'screenshot',
        url: 'http://127.0.0.1:8000/form',
        title: 'Greeter',
        preview: PREVIEW,
      }),
    );
    const img = screen.getByTestId('tool-screenshot');
    expect(img).toHaveAttribute('src', PREVIEW);
    expect(img).toHaveAttribute('alt', 'Screenshot of http://127.0.0.1:8000/form');
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('Greeter');
  });

  it('says the browser closed', () => {
    renderEvents(
      browserCall('b3', { action: 'close' }, 'Close the browser', { type: 'web_browser', action: 'close', url: '', title: '' }),
    );
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('Browser closed');
  });
});
