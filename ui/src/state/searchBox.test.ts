import { describe, expect, it } from 'vitest';
import type { SessionSearchHit } from '../generated/protocol';
import { initialSearchBox, searchBoxReducer, searching, type SearchBoxAction, type SearchBoxState } from './searchBox';

const hit = (id: string, seq = 0): SessionSearchHit => ({
  session_id: id,
  folder: '/p',
  title: id,
  updated_at_ms: 0,
  seq,
  kind: 'answer',
  snippet: [{ text: id, matched: true }],
});

const run = (actions: SearchBoxAction[], from: SearchBoxState = initialSearchBox) => actions.reduce(searchBoxReducer, from);

describe('the search box state', () => {
  it('shows the answer of the newest request, whatever order answers come in', () => {
    const cases: { name: string; answers: [number, string][]; shown: string[] }[] = [
      { name: 'in order', answers: [[1, 'a'], [2, 'b']], shown: ['b'] },
      { name: 'the older one last', answers: [[2, 'b'], [1, 'a']], shown: ['b'] },
      { name: 'only the older one yet', answers: [[1, 'a']], shown: ['a'] },
    ];
    for (const { name, answers, shown } of cases) {
      const state = run([
        { type: 'typed', query: 'co' },
        { type: 'sent', request: 1 },
        { type: 'typed', query: 'config' },
        { type: 'sent', request: 2 },
        ...answers.map(([request, id]): SearchBoxAction => ({ type: 'answered', request, hits: [hit(id)] })),
      ]);
      expect(state.hits.map((each) => each.session_id), name).toEqual(shown);
    }
  });

  it('keeps the newer hits when an older request fails late', () => {
    const state = run([
      { type: 'sent', request: 1 },
      { type: 'sent', request: 2 },
      { type: 'answered', request: 2, hits: [hit('b')] },
      { type: 'failed', request: 1, error: 'busy' },
    ]);
    expect(state.error).toBeNull();
    expect(state.hits).toHaveLength(1);
  });

  it('clears the hits when the query is emptied, and a late answer does not bring them back', () => {
    const state = run([
      { type: 'typed', query: 'x' },
      { type: 'sent', request: 1 },
      { type: 'typed', query: '' },
      { type: 'answered', request: 1, hits: [hit('a')] },
    ]);
    expect(state.hits).toEqual([]);
  });

  it('is searching while the newest request is out', () => {
    const out = run([{ type: 'typed', query: 'x' }, { type: 'sent', request: 1 }]);
    expect(searching(out)).toBe(true);
    expect(searching(searchBoxReducer(out, { type: 'answered', request: 1, hits: [] }))).toBe(false);
  });

  it('moves the selection round the hits and resets it on new hits', () => {
    const shown = run([{ type: 'answered', request: 1, hits: [hit('a'), hit('b'), hit('c')] }]);
    expect(run([{ type: 'move', by: 1 }], shown).selected).toBe(1);
    expect(run([{ type: 'move', by: -1 }], shown).selected).toBe(2);
    expect(run([{ type: 'move', by: 1 }, { type: 'move', by: 1 }, { type: 'move', by: 1 }], shown).selected).toBe(0);
    expect(run([{ type: 'select', index: 2 }, { type: 'answered', request: 2, hits: [hit('d')] }], shown).selected).toBe(0);
    expect(run([{ type: 'select', index: 7 }], shown).selected).toBe(0);
    expect(run([{ type: 'move', by: 1 }]).selected).toBe(0);
  });
});
