// The code of one diff line: syntax-highlighted tokens, with the words that changed against the
// paired line marked.
import { memo } from 'react';
import { markTokens } from '../../diff/marks';
import type { DiffModel } from '../../diff/model';

export const DiffCode = memo(function DiffCode({ model, index }: { model: DiffModel; index: number }) {
  const line = model.lines[index];
  if (!line) return null;
  const pieces = markTokens(model.tokens(line), model.changedRanges(index));
  return (
    <span className="diff-code">
      {pieces.length === 0 && '\u200b'}
      {pieces.map((piece, i) =>
        piece.changed ? (
          <mark key={i} className={`diff-word ${piece.className}`} data-testid="diff-word">
            {piece.text}
          </mark>
        ) : piece.className ? (
          <span key={i} className={piece.className}>
            {piece.text}
          </span>
        ) : (
          piece.text
        ),
      )}
    </span>
  );
});
