// The one-line facts a completed tool call's typed detail adds to the transcript ("Lines 1–40 of 120",
// "12 matches in 3 files", "Exit code 2"), chosen by the detail's tag; and the file diff of a file change.
import type { FileDiff, FileRevision, ReadContent, ToolDetail } from '../generated/protocol';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

function readLine(content: ReadContent): string {
  switch (content.format) {
    case 'text':
      if (content.lines === 0) return plural(content.total_lines, 'line');
      return `Lines ${content.start_line}–${content.start_line + content.lines - 1} of ${content.total_lines}`;
    case 'image': {
      const [width, height] = content.size;
      const [ow, oh] = content.original_size;
      const scaled = ow !== width || oh !== height ? ` (scaled from ${ow}×${oh})` : '';
      return `Image ${width}×${height}${scaled}`;
    }
    case 'notebook':
      return `Notebook of ${plural(content.cells, 'cell')}`;
    case 'pdf':
      return `${plural(content.pages.length, 'page')} of ${content.page_count}`;
  }
}

/** "+3 −1" counted from the hunks, for a change too large to carry its whole text. */
function hunkStats(detail: Extract<ToolDetail, { type: 'file_change' }>): string {
  let added = 0;
  let removed = 0;
  for (const hunk of detail.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added += 1;
      else if (line.startsWith('-')) removed += 1;
    }
  }
  return `+${added} −${removed}`;
}

/** How the person revised the change: the diff shown is then of the file as written, not the proposal. */
function revisedLine(revised: FileRevision): string {
  const rejected = revised.rejected_hunks.length;
  const parts: string[] = [];
  if (rejected > 0) {
    parts.push(`you accepted ${revised.total_hunks - rejected} of ${plural(revised.total_hunks, 'hunk')}`);
  }
  if (revised.edited) parts.push('you edited the text');
  const what = parts.length ? parts.join(' and ') : 'you revised it';
  return `Revised: ${what}; the diff shows the file as written`;
}

/** The facts worth a line under the call, or null when the rest of the row already says it all. */
export function detailLine(detail: ToolDetail): string | null {
  switch (detail.type) {
    case 'file_change': {
      const parts: string[] = [];
      if (detail.cell) parts.push(detail.cell.summary);
      if (detail.revised) parts.push(revisedLine(detail.revised));
      // Without the texts there is no diff to show: the hunks still give its size.
      if (!detail.diff && detail.hunks.length > 0) parts.push(`${hunkStats(detail)} (too large to show)`);
      return parts.length ? parts.join(' · ') : null;
    }
    case 'shell': {
      const parts: string[] = [];
      if (detail.exit_code !== null && detail.exit_code !== 0) parts.push(`Exit code ${detail.exit_code}`);
      if (detail.cwd_reset) parts.push(`Working directory reset to ${detail.cwd}`);
      return parts.length ? parts.join(' · ') : null;
    }
    case 'background_task': {
      const exit = detail.exit_code !== null ? ` with code ${detail.exit_code}` : '';
      return `Background task ${detail.task_id}: ${detail.status}${exit}`;
    }
    case 'read':
      return readLine(detail.content);
    case 'file_list':
      return detail.truncated
        ? `${plural(detail.total, 'file')}, showing ${detail.files.length}`
        : plural(detail.total, 'file');
    case 'search':
      return `${plural(detail.matches, 'match', 'matches')} in ${plural(detail.files, 'file')}${detail.truncated ? ', more left out' : ''}`;
    case 'sub_agent':
      return `${detail.agent_type} agent: ${plural(detail.tool_calls, 'tool call')}`;
    case 'mcp':
      return `${detail.server} › ${detail.tool}`;
    case 'web_fetch': {
      if (detail.redirect) return `Redirects to ${detail.redirect} (not followed)`;
      const how = detail.summarized ? 'answered from the page' : 'page as it is';
      return `HTTP ${detail.status} · ${plural(detail.bytes, 'byte')} · ${how}${detail.cached ? ' · cached' : ''}`;
    }
    case 'web_search':
      if (detail.error) return `Search failed: ${detail.error}`;
      return `${plural(detail.results.length, 'result')}: ${detail.results.map((r) => r.title || r.url).join(' · ')}`;
    case 'skill':
      return `Skill ${detail.name}${detail.allowed_tools.length ? ` (allows ${detail.allowed_tools.join(', ')})` : ''}`;
    case 'web_browser':
      if (detail.action === 'close') return 'Browser closed';
      if (!detail.url) return null;
      return detail.title ? `${detail.title} · ${detail.url}` : detail.url;
    case 'tool_search':
      return detail.loaded.length
        ? `Loaded ${detail.loaded.join(', ')} of ${plural(detail.total_deferred, 'deferred tool')}`
        : `No match among ${plural(detail.total_deferred, 'deferred tool')}`;
    case 'other':
      return null;
  }
}

/** The before-and-after of a file change, when the detail carries it. */
export function detailDiff(detail: ToolDetail | null): FileDiff | null {
  return detail?.type === 'file_change' ? detail.diff : null;
}
