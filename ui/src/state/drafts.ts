// Unsent prompt text per session, kept in localStorage so that a draft (typed, or put back by a rewind)
// survives closing the window; an empty draft is removed.
const PREFIX = 'tandem.draft.';

export function loadDraft(sessionId: string): string {
  try {
    return localStorage.getItem(PREFIX + sessionId) ?? '';
  } catch {
    return '';
  }
}

export function saveDraft(sessionId: string, text: string): void {
  try {
    if (text.trim() === '') localStorage.removeItem(PREFIX + sessionId);
    else localStorage.setItem(PREFIX + sessionId, text);
  } catch {
    // Storage may be unavailable; the draft then lasts until the window closes.
  }
}
