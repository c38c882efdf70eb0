import { TOKEN_MODEL_ALIASES_MAX, createTokenRequestSchema } from '@tollgate/contracts';
import { aliasRow, aliasesFromRows, draftFromForm, EMPTY_TOKEN_FORM } from './token-draft';

const rows = (...pairs: [string, string][]) => pairs.map(([asked, served]) => aliasRow(asked, served));

describe('aliasesFromRows', () => {
  it('turns rows into the map the contract takes, names trimmed and blank rows skipped', () => {
    expect(aliasesFromRows(rows([' gpt-4 ', ' gpt-4o '], ['  ', ''], ['o1', 'o3']))).toEqual({
      aliases: { 'gpt-4': 'gpt-4o', o1: 'o3' },
    });
    expect(aliasesFromRows([])).toEqual({ aliases: {} });
  });

  it('refuses each rule the contract enforces, naming the row', () => {
    expect(aliasesFromRows(rows(['a', 'b'], ['c', ' ']))).toEqual({
      problem: 'token_alias_incomplete',
      row: 2,
    });
    expect(aliasesFromRows(rows(['a', 'x'.repeat(129)]))).toEqual({
      problem: 'token_alias_name_invalid',
      row: 1,
    });
    expect(aliasesFromRows(rows(['a\u200b', 'b']))).toEqual({ problem: 'token_alias_name_invalid', row: 1 });
    expect(aliasesFromRows(rows(['a', ' a ']))).toEqual({ problem: 'token_alias_self', row: 1, asked: 'a' });
    expect(aliasesFromRows(rows(['a', 'b'], ['a', 'c']))).toEqual({
      problem: 'token_alias_repeated',
      row: 2,
      asked: 'a',
    });
    expect(aliasesFromRows(rows(['b', 'c'], ['a', 'b']))).toEqual({
      problem: 'token_alias_chain',
      row: 2,
      asked: 'a',
      served: 'b',
    });
  });

  it('accepts 128-character names and 64 aliases, and refuses a 65th', () => {
    const long = 'x'.repeat(128);
    expect(aliasesFromRows(rows([long, 'gpt-4o']))).toEqual({ aliases: { [long]: 'gpt-4o' } });
    const many = Array.from({ length: TOKEN_MODEL_ALIASES_MAX }, (_, i) => aliasRow(`m-${i}`, 'gpt-4o'));
    expect('aliases' in aliasesFromRows(many)).toBe(true);
    expect(aliasesFromRows([...many, aliasRow('one-more', 'gpt-4o')])).toEqual({
      problem: 'token_alias_too_many',
    });
  });

  it('gives draftFromForm a map the server schema accepts', () => {
    const result = draftFromForm({
      ...EMPTY_TOKEN_FORM,
      name: 'ci',
      modelAliases: rows(['gpt-4', 'gpt-4o']),
    });
    if (!('draft' in result)) throw new Error(`refused: ${result.problem}`);
    expect(result.draft.model_aliases).toEqual({ 'gpt-4': 'gpt-4o' });
    expect(createTokenRequestSchema.parse(result.draft).model_aliases).toEqual({ 'gpt-4': 'gpt-4o' });
  });
});
