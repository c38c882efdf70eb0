import { optionFlag, optionList } from './settings';

describe('settings as new-api keeps them', () => {
  it('reads true/false (and 1/0) as flags, anything else as not set', () => {
    expect(optionFlag('true')).toBe(true);
    expect(optionFlag(' FALSE ')).toBe(false);
    expect(optionFlag('1')).toBe(true);
    expect(optionFlag('0')).toBe(false);
    expect(optionFlag('maybe')).toBeUndefined();
    expect(optionFlag(undefined)).toBeUndefined();
  });

  it('reads comma-separated lists without blanks, and an unset option as undefined', () => {
    expect(optionList(' gpt-4o, ,claude-haiku ')).toEqual(['gpt-4o', 'claude-haiku']);
    expect(optionList('')).toEqual([]);
    expect(optionList(undefined)).toBeUndefined();
  });
});
