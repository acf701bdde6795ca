// Where streaming markdown is cut into blocks that render on their own.
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdownBlocks';

describe('markdownBlocks', () => {
  it.each([
    ['one paragraph', 'Hello **there**', ['Hello **there**']],
    ['paragraphs', 'One\nstill one\n\nTwo\n\n\nThree', ['One\nstill one', 'Two', 'Three']],
    ['a fence keeps its blank lines', 'Text\n\n```rust\nfn a() {}\n\nfn b() {}\n```\n\nAfter', ['Text', '```rust\nfn a() {}\n\nfn b() {}\n```', 'After']],
    ['an unclosed fence (streaming) keeps the rest', 'Text\n\n```\na\n\nb', ['Text', '```\na\n\nb']],
    ['a longer fence closes only with as many marks', '````\n```\n\nstill code\n````\n\nAfter', ['````\n```\n\nstill code\n````', 'After']],
    ['an indented continuation stays with its list item', '- one\n\n  more of one\n- two\n\nAfter', ['- one\n\n  more of one\n- two', 'After']],
    ['a trailing blank line is dropped', 'One\n\n', ['One']],
    ['empty', '', []],
  ])('%s', (_name, text, blocks) => {
    expect(markdownBlocks(text)).toEqual(blocks);
  });
});
