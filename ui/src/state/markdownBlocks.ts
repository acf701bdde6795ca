// Cuts markdown into top-level blocks at blank lines, so a streaming answer re-parses only its
// last block: every earlier block keeps its text, and its rendering is reused. A blank line inside
// a fenced code block, or followed by an indented line (a list item's or an indented code block's
// continuation), does not cut.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The blocks of `text`, in order; joined with blank lines they give back the text's blocks. */
export function markdownBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  const close = (block: string[]) => blocks.push(block.join('\n').replace(/\n[ \t\n]*$/, ''));
  let current: string[] = [];
  let fence: { char: string; length: number } | null = null;
  lines.forEach((line, index) => {
    const marker = FENCE.exec(line)?.[1];
    if (marker) {
      const char = marker.charAt(0);
      if (fence === null) fence = { char, length: marker.length };
      else if (char === fence.char && marker.length >= fence.length && line.trim() === marker) fence = null;
    }
    const next = lines[index + 1];
    const cut =
      fence === null &&
      line.trim() === '' &&
      current.length > 0 &&
      next !== undefined &&
      next.trim() !== '' &&
      !/^[ \t]/.test(next);
    if (cut) {
      close(current);
      current = [];
    } else if (current.length > 0 || line.trim() !== '') {
      current.push(line);
    }
  });
  if (current.length > 0) close(current);
  return blocks;
}
