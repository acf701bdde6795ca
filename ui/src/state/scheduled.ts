// When a scheduled prompt fires next, in words for the list above the prompt.

/** When `ms` comes, in the person's local time: the time alone today, else the day and time. */
export function nextFireText(ms: number | null, now: number = Date.now()): string {
  if (ms === null) return 'never again';
  const when = new Date(ms);
  const today = new Date(now).toDateString() === when.toDateString();
  const time = when.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return today ? `next ${time}` : `next ${when.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}
