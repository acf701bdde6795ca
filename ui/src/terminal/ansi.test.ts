// Tests of turning raw terminal output into plain text.
import { describe, expect, it } from 'vitest';
import { plainText } from './ansi';

describe('plainText', () => {
  it('removes colours and resolves carriage-return redraws', () => {
    expect(plainText('\u001b[1;32mok\u001b[0m\n')).toBe('ok\n');
    expect(plainText('[=>  ] 1/3\r[==> ] 2/3\r\u001b[Kdone\nnext')).toBe('done\nnext');
    expect(plainText('line\r\n')).toBe('line\n');
  });
});
