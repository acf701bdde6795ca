// Renders one display row of the transcript by its kind.
import { memo } from 'react';
import type { Row } from '../../state/rows';
import { ErrorBanner } from '../common/ErrorBanner';
import { AssistantText, Brief, Thinking, UserPrompt } from './Messages';
import { PushedNotice, UserFile } from './UserFile';
import { Notice, RetryNotice, TurnEnd } from './Notices';
import { ToolCallView } from './ToolCallView';
import { ToolGroup } from './ToolGroup';

/** Rows are rebuilt on every batch; a row re-renders only when its items changed. */
function sameRow(a: { row: Row }, b: { row: Row }): boolean {
  const [x, y] = [a.row, b.row];
  if (x.kind === 'item' && y.kind === 'item') return x.item === y.item;
  if (x.kind === 'group' && y.kind === 'group') {
    return x.key === y.key && x.calls.length === y.calls.length && x.calls.every((call, i) => call === y.calls[i]);
  }
  return false;
}

export const TranscriptRow = memo(function TranscriptRow({ row }: { row: Row }) {
  if (row.kind === 'group') return <ToolGroup groupKey={row.key} calls={row.calls} />;
  const { item } = row;
  switch (item.kind) {
    case 'user':
      return <UserPrompt itemKey={item.key} text={item.text} images={item.images} />;
    case 'assistant':
      return <AssistantText text={item.text} />;
    case 'thinking':
      return <Thinking itemKey={item.key} text={item.text} />;
    case 'tool':
      return <ToolCallView call={item.call} />;
    case 'error':
      return <ErrorBanner message={item.message} />;
    case 'notice':
      return <Notice message={item.message} />;
    case 'brief':
      return <Brief message={item.message} status={item.status} />;
    case 'user_file':
      return <UserFile path={item.path} bytes={item.bytes} caption={item.caption} />;
    case 'push_notification':
      return <PushedNotice title={item.title} message={item.message} />;
    case 'retry':
      return <RetryNotice attempt={item.attempt} waitMs={item.waitMs} reason={item.reason} settled={item.settled} />;
    case 'turn_end':
      return <TurnEnd stopReason={item.stopReason} />;
  }
}, sameRow);
